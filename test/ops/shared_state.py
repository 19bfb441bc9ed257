#!/usr/bin/env python3
"""Two toolgate replicas sharing state on Redis (--state-store), behind Debian's nginx on
127.0.0.1, with a redis-server of the test's own: a DELETE on one replica is final on the other
and through the balancer; Redis holds digests, never a session id; with Redis stopped the
replicas keep serving and say so on /readyz and /metrics, and they recover when it is back.

  shared_state.py TEST_SERVER_BINARY SOURCE_DIR
"""
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from opslib import (RedisServer, TestFailure, Toolgate, check, free_port, initialize,  # noqa: E402
                    is_ok_result, legacy_post, metric, modern_call, request)
from replicas import Nginx, wait_until  # noqa: E402

SESSION_KEY = "ops-shared-state-test-session-key"
CALL = {"jsonrpc": "2.0", "id": 5, "method": "tools/call",
        "params": {"name": "Test_Echo", "arguments": {"shared": True}}}


def delete(port, session):
    return request(port, "DELETE", "/mcp", headers={
        "Mcp-Session-Id": session, "Host": "127.0.0.1", "MCP-Protocol-Version": "2025-11-25"})[0]


def session_call(port, session):
    return legacy_post(port, CALL, session)[0]


def check_deletes_are_shared(replicas, nginx, redis):
    a, b = replicas
    # Opened on a, adopted by b, ended by a DELETE on a: b refuses it, and so does nginx.
    first = initialize(a.port)
    check(session_call(b.port, first) == 200, "the session did not work on the other replica")
    check(delete(a.port, first) == 200, "DELETE on replica0")
    check(session_call(b.port, first) == 404, "replica1 still served a session DELETEd on replica0")
    check(session_call(nginx.port, first) == 404, "nginx still reached the DELETEd session")
    check(delete(b.port, first) == 404, "a second DELETE on the other replica was not 404")
    # Opened and used on a only, DELETEd through b: a, which holds it live, ends it too.
    second = initialize(a.port)
    check(session_call(a.port, second) == 200, "the second session on replica0")
    check(delete(b.port, second) == 200, "DELETE on replica1 of replica0's session")
    check(session_call(a.port, second) == 404, "replica0 still served its session DELETEd on replica1")
    # Through nginx: opened, called on both replicas in turn, DELETEd, then refused everywhere.
    third = initialize(nginx.port)
    for _ in range(4):
        check(session_call(nginx.port, third) == 200, "a session call through nginx")
    check(delete(nginx.port, third) == 200, "DELETE through nginx")
    for r in replicas:
        check(session_call(r.port, third) == 404, f"{r.name} served a session DELETEd via nginx")
    dump = redis.dump()
    for session in (first, second, third):
        check(session not in dump, "Redis holds a session id")
    ended = [line for line in dump.splitlines() if line.startswith("toolgate:ended:")]
    check(len(ended) == 3, f"expected 3 ended-session keys, found: {dump}")
    ttl = int(redis.cli("TTL", ended[0].split()[0]).strip())
    check(0 < ttl <= 24 * 3600 + 1, f"an ended-session key expires with its id, not in {ttl} s")
    return first


def check_outage_and_recovery(replicas, nginx, redis):
    a, b = replicas
    live = initialize(a.port)
    check(session_call(b.port, live) == 200, "a live session before the outage")
    redis.kill()
    wait_until(lambda: all('"state_store":"unavailable"' in request(r.port, "GET", "/readyz")[2]
                           for r in replicas), 5, "/readyz to report the store unavailable")
    for r in replicas:
        check(r.ready() == 200, f"{r.name} left the balancer because of the store")
        check(metric(r.metrics(), "toolgate_state_store_up") == 0, f"{r.name} store_up not 0")
    # Everything that needs no store goes on: stateless calls and the live session.
    for i in range(10):
        status, answer = modern_call(nginx.port, "Test_Echo", {"i": i}, i)
        check(status == 200 and is_ok_result(answer), f"a call during the outage: {status} {answer}")
    started = time.monotonic()
    check(session_call(a.port, live) == 200, "the live session during the outage")
    check(time.monotonic() - started < 2, "a session call waited for the missing store")
    started = time.monotonic()
    check(delete(a.port, live) == 200, "DELETE during the outage")
    check(time.monotonic() - started < 2, "DELETE waited more than 2 s for the store")
    check(session_call(a.port, live) == 404, "the DELETE is final on its own replica at least")
    failed = sum(metric(r.metrics(), 'toolgate_state_store_commands_total{outcome="failed"}') or 0
                 for r in replicas)
    check(failed >= 1, "no failed store command was counted")
    redis.start()
    wait_until(lambda: all(metric(r.metrics(), "toolgate_state_store_up") == 1 for r in replicas),
               10, "both replicas to reconnect")
    for r in replicas:
        check(metric(r.metrics(), "toolgate_state_store_connects_total") == 2,
              f"{r.name} did not reconnect exactly once")
    # Shared again: a DELETE on one is final on the other.
    after = initialize(b.port)
    check(session_call(a.port, after) == 200, "a session after the recovery")
    check(delete(b.port, after) == 200, "DELETE after the recovery")
    check(session_call(a.port, after) == 404, "DELETE not shared after the recovery")


def main():
    binary, source_dir = sys.argv[1], sys.argv[2]
    if not shutil.which("redis-server"):
        raise TestFailure("redis-server is not installed: run test/ops/install-tools.sh "
                          "(apt-get install redis-server)")
    os.environ["PATH"] = os.environ.get("PATH", "") + ":/usr/sbin"
    work = tempfile.mkdtemp(prefix="ops-shared-")
    redis = RedisServer().start()
    env = {"TOOLGATE_SESSION_KEY": SESSION_KEY}
    args = ["--state-store", redis.url()]
    replicas = [Toolgate(binary, free_port(), args, env, name=f"replica{i}") for i in range(2)]
    nginx = Nginx(source_dir, work)
    started = time.monotonic()
    try:
        for r in replicas:
            r.start()
        wait_until(lambda: all(metric(r.metrics(), "toolgate_state_store_up") == 1
                               for r in replicas), 10, "both replicas to reach Redis")
        nginx.start([r.port for r in replicas])
        check_deletes_are_shared(replicas, nginx, redis)
        check_outage_and_recovery(replicas, nginx, redis)
        print(f"shared state: DELETE final across replicas and nginx; Redis holds digests only; "
              f"outage served without the store and recovered; {time.monotonic() - started:.1f} s")
    finally:
        nginx.stop()
        for r in replicas:
            r.cleanup()
        redis.cleanup()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    try:
        main()
    except Exception as e:
        print(f"FAILED: {type(e).__name__}: {e}", file=sys.stderr)
        sys.exit(1)
