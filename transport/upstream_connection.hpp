// One upstream connection (plain TCP or TLS, optionally through a CONNECT proxy) and the two
// coroutines that use it: open it, and run one request/response exchange on it. The Beast
// stream types stay in upstream_connection.cpp, the only TU that instantiates their operations.
#pragma once

#include "transport/outbound.hpp"
#include "transport/outbound_policy.hpp"
#include "transport/proxy_config.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <memory>
#include <optional>

namespace boost::asio {
class io_context;
namespace ssl {
class context;
}
} // namespace boost::asio

namespace toolgate::transport {

using steady_time = std::chrono::steady_clock::time_point;

/// A connection with its own strand: every operation on it runs there (STYLE §3), so a pooled
/// connection can be reused by calls running on other strands or threads. Used by one exchange
/// at a time; the pool hands it over.
class upstream_connection {
public:
    upstream_connection(
        boost::asio::io_context& ioc, std::shared_ptr<boost::asio::ssl::context> tls);
    ~upstream_connection();
    upstream_connection(upstream_connection const&) = delete;
    upstream_connection& operator=(upstream_connection const&) = delete;

    /// The connection's strand; co_spawn open_connection() and exchange() onto it.
    boost::asio::any_io_executor executor() const;
    /// Closes the socket at once (no TLS close_notify: the peer may be gone). Call on the
    /// strand, or when no operation is pending.
    void close();
    /// For an idle pooled connection: true when nothing has arrived on it and it is still open
    /// (a non-blocking peek). A server that closed it, or sent anything (a TLS close_notify,
    /// stray bytes), makes it unfit for a request that could not be repeated. Call only while
    /// no operation is pending on it (it is leased to the caller).
    bool looks_idle();

    struct impl;
    /// The Beast streams, for upstream_connection.cpp only.
    impl& state() noexcept { return *impl_; }

private:
    std::unique_ptr<impl> impl_;
};

/// What open_connection needs.
struct open_params {
    url_target target;
    std::optional<proxy_endpoint> proxy; ///< tunnel through it when set (HTTPS only)
    steady_time connect_by; ///< TCP connect, CONNECT and TLS handshake bound
    steady_time deadline; ///< the call's deadline (connect_by <= deadline)
    std::chrono::milliseconds connect_timeout {}; ///< for details only
    std::chrono::milliseconds call_timeout {}; ///< for details only
    std::string method; ///< for details only
    /// Refuse to connect when the host resolves to a loopback, private, link-local or other
    /// non-public address (a redirect to a host nobody configured; docs/decisions.md: redirects).
    bool refuse_private_addresses = false;
};

/// Outcome of open_connection or exchange. `failure == none` means success.
struct step_outcome {
    outbound_failure failure = outbound_failure::none;
    std::string detail;
    outbound_response response; ///< exchange only
    bool nothing_received = false; ///< exchange failed before any response byte arrived
    bool nothing_written = false; ///< exchange failed before any request byte was written
    bool reusable = false; ///< exchange completed and the connection may be pooled
};

/// Resolves, connects (under connect_by), tunnels through the proxy and handshakes TLS
/// (SNI, chain and host name verified). Run on conn's strand. Honours terminal cancellation.
boost::asio::awaitable<step_outcome> open_connection(
    std::shared_ptr<upstream_connection> conn, open_params params);

/// What exchange needs.
struct exchange_params {
    url_target target;
    std::string method;
    header_list headers;
    std::string body;
    std::string user_agent;
    steady_time deadline;
    std::chrono::milliseconds call_timeout {}; ///< for details only
    std::size_t max_response_bytes = 0; ///< body cap, > 0
};

/// Writes the request and reads the complete response under the deadline, with the body
/// capped at max_response_bytes (→ too_large). Run on conn's strand. On any failure the
/// connection is closed and not reusable.
boost::asio::awaitable<step_outcome> exchange(
    std::shared_ptr<upstream_connection> conn, exchange_params params);

} // namespace toolgate::transport
