// The process's one lifecycle, for both transports: one coroutine awaits SIGINT, SIGTERM and
// SIGHUP. SIGHUP reloads what can be reloaded. The first stop signal makes the server not
// ready, waits --drain-delay (requests are still served; /readyz answers 503), stops taking
// work, waits for the calls in flight through their tickets up to --shutdown-grace, then
// cancels what is left and waits (2 s at most) for it to unwind. Each further stop signal ends
// the current wait at once (docs/decisions.md "Shutdown").
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/signal_set.hpp>

#include <atomic>
#include <chrono>
#include <cstddef>

namespace CLI {
class App;
}

namespace toolgate::app {

/// What a serving mode does at each step of the lifecycle. Called on the lifecycle's
/// coroutine: implementations that touch strand-bound objects must be thread-safe.
class served_mode {
public:
    virtual ~served_mode() = default;
    /// SIGHUP: rereads what can be reloaded, and logs what changed.
    virtual void reload() = 0;
    /// After the drain delay: no new connections, no new calls.
    virtual void stop_accepting() = 0;
    /// Completes when every call has ended and every answer is out.
    virtual boost::asio::awaitable<void> drained() = 0;
    /// The grace period is over: cancels every call still running (their cancellation
    /// signals; a stateless HTTP call through its connection).
    virtual void cancel_in_flight() = 0;
    /// Calls running now (for the log).
    virtual std::size_t in_flight() const = 0;
};

struct lifecycle_options {
    std::chrono::seconds drain_delay { 0 }; ///< --drain-delay
    std::chrono::seconds grace { 10 }; ///< --shutdown-grace
    std::atomic<bool>* ready = nullptr; ///< set false at the first stop signal; null: none
};

/// --shutdown-grace and --drain-delay.
void add_options(CLI::App& app, lifecycle_options& o);

/// Cancels the calls still running and waits for them to unwind, 2 s at most (a call that
/// ignores its cancellation is given up on, with a warning).
boost::asio::awaitable<void> cancel_and_unwind(served_mode& mode);

/// Runs until `mode` is drained after a stop signal (or given up on, 2 s after cancelling).
/// `signals` holds SIGINT, SIGTERM and SIGHUP, made before serving starts so that no signal
/// is lost; it and `mode` must outlive the coroutine.
boost::asio::awaitable<void> run_lifecycle(
    boost::asio::signal_set& signals, served_mode& mode, lifecycle_options options);

} // namespace toolgate::app
