// The loopback rule (see loopback.hpp), with Boost.URL's address grammar (RFC 3986).
#include "common/loopback.hpp"

#include "common/ascii.hpp"

#include <boost/url/ipv4_address.hpp>
#include <boost/url/ipv6_address.hpp>

namespace toolgate::common {

bool is_loopback_host(std::string_view host)
{
    if (iequals_ascii(host, "localhost")) {
        return true;
    }
    if (auto v4 = boost::urls::parse_ipv4_address(host)) {
        return v4->is_loopback();
    }
    if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
        host = host.substr(1, host.size() - 2);
    }
    auto v6 = boost::urls::parse_ipv6_address(host);
    return v6 && v6->is_loopback();
}

} // namespace toolgate::common
