// The quota counters in memory (mcp/memory_call_counters.hpp): a sliding minute per principal,
// with an injected clock.
#include "mcp/memory_call_counters.hpp"

#include <catch2/catch.hpp>

using toolgate::common::count_answer;
using toolgate::mcp::memory_call_counters;
using namespace std::chrono_literals;

namespace {

auto const start = std::chrono::system_clock::time_point(std::chrono::hours(500000));

} // namespace

TEST_CASE("quota counters: never more than the limit in any minute, and the wait is until the "
          "oldest call leaves it",
    "[mcp][quota]")
{
    memory_call_counters counters;
    for (int i = 0; i < 3; ++i) {
        CHECK(counters.take_now("bob", 3, start + i * 10s).state == count_answer::kind::taken);
    }
    auto const full = counters.take_now("bob", 3, start + 30s);
    CHECK(full.state == count_answer::kind::full);
    CHECK(full.retry_after == 30s); // the call at +0 leaves the minute at +60
    CHECK(counters.take_now("alice", 3, start + 30s).state == count_answer::kind::taken);
    CHECK(counters.take_now("bob", 3, start + 59999ms).state == count_answer::kind::full);
    CHECK(counters.take_now("bob", 3, start + 60s).state == count_answer::kind::taken);
    // Refused calls do not count: the next free place is the +10 call's.
    auto const again = counters.take_now("bob", 3, start + 61s);
    CHECK(again.state == count_answer::kind::full);
    CHECK(again.retry_after == 9s);
}

TEST_CASE("quota counters: a lowered limit waits for enough calls to leave, and 0 allows none",
    "[mcp][quota]")
{
    memory_call_counters counters;
    for (int i = 0; i < 5; ++i) {
        REQUIRE(counters.take_now("bob", 5, start + i * 1s).state == count_answer::kind::taken);
    }
    // Limit 2: one more call needs at most one in the minute, so four of the five must leave
    // first (the last of them was taken at +3 s).
    auto const lowered = counters.take_now("bob", 2, start + 10s);
    CHECK(lowered.state == count_answer::kind::full);
    CHECK(lowered.retry_after == 53s);
    CHECK(counters.take_now("bob", 2, start + 62s).state == count_answer::kind::full);
    CHECK(counters.take_now("bob", 2, start + 63s).state == count_answer::kind::taken);
    auto const none = counters.take_now("carol", 0, start);
    CHECK(none.state == count_answer::kind::full);
    CHECK(none.retry_after == 60s);
}
