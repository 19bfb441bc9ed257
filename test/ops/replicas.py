#!/usr/bin/env python3
"""Two toolgate replicas behind a real load balancer on 127.0.0.1, checking what scaling out
promises: requests spread over both; a 2025 session opened on one replica works through the
other; a replica stopped with SIGTERM under load drains through /readyz with no failed call;
a restarted replica rejoins.

  replicas.py nginx   TEST_SERVER_BINARY SOURCE_DIR
  replicas.py haproxy TEST_SERVER_BINARY SOURCE_DIR

nginx's configuration is generated from examples/nginx-replicas.conf (TLS taken out, ports
filled in). Open-source nginx has no active health checks, so the test plays the part a
Kubernetes readiness probe plays for an ingress: it polls each replica's /readyz and reloads
nginx with the ready ones. HAProxy polls /readyz itself (examples/haproxy-replicas.cfg)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
from opslib import (Load, TestFailure, Toolgate, check, free_port, initialize, is_ok_result,  # noqa: E402
                    legacy_post, metric_sum, modern_call, request)

SESSION_KEY = "ops-replica-test-shared-session-key"
DRAIN_DELAY = int(os.environ.get("OPS_DRAIN_DELAY", "2"))  # experiments: 0 shows the failures


def calls_served(replica):
    return metric_sum(replica.metrics(), "toolgate_tool_calls_total")


def wait_until(predicate, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise TestFailure(f"timed out waiting for {what}")


class Nginx:
    """nginx in the foreground with a generated configuration; `set_upstreams` rewrites the
    upstream block and reloads (old workers finish their requests, new ones take new ones)."""

    def __init__(self, source_dir, work):
        self.work, self.port = work, free_port()
        with open(os.path.join(source_dir, "examples", "nginx-replicas.conf")) as f:
            self.example = f.read()
        self.conf = os.path.join(work, "nginx.conf")
        for d in ("logs", "tmp"):
            os.makedirs(os.path.join(work, d), exist_ok=True)
        self.proc = None

    def render(self, ports):
        text = self.example
        # The example terminates TLS on 443; here nginx listens in the clear on loopback.
        text = re.sub(r"listen\s+443\s+ssl;", f"listen 127.0.0.1:{self.port};", text)
        text = re.sub(r"^\s*ssl_certificate(_key)?\s.*$", "", text, flags=re.M)
        servers = "".join(f"    server 127.0.0.1:{p};\n" for p in ports) or \
            "    server 127.0.0.1:1 down;\n"
        text, n = re.subn(r"(upstream toolgate \{\n)(?:\s*server [^\n]*\n)+",
                          lambda m: m.group(1) + servers, text)
        check(n == 1, "examples/nginx-replicas.conf: no `upstream toolgate` block with servers")
        tmp = os.path.join(self.work, "tmp")
        return f"""daemon off;
pid {self.work}/nginx.pid;
error_log {self.work}/logs/error.log warn;
worker_processes 1;
events {{ worker_connections 512; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
{text}
}}
"""

    def write(self, ports):
        with open(self.conf, "w") as f:
            f.write(self.render(ports))
        test = subprocess.run(["nginx", "-t", "-p", self.work, "-c", self.conf],
                              capture_output=True, text=True)
        check(test.returncode == 0, f"nginx -t: {test.stderr}")

    def start(self, ports):
        self.write(ports)
        self.proc = subprocess.Popen(["nginx", "-p", self.work, "-c", self.conf],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until(lambda: request(self.port, "GET", "/mcp", timeout=1)[0] != 0, 10, "nginx")

    def set_upstreams(self, ports):
        self.write(ports)
        check(subprocess.run(["nginx", "-p", self.work, "-c", self.conf, "-s", "reload"],
                             capture_output=True).returncode == 0, "nginx -s reload")

    def stop(self):
        if self.proc:
            self.proc.terminate()
            self.proc.wait(10)


class ReadinessController(threading.Thread):
    """Polls each replica's /readyz every 100 ms and gives nginx the ready ones, as an
    ingress controller does with a Service's endpoints."""

    def __init__(self, nginx, replicas):
        super().__init__()
        self.nginx, self.replicas = nginx, replicas
        self.stopping = threading.Event()
        self.current = [r.port for r in replicas]
        self.removed = {}  # port -> the /readyz status that took it out

    def run(self):
        while not self.stopping.is_set():
            statuses = {r.port: r.ready() for r in self.replicas}
            ready = [port for port, status in statuses.items() if status == 200]
            if ready != self.current:
                self.nginx.set_upstreams(ready)
                for port in set(self.current) - set(ready):
                    self.removed[port] = statuses[port]
                self.current = ready
            time.sleep(0.1)

    def stop(self):
        self.stopping.set()
        self.join()


class Haproxy:
    def __init__(self, source_dir, work):
        self.work, self.port = work, free_port()
        with open(os.path.join(source_dir, "examples", "haproxy-replicas.cfg")) as f:
            self.example = f.read()
        self.proc = None

    def start(self, ports):
        text = self.example
        text = re.sub(r"^\s*bind .*$", f"    bind 127.0.0.1:{self.port}", text, flags=re.M)
        text = re.sub(r"\binter \S+", "inter 100ms", text)  # quicker checks for a short test
        text, n = re.subn(r"(backend toolgate\n(?:[^\n]*\n)*?)((?:\s*server [^\n]*\n)+)",
                          lambda m: m.group(1) + "".join(
                              f"    server replica{i} 127.0.0.1:{p} check\n"
                              for i, p in enumerate(ports)), text)
        check(n == 1, "examples/haproxy-replicas.cfg: no `backend toolgate` with servers")
        text = re.sub(r"^\s*(user|group|chroot|daemon|stats socket)\b.*$", "", text, flags=re.M)
        conf = os.path.join(self.work, "haproxy.cfg")
        with open(conf, "w") as f:
            f.write(text)
        test = subprocess.run(["haproxy", "-c", "-f", conf], capture_output=True, text=True)
        check(test.returncode == 0, f"haproxy -c: {test.stdout} {test.stderr}")
        self.proc = subprocess.Popen(["haproxy", "-db", "-f", conf], stdout=subprocess.DEVNULL,
                                     stderr=open(os.path.join(self.work, "haproxy.log"), "w"))
        wait_until(lambda: request(self.port, "GET", "/mcp", timeout=1)[0] != 0, 10, "haproxy")

    def log(self):
        with open(os.path.join(self.work, "haproxy.log"), errors="replace") as f:
            return f.read()

    def stop(self):
        if self.proc:
            self.proc.terminate()
            self.proc.wait(10)


def run(balancer_name, binary, source_dir):
    work = tempfile.mkdtemp(prefix=f"ops-{balancer_name}-")
    args = ["--drain-delay", str(DRAIN_DELAY), "--shutdown-grace", "5"]
    env = {"TOOLGATE_SESSION_KEY": SESSION_KEY}
    replicas = [Toolgate(binary, free_port(), args, env, name=f"replica{i}") for i in range(2)]
    balancer = Nginx(source_dir, work) if balancer_name == "nginx" else Haproxy(source_dir, work)
    controller = None
    started = time.monotonic()
    try:
        for r in replicas:
            r.start()
        balancer.start([r.port for r in replicas])
        if balancer_name == "nginx":
            controller = ReadinessController(balancer, replicas)
            controller.start()
        else:
            wait_until(lambda: all(calls_served(r) >= 0 for r in replicas), 5, "replicas")
            time.sleep(0.5)  # the first health checks mark both servers up

        # 1. Requests spread over both replicas (round robin, no stickiness needed).
        for i in range(40):
            status, answer = modern_call(balancer.port, "Test_Echo", {"i": i}, i)
            check(status == 200 and is_ok_result(answer), f"call {i} through {balancer_name}: {status} {answer}")
        served = [calls_served(r) for r in replicas]
        check(sum(served) == 40 and min(served) >= 10, f"calls per replica: {served}")

        # 2. A 2025 session opened on one replica works through the other (and through the
        # balancer, which sends its requests to both).
        session = initialize(replicas[0].port)
        call = {"jsonrpc": "2.0", "id": 5, "method": "tools/call",
                "params": {"name": "Test_Echo", "arguments": {"session": True}}}
        status, _, answer = legacy_post(replicas[1].port, call, session)
        check(status == 200 and is_ok_result(answer), f"session on the other replica: {status} {answer}")
        check(metric_sum(replicas[1].metrics(), "toolgate_sessions_opened_total", how="adopted") == 1,
              "the other replica did not adopt the session")
        for i in range(6):
            call["id"] = 10 + i
            status, _, answer = legacy_post(balancer.port, call, session)
            check(status == 200 and is_ok_result(answer), f"session call {i} via {balancer_name}: {status} {answer}")

        # 3. SIGTERM under load: /readyz turns 503 at once, the balancer moves new requests to
        # the other replica during --drain-delay, calls in flight finish, exit 0.
        stopped = replicas[0]
        with Load(balancer.port, threads=int(os.environ.get("OPS_LOAD_THREADS", "4"))) as load:
            wait_until(lambda: load.total() >= 40, 10, "load to build up")
            before = calls_served(stopped)
            stopped.terminate()
            status = stopped.wait(DRAIN_DELAY + 10)
            after_stop = load.total()
            wait_until(lambda: load.total() >= after_stop + 40, 10, "load after the stop")
        check(status == 0, f"stopped replica exit status {status}: {stopped.stderr()[-2000:]}")
        check(not load.failed, f"{len(load.failed)} failed calls while a replica drained: {load.failed[:5]}")
        drained = f"{load.ok} calls ok, {len(load.self_answered)} answered with an error by a " \
                  f"replica, 0 failed; the stopped replica served {before:.0f} before the signal"
        check(not load.self_answered, f"calls refused by a replica: {load.self_answered[:3]}")
        # The balancer took the replica out because /readyz said 503, while it still
        # accepted connections: not because it stopped answering.
        if controller:
            check(controller.removed.get(stopped.port) == 503,
                  f"nginx lost the replica by /readyz {controller.removed.get(stopped.port)}, not 503")
        else:
            log = balancer.log()
            check(re.search(r"replica0 is DOWN, reason: Layer7 wrong status, code: 503", log),
                  f"haproxy did not take replica0 out on /readyz 503: {log[-1500:]}")

        # 4. A restarted replica rejoins.
        stopped.start()
        with Load(balancer.port, threads=2) as load:
            wait_until(lambda: calls_served(stopped) >= 5, 15, "the restarted replica to get calls")
        check(not load.failed, f"failed calls after the restart: {load.failed[:5]}")
        elapsed = time.monotonic() - started
        print(f"{balancer_name}: spread {served[0]:.0f}/{served[1]:.0f} of 40; session from replica0 "
              f"served by replica1 and via {balancer_name}; drain under load: {drained}; restarted "
              f"replica rejoined ({calls_served(stopped):.0f} calls); {elapsed:.1f} s")
    finally:
        if controller:
            controller.stop()
        balancer.stop()
        for r in replicas:
            r.cleanup()
        shutil.rmtree(work, ignore_errors=True)


def main():
    balancer, binary, source_dir = sys.argv[1], sys.argv[2], sys.argv[3]
    program = {"nginx": "nginx", "haproxy": "haproxy"}[balancer]
    if not shutil.which(program) and not os.path.exists(f"/usr/sbin/{program}"):
        raise TestFailure(f"{program} is not installed: run test/ops/install-tools.sh "
                          f"(apt-get install {program})")
    os.environ["PATH"] = os.environ.get("PATH", "") + ":/usr/sbin"
    run(balancer, binary, source_dir)


if __name__ == "__main__":
    try:
        main()
    except Exception as e:
        print(f"FAILED: {type(e).__name__}: {e}", file=sys.stderr)
        sys.exit(1)
