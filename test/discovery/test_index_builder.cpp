// The search index's own thread: it yields (SCHED_IDLE) until a search waits for the index,
// and then it runs under the normal policy.
#include "discovery/index_builder.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <sched.h>
#include <stdexcept>
#include <thread>

using namespace toolgate::discovery;

namespace {

std::vector<search_entry> one_entry()
{
    return { { "StoreApi_ListFiles", "List files", "Lists the files of a folder.", {}, "StoreApi",
        {} } };
}

} // namespace

TEST_CASE("index_builder: the index is built under SCHED_IDLE, and raised when a search waits")
{
    std::atomic<int> policy_at_start { -1 };
    std::atomic<bool> raised { false };
    index_builder builder([&] {
        policy_at_start = ::sched_getscheduler(0);
        // Hold the index back until the waiting search below has raised this thread.
        auto const deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (
            ::sched_getscheduler(0) != SCHED_OTHER && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        raised = ::sched_getscheduler(0) == SCHED_OTHER;
        return one_entry();
    });
    while (policy_at_start == -1) { // the texts are being gathered: no search has waited yet
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    auto const& index = builder.index();
    CHECK(policy_at_start == SCHED_IDLE);
    CHECK(raised);
    auto const hits = index.search(
        "list files", [](std::size_t) { return true; }, 5);
    REQUIRE(hits.size() == 1);
    CHECK(hits.front().position == 0);
}

TEST_CASE("index_builder: a failure to gather the texts reaches the search")
{
    index_builder builder(
        []() -> std::vector<search_entry> { throw std::runtime_error("no texts"); });
    CHECK_THROWS_WITH(builder.index(), "no texts");
}

TEST_CASE("index_builder: its end raises the thread before joining it, so that a busy machine "
          "does not hold up the end of the process")
{
    std::atomic<bool> started { false };
    std::atomic<bool> raised { false };
    {
        index_builder builder([&] {
            started = true;
            auto const deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
            while (::sched_getscheduler(0) != SCHED_OTHER
                && std::chrono::steady_clock::now() < deadline) {
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
            raised = ::sched_getscheduler(0) == SCHED_OTHER;
            return one_entry();
        });
        while (!started) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    } // no search waited: only the end raises it
    CHECK(raised);
}
