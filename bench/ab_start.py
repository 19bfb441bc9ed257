#!/usr/bin/env python3
"""A/B of the first tools/list between toolgate binaries (bench/README.md, "Start-up, third
pass"): `make bench`'s cold start (bench/run.py, cold_start), the server pinned to the server
core, the binaries taking turns spawn by spawn.

    python3 bench/ab_start.py [--runs 30] [--full] BINARY BINARY... [-- EXTRA FLAGS]
"""
import argparse
import os
import statistics
import sys

import run as bench  # bench/run.py


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--full", action="store_true", help="--tool-mode full")
    ap.add_argument("binaries", nargs="+")
    # The server's own flags follow "--": argparse would take them for binaries.
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    o = ap.parse_args(argv[:len(argv) - len(extra) - (1 if extra or "--" in argv else 0)])
    flags = ["--transport", "stdio"] + (["--tool-mode", "full"] if o.full else []) + extra
    times = {b: [] for b in o.binaries}
    for _ in range(o.runs):
        for b in o.binaries:
            times[b] += bench.cold_start(bench.SERVER_CPU, [b, *flags], dict(os.environ), 1)
    for b, t in times.items():
        print(f"{b}: median {statistics.median(t):.1f} ms, "
              f"p25 {statistics.quantiles(t, n=4)[0]:.1f}, min {min(t):.1f} ({len(t)} spawns)")


if __name__ == "__main__":
    main()
