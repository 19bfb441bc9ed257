// Parsing and applying base-URL overrides (see base_url.hpp).
#include "toolkits/base_url.hpp"

#include "common/ascii.hpp"
#include "common/loopback.hpp"

#include <boost/url/parse.hpp>
#include <boost/url/scheme.hpp>
#include <boost/url/url_view.hpp>

#include <algorithm>
#include <cctype>

namespace toolgate::toolkits {
namespace {

namespace urls = boost::urls;

common::problem bad(std::string_view toolkit, std::string_view why)
{
    return common::problem_of(
        "base URL override for " + std::string(toolkit) + ": " + std::string(why));
}

/// True when `url` starts with `base` and the rest begins a new path segment or the query:
/// `https://api.box.com/2.0` must not match `https://api.box.com/2.0x/...`.
bool starts_with_base(std::string_view url, std::string_view base)
{
    if (!url.starts_with(base)) {
        return false;
    }
    auto rest = url.substr(base.size());
    return rest.empty() || rest.front() == '/' || rest.front() == '?';
}

} // namespace

common::checked<base_url_override> make_base_url_override(
    std::string_view toolkit, std::string_view url)
{
    if (toolkit.empty()) {
        return common::problem_of(
            "base URL override: the toolkit name is empty (expected Toolkit=URL)");
    }
    auto parsed = urls::parse_absolute_uri(url);
    if (!parsed) {
        return bad(toolkit, "not an absolute URL (expected https://host[:port][/prefix])");
    }
    auto const scheme = parsed->scheme_id();
    if (scheme != urls::scheme::https && scheme != urls::scheme::http) {
        return bad(toolkit, "the URL must start with https:// or http://");
    }
    if (!parsed->has_authority() || parsed->encoded_host().empty()) {
        return bad(toolkit, "the URL has no host");
    }
    if (parsed->has_userinfo()) {
        // Credentials travel through the auth adapter; a password in a URL ends up in logs.
        return bad(toolkit, "the URL must not carry user:password@");
    }
    if (parsed->has_query() || parsed->has_fragment()) {
        return bad(
            toolkit, "the URL must not have a ?query or #fragment (operation paths follow it)");
    }
    std::string normalised(url);
    while (normalised.ends_with('/')) {
        normalised.pop_back();
    }
    return base_url_override { std::string(toolkit), std::move(normalised) };
}

common::checked<base_url_override> parse_base_url_override(
    std::string_view text, std::span<const std::string_view> known_toolkits)
{
    auto const eq = text.find('=');
    if (eq == std::string_view::npos) {
        return common::problem_of("base URL override: expected Toolkit=URL (e.g. "
                                  "StoreApi=https://127.0.0.1:8443/prefix), got no '='");
    }
    std::string_view toolkit = text.substr(0, eq);
    if (!known_toolkits.empty() && !toolkit.empty()) {
        auto it = std::find_if(known_toolkits.begin(), known_toolkits.end(),
            [&](std::string_view k) { return common::iequals_ascii(k, toolkit); });
        if (it == known_toolkits.end()) {
            std::string names;
            for (auto k : known_toolkits) {
                names += names.empty() ? "" : ", ";
                names += k;
            }
            return common::problem_of("base URL override: unknown toolkit `" + std::string(toolkit)
                + "` (known: " + names + ")");
        }
        toolkit = *it;
    }
    return make_base_url_override(toolkit, text.substr(eq + 1));
}

std::string origin_key(std::string_view url)
{
    auto parsed = urls::parse_absolute_uri(url);
    if (!parsed) {
        return {};
    }
    auto const scheme = parsed->scheme_id();
    if (scheme != urls::scheme::https && scheme != urls::scheme::http) {
        return {};
    }
    bool const tls = scheme == urls::scheme::https;
    std::string host = parsed->host_type() == urls::host_type::name
        ? std::string(parsed->host_name())
        : std::string(parsed->host_address());
    host = common::to_lower_ascii(host);
    std::string port(parsed->port());
    if (port.empty()) {
        port = tls ? "443" : "80";
    }
    std::string out = tls ? "https://" : "http://";
    out.append(host).append(":").append(port);
    return out;
}

bool is_insecure_remote_url(std::string_view url)
{
    auto parsed = urls::parse_absolute_uri(url);
    if (!parsed || parsed->scheme_id() != urls::scheme::http) {
        return false;
    }
    return !common::is_loopback_host(parsed->encoded_host());
}

std::string base_url_variable(std::string_view toolkit)
{
    std::string name = "TOOLGATE_BASE_URL_";
    for (char c : toolkit) {
        name += std::isalnum(static_cast<unsigned char>(c)) ? common::to_upper_ascii(c) : '_';
    }
    return name;
}

std::optional<std::string_view> base_url_overrides::find(std::string_view toolkit) const
{
    auto it = urls_.find(toolkit);
    if (it == urls_.end()) {
        return std::nullopt;
    }
    return std::string_view(it->second);
}

tool_result<std::string> resolve_url_template(
    toolkit_spec const& toolkit, tool_spec const& tool, base_url_overrides const& overrides)
{
    auto const replacement = overrides.find(toolkit.name);
    if (!replacement) {
        return std::string(tool.http.url);
    }
    // The longest matching entry wins, should one base ever be a prefix of another.
    std::string_view best;
    for (auto base : toolkit.base_urls) {
        if (starts_with_base(tool.http.url, base) && base.size() > best.size()) {
            best = base;
        }
    }
    if (best.empty()) {
        return refuse(std::string(toolkit.name) + "." + std::string(tool.name)
            + ": its URL starts with none of the toolkit's base URLs, so the base URL "
              "override cannot apply; nothing was sent");
    }
    return std::string(*replacement) + std::string(tool.http.url.substr(best.size()));
}

} // namespace toolgate::toolkits
