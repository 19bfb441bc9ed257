// The outbound HTTPS client: implements outbound_client on Beast + OpenSSL with a keep-alive
// pool, deadlines, cancellation, a size cap, retries, redirects and HTTPS_PROXY support.
// Free of Beast and OpenSSL headers; they live in the .cpp files of toolgate_https.
#pragma once

#include "transport/outbound.hpp"
#include "transport/outbound_observer.hpp"

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

namespace boost::asio {
class io_context;
}

namespace toolgate::transport {

/// Settings of an https_client; the defaults are the production ones.
struct https_options {
    std::chrono::milliseconds connect_timeout { 10'000 }; ///< TCP connect + CONNECT + TLS handshake
    std::chrono::milliseconds deadline { 60'000 }; ///< whole call: waits, retries, redirects
    std::size_t max_response_bytes = 32u << 20; ///< body cap; past it → too_large
    std::size_t max_connections_per_host = 8; ///< open (idle + busy); more calls queue
    std::chrono::milliseconds idle_timeout { 30'000 }; ///< idle connections older are not reused
    int max_attempts = 3; ///< per URL, first try included
    int max_redirects = 5; ///< GET only (docs/decisions.md)
    std::string ca_file; ///< extra trusted CA certificates (PEM), e.g. --ca-file
    bool system_trust = true; ///< also trust the system store
    std::string user_agent = "toolgate/0.1";
    /// When true, the constructor fills `https_proxy` and `no_proxy` from HTTPS_PROXY /
    /// https_proxy and NO_PROXY / no_proxy, if they are empty. Read once, at construction.
    bool proxy_from_environment = true;
    std::string https_proxy; ///< `[http://][user:pass@]host[:port]`; empty: direct
    std::string no_proxy; ///< hosts reached directly, comma-separated (see bypasses_proxy)
};

/// Sends requests over pooled keep-alive connections on the given io_context.
///
/// - `send` may be called from any executor, concurrently; each call runs on a strand of its
///   own, each connection on its own strand. The client must outlive every call.
/// - TLS 1.2+, SNI, chain and host name (or IP address) verified against the system store
///   plus `ca_file`; `http://` URLs go in the clear (local proxies, tests).
/// - Cancellation: terminal cancellation of the awaiting coroutine (the router's
///   bind_cancellation_slot) aborts the exchange, closes the connection, returns `cancelled`.
/// - Retries (docs/decisions.md): 429/503 after Retry-After (or a short backoff when absent), and a
///   connection that closed before any response byte when the method is idempotent or the
///   connection was a reused one; at most `max_attempts`, never past the deadline (a
///   Retry-After beyond it returns the 429/503 as is).
/// - Redirects: followed for GET, at most `max_redirects`; credentials never cross to
///   another origin (see follow_redirect).
/// - `detail` names the host and phase, never header values or query strings.
class https_client final : public outbound_client {
public:
    /// Throws std::runtime_error on a CA file it cannot load or a malformed proxy URL: bad
    /// start-up configuration fails fast.
    https_client(boost::asio::io_context& ioc, https_options options);
    ~https_client() override;
    https_client(https_client const&) = delete;
    https_client& operator=(https_client const&) = delete;

    boost::asio::awaitable<outbound_result> send(outbound_request request) override;

    /// The options in effect (proxy settings as read from the environment).
    https_options const& options() const;

    /// Open connections (idle and busy) to scheme+host+port of `url`, for tests and metrics.
    std::size_t open_connections(std::string const& url) const;

    /// The pool over all hosts: connections open (idle and busy), idle, and calls waiting for
    /// one. Takes the pool's lock briefly; for metrics scrapes.
    struct pool_totals {
        std::size_t open = 0;
        std::size_t idle = 0;
        std::size_t waiting = 0;
    };
    pool_totals pool() const;

    /// Reports attempts, failures, retries and redirects to `observer` (null: to nobody).
    /// `observer` must outlive every call; set it before the first one.
    void set_observer(outbound_observer* observer);

    struct state;

private:
    std::shared_ptr<state> state_;
};

} // namespace toolgate::transport
