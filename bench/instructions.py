#!/usr/bin/env python3
"""Instructions per tools/call, counted by callgrind, for one or more builds: a measure that a
busy machine does not disturb (CPU time per request does), for A/B comparisons of small
changes. toolgate runs over stdio under valgrind --tool=callgrind, driven by bench_stdio_load
against the bench platform; each load runs twice with different call counts, and the
difference divided by the difference in calls is the cost of one call (start-up cancels out).

    python3 bench/instructions.py --build-dir build-a --build-dir build-b [--calls 500]
        [--load all|small|big]

Loads: the small call of `make bench` (CoreEngineApi_AuthorizeWorker, a 43-byte answer) and
the results scenario (StoreApi_RetrieveFolderItems, a folder listing of about 1 MB cut to the
default budget). Each build needs bin/toolgate; bench_platform and bench_stdio_load come from
the first build that has them.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (the harness's helpers)

LOADS = (("small answer", run.TOOL, run.ARGS, 1.0),
         ("1 MB answer, cut", run.BIG_TOOL, run.BIG_ARGS, 0.04))


def instructions(build, tools, base_flags, env, tool, args, count, tmp):
    out = os.path.join(tmp, "callgrind.out")
    server = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
              os.path.join(build, "bin", "toolgate"), "--transport", "stdio", *base_flags]
    argv = [os.path.join(tools, "bin", "bench_stdio_load"), "--method", "tools/call", "--tool", tool,
            "--args", run.json.dumps(args, separators=(",", ":")), "--count", str(count),
            "--window", "8", "--seconds", "900", "--", *server]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=1200)
    if done.returncode != 0:
        raise run.BenchError(f"stdio load: {done.stderr[-500:]}")
    answered = run.json.loads(done.stdout.strip().splitlines()[-1])["requests"]
    if answered != count:
        raise run.BenchError(f"{answered} of {count} calls answered")
    text = subprocess.run(["callgrind_annotate", out], capture_output=True, text=True).stdout
    total = re.search(r"^([\d,]+) .*PROGRAM TOTALS", text, re.M)
    return int(total.group(1).replace(",", ""))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--build-dir", action="append", required=True)
    ap.add_argument("--calls", type=int, default=500, help="small calls in the shorter run")
    ap.add_argument("--load", choices=("all", "small", "big"), default="all")
    o = ap.parse_args()
    builds = [os.path.abspath(b) for b in o.build_dir]
    tools = next(b for b in builds if os.path.exists(os.path.join(b, "bin", "bench_platform")))
    tmp = tempfile.mkdtemp(prefix="toolgate-instructions-")
    procs = []
    try:
        ca, cert, key = run.make_pki(tmp)
        big = os.path.join(tmp, "folder.json")
        with open(big, "w") as f:
            f.write(run.folder_listing())
        plat = run.Process("platform", [os.path.join(tools, "bin", "bench_platform"), "--cert",
                                        cert, "--key", key, "--big-body-file", big,
                                        "--big-prefix", run.BIG_PREFIX])
        procs.append(plat)
        base = f"https://127.0.0.1:{int(plat.proc.stdout.readline().decode().split('=')[1])}"
        flags = [f"--base-url={t}={base + run.BIG_PREFIX.rstrip('/') if t == 'StoreApi' else base}"
                 for t in run.TOOLKITS] + ["--ca-file", ca, "--log-level", "warn"]
        env = dict(os.environ, **{s: "bench-secret" for s in run.SECRETS})
        env["VECTORDB_SERVER_URL"] = base
        for name, tool, args, share in LOADS:
            if o.load != "all" and (o.load == "small") != (tool == run.TOOL):
                continue
            short = max(10, int(o.calls * share))
            for build in builds:
                a = instructions(build, tools, flags, env, tool, args, short, tmp)
                b = instructions(build, tools, flags, env, tool, args, 3 * short, tmp)
                print(f"{name:18} {os.path.relpath(build)}: {(b - a) / (2 * short):,.0f} "
                      f"instructions per call", flush=True)
    finally:
        for p in procs:
            p.stop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
