// Awaiting a coroutine on another executor (a connection's strand, a file thread, a client's
// strand) with the caller's cancellation carried over, safely.
//
// The plain form, `co_await asio::co_spawn(other, work(), asio::use_awaitable)`, forwards the
// caller's cancellation through a handler of Boost.Asio 1.81 that posts emit() to `other` with a
// raw pointer to a signal it owns. The caller frees that handler, signal and all, as soon as the
// work completes. When the cancellation arrives while the work's completion is already on its
// way, the posted emit reads freed memory: the sanitized soak found exactly that in the HTTPS
// client (docs/hardening.md). Here the relay signal is shared by every posted emit, and it is
// emitted on `where`, where co_spawn's own forwarding then runs inline.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <memory>
#include <utility>

namespace toolgate::transport {

/// Runs `work` on `where` and returns its result (or rethrows its exception) to the caller's
/// executor. A cancellation of the caller reaches `work` while it runs.
template <typename T>
boost::asio::awaitable<T> run_on(boost::asio::any_io_executor where, boost::asio::awaitable<T> work)
{
    namespace asio = boost::asio;
    auto relay = std::make_shared<asio::cancellation_signal>();
    // The caller's slot is free while it awaits the work below; the handler placed there goes
    // when the caller resumes (the awaiting frame clears its slot), its posted emits keep `relay`.
    auto const caller = co_await asio::this_coro::cancellation_state;
    auto forward = caller.slot();
    if (forward.is_connected()) {
        forward.assign([where, relay](asio::cancellation_type type) {
            asio::dispatch(where, [relay, type] { relay->emit(type); });
        });
    }
    co_return co_await asio::co_spawn(
        where, std::move(work), asio::bind_cancellation_slot(relay->slot(), asio::use_awaitable));
}

} // namespace toolgate::transport
