// The outbound HTTP(S) interface: what toolkits/ asks of the network, and what transport/
// implements with Beast + OpenSSL. Header-only and free of Beast so that tests can fake it.
#pragma once

#include "common/ascii.hpp"

#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toolgate::transport {

using header_list = std::vector<std::pair<std::string, std::string>>;

/// What happened while a request was on its way, for the caller's own reporting (the MCP log
/// and progress notifications of the call). `where` is masked as the debug log is: host and
/// path with `log_redactions` replaced, never the query.
struct outbound_event {
    enum class kind : std::uint8_t {
        sending, ///< attempt `attempt` starts (a connection is being taken or opened)
        answered, ///< an attempt got a response (`status`) after `elapsed`
        failed, ///< an attempt got none (`failure` names why) after `elapsed`
        retry_wait, ///< waiting `wait` before attempt `attempt` (`retry_after`: as asked)
        retry_skipped, ///< the platform asked for `wait`, past the call's deadline: no retry
        redirected, ///< following a redirect to `where`
    };
    kind what = kind::answered;
    std::string method;
    std::string where;
    unsigned status = 0;
    std::string failure;
    std::chrono::milliseconds elapsed { 0 };
    std::chrono::milliseconds wait { 0 };
    bool retry_after = false;
    bool retrying = false; ///< failed: it is sent again at once (e.g. a kept-alive connection
                           ///< the platform had closed)
    int attempt = 1; ///< the attempt this event is about (retry_wait: the next one)
    int max_attempts = 1;
};

/// One request to a platform. `url` is absolute (`https://host[:port]/path?query`) and already
/// percent-encoded; the client sends it as given.
struct outbound_request {
    std::string method; ///< "GET", "POST", ...
    std::string url;
    header_list headers; ///< credentials included; never logged
    std::string body; ///< empty when the request has none
    /// Header names (lower case) whose values must never be logged or echoed.
    std::vector<std::string> secret_headers;
    /// Query parameter names whose values must never be logged or echoed (e.g. `key`, `token`).
    std::vector<std::string> secret_query;
    /// Values every log line about this request masks: secrets, a host a secret names, and
    /// arguments named like a credential (raw and percent-encoded forms are both masked).
    std::vector<std::string> log_redactions;
    /// Where a redirect may lead besides the request's own origin (docs/decisions.md: redirects):
    /// origins as `url_target::pool_key()` spells them ("https://host:port"). Followed only
    /// over https, and never to a loopback, private or link-local address.
    std::vector<std::string> redirect_origins;
    /// Origins the operator configured (base-URL overrides): a redirect there is followed
    /// whatever its scheme or address, as the request itself was.
    std::vector<std::string> trusted_origins;
    /// The host came from a client (a secret it brought): connect only where it resolves to
    /// public addresses, never loopback, private or link-local ones (security review 3,
    /// item 2). Such connections are pooled apart from the others.
    bool public_addresses_only = false;
    /// Told of each attempt, retry wait and redirect, on the client's strand; must be cheap
    /// and thread-safe. Empty: nobody is told.
    std::function<void(outbound_event const&)> on_event;
    /// Who sends it, for metrics: a name with static storage (the catalogue's toolkit name);
    /// empty for other callers.
    std::string_view toolkit;
    /// When the call must be over if that is sooner than the client's own deadline from the
    /// sending on (a call that waited for its turn under pacing); default: none.
    std::chrono::steady_clock::time_point deadline {};
};

/// The platform's answer, complete.
struct outbound_response {
    unsigned status = 0;
    std::string reason;
    header_list headers; ///< names as received
    std::string body;

    /// The first header with this name (case-insensitive), or "" when absent.
    std::string header(std::string_view name) const;
};

/// Why no response came back. `none` means `response` is valid.
enum class outbound_failure : std::uint8_t {
    none,
    bad_url, ///< the URL could not be parsed or has an unsupported scheme
    resolve, ///< DNS lookup failed
    connect, ///< TCP connect failed or timed out
    tls, ///< TLS handshake failed (certificate, host name, protocol)
    timeout, ///< the per-call deadline passed
    cancelled, ///< the caller cancelled the call
    too_large, ///< the response exceeded the size cap
    protocol, ///< the peer sent something that is not HTTP/1.1 or closed mid-response
};

struct outbound_result {
    outbound_failure failure = outbound_failure::none;
    std::string detail; ///< human-readable cause, names the host and phase; no secrets
    outbound_response response;
};

/// Sends requests. Implementations must honour Asio per-operation cancellation (the caller's
/// cancellation slot) by aborting the exchange and returning `cancelled`.
class outbound_client {
public:
    virtual ~outbound_client() = default;
    virtual boost::asio::awaitable<outbound_result> send(outbound_request request) = 0;
};

inline std::string outbound_response::header(std::string_view name) const
{
    for (auto const& [key, value] : headers) {
        if (common::iequals_ascii(key, name)) {
            return value;
        }
    }
    return {};
}

} // namespace toolgate::transport
