// What the outbound client reports while it works, for metrics: a small interface, so that
// transport/ records events without knowing who counts them (ops/ counts and renders).
#pragma once

#include "transport/outbound.hpp"

#include <chrono>
#include <string_view>

namespace toolgate::transport {

/// Called from any thread, once per event, on the call's hot path: implementations must be
/// thread-safe and cheap (atomics; no lock, no allocation). `toolkit` is the request's
/// `outbound_request::toolkit` (empty when the sender set none).
class outbound_observer {
public:
    virtual ~outbound_observer() = default;
    /// An attempt got a response with this status (each retry and redirect hop is an attempt).
    virtual void on_response(std::string_view toolkit, unsigned status) noexcept = 0;
    /// An attempt, or the wait for a pooled connection, ended without a response.
    virtual void on_failure(std::string_view toolkit, outbound_failure failure) noexcept = 0;
    /// The request is sent again (a 429/503 after its wait, or a connection that died first).
    virtual void on_retry(std::string_view toolkit) noexcept = 0;
    /// A redirect is followed.
    virtual void on_redirect(std::string_view toolkit) noexcept = 0;
    /// A request waited `waited` for its turn under the toolkit's pacing (--upstream-rate),
    /// or was `refused` because its turn would come past the call's deadline.
    virtual void on_paced(
        std::string_view toolkit, std::chrono::milliseconds waited, bool refused) noexcept
    {
        (void)toolkit;
        (void)waited;
        (void)refused;
    }
};

} // namespace toolgate::transport
