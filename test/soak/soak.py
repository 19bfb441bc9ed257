#!/usr/bin/env python3
"""Fault-injection soak for toolgate (`make soak DURATION=600`; 60 s in CI).

Starts the fake platform with faults (resets, closes, stalls, slow answers, 500, 503 and 429
with Retry-After, oversized and malformed bodies), one toolgate over Streamable HTTP and a few
over stdio, all pointed at it with --base-url/--ca-file and fake secrets. Many clients call
tools (2025 sessions and stateless 2026-07-28 requests); some disconnect mid-call, send
garbage, or open connections and go silent. RSS and open fds of the HTTP server are sampled
through the run.

Passes when: no server dies; every well-formed request is answered (or was cancelled by its
own client); RSS stays bounded; the fd count returns to its baseline; no sanitizer report
(when run against a sanitizer build, reports go to --sanitizer-dir). Traffic stays on
127.0.0.1 and every loop is bounded in time. Standard library only.
"""
import argparse
import collections
import http.client
import json
import os
import queue
import random
import re
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from toolkit_names import toolkit_names  # noqa: E402  (the list in toolkits/CMakeLists.txt)

TOOLKITS = toolkit_names()
MODERN = "2026-07-28"
LEGACY = "2025-11-25"
ANSWER_TIMEOUT = 30.0  # no well-formed request may go this long without an answer


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.counts = collections.Counter()
        self.failures = collections.Counter()
        self.failure_examples = []

    def count(self, kind, n=1):
        with self.lock:
            self.counts[kind] += n

    def fail(self, kind, detail=""):
        with self.lock:
            self.failures[kind] += 1
            if len(self.failure_examples) < 20:
                self.failure_examples.append(f"{kind}: {detail}"[:400])


def meta():
    return {"io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "soak", "version": "1"}}


def rpc(id_, method, params=None):
    msg = {"jsonrpc": "2.0", "id": id_, "method": method}
    if params is not None:
        msg["params"] = params
    return msg


# ---------------------------------------------------------------------------------------------
# Processes


def start_fake(build, args, workdir):
    cmd = [os.path.join(build, "bin", "fake_platform"), "--faults", str(args.fault_rate),
           "--seed", str(args.seed), "--oversized-bytes", str(2 << 20), "--slow-ms", "2500"]
    err = open(os.path.join(workdir, "fake_platform.log"), "w")
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
                            text=True, env=sanitizer_env(args))
    line = proc.stdout.readline()
    m = re.match(r"port=(\d+) ca=(\S+)", line)
    if not m:
        raise RuntimeError(f"fake_platform did not start: {line!r}")
    return proc, int(m.group(1)), m.group(2)


def sanitizer_env(args):
    env = dict(os.environ)
    if args.sanitizer_dir:
        os.makedirs(args.sanitizer_dir, exist_ok=True)
        base = os.path.join(args.sanitizer_dir, "report")
        env["ASAN_OPTIONS"] = f"log_path={base}:detect_leaks=1:abort_on_error=0"
        env["UBSAN_OPTIONS"] = f"log_path={base}:print_stacktrace=1:halt_on_error=0"
        env["TSAN_OPTIONS"] = f"log_path={base}"
    return env


def secrets_env(args, fake_url):
    env = sanitizer_env(args)
    for name in ["STORE_ACCESS_TOKEN", "ENGINE_API_KEY", "ENGINE_USER_TOKEN", "SEARCH_API_KEY",
                 "DESK_API_KEY", "KANBAN_API_KEY", "KANBAN_TOKEN", "VECTORDB_API_KEY",
                 "DEPLOY_ACCESS_TOKEN", "LEDGER_ACCESS_TOKEN", "LEDGER_TENANT_ID"]:
        env[name] = f"soak-fake-{name.lower()}-5e1f"
    env["DESK_SUBDOMAIN"] = "soak"
    env["VECTORDB_SERVER_URL"] = fake_url
    return env


def toolgate_args(build, fake_port, ca):
    url = f"https://127.0.0.1:{fake_port}"
    cmd = [os.path.join(build, "bin", "toolgate"), "--ca-file", ca, "--call-timeout", "4",
           "--connect-timeout", "2", "--max-response-bytes", str(1 << 20),
           "--shutdown-grace", "5", "--max-inflight-per-session", "16", "--max-inflight", "64",
           # Every tool listed: the default mode lists only the discovery tools for a catalogue
           # this size, and a soak calling those alone never reaches the faulty platform.
           "--tool-mode", "full"]
    for kit in TOOLKITS:
        cmd += ["--base-url", f"{kit}={url}"]
    return cmd


def start_http_server(build, fake_port, ca, args, workdir):
    cmd = toolgate_args(build, fake_port, ca) + [
        "--transport", "http", "--host", "127.0.0.1", "--port", "0", "--threads", "2",
        "--header-timeout", "3", "--body-timeout", "5", "--idle-timeout", "10",
        "--max-connections", "96", "--max-sessions", "48", "--session-idle-timeout", "20",
        "--max-body-bytes", str(256 * 1024), "--max-header-bytes", "8192"]
    log_path = os.path.join(workdir, "toolgate_http.log")
    log = open(log_path, "w")
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=log, env=secrets_env(args, f"https://127.0.0.1:{fake_port}"))
    deadline = time.time() + 30
    while time.time() < deadline:
        with open(log_path) as f:
            m = re.search(r"serving MCP \(Streamable HTTP\) at http://127\.0\.0\.1:(\d+)/mcp",
                          f.read())
        if m:
            return proc, int(m.group(1)), log_path
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    raise RuntimeError("toolgate (http) did not start; see " + log_path)


def proc_rss_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def proc_fds(pid):
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None


# ---------------------------------------------------------------------------------------------
# Tool selection: tools whose required arguments are easy to fill, with valid values.


def pick_tools(build, fake_port, ca, args):
    cmd = toolgate_args(build, fake_port, ca)
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True,
                            env=secrets_env(args, f"https://127.0.0.1:{fake_port}"))
    init = rpc(0, "initialize", {"protocolVersion": LEGACY, "capabilities": {},
                                 "clientInfo": {"name": "soak", "version": "1"}})
    out, _ = proc.communicate(json.dumps(init) + "\n" +
                              json.dumps(rpc(1, "tools/list")) + "\n", timeout=60)
    tools = []
    for line in out.splitlines():
        msg = json.loads(line)
        if msg.get("id") == 1:
            tools = msg["result"]["tools"]
    chosen = []
    for tool in tools:
        schema = tool.get("inputSchema", {})
        props = schema.get("properties", {})
        arguments = {}
        ok = True
        for name in schema.get("required", []):
            p = props.get(name, {})
            if "enum" in p:
                arguments[name] = p["enum"][0]
            elif p.get("type") == "string" and "format" not in p and "pattern" not in p:
                arguments[name] = "soak-" + name
            elif p.get("type") == "integer" and "minimum" not in p:
                arguments[name] = 1
            else:
                ok = False
        if ok and not tool["name"].startswith("CoreEngineApi_"):
            chosen.append((tool["name"], arguments))
    rnd = random.Random(args.seed)
    rnd.shuffle(chosen)
    return chosen[:60]


# ---------------------------------------------------------------------------------------------
# HTTP clients


def classify_result(stats, body, where):
    """Counts one JSON-RPC answer; returns False when it is a failure."""
    if "result" in body:
        stats.count("tool_error" if body["result"].get("isError") else "tool_ok")
        return True
    err = body.get("error", {})
    message = err.get("message", "")
    if message.startswith("Internal error"):
        stats.fail("internal_error", f"{where}: {message}")
        return False
    if "busy" in message or "Too many calls" in message:
        stats.count("busy")
    else:
        stats.count(f"rpc_error_{err.get('code')}")
    return True


def read_rpc(response, data):
    ctype = response.getheader("Content-Type", "")
    text = data.decode("utf-8", "replace")
    if ctype.startswith("text/event-stream"):
        events = [line[6:] for line in text.split("\n") if line.startswith("data: ")]
        return json.loads(events[-1]) if events else None
    if ctype.startswith("application/json") and text:
        return json.loads(text)
    return None


class http_client:
    def __init__(self, port, tools, stats, rnd, deadline):
        self.port, self.tools, self.stats, self.rnd, self.deadline = port, tools, stats, rnd, deadline
        self.conn = None
        self.session = None
        self.next_id = 1

    def connection(self):
        if self.conn is None:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=ANSWER_TIMEOUT)
        return self.conn

    def post(self, body, headers, where):
        """One well-formed POST; returns (status, rpc body) or None after recording a failure."""
        h = {"Content-Type": "application/json",
             "Accept": self.rnd.choice(["application/json",
                                        "application/json, text/event-stream"])}
        h.update(headers)
        payload = json.dumps(body)
        for attempt in range(2):
            try:
                conn = self.connection()
                conn.request("POST", "/mcp", payload, h)
                response = conn.getresponse()
                data = response.read()
                if response.getheader("Connection", "").lower() == "close":
                    self.drop()
                self.stats.count("requests")
                return response.status, read_rpc(response, data) if data else None
            except (ConnectionResetError, BrokenPipeError, http.client.RemoteDisconnected) as e:
                # A kept-alive connection the server closed while idle (idle timeout, or a
                # connection limit reached): retry once on a new one, like any HTTP client.
                self.drop()
                if attempt == 1:
                    self.stats.fail("dropped", f"{where}: {e!r}")
            except socket.timeout:
                self.drop()
                self.stats.fail("no_answer", f"{where}: no answer in {ANSWER_TIMEOUT}s")
                return None
            except (OSError, http.client.HTTPException, ValueError) as e:
                self.drop()
                self.stats.fail("http_error", f"{where}: {e!r}")
                return None
        return None

    def drop(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def check_status(self, status, body, where):
        if status == 503:
            self.stats.count("http_503")
            return False
        if status >= 500:
            self.stats.fail(f"http_{status}", f"{where}: {body}")
            return False
        return True

    def legacy_call(self):
        if not self.session:
            self.session = initialize_session(self.port, self.stats)
            if not self.session:
                return
        name, arguments = self.rnd.choice(self.tools)
        self.next_id += 1
        params = {"name": name, "arguments": arguments}
        if self.rnd.random() < 0.3:
            params["_meta"] = {"progressToken": self.next_id}
        got = self.post(rpc(self.next_id, "tools/call", params),
                        {"Mcp-Session-Id": self.session, "MCP-Protocol-Version": LEGACY},
                        "legacy tools/call")
        if not got:
            return
        status, body = got
        if status == 404:
            self.stats.count("session_expired")
            self.session = None
            return
        if self.check_status(status, body, "legacy tools/call") and body is not None:
            classify_result(self.stats, body, "legacy tools/call")
        elif status == 200 and body is None:
            self.stats.fail("empty_answer", "legacy tools/call")
        if self.rnd.random() < 0.05:
            self.end_session()

    def end_session(self):
        try:
            conn = self.connection()
            conn.request("DELETE", "/mcp", headers={"Mcp-Session-Id": self.session})
            response = conn.getresponse()
            response.read()
            self.stats.count("requests")
            self.stats.count(f"delete_{response.status}")
        except (OSError, http.client.HTTPException):
            self.drop()
        self.session = None

    def modern_call(self, method="tools/call"):
        self.next_id += 1
        headers = {"MCP-Protocol-Version": MODERN, "Mcp-Method": method}
        if method == "tools/call":
            name, arguments = self.rnd.choice(self.tools)
            params = {"name": name, "arguments": arguments, "_meta": meta()}
            headers["Mcp-Name"] = name
        else:
            params = {"_meta": meta()}
        got = self.post(rpc(self.next_id, method, params), headers, "modern " + method)
        if not got:
            return
        status, body = got
        if self.check_status(status, body, "modern " + method) and body is not None:
            if method == "tools/call":
                classify_result(self.stats, body, "modern tools/call")
            else:
                self.stats.count("list_ok" if "result" in body else "list_error")


def initialize_session(port, stats):
    """initialize + initialized over a fresh connection; the session id, or None."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=ANSWER_TIMEOUT)
    try:
        body = json.dumps(rpc(0, "initialize", {"protocolVersion": LEGACY, "capabilities": {},
                                                "clientInfo": {"name": "soak", "version": "1"}}))
        conn.request("POST", "/mcp", body, {"Content-Type": "application/json",
                                             "Accept": "application/json"})
        response = conn.getresponse()
        response.read()
        stats.count("requests")
        if response.status == 503:
            stats.count("session_limit")
            return None
        if response.status != 200:
            stats.fail(f"initialize_{response.status}", "initialize")
            return None
        session = response.getheader("Mcp-Session-Id")
        conn.request("POST", "/mcp", json.dumps({"jsonrpc": "2.0",
                                                 "method": "notifications/initialized"}),
                     {"Content-Type": "application/json", "Accept": "application/json",
                      "Mcp-Session-Id": session, "MCP-Protocol-Version": LEGACY})
        response = conn.getresponse()
        response.read()
        stats.count("requests")
        stats.count("sessions_opened")
        return session
    except socket.timeout:
        stats.fail("no_answer", "initialize")
    except (OSError, http.client.HTTPException) as e:
        stats.fail("dropped", f"initialize: {e!r}")
    finally:
        conn.close()
    return None


def raw_request(port, method, path, headers, body=b""):
    lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}"]
    lines += [f"{k}: {v}" for k, v in headers]
    if body or method == "POST":
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def read_status(sock, timeout):
    """The status of the first response on `sock`, 0 if it closed first, None on timeout."""
    sock.settimeout(timeout)
    data = b""
    try:
        while b"\r\n" not in data:
            chunk = sock.recv(4096)
            if not chunk:
                return 0
            data += chunk
    except socket.timeout:
        return None
    except OSError:
        return 0
    m = re.match(rb"HTTP/1\.[01] (\d{3})", data)
    return int(m.group(1)) if m else -1


def disconnect_mid_call(port, tools, stats, rnd):
    name, arguments = rnd.choice(tools)
    body = json.dumps(rpc(1, "tools/call", {"name": name, "arguments": arguments,
                                            "_meta": meta()})).encode()
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    try:
        sock.sendall(raw_request(port, "POST", "/mcp", [
            ("Content-Type", "application/json"), ("Accept", "application/json"),
            ("MCP-Protocol-Version", MODERN), ("Mcp-Method", "tools/call"), ("Mcp-Name", name)],
            body))
        time.sleep(rnd.random() * 0.5)
        if rnd.random() < 0.5:  # abort: RST instead of FIN
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        stats.count("disconnected_mid_call")
    finally:
        sock.close()


GARBAGE = [
    ("random bytes", None),
    ("bad json", b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{'),
    ("not json-rpc", b'{"hello":"world"}'),
    ("deep json", b"[" * 5000 + b"]" * 5000),
    ("huge header", "header"),
    ("huge body", "body"),
    ("wrong type", "type"),
    ("unknown path", "path"),
    ("bad request line", b"GARBAGE / NOTHTTP\r\n\r\n"),
    ("foreign host", "host"),
]


def send_garbage(port, stats, rnd):
    kind, payload = rnd.choice(GARBAGE)
    headers = [("Content-Type", "application/json"), ("Accept", "application/json")]
    path = "/mcp"
    if payload is None:
        data = bytes(rnd.getrandbits(8) for _ in range(rnd.randint(1, 600)))
    elif payload == "header":
        data = raw_request(port, "POST", path, headers + [("X-Pad", "x" * 20000)], b"{}")
    elif payload == "body":
        data = raw_request(port, "POST", path, headers, b" " * (300 * 1024))
    elif payload == "type":
        data = raw_request(port, "POST", path, [("Content-Type", "text/plain")], b"{}")
    elif payload == "path":
        data = raw_request(port, "GET", "/../../etc/passwd", [])
    elif payload == "host":
        data = raw_request(port, "POST", path, headers, b"{}").replace(
            f"Host: 127.0.0.1:{port}".encode(), b"Host: evil.example")
    elif payload.startswith(b"GARBAGE"):
        data = payload
    else:
        data = raw_request(port, "POST", path, headers, payload)
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    try:
        try:
            sock.sendall(data)
            sock.shutdown(socket.SHUT_WR) if payload is None else None
        except OSError:
            pass  # the server may refuse early (431/413) and close
        status = read_status(sock, 10)
        stats.count("requests")
        if status is None:
            stats.fail("garbage_hang", kind)
        elif status >= 500 and status != 503:
            stats.fail(f"garbage_{status}", kind)
        else:
            stats.count(f"garbage_{status if status > 0 else 'closed'}")
    finally:
        sock.close()


def go_silent(port, stats, rnd, header_timeout=3.0):
    """Opens a connection, sends nothing or half a request, and waits for the server to close."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    try:
        if rnd.random() < 0.5:
            sock.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le")
        started = time.time()
        status = read_status(sock, header_timeout + 5)
        if status is None:
            stats.fail("silent_not_closed", f"open after {time.time() - started:.1f}s")
        else:
            stats.count("silent_closed")
    finally:
        sock.close()


def http_worker(port, tools, stats, seed, deadline):
    rnd = random.Random(seed)
    client = http_client(port, tools, stats, rnd, deadline)
    behaviours = [("legacy", 40), ("modern", 25), ("list", 5), ("disconnect", 10),
                  ("garbage", 12), ("silent", 3)]
    names = [b for b, _ in behaviours]
    weights = [w for _, w in behaviours]
    while time.time() < deadline:
        b = rnd.choices(names, weights)[0]
        try:
            if b == "legacy":
                client.legacy_call()
            elif b == "modern":
                client.modern_call()
            elif b == "list":
                client.modern_call("tools/list")
            elif b == "disconnect":
                disconnect_mid_call(port, tools, stats, rnd)
            elif b == "garbage":
                send_garbage(port, stats, rnd)
            elif b == "silent":
                go_silent(port, stats, rnd)
        except ConnectionRefusedError as e:
            stats.fail("refused", repr(e))
            time.sleep(0.5)
        except Exception as e:  # noqa: BLE001 - a harness bug must not hang the soak
            stats.fail("harness", f"{b}: {e!r}")
    client.drop()
    if client.session:
        client.end_session()
        client.drop()


# ---------------------------------------------------------------------------------------------
# stdio clients


class stdio_server:
    def __init__(self, cmd, env, workdir, index):
        self.log = open(os.path.join(workdir, f"toolgate_stdio_{index}.log"), "a")
        self.proc = subprocess.Popen(cmd + ["--transport", "stdio"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.log, env=env)
        self.lines = queue.Queue()
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()

    def read(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, obj_or_text):
        text = obj_or_text if isinstance(obj_or_text, str) else json.dumps(obj_or_text)
        self.proc.stdin.write(text.encode() + b"\n")
        self.proc.stdin.flush()


def stdio_worker(cmd, env, workdir, tools, stats, seed, deadline, index):
    rnd = random.Random(seed)
    restarts = 0
    while time.time() < deadline:
        server = stdio_server(cmd, env, workdir, index)
        life_end = min(deadline, time.time() + rnd.uniform(10, 30))
        pending = {}
        next_id = 1
        server.send(rpc(0, "initialize", {"protocolVersion": LEGACY, "capabilities": {},
                                          "clientInfo": {"name": "soak", "version": "1"}}))
        pending[0] = time.time()
        server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        cancelled = set()
        while time.time() < life_end or pending:
            if time.time() < life_end and len(pending) < 8:
                r = rnd.random()
                if r < 0.08:
                    server.send(rnd.choice(["{not json", "[]", '{"jsonrpc":"2.0"}',
                                            "x" * 100, '{"jsonrpc":"2.0","id":"g","method":"nope"}']))
                    stats.count("stdio_garbage")
                else:
                    name, arguments = rnd.choice(tools)
                    server.send(rpc(next_id, "tools/call", {"name": name, "arguments": arguments}))
                    pending[next_id] = time.time()
                    if r < 0.15:
                        server.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                                     "params": {"requestId": next_id}})
                        cancelled.add(next_id)
                    next_id += 1
            try:
                line = server.lines.get(timeout=0.05)
            except queue.Empty:
                line = b""
            if line is None:
                stats.fail("stdio_died", f"server {index} closed stdout")
                break
            if line:
                try:
                    msg = json.loads(line)
                except ValueError:
                    stats.fail("stdio_not_json", line[:200].decode("utf-8", "replace"))
                    continue
                mid = msg.get("id")
                if mid in pending and "method" not in msg:
                    del pending[mid]
                    stats.count("stdio_requests")
                    if mid != 0:
                        classify_result(stats, msg, "stdio tools/call")
                elif mid is None or mid == "g":
                    stats.count("stdio_error_replies")
            now = time.time()
            for mid, sent in list(pending.items()):
                if mid in cancelled and now - sent > 5:
                    del pending[mid]  # cancelled: no answer is the right answer
                    stats.count("stdio_cancelled")
                elif now - sent > ANSWER_TIMEOUT:
                    del pending[mid]
                    stats.fail("stdio_no_answer", f"server {index} id {mid}")
            if time.time() > life_end + ANSWER_TIMEOUT + 10:
                break
        # End of this process's life: stdin EOF must end it promptly with status 0.
        closed_at = time.time()
        server.proc.stdin.close()
        try:
            rc = server.proc.wait(timeout=10)
            if rc != 0:
                stats.fail("stdio_exit_status", f"server {index} exited {rc}")
            elif time.time() - closed_at > 5:
                stats.fail("stdio_slow_exit", f"{time.time() - closed_at:.1f}s")
        except subprocess.TimeoutExpired:
            stats.fail("stdio_hung_on_eof", f"server {index}")
            server.proc.kill()
            server.proc.wait()
        restarts += 1
    stats.count("stdio_processes", restarts)


# ---------------------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build-dir", default="build-soak")
    parser.add_argument("--duration", type=float, default=60)
    parser.add_argument("--http-clients", type=int, default=16)
    parser.add_argument("--stdio-servers", type=int, default=2)
    parser.add_argument("--fault-rate", type=float, default=0.3)
    parser.add_argument("--seed", type=int, default=20261122)
    parser.add_argument("--sanitizer-dir", default="")
    parser.add_argument("--json", default="", help="write the summary here too")
    args = parser.parse_args()

    workdir = tempfile.mkdtemp(prefix="toolgate-soak-")
    stats = Stats()
    started = time.time()
    fake, fake_port, ca = start_fake(args.build_dir, args, workdir)
    http_proc = None
    samples = []
    try:
        tools = pick_tools(args.build_dir, fake_port, ca, args)
        if not tools:
            raise RuntimeError("no tools to call")
        http_proc, port, http_log = start_http_server(args.build_dir, fake_port, ca, args, workdir)
        time.sleep(0.3)
        baseline_fds = proc_fds(http_proc.pid)
        deadline = time.time() + args.duration
        stdio_cmd = toolgate_args(args.build_dir, fake_port, ca)
        env = secrets_env(args, f"https://127.0.0.1:{fake_port}")
        threads = [threading.Thread(target=http_worker,
                                    args=(port, tools, stats, args.seed + i, deadline))
                   for i in range(args.http_clients)]
        threads += [threading.Thread(target=stdio_worker,
                                     args=(stdio_cmd, env, workdir, tools, stats,
                                           args.seed + 1000 + i, deadline, i))
                    for i in range(args.stdio_servers)]
        for t in threads:
            t.daemon = True
            t.start()
        while any(t.is_alive() for t in threads) and time.time() < deadline + 90:
            samples.append((time.time() - started, proc_rss_kb(http_proc.pid),
                            proc_fds(http_proc.pid)))
            if http_proc.poll() is not None:
                stats.fail("server_died", f"exit status {http_proc.returncode}")
                break
            time.sleep(1)
        for t in threads:
            t.join(timeout=5)
            if t.is_alive():
                stats.fail("client_stuck", t.name)
        # Open fds return to the baseline: client connections are gone, upstream keep-alive
        # connections may stay pooled (at most 8 to the one fake host).
        settle = time.time() + 20
        fds_end = proc_fds(http_proc.pid)
        while time.time() < settle and fds_end is not None and fds_end > baseline_fds + 8:
            time.sleep(0.5)
            fds_end = proc_fds(http_proc.pid)
        if fds_end is None or fds_end > baseline_fds + 8:
            stats.fail("fd_leak", f"baseline {baseline_fds}, end {fds_end}")
        # Graceful shutdown at the end: SIGTERM, exit 0.
        if http_proc.poll() is None:
            http_proc.send_signal(signal.SIGTERM)
            try:
                rc = http_proc.wait(timeout=15)
                if rc != 0:
                    stats.fail("shutdown_status", f"exit {rc}")
            except subprocess.TimeoutExpired:
                stats.fail("shutdown_hung", "no exit 15 s after SIGTERM")
                http_proc.kill()
                http_proc.wait()
    finally:
        if http_proc is not None and http_proc.poll() is None:
            http_proc.kill()
        try:
            fake.stdin.close()
            fake.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            fake.kill()

    rss = [s[1] for s in samples if s[1]]
    fds = [s[2] for s in samples if s[2]]
    half = len(rss) // 2
    first_peak = max(rss[:half] or [0])
    second_peak = max(rss[half:] or [0])
    if rss and second_peak > max(first_peak * 1.5, first_peak + 64 * 1024):
        stats.fail("rss_growth", f"first half peak {first_peak} kB, second {second_peak} kB")
    if rss and max(rss) > 1024 * 1024:
        stats.fail("rss_bound", f"peak {max(rss)} kB")
    with open(os.path.join(workdir, "fake_platform.log")) as f:
        faults = f.read().strip().splitlines()
    # The fake counts each request it answered, faulty or not: a soak whose calls never reached
    # it proved nothing about faults.
    reached = sum(int(n) for n in re.findall(r"=(\d+)", faults[-1])) if faults else 0
    if reached == 0:
        stats.fail("platform_not_reached", faults[-1] if faults else "no fault counts")
    reports = []
    if args.sanitizer_dir and os.path.isdir(args.sanitizer_dir):
        reports = [os.path.join(args.sanitizer_dir, n) for n in os.listdir(args.sanitizer_dir)]
        for r in reports:
            stats.fail("sanitizer_report", r)

    c = stats.counts
    served = c["requests"] + c["stdio_requests"]
    summary = {
        "duration_s": round(time.time() - started, 1),
        "load_s": args.duration,
        "requests_served": served,
        "http_requests": c["requests"],
        "stdio_requests": c["stdio_requests"],
        "tool_results_ok": c["tool_ok"],
        "tool_results_error": c["tool_error"],
        "outcomes": dict(sorted(c.items())),
        "peak_rss_kb": max(rss) if rss else None,
        "rss_first_half_peak_kb": first_peak,
        "rss_second_half_peak_kb": second_peak,
        "fds_baseline": baseline_fds if http_proc else None,
        "fds_peak": max(fds) if fds else None,
        "fds_end": fds_end if http_proc else None,
        "faults_injected": faults[-1] if faults else "",
        "failures": dict(stats.failures),
        "failure_examples": stats.failure_examples,
        "logs": workdir,
    }
    print(f"soak: {summary['duration_s']} s ({args.duration:.0f} s of load), "
          f"{served} requests served ({c['requests']} HTTP, {c['stdio_requests']} stdio), "
          f"peak RSS {summary['peak_rss_kb'] or 0} kB, fds {summary['fds_baseline']} -> "
          f"peak {summary['fds_peak']} -> end {summary['fds_end']}")
    print("soak: outcomes: " + ", ".join(f"{k}={v}" for k, v in sorted(c.items())))
    print("soak: " + (summary["faults_injected"] or "no fault counts"))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(summary, f, indent=2)
    if stats.failures:
        print("soak: FAILED: " + ", ".join(f"{k}={v}" for k, v in stats.failures.items()))
        for e in stats.failure_examples:
            print("  " + e)
        print(f"soak: logs in {workdir}")
        print("soak: 0 passed, 1 failed")
        return 1
    print("soak: 1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
