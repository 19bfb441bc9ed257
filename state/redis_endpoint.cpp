// `--state-store` URLs (see redis_endpoint.hpp).
#include "state/redis_endpoint.hpp"

#include <boost/url/parse.hpp>
#include <fmt/format.h>

#include <charconv>

namespace toolgate::state {

std::string redis_endpoint::describe() const
{
    bool const v6 = host.find(':') != std::string::npos;
    return fmt::format("{}{}{}:{}/{}", v6 ? "[" : "", host, v6 ? "]" : "", port, db);
}

common::checked<redis_endpoint> parse_redis_url(std::string_view url, char const* env_password)
{
    // Never quotes the URL: it may hold the password.
    auto const bad = [](std::string_view why) {
        return common::problem_of(fmt::format(
            "--state-store: {}; expected redis://[user:password@]host[:port][/db]", why));
    };
    auto parsed = boost::urls::parse_uri(url);
    if (!parsed) {
        return bad("not a URL");
    }
    auto const scheme = parsed->scheme();
    if (scheme == "rediss") {
        return common::problem_of(
            "--state-store: rediss:// (TLS) is not available: this build's hiredis (Debian 12's "
            "libhiredis 0.14) has no TLS support; use redis:// on a private network, or reach "
            "Redis through a local TLS tunnel (stunnel, a service mesh sidecar) as redis://");
    }
    if (scheme != "redis") {
        return bad(fmt::format("the scheme must be redis, not {}", scheme.substr(0, 16)));
    }
    redis_endpoint out;
    out.host = parsed->host_address(); // brackets of an IPv6 literal removed
    if (out.host.empty()) {
        return bad("no host");
    }
    if (parsed->has_port()) {
        auto const port = parsed->port_number();
        if (port == 0) {
            return bad("the port must be 1-65535");
        }
        out.port = port;
    }
    auto const path = parsed->encoded_path();
    if (!path.empty() && path != "/") {
        std::string_view const digits(path.data() + 1, path.size() - 1);
        auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), out.db);
        if (ec != std::errc() || end != digits.data() + digits.size() || out.db < 0
            || out.db > 65535) {
            return bad("the path names the database by its number");
        }
    }
    if (parsed->has_query() || parsed->has_fragment()) {
        return bad("no query or fragment is understood");
    }
    if (parsed->has_userinfo()) {
        out.user = parsed->user();
        out.password = parsed->password();
    }
    if (out.password.empty() && env_password != nullptr) {
        out.password = env_password;
    }
    return out;
}

} // namespace toolgate::state
