#!/usr/bin/env python3
"""A/B of the first tools/list between toolgate binaries (bench/README.md, "Start-up, third
pass"): spawn over stdio, initialize, initialized and tools/list written at once, the clock
stopped when the whole answer with id 1 has been read; the server pinned to one CPU as `make
bench` does, the binaries taking turns spawn by spawn.

    python3 bench/ab_start.py [--runs 30] [--full] BINARY BINARY... [-- EXTRA FLAGS]
"""
import argparse
import json
import os
import statistics
import subprocess
import time

REQUESTS = b"".join(json.dumps(m, separators=(",", ":")).encode() + b"\n" for m in (
    {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "ab_start", "version": "1"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}))


def first_list_ms(argv):
    start = time.monotonic()
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, bufsize=0)
    p.stdin.write(REQUESTS)
    lines = 0
    while lines < 2:  # the initialize answer, then the listing
        chunk = os.read(p.stdout.fileno(), 1 << 20)
        if not chunk:
            raise SystemExit(f"{argv[0]}: stdout closed before the listing")
        lines += chunk.count(b"\n")
    elapsed = (time.monotonic() - start) * 1000
    p.stdin.close()
    p.wait()
    return elapsed


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--full", action="store_true", help="--tool-mode full")
    ap.add_argument("--cpu", default="1", help="the CPU the server is pinned to")
    ap.add_argument("binaries", nargs="+")
    o, extra = ap.parse_known_args()
    flags = ["--transport", "stdio"] + (["--tool-mode", "full"] if o.full else []) + \
        [f for f in extra if f != "--"]
    times = {b: [] for b in o.binaries}
    for _ in range(o.runs):
        for b in o.binaries:
            times[b].append(first_list_ms(["taskset", "-c", o.cpu, b, *flags]))
    for b, t in times.items():
        print(f"{b}: median {statistics.median(t):.1f} ms, "
              f"p25 {statistics.quantiles(t, n=4)[0]:.1f}, min {min(t):.1f} ({len(t)} spawns)")


if __name__ == "__main__":
    main()
