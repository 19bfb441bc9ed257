#!/usr/bin/env python3
"""A/B of tools/call over HTTP between toolgate binaries (bench/README.md, "Start-up, third
pass"): one fake platform, each server pinned to the server core, wrk at c=16 on the load core,
the binaries taking turns round by round (A B, then B A). Prints calls/s and server CPU per call
(medians), for a 2025-11-25 session and for stateless 2026-07-28 calls.

    python3 bench/ab_calls.py [--build-dir build] [--rounds 4] [--seconds 6] [--listings]
                              [--big] BINARY BINARY...

--listings adds the full tools/list at c=4 (make bench's listing row) to each round, --big the
1 MB answer cut to the default budget at c=1 (make bench's row "server CPU per call, 1 MB answer
cut").

Needs a build (bench_platform) and wrk, as `make bench` does; run it on a quiet machine.
"""
import argparse
import os
import statistics
import sys
import tempfile

import run as bench  # bench/run.py: the platform, the processes, wrk


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--build-dir", default=os.path.join(bench.ROOT, "build"))
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--seconds", type=int, default=6)
    ap.add_argument("--listings", action="store_true", help="also the full tools/list, c=4")
    ap.add_argument("--big", action="store_true", help="also the 1 MB answer cut, c=1")
    ap.add_argument("binaries", nargs="+")
    o = ap.parse_args()
    procs = []
    try:
        platform = bench.Platform(o.build_dir, tempfile.mkdtemp(prefix="toolgate-ab-"), procs)
        servers = []
        for exe in o.binaries:
            port = bench.free_port()
            p = bench.Process(exe, bench.pinned(bench.SERVER_CPU, [
                exe, "--transport", "http", "--port", str(port), "--threads", "1",
                *bench.toolgate_flags(platform)]), env=platform.env)
            procs.append(p)
            bench.wait_healthy(port, p)
            sid = bench.open_session(port)
            bench.call_once(port, "legacy", sid)
            servers.append({"exe": exe, "url": f"http://127.0.0.1:{port}/mcp", "proc": p,
                            "sid": sid, "session": [], "cpu": [], "stateless": [],
                            "listings": [], "big": []})
        for r in range(o.rounds):
            for s in (servers if r % 2 == 0 else list(reversed(servers))):
                x = bench.run_wrk(s["url"], "call", "legacy", s["sid"], 16, o.seconds, s["proc"].pid)
                s["session"].append(x["rps"])
                s["cpu"].append(x["server_cpu_us_per_req"])
                y = bench.run_wrk(s["url"], "call", "modern", None, 16, o.seconds, s["proc"].pid)
                s["stateless"].append(y["rps"])
                if o.listings:
                    z = bench.run_wrk(s["url"], "list", "legacy", s["sid"], 4, o.seconds,
                                      s["proc"].pid)
                    s["listings"].append(z["rps"])
                if o.big:
                    b = bench.run_wrk(s["url"], "call", "legacy", s["sid"], 1, o.seconds,
                                      s["proc"].pid, tool=bench.BIG_TOOL, args=bench.BIG_ARGS)
                    s["big"].append(b["server_cpu_us_per_req"] / 1000)
        for s in servers:
            print(f"{s['exe']}: session c=16 {statistics.median(s['session']):,.0f} calls/s, "
                  f"{statistics.median(s['cpu']):.0f} us CPU/call; stateless c=16 "
                  f"{statistics.median(s['stateless']):,.0f} calls/s "
                  f"(rounds: {[round(v) for v in s['session']]} / {[round(v) for v in s['stateless']]})"
                  + (f"; full listings c=4 {statistics.median(s['listings']):,.0f}/s "
                     f"(rounds: {[round(v) for v in s['listings']]})" if s["listings"] else "")
                  + (f"; 1 MB cut c=1 {statistics.median(s['big']):.2f} ms CPU/call "
                     f"(rounds: {[round(v, 2) for v in s['big']]})" if s["big"] else ""))
    finally:
        for p in reversed(procs):
            p.stop()


if __name__ == "__main__":
    try:
        sys.exit(main())
    except bench.BenchError as e:
        print(f"ab_calls: FAILED: {e}", file=sys.stderr)
        sys.exit(1)
