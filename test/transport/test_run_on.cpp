// transport::run_on: work awaited on another executor gets the caller's cancellation, and a
// cancellation that crosses the work's completion touches no freed memory. The crossing is
// driven step by step on one thread, so every interleaving is reached the same way each run;
// under the sanitizer build (test/hardening/sanitize.sh) the plain co_spawn form reads freed
// memory at one of these steps, run_on at none.
#include "transport/run_on.hpp"

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/system/system_error.hpp>
#include <catch2/catch.hpp>

#include <chrono>
#include <future>
#include <optional>
#include <thread>

namespace asio = boost::asio;
using toolgate::transport::run_on;

namespace {

/// Work that hops through its strand a few times before it answers.
asio::awaitable<int> hopping_work(asio::any_io_executor where)
{
    for (int hop = 0; hop < 6; ++hop) {
        co_await asio::post(where, asio::use_awaitable);
    }
    co_return 7;
}

/// Work that waits far longer than any test: only a cancellation ends it early.
asio::awaitable<int> waiting_work(asio::any_io_executor where)
{
    asio::steady_timer timer(where, std::chrono::hours(1));
    co_await timer.async_wait(asio::use_awaitable);
    co_return 1;
}

struct ending {
    bool done = false;
    bool cancelled = false;
    std::optional<int> value;
};

/// The caller on strand one awaits `hopping_work` on strand two; the caller's cancellation is
/// emitted (from strand one) after `emit_after` single steps of the io_context.
ending cancel_after(int emit_after)
{
    asio::io_context io;
    auto one = asio::make_strand(io);
    auto two = asio::make_strand(io);
    asio::cancellation_signal cancel;
    ending end;
    asio::co_spawn(
        one,
        [two, &end]() -> asio::awaitable<void> {
            end.value = co_await run_on(two, hopping_work(two));
        },
        asio::bind_cancellation_slot(cancel.slot(), [&end](std::exception_ptr const& error) {
            end.done = true;
            if (error) {
                try {
                    std::rethrow_exception(error);
                } catch (boost::system::system_error const& e) {
                    end.cancelled = e.code() == asio::error::operation_aborted;
                }
            }
        }));
    for (int step = 0; step < 60; ++step) {
        io.poll_one();
        if (step == emit_after) {
            asio::dispatch(one, [&cancel] { cancel.emit(asio::cancellation_type::terminal); });
        }
    }
    io.run();
    return end;
}

} // namespace

TEST_CASE("run_on: a cancellation emitted at any step of the work ends it or lets it answer",
    "[transport][cancellation]")
{
    int cancelled = 0;
    int answered = 0;
    for (int emit_after = 0; emit_after < 40; ++emit_after) {
        CAPTURE(emit_after);
        auto const end = cancel_after(emit_after);
        REQUIRE(end.done);
        if (end.cancelled) {
            CHECK_FALSE(end.value);
            ++cancelled;
        } else {
            REQUIRE(end.value == 7);
            ++answered;
        }
    }
    // Early cancellations reach the work; late ones come after its answer.
    CHECK(cancel_after(0).cancelled);
    CHECK(cancelled > 0);
    CHECK(answered > 0);
}

TEST_CASE("run_on: the caller's cancellation ends work waiting on another strand, across threads",
    "[transport][cancellation]")
{
    asio::io_context io;
    auto guard = asio::make_work_guard(io);
    std::thread other([&io] { io.run(); });
    auto one = asio::make_strand(io);
    auto two = asio::make_strand(io);
    asio::cancellation_signal cancel;
    std::promise<bool> aborted;
    asio::co_spawn(
        one, [two]() -> asio::awaitable<int> { co_return co_await run_on(two, waiting_work(two)); },
        asio::bind_cancellation_slot(
            cancel.slot(), [&aborted](std::exception_ptr const& error, int) {
                bool was_aborted = false;
                try {
                    if (error) {
                        std::rethrow_exception(error);
                    }
                } catch (boost::system::system_error const& e) {
                    was_aborted = e.code() == asio::error::operation_aborted;
                }
                aborted.set_value(was_aborted);
            }));
    auto outcome = aborted.get_future();
    // Give the work time to start waiting, then cancel from the caller's strand.
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    asio::dispatch(one, [&cancel] { cancel.emit(asio::cancellation_type::terminal); });
    auto const status = outcome.wait_for(std::chrono::seconds(10));
    guard.reset();
    io.stop();
    other.join();
    REQUIRE(status == std::future_status::ready);
    CHECK(outcome.get());
}
