#!/usr/bin/env python3
"""Debian's prometheus scrapes toolgate's /metrics on loopback, with a bearer token as a
deployment would; the values it stores must match what the test did. promtool checks the
exposition. Usage: prometheus_scrape.py TOOLGATE_BINARY"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(__file__))
from opslib import Toolgate, check, free_port, metric, modern_call, request  # noqa: E402

TOKEN = "ops-prometheus-test-token"


def prometheus_query(port, query):
    url = f"http://127.0.0.1:{port}/api/v1/query?" + urllib.parse.urlencode({"query": query})
    with urllib.request.urlopen(url, timeout=5) as r:
        data = json.load(r)
    check(data.get("status") == "success", f"query {query}: {data}")
    return data["data"]["result"]


def main():
    binary = sys.argv[1]
    for tool in ("prometheus", "promtool"):
        check(shutil.which(tool), f"{tool} is not installed: run test/ops/install-tools.sh "
                                  "(apt-get install prometheus)")
    work = tempfile.mkdtemp(prefix="ops-prometheus-")
    server = Toolgate(binary, free_port(), env={"TOOLGATE_AUTH_TOKENS": TOKEN})
    prometheus = None
    try:
        server.start()
        auth = {"Authorization": f"Bearer {TOKEN}"}
        status, _, _ = request(server.port, "GET", "/metrics")
        check(status == 401, f"/metrics without a token: {status}, expected 401")
        # Calls to count: no platform secrets are set, so each is a tool error naming the
        # variable; a tools/list adds a listing.
        calls = 3
        for i in range(calls):
            body = json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {
                "name": "KanbanApi_GetBoardMembers", "arguments": {"board_id": "b"},
                "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                          "io.modelcontextprotocol/clientCapabilities": {}}}})
            status, _, text = request(server.port, "POST", "/mcp", body, {
                **auth, "Content-Type": "application/json", "Accept": "application/json",
                "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call",
                "Mcp-Name": "KanbanApi_GetBoardMembers"})
            check(status == 200 and '"isError":true' in text, f"call {i}: {status} {text[:200]}")

        exposition = server.metrics(auth)
        lint = subprocess.run(["promtool", "check", "metrics"], input=exposition, text=True,
                              capture_output=True)
        check(lint.returncode == 0 and not lint.stdout.strip() and not lint.stderr.strip(),
              f"promtool check metrics: {lint.returncode} {lint.stdout} {lint.stderr}")

        token_file = os.path.join(work, "token")
        with open(token_file, "w") as f:
            f.write(TOKEN)
        config = os.path.join(work, "prometheus.yml")
        with open(config, "w") as f:
            f.write(f"""global:
  scrape_interval: 1s
scrape_configs:
  - job_name: toolgate
    authorization:
      credentials_file: {token_file}
    static_configs:
      - targets: ["127.0.0.1:{server.port}"]
""")
        check(subprocess.run(["promtool", "check", "config", config], capture_output=True)
              .returncode == 0, "promtool check config")
        port = free_port()
        prometheus = subprocess.Popen(
            ["prometheus", f"--config.file={config}", f"--storage.tsdb.path={work}/data",
             f"--web.listen-address=127.0.0.1:{port}"],
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "prometheus.log"), "w"))
        series = 'toolgate_tool_calls_total{toolkit="KanbanApi",tool="GetBoardMembers",outcome="tool_error"}'
        deadline = time.monotonic() + 30
        values = None
        while time.monotonic() < deadline:
            try:
                up = prometheus_query(port, 'up{job="toolgate"}')
                values = prometheus_query(port, series)
                if up and up[0]["value"][1] == "1" and values:
                    break
            except OSError:
                pass  # not listening yet
            time.sleep(0.25)
        check(values, f"prometheus stored no {series}; log: "
                      f"{open(os.path.join(work, 'prometheus.log')).read()[-2000:]}")
        check(float(values[0]["value"][1]) == calls, f"{series} = {values}, expected {calls}")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/targets", timeout=5) as r:
            targets = json.load(r)["data"]["activeTargets"]
        check(len(targets) == 1 and targets[0]["health"] == "up" and not targets[0]["lastError"],
              f"target: {targets}")
        # Families Prometheus took in from the one scrape, by name.
        for name in ("toolgate_build_info", "toolgate_tool_call_duration_seconds_bucket",
                     "toolgate_http_requests_total", "toolgate_upstream_pool_open_connections",
                     "process_resident_memory_bytes", "toolgate_ready"):
            check(prometheus_query(port, name), f"prometheus has no {name}")
        rss = metric(exposition, "process_resident_memory_bytes")
        print(f"prometheus scraped toolgate: up=1, {series} = {calls}, RSS {rss / 2**20:.1f} MiB; "
              f"promtool check metrics: clean")
    finally:
        if prometheus:
            prometheus.terminate()
            prometheus.wait(10)
        server.cleanup()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # a clear one-line reason for ctest's log
        print(f"FAILED: {e}", file=sys.stderr)
        sys.exit(1)
