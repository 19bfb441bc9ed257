// transport::activity: the count of things in progress that a shutdown awaits reaching zero.
#include "transport/activity.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

namespace asio = boost::asio;
using namespace asio::experimental::awaitable_operators;
using namespace std::chrono_literals;
using toolgate::transport::activity;

namespace {

/// Runs `until_idle` and records when it completed.
asio::awaitable<void> wait_idle(activity& a, bool& idle)
{
    co_await a.until_idle();
    idle = true;
}

asio::awaitable<void> sleep(std::chrono::milliseconds d)
{
    asio::steady_timer t(co_await asio::this_coro::executor, d);
    co_await t.async_wait(asio::use_awaitable);
}

/// until_idle raced against a timer: 0 when idle came first, 1 for the timer.
asio::awaitable<void> race(activity& a, std::chrono::milliseconds d, std::size_t& winner)
{
    auto r = co_await (a.until_idle() || sleep(d));
    winner = r.index();
}

/// A root's completion: the scenario must not throw.
void no_failure(std::exception_ptr const& error)
{
    REQUIRE_FALSE(error);
}

} // namespace

TEST_CASE("activity: an idle count completes the wait at once", "[activity]")
{
    asio::io_context ioc;
    activity a;
    bool idle = false;
    asio::co_spawn(ioc, wait_idle(a, idle), no_failure);
    ioc.run_for(1s);
    CHECK(idle);
}

TEST_CASE("activity: the wait ends when the last one leaves, not before", "[activity]")
{
    asio::io_context ioc;
    activity a;
    CHECK(a.enter() == 0);
    CHECK(a.enter() == 1);
    bool idle = false;
    asio::co_spawn(ioc, wait_idle(a, idle), no_failure);
    ioc.run_for(50ms);
    CHECK_FALSE(idle);
    a.leave();
    ioc.restart();
    ioc.run_for(50ms);
    CHECK_FALSE(idle); // one still in progress
    CHECK(a.count() == 1);
    // The last one leaves from another thread, as a call finishing on a worker does.
    std::thread([&a] { a.leave(); }).join();
    ioc.restart();
    ioc.run_for(1s);
    CHECK(idle);
    CHECK(a.count() == 0);
}

TEST_CASE(
    "activity: a wait raced against a timer can lose, and a later wait still works", "[activity]")
{
    asio::io_context ioc;
    activity a;
    a.enter();
    std::size_t winner = 9;
    asio::co_spawn(ioc, race(a, 20ms, winner), no_failure);
    ioc.run_for(1s);
    CHECK(winner == 1); // the timer: still one in progress
    winner = 9;
    asio::co_spawn(ioc, race(a, 5s, winner), no_failure);
    asio::post(ioc, [&a] { a.leave(); });
    ioc.restart();
    ioc.run_for(2s);
    CHECK(winner == 0);
}
