// Pacing toward the platforms (toolkits/upstream_pacer.hpp) in process: turns per credential
// key, waits measured from the answers, refusals past the deadline, cancelled waits, and the
// rates the flags give.
#include "toolkits/upstream_pacer.hpp"

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <catch2/catch.hpp>

#include <optional>
#include <stdexcept>

namespace asio = boost::asio;
using namespace std::chrono_literals;
using toolgate::toolkits::pacing_options;
using toolgate::toolkits::read_rates;
using toolgate::toolkits::upstream_pacer;
using toolgate::toolkits::upstream_rate;
using kind = upstream_pacer::wait_result::kind;
using std::chrono::steady_clock;

namespace {

upstream_pacer pacer_of(std::uint32_t requests, std::chrono::milliseconds window)
{
    return upstream_pacer({ { "KanbanApi", upstream_rate { requests, window } } });
}

/// Runs `scenario` to its end on a fresh io_context (bounded).
void run(asio::awaitable<void> scenario)
{
    asio::io_context ioc;
    bool finished = false;
    std::exception_ptr failure;
    asio::co_spawn(ioc, std::move(scenario), [&](std::exception_ptr e) {
        failure = e;
        finished = true;
    });
    ioc.run_for(10s);
    REQUIRE(finished);
    if (failure) {
        std::rethrow_exception(failure);
    }
}

auto far()
{
    return steady_clock::now() + 30s;
}

// Scenarios are named coroutines (no capturing lambda coroutines: g++ 12). `pacer` belongs to
// the test case, which runs the scenario to its end.

asio::awaitable<void> turns_per_key(upstream_pacer& pacer)
{
    auto first = co_await pacer.wait_turn("KanbanApi", "a", far());
    auto second = co_await pacer.wait_turn("KanbanApi", "a", far());
    CHECK(first.state == kind::go);
    CHECK(second.state == kind::go);
    CHECK(second.waited < 100ms);
    auto const answered = steady_clock::now();
    first.place.done();
    second.place.done();
    auto other = co_await pacer.wait_turn("KanbanApi", "b", far());
    CHECK(other.waited < 100ms);
    auto third = co_await pacer.wait_turn("KanbanApi", "a", far());
    CHECK(third.state == kind::go);
    CHECK(steady_clock::now() - answered >= 300ms);
    auto unpaced = co_await pacer.wait_turn("DeployApi", "a", far());
    CHECK(unpaced.state == kind::go);
}

asio::awaitable<void> refusals(upstream_pacer& pacer, upstream_pacer& busy)
{
    auto first = co_await pacer.wait_turn("KanbanApi", "k", far());
    REQUIRE(first.state == kind::go);
    first.place.done();
    auto const asked = steady_clock::now();
    auto refused = co_await pacer.wait_turn("KanbanApi", "k", steady_clock::now() + 1s);
    CHECK(refused.state == kind::refused);
    CHECK(refused.wait > 59s);
    CHECK(refused.wait <= 60s);
    CHECK(refused.rate.requests == 1);
    CHECK(steady_clock::now() - asked < 1s);
    // In flight and never answered: with every place taken, the wait is a window at least.
    auto held = co_await busy.wait_turn("KanbanApi", "k", far());
    auto blocked = co_await busy.wait_turn("KanbanApi", "k", steady_clock::now() + 1s);
    CHECK(held.state == kind::go);
    CHECK(blocked.state == kind::refused);
    CHECK(blocked.wait >= 60s);
}

asio::awaitable<void> one_answered(upstream_pacer& pacer)
{
    auto first = co_await pacer.wait_turn("KanbanApi", "k", far());
    first.place.done();
}

} // namespace

TEST_CASE("pacing: a credential gets N turns at once, the next a window after the first "
          "answer, and another credential is not held up",
    "[toolkits][pacing]")
{
    auto pacer = pacer_of(2, 300ms);
    run(turns_per_key(pacer));
}

TEST_CASE("pacing: a turn that would come past the deadline is refused at once with the wait, "
          "and the place stays as it was",
    "[toolkits][pacing]")
{
    auto pacer = pacer_of(1, 60s);
    auto busy = pacer_of(1, 60s);
    run(refusals(pacer, busy));
}

TEST_CASE("pacing: a cancelled wait gives its place back", "[toolkits][pacing]")
{
    auto pacer = pacer_of(1, 400ms);
    asio::io_context ioc;
    asio::cancellation_signal cancel;
    std::optional<kind> waiting_ended;
    std::optional<std::chrono::nanoseconds> next_waited;
    auto const start = steady_clock::now();
    run(one_answered(pacer));
    asio::co_spawn(ioc, pacer.wait_turn("KanbanApi", "k", far()),
        asio::bind_cancellation_slot(cancel.slot(),
            [&](std::exception_ptr, upstream_pacer::wait_result r) { waiting_ended = r.state; }));
    asio::steady_timer later(ioc, 50ms);
    later.async_wait([&](boost::system::error_code) {
        cancel.emit(asio::cancellation_type::terminal);
        asio::co_spawn(ioc, pacer.wait_turn("KanbanApi", "k", far()),
            [&](std::exception_ptr, upstream_pacer::wait_result r) {
                CHECK(r.state == kind::go);
                next_waited = steady_clock::now() - start;
            });
    });
    ioc.run_for(5s);
    CHECK(waiting_ended == kind::cancelled);
    REQUIRE(next_waited.has_value());
    // The next request took the cancelled one's place: its turn came when the first answer's
    // window ended, not a window after a request that was never sent.
    CHECK(*next_waited >= 390ms);
    CHECK(*next_waited < 750ms);
}

TEST_CASE("pacing: the rates are the published defaults, replaced or lifted by the flags",
    "[toolkits][pacing]")
{
    auto const defaults = read_rates({});
    CHECK(defaults.at("KanbanApi").requests == 100);
    CHECK(defaults.at("KanbanApi").window == 10s);
    CHECK(defaults.at("LedgerApi").requests == 60);
    CHECK(defaults.at("LedgerApi").window == 60s);
    CHECK_FALSE(defaults.contains("DeployApi"));
    auto const flags
        = read_rates(pacing_options { { "KanbanApi=5/2", "LedgerApi=off", "DeployApi=20/1" } });
    CHECK(flags.at("KanbanApi").requests == 5);
    CHECK(flags.at("KanbanApi").window == 2s);
    CHECK_FALSE(flags.contains("LedgerApi"));
    CHECK(flags.at("DeployApi").requests == 20);
    for (auto const* bad : { "KanbanApi=5", "KanbanApi=0/10", "KanbanApi=5/0", "NoSuchApi=1/1",
             "KanbanApi=x/1", "KanbanApi" }) {
        INFO(bad);
        CHECK_THROWS_AS(read_rates(pacing_options { { bad } }), std::invalid_argument);
    }
}
