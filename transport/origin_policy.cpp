// Origin and Host checks.
#include "transport/origin_policy.hpp"

#include <algorithm>

namespace toolgate::transport {
namespace {

/// The host part of `host[:port]` (IPv6 in brackets kept with its brackets).
std::string_view host_part(std::string_view authority)
{
    if (authority.starts_with('[')) {
        auto const close = authority.find(']');
        return close == std::string_view::npos ? authority : authority.substr(0, close + 1);
    }
    return authority.substr(0, authority.find(':'));
}

/// Host names ignore letter case (RFC 3986 3.2.2): `LocalHost` is loopback too.
bool is_loopback_name(std::string_view host)
{
    auto const same = [host](std::string_view name) {
        return host.size() == name.size()
            && std::equal(host.begin(), host.end(), name.begin(), [](char a, char b) {
                   return (a >= 'A' && a <= 'Z' ? char(a - 'A' + 'a') : a) == b;
               });
    };
    return same("localhost") || same("127.0.0.1") || same("[::1]");
}

} // namespace

bool origin_policy::allows_origin(std::string const* origin) const
{
    if (!origin) {
        return true;
    }
    std::string_view o = *origin;
    if (std::find(extra_.begin(), extra_.end(), o) != extra_.end()) {
        return true;
    }
    for (std::string_view scheme : { "http://", "https://" }) {
        if (o.starts_with(scheme)) {
            auto authority = o.substr(scheme.size());
            if (authority.find('/') != std::string_view::npos) {
                return false;
            }
            return is_loopback_name(host_part(authority));
        }
    }
    return false;
}

bool origin_policy::is_loopback_host(std::string_view host_header)
{
    return is_loopback_name(host_part(host_header));
}

} // namespace toolgate::transport
