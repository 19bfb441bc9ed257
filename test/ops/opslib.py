"""Helpers for the operations tests: toolgate processes on 127.0.0.1, plain HTTP requests,
MCP calls, and reading /metrics. Standard library only."""
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import tempfile
import threading
import time

MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "ops-test", "version": "1"},
}


class TestFailure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise TestFailure(message)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(port, method, path, body=None, headers=None, timeout=10):
    """One request on a fresh connection (Connection: close). Returns (status, headers, body);
    status 0 when no answer came (refused, reset, timed out)."""
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        h = {"Connection": "close"}
        h.update(headers or {})
        conn.request(method, path, body=body, headers=h)
        resp = conn.getresponse()
        data = resp.read()
        conn.close()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, data.decode("utf-8", "replace")
    except (OSError, http.client.HTTPException):
        return 0, {}, ""


def modern_call(port, tool, arguments=None, call_id=1, path="/mcp", timeout=10):
    """A stateless 2026-07-28 tools/call. Returns (status, parsed JSON-RPC answer or None)."""
    body = json.dumps({"jsonrpc": "2.0", "id": call_id, "method": "tools/call",
                       "params": {"name": tool, "arguments": arguments or {}, "_meta": MODERN_META}})
    status, _, text = request(port, "POST", path, body, {
        "Content-Type": "application/json", "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": tool,
        "Host": "127.0.0.1"}, timeout=timeout)
    try:
        return status, json.loads(text)
    except ValueError:
        return status, None


def legacy_post(port, message, session=None, path="/mcp"):
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
               "Host": "127.0.0.1", "MCP-Protocol-Version": "2025-11-25"}
    if session:
        headers["Mcp-Session-Id"] = session
    status, h, text = request(port, "POST", path, json.dumps(message), headers)
    try:
        parsed = json.loads(text) if text else None
    except ValueError:
        parsed = None
    return status, h, parsed


def initialize(port, path="/mcp"):
    status, headers, answer = legacy_post(port, {
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "ops-test", "version": "1"}}}, path=path)
    check(status == 200 and "mcp-session-id" in headers, f"initialize: {status} {answer}")
    session = headers["mcp-session-id"]
    status, _, _ = legacy_post(port, {"jsonrpc": "2.0", "method": "notifications/initialized"},
                               session, path=path)
    check(status == 202, f"notifications/initialized: {status}")
    return session


def is_ok_result(answer):
    """A JSON-RPC result that is not a tool error (isError absent or false)."""
    return isinstance(answer, dict) and isinstance(answer.get("result"), dict) and \
        not answer["result"].get("isError", False)


def metric(text, series):
    """The value of `series` (name with its labels, as rendered), or None."""
    for line in text.splitlines():
        if line.startswith(series + " "):
            return float(line[len(series) + 1:])
    return None


def metric_sum(text, name, **labels):
    """Sum of the samples of `name` whose labels include `labels`."""
    total = 0.0
    pattern = re.compile(r'^' + re.escape(name) + r'(\{[^}]*\})? (\S+)$')
    for line in text.splitlines():
        m = pattern.match(line)
        if not m:
            continue
        found = dict(re.findall(r'(\w+)="([^"]*)"', m.group(1) or ""))
        if all(found.get(k) == v for k, v in labels.items()):
            total += float(m.group(2))
    return total


class Toolgate:
    """A toolgate (or test server) process serving HTTP on 127.0.0.1:`port`."""

    def __init__(self, binary, port, args=(), env=None, name="toolgate"):
        self.binary, self.port, self.args, self.name = binary, port, list(args), name
        self.env = dict(os.environ)
        self.env.update(env or {})
        self.log = tempfile.NamedTemporaryFile(prefix=f"ops-{name}-", suffix=".log", delete=False)
        self.proc = None

    def start(self, timeout=10):
        cmd = [self.binary, "--transport", "http", "--host", "127.0.0.1", "--port",
               str(self.port)] + self.args
        self.log.seek(0)
        self.log.truncate()
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=self.log, env=self.env)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise TestFailure(f"{self.name} exited at start: {self.stderr()}")
            if "serving MCP (Streamable HTTP)" in self.stderr():
                return self
            time.sleep(0.02)
        raise TestFailure(f"{self.name}: no banner in {timeout} s: {self.stderr()}")

    def stderr(self):
        with open(self.log.name, encoding="utf-8", errors="replace") as f:
            return f.read()

    def metrics(self, headers=None):
        status, _, text = request(self.port, "GET", "/metrics", headers=headers)
        check(status == 200, f"{self.name} /metrics: {status}")
        return text

    def ready(self):
        return request(self.port, "GET", "/readyz", timeout=2)[0]

    def terminate(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)

    def wait(self, timeout=20):
        return self.proc.wait(timeout)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            # A second signal ends a --drain-delay at once.
            self.proc.send_signal(signal.SIGTERM)
            time.sleep(0.05)
            if self.proc.poll() is None:
                self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def cleanup(self):
        self.stop()
        os.unlink(self.log.name)


class Load:
    """Threads sending stateless tools/call requests through `port` until stopped, each on a
    fresh connection. Every answer is classified: ok, answered with an error by a replica
    itself (a JSON-RPC error or a tool error from toolgate), or failed (no answer, or an HTTP
    error from the balancer)."""

    def __init__(self, port, threads=4, tool="Test_Echo", arguments=None):
        self.port, self.tool, self.arguments = port, tool, arguments or {"n": 1}
        self.ok = 0
        self.self_answered = []
        self.failed = []
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.threads = [threading.Thread(target=self.run, args=(i,)) for i in range(threads)]

    def __enter__(self):
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *exc):
        self.stopping.set()
        for t in self.threads:
            t.join()

    def run(self, index):
        n = 0
        while not self.stopping.is_set():
            n += 1
            # Every fourth call takes 300 ms, so that calls are in flight when a replica stops.
            slow = n % 4 == 0
            tool = "Test_Slow" if slow else self.tool
            args = {"ms": 300, "steps": 1} if slow else self.arguments
            status, answer = modern_call(self.port, tool, args, call_id=n)
            with self.lock:
                if status == 200 and is_ok_result(answer):
                    self.ok += 1
                elif status == 200 and isinstance(answer, dict):
                    self.self_answered.append(answer)
                else:
                    self.failed.append((status, answer))

    def total(self):
        with self.lock:
            return self.ok + len(self.self_answered) + len(self.failed)


class RedisServer:
    """A redis-server of the test's own on 127.0.0.1: a free port, no persistence, a temporary
    directory; kill() and start() keep the port (an outage and a recovery)."""

    def __init__(self, args=()):
        self.port, self.args = free_port(), list(args)
        self.dir = tempfile.mkdtemp(prefix="ops-redis-")
        self.proc = None

    def start(self, timeout=10):
        cmd = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
               "--appendonly", "no", "--dir", self.dir, "--daemonize", "no"] + self.args
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.cli("PING").strip() == "PONG":
                return self
            time.sleep(0.05)
        raise TestFailure("redis-server did not answer PING")

    def url(self):
        return f"redis://127.0.0.1:{self.port}"

    def cli(self, *args):
        done = subprocess.run(["redis-cli", "-p", str(self.port)] + list(args),
                              capture_output=True, text=True, timeout=10)
        return done.stdout

    def dump(self):
        """Every key with its value (strings and hashes), as one text."""
        out = []
        for key in self.cli("--scan").split():
            kind = self.cli("TYPE", key).strip()
            value = self.cli("HGETALL", key) if kind == "hash" else self.cli("GET", key)
            out.append(f"{key} {kind} {value}")
        return "\n".join(out)

    def kill(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def cleanup(self):
        self.kill()
        import shutil
        shutil.rmtree(self.dir, ignore_errors=True)
