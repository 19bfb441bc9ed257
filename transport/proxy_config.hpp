// Forward-proxy settings for the outbound client: HTTPS_PROXY / NO_PROXY as curl and most
// HTTP clients read them, parsed once at start-up. Pure apart from reading the environment.
#pragma once

#include <boost/system/result.hpp>

#include <string>
#include <string_view>

namespace toolgate::transport {

/// Where HTTPS requests are tunnelled (HTTP CONNECT). Empty host: no proxy.
struct proxy_endpoint {
    std::string host;
    std::string port;
    std::string authorization; ///< `Proxy-Authorization` value ("Basic ...") or empty; secret
};

/// `https_proxy` (curl's spelling, checked first) or `HTTPS_PROXY`; "" when neither is set.
std::string https_proxy_from_environment();
/// `no_proxy` or `NO_PROXY`; "" when neither is set.
std::string no_proxy_from_environment();

/// Parses `[http://][user:password@]host[:port]` (port defaults to 1080 as in curl; an
/// `https://` proxy is refused: TLS to the proxy itself is not supported). Credentials are
/// percent-decoded and turned into a Basic `Proxy-Authorization` value.
boost::system::result<proxy_endpoint> parse_proxy_url(std::string_view text);

/// True when `host` must be reached directly according to a NO_PROXY list: comma- or
/// space-separated entries, `*` for all, a host name matching itself and its subdomains
/// (a leading dot is ignored), an address literal matching exactly, optionally `:port`.
/// Host names compare case-insensitively. CIDR ranges are not supported.
bool bypasses_proxy(std::string_view no_proxy, std::string_view host, std::string_view port);

} // namespace toolgate::transport
