// HTTPS_PROXY / NO_PROXY parsing and matching for the outbound client.
#include "transport/proxy_config.hpp"

#include "common/ascii.hpp"
#include "common/base64.hpp"
#include "common/split_list.hpp"

#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <vector>

namespace toolgate::transport {
namespace urls = boost::urls;
using common::to_lower_ascii;

namespace {

std::string env_or_empty(char const* name)
{
    char const* value = std::getenv(name);
    return value ? std::string(value) : std::string();
}

/// Strips brackets from "[::1]" so entries compare with the host as the URL parser gives it.
std::string_view unbracket(std::string_view host)
{
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
        return host.substr(1, host.size() - 2);
    }
    return host;
}

bool entry_matches(std::string_view entry, std::string const& host, std::string_view port)
{
    // Split an optional ":port" off the entry; a bare IPv6 address has several colons.
    std::string_view entry_port;
    if (auto const colon = entry.rfind(':');
        colon != std::string_view::npos && entry.find(':') == colon) {
        entry_port = entry.substr(colon + 1);
        entry = entry.substr(0, colon);
    } else if (entry.starts_with('[')) {
        if (auto const close = entry.find("]:"); close != std::string_view::npos) {
            entry_port = entry.substr(close + 2);
            entry = entry.substr(0, close + 1);
        }
    }
    if (!entry_port.empty() && entry_port != port) {
        return false;
    }
    entry = unbracket(entry);
    if (entry.starts_with("*.")) {
        entry.remove_prefix(1);
    }
    if (entry.starts_with('.')) {
        entry.remove_prefix(1);
    }
    if (entry.empty()) {
        return false;
    }
    auto const name = to_lower_ascii(entry);
    if (host == name) {
        return true;
    }
    return host.size() > name.size() && host.ends_with(name)
        && host[host.size() - name.size() - 1] == '.';
}

} // namespace

std::string https_proxy_from_environment()
{
    auto value = env_or_empty("https_proxy");
    return value.empty() ? env_or_empty("HTTPS_PROXY") : value;
}

std::string no_proxy_from_environment()
{
    auto value = env_or_empty("no_proxy");
    return value.empty() ? env_or_empty("NO_PROXY") : value;
}

boost::system::result<proxy_endpoint> parse_proxy_url(std::string_view text)
{
    std::string with_scheme(text);
    if (with_scheme.find("://") == std::string::npos) {
        with_scheme.insert(0, "http://");
    }
    auto parsed = urls::parse_uri(with_scheme);
    if (!parsed) {
        return parsed.error();
    }
    urls::url_view const& u = *parsed;
    if (u.scheme_id() != urls::scheme::http) {
        return boost::system::errc::make_error_code(boost::system::errc::protocol_not_supported);
    }
    proxy_endpoint out;
    out.host = u.host_type() == urls::host_type::name ? u.host_name() : u.host_address();
    if (out.host.empty()) {
        return boost::system::errc::make_error_code(boost::system::errc::invalid_argument);
    }
    out.port = u.port().empty() ? std::string("1080") : std::string(u.port());
    if (u.has_userinfo()) {
        out.authorization = "Basic ";
        out.authorization.append(common::base64_encode(u.user().append(":").append(u.password())));
    }
    return out;
}

bool bypasses_proxy(std::string_view no_proxy, std::string_view host, std::string_view port)
{
    auto const wanted = to_lower_ascii(unbracket(host));
    // NO_PROXY entries are separated by commas, by spaces, or by both.
    auto const entries = common::split_list(no_proxy, ", ");
    return std::any_of(entries.begin(), entries.end(), [&](std::string const& entry) {
        return entry == "*" || entry_matches(entry, wanted, port);
    });
}

} // namespace toolgate::transport
