// The lifecycle coroutine (see lifecycle.hpp).
#include "app/lifecycle.hpp"

#include "common/cli_options.hpp"

#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <spdlog/spdlog.h>

#include <csignal>

namespace toolgate::app {
namespace asio = boost::asio;
using namespace asio::experimental::awaitable_operators;

namespace {

/// The next SIGINT or SIGTERM; each SIGHUP before it reloads.
asio::awaitable<int> next_stop_signal(asio::signal_set& signals, served_mode& mode)
{
    for (;;) {
        int const sig = co_await signals.async_wait(asio::use_awaitable);
        if (sig != SIGHUP) {
            co_return sig;
        }
        mode.reload();
    }
}

asio::awaitable<void> sleep_for(std::chrono::seconds duration)
{
    asio::steady_timer timer(co_await asio::this_coro::executor, duration);
    co_await timer.async_wait(asio::use_awaitable);
}

} // namespace

asio::awaitable<void> cancel_and_unwind(served_mode& mode)
{
    mode.cancel_in_flight();
    auto unwound = co_await (mode.drained() || sleep_for(std::chrono::seconds(2)));
    if (unwound.index() == 1) {
        spdlog::warn("shutdown: {} call(s) still running 2 s after cancellation; stopping anyway",
            mode.in_flight());
    }
}

void add_options(CLI::App& app, lifecycle_options& o)
{
    common::add_seconds(app, "--shutdown-grace", o.grace,
        "seconds SIGTERM/SIGINT waits for calls in flight before cancelling them", 0, 3600);
    common::add_seconds(app, "--drain-delay", o.drain_delay,
        "seconds after SIGTERM/SIGINT during which /readyz answers 503 while requests are "
        "still served, so a load balancer stops sending new ones before the listener closes",
        0, 3600)
        ->envname("TOOLGATE_DRAIN_DELAY");
}

asio::awaitable<void> run_lifecycle(
    asio::signal_set& signals, served_mode& mode, lifecycle_options options)
{
    int sig = co_await next_stop_signal(signals, mode);
    if (options.ready) {
        *options.ready = false;
    }
    if (options.drain_delay.count() > 0) {
        // A load balancer polling /readyz stops sending new requests before the listener
        // closes. A second signal ends the delay.
        spdlog::info("signal {}: draining: /readyz answers 503; still serving for {} s", sig,
            options.drain_delay.count());
        auto drained = co_await (sleep_for(options.drain_delay) || next_stop_signal(signals, mode));
        if (drained.index() == 1) {
            sig = std::get<1>(drained);
        }
    }
    spdlog::info("signal {}: no longer accepting; waiting up to {} s for {} call(s) in flight", sig,
        options.grace.count(), mode.in_flight());
    mode.stop_accepting();
    auto waited
        = co_await (mode.drained() || sleep_for(options.grace) || next_stop_signal(signals, mode));
    if (waited.index() == 0) {
        co_return;
    }
    if (waited.index() == 2) {
        spdlog::info("signal {} again: cancelling calls now", std::get<2>(waited));
    } else {
        spdlog::warn(
            "shutdown: grace period over; cancelling {} call(s) in flight", mode.in_flight());
    }
    co_await cancel_and_unwind(mode);
}

} // namespace toolgate::app
