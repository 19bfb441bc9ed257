#!/usr/bin/env python3
"""Profiles toolgate on the tools/call and tools/list paths with valgrind --tool=callgrind
(this VM has no hardware counters for `perf stat -e instructions`), under the same set-up as
run.py: bench platform, bench CA, one legacy session, wrk at concurrency 16 (calls) or 4
(lists), bounded in time. Writes callgrind.out files and the top functions under
bench/results/profile/.

    python3 bench/profile.py --build-dir build [--seconds 20] [--perf | --measure [--rounds 3]
        [--threads N --server-cpus 1|0,1]]
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (the harness's helpers)


def annotate(out_file, inclusive):
    argv = ["callgrind_annotate", "--threshold=99", f"--inclusive={'yes' if inclusive else 'no'}",
            out_file]
    text = subprocess.run(argv, capture_output=True, text=True).stdout
    lines = text.splitlines()
    # keep the totals and the first 40 function lines
    start = next((i for i, l in enumerate(lines) if "file:function" in l), 0)
    head = [l for l in lines[:start] if "PROGRAM TOTALS" in l or l.startswith("Ir")]
    return "\n".join(head + lines[start:start + 42])


def start_toolgate(build, ca, base, env, procs, threads=1, cpus=run.SERVER_CPU):
    """A native toolgate on the server core, as run.py starts it (or with `threads` threads on
    `cpus`, a taskset list); (process, URL, session id)."""
    port = run.free_port()
    argv = [os.path.join(build, "bin", "toolgate"), "--transport", "http", "--port", str(port),
            "--threads", str(threads), "--ca-file", ca, "--log-level", "warn"]
    argv += [f"--base-url={t}={base}" for t in run.TOOLKITS] + ["--tool-mode", "full"]
    p = run.Process("toolgate", run.pinned(cpus, argv), env=env)
    procs.append(p)
    run.wait_healthy(port, p)
    return p, f"http://127.0.0.1:{port}/mcp", run.open_session(port)


def measure(o, build, ca, base, env, procs):
    """No profiler: requests per second and toolgate's CPU per request for each load, a few
    rounds, to compare two builds quickly (A/B) before a full `make bench`, or thread counts
    (--threads, --server-cpus)."""
    p, url, sid = start_toolgate(build, ca, base, env, procs, o.threads, o.server_cpus)
    loads = (("call", "legacy", 16), ("call", "modern", 16), ("list", "legacy", 4))
    for kind, era, conns in loads:  # warm-up: pools, TLS sessions, lazy pages
        run.run_wrk(url, kind, era, sid if era == "legacy" else None, conns, 1)
    for rnd in range(o.rounds):
        for kind, era, conns in loads:
            r = run.run_wrk(url, kind, era, sid if era == "legacy" else None, conns, o.seconds,
                            p.pid)
            print(f"round {rnd + 1}: {kind:4} {era:6} c={conns:<2}  {r['rps']:8.0f} rps  "
                  f"{r['server_cpu_us_per_req']:6.1f} us CPU/request", flush=True)


def perf_profile(o, build, ca, base, env, out_dir, procs):
    """perf record (cpu-clock) on a native toolgate under each load; top symbols by self time."""
    p, url, sid = start_toolgate(build, ca, base, env, procs)
    for kind, era, conns in (("call", "legacy", 16), ("call", "modern", 16), ("list", "legacy", 4)):
        run.run_wrk(url, kind, era, sid if era == "legacy" else None, conns, 1)
        data = os.path.join(out_dir, f"perf.{kind}.{era}.data")
        rec = subprocess.Popen(["perf", "record", "-e", "cpu-clock", "-F", "4000", "-o", data,
                                "-p", str(p.pid), "--", "sleep", str(o.seconds)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.2)
        r = run.run_wrk(url, kind, era, sid if era == "legacy" else None, conns, o.seconds - 1,
                        p.pid)
        rec.wait()
        text = subprocess.run(["perf", "report", "-i", data, "--stdio", "--no-children",
                               "--sort", "dso,symbol", "--percent-limit", "0.7"],
                              capture_output=True, text=True).stdout
        lines = [l[:200] for l in text.splitlines() if l.strip() and not l.startswith("#")]
        head = (f"# {kind} {era} c={conns}: {r['rps']:.0f} rps, "
                f"{r['server_cpu_us_per_req']:.0f} us server CPU per request")
        with open(os.path.join(out_dir, f"perf.{kind}.{era}.txt"), "w") as f:
            f.write(head + "\n" + "\n".join(lines) + "\n")
        print(head + "\n" + "\n".join(lines[:40]) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", default=os.path.join(run.ROOT, "build"))
    ap.add_argument("--seconds", type=int, default=20)
    ap.add_argument("--perf", action="store_true",
                    help="sample native time with perf record -e cpu-clock instead (software "
                         "clock: works where hardware counters do not)")
    ap.add_argument("--measure", action="store_true",
                    help="no profiler: print rps and CPU per request per load (quick A/B)")
    ap.add_argument("--rounds", type=int, default=3, help="with --measure")
    ap.add_argument("--threads", type=int, default=1, help="with --measure: toolgate --threads")
    ap.add_argument("--server-cpus", default=run.SERVER_CPU,
                    help="with --measure: the CPUs toolgate may run on (taskset list, e.g. 0,1)")
    o = ap.parse_args()
    build = os.path.abspath(o.build_dir)
    out_dir = os.path.join(run.HERE, "results", "profile")
    os.makedirs(out_dir, exist_ok=True)
    toolgate = os.path.join(build, "bin", "toolgate")
    tmp = tempfile.mkdtemp(prefix="toolgate-profile-")
    procs = []
    try:
        ca, cert, key = run.make_pki(tmp)
        plat = run.Process("platform", run.pinned(run.LOADGEN_CPU, [
            os.path.join(build, "bin", "bench_platform"), "--cert", cert, "--key", key]))
        procs.append(plat)
        base = f"https://127.0.0.1:{int(plat.proc.stdout.readline().decode().split('=')[1])}"
        env = dict(os.environ, **{s: "bench-secret" for s in run.SECRETS})
        if o.measure:
            return measure(o, build, ca, base, env, procs)
        if o.perf:
            return perf_profile(o, build, ca, base, env, out_dir, procs)
        for kind, conns in (("call", 16), ("list", 4)):
            port = run.free_port()
            out_file = os.path.join(out_dir, f"callgrind.{kind}.out")
            argv = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}",
                    toolgate, "--transport", "http", "--port", str(port), "--threads", "1",
                    "--ca-file", ca, "--log-level", "warn"]
            argv += [f"--base-url={t}={base}" for t in run.TOOLKITS] + ["--tool-mode", "full"]
            p = run.Process(f"toolgate-{kind}", run.pinned(run.SERVER_CPU, argv), env=env)
            procs.append(p)
            run.wait_healthy(port, p, deadline_s=120)
            sid = run.open_session(port)
            # Warm up (pools, first TLS handshake, lazy tables), then zero the counters so the
            # profile holds steady-state requests only, not start-up.
            run.run_wrk(f"http://127.0.0.1:{port}/mcp", kind, "legacy", sid, conns, 2)
            subprocess.run(["callgrind_control", "-z", str(p.pid)], check=True,
                           capture_output=True)
            r = run.run_wrk(f"http://127.0.0.1:{port}/mcp", kind, "legacy", sid, conns, o.seconds)
            run.log(f"{kind}: {r['requests']} requests under callgrind")
            p.proc.terminate()  # SIGTERM: graceful exit, callgrind writes its file
            p.proc.wait(120)
            for inclusive in (False, True):
                text = annotate(out_file, inclusive)
                name = f"top.{kind}.{'inclusive' if inclusive else 'self'}.txt"
                with open(os.path.join(out_dir, name), "w") as f:
                    f.write(f"# {r['requests']} requests of {kind}\n{text}\n")
                print(f"==== {kind}, {'inclusive' if inclusive else 'self'} cost "
                      f"({r['requests']} requests)\n{text}\n")
    finally:
        for p in reversed(procs):
            p.stop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
