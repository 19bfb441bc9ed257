// Origin and Host checks. Both are parsed with Boost.URL (RFC 3986), so that the host is the
// one a browser or a resolver would use: in `http://localhost:80@evil.example` that is
// evil.example, not what precedes the first ':' (security review 18).
#include "transport/origin_policy.hpp"

#include "common/loopback.hpp"

#include <boost/url/authority_view.hpp>
#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>

#include <algorithm>
#include <string>

namespace toolgate::transport {
namespace urls = boost::urls;

namespace {

/// The host of an authority, as common::is_loopback_host reads it (IPv6 without brackets).
std::string host_of(urls::authority_view const& authority)
{
    return authority.host_type() == urls::host_type::ipv6 ? authority.host_address()
                                                          : std::string(authority.encoded_host());
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
    // An Origin is scheme://host[:port] (RFC 6454 §7): no userinfo, path, query or fragment.
    auto parsed = urls::parse_absolute_uri(o);
    if (!parsed
        || (parsed->scheme_id() != urls::scheme::http
            && parsed->scheme_id() != urls::scheme::https)) {
        return false;
    }
    if (parsed->has_userinfo() || !parsed->encoded_path().empty() || parsed->has_query()
        || parsed->has_fragment()) {
        return false;
    }
    return common::is_loopback_host(host_of(parsed->authority()));
}

bool origin_policy::is_loopback_host(std::string_view host_header)
{
    // Host is host[:port] (RFC 9110 §7.2): userinfo makes it invalid, and so not loopback.
    auto parsed = urls::parse_authority(host_header);
    if (!parsed || parsed->has_userinfo()) {
        return false;
    }
    return common::is_loopback_host(host_of(*parsed));
}

} // namespace toolgate::transport
