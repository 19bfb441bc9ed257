// Pure decisions of the outbound HTTPS client: URL splitting, which failures and statuses are
// retried and after how long, and how a redirect is followed without leaking credentials.
// No I/O here, so every rule is unit-tested from plain strings (test_outbound_policy.cpp).
#pragma once

#include "common/result.hpp"
#include "transport/outbound.hpp"

#include <boost/system/result.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace toolgate::transport {

/// Where a request goes, split out of its absolute URL.
struct url_target {
    bool tls = true; ///< https (true) or http (false)
    std::string host; ///< name or address, IPv6 without brackets (for DNS, SNI, checks)
    bool host_is_ip = false; ///< an address literal: no SNI, IP SAN checked instead of DNS SAN
    std::string port; ///< explicit or the scheme's default
    std::string host_header; ///< `Host:` value: host[:port] as written, port only when given
    std::string target; ///< origin-form request target: path and query, "/" when empty
    std::string path; ///< path only, for logs and error details (queries may hold secrets)

    /// Pool key: connections are shared per scheme+host+port.
    std::string pool_key() const;
    /// "host:port", as named in error details.
    std::string authority() const;
};

/// Splits an absolute http(s) URL. Fails on a parse error, another scheme, or no host.
boost::system::result<url_target> parse_url_target(std::string_view url);

/// GET, HEAD, PUT, DELETE, OPTIONS (RFC 9110 §9.2.2); compared case-sensitively, as methods are.
bool is_idempotent(std::string_view method);

/// 429 and 503: the platform asks us to come back later (docs/decisions.md: retried, bounded).
bool is_retryable_status(unsigned status);

/// The delay a Retry-After value asks for: delta-seconds or an HTTP-date (RFC 9110 §10.2.3),
/// relative to `now`; a date in the past gives zero. nullopt when the value is unparsable.
std::optional<std::chrono::milliseconds> parse_retry_after(
    std::string_view value, std::chrono::system_clock::time_point now);

/// Backoff before retry number `retry` (1-based) when the platform named no delay:
/// 200 ms, 400 ms, 800 ms ... capped at 5 s.
std::chrono::milliseconds backoff_delay(int retry);

/// 301, 302, 303, 307, 308.
bool is_redirect_status(unsigned status);

/// Whether `headers` can be sent, else why not: a name that is empty, over 256 bytes or not a
/// token; a value holding a control character (CR, LF, NUL and the rest, which could forge
/// headers); a value over 32 KiB, or more than 60 KiB in all (Beast would throw past 64 KiB
/// a field, after a pool slot was taken: security review 1).
common::checked<void> check_sendable_headers(header_list const& headers);

/// Whether an `Idempotency-Key` header (any case) is among `headers`: the platform then
/// recognises a repeated request, so it may be re-sent.
bool has_idempotency_key(header_list const& headers);

/// Whether `address` (an IPv4 or IPv6 literal, no brackets) is not a public unicast address:
/// loopback, private (RFC 1918, unique local), link-local (cloud metadata lives there),
/// shared (100.64/10), unspecified, multicast, broadcast, or an IPv4-mapped one of those.
/// Text that is not an address gives false.
bool is_non_public_address(std::string_view address);

/// Whether a redirect from a request that started at `first_origin` may go to `next`
/// (docs/decisions.md: redirects): back to the first origin, or to one the operator configured
/// (`trusted_origins`), or over https to one of `redirect_origins` whose host is not an
/// address literal of a non-public kind (the resolved address is checked when connecting).
bool redirect_allowed(
    outbound_request const& request, std::string_view first_origin, url_target const& next);

/// Whether `origin` is the first origin or one of the request's trusted ones: no address
/// checks apply there.
bool is_trusted_origin(
    outbound_request const& request, std::string_view first_origin, url_target const& target);

/// The request that follows a redirect of `current` to `location` (absolute or relative,
/// resolved against the current URL; the Location replaces the URL, fragment dropped).
/// When the origin (scheme, host, port) changes, credentials stay behind: `Authorization`,
/// `Proxy-Authorization`, `Cookie`, every header in `secret_headers`, and every query
/// parameter named in `secret_query` (in case the Location echoes them). Once dropped they are
/// not restored, even if a later hop comes back to the first host.
boost::system::result<outbound_request> follow_redirect(
    outbound_request const& current, std::string_view location);

} // namespace toolgate::transport
