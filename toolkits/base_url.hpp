// Base-URL overrides: `--base-url Toolkit=URL` or `TOOLGATE_BASE_URL_<TOOLKIT>` sends every
// tool of a toolkit to another place (self-hosted platform, regional endpoint, proxy, test
// server). The override replaces whichever of the toolkit's base URLs a tool's URL starts with.
#pragma once

#include "common/result.hpp"
#include "toolkits/tool_error.hpp"
#include "toolkits/tool_spec.hpp"

#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace toolgate::toolkits {

/// One replacement base URL. `url` is absolute http(s), without a trailing `/`, query,
/// fragment or user info.
struct base_url_override {
    std::string toolkit;
    std::string url;
};

/// Parses `Toolkit=URL` (the `--base-url` flag's value). When `known_toolkits` is not empty,
/// the toolkit must be one of them (matched ignoring case; the result carries the canonical
/// spelling). Error messages name the toolkit and the problem, never echo the URL (it might
/// carry a password).
common::checked<base_url_override> parse_base_url_override(
    std::string_view text, std::span<const std::string_view> known_toolkits = {});

/// Validates and normalises a URL given for `toolkit` (e.g. from `TOOLGATE_BASE_URL_STOREAPI`).
common::checked<base_url_override> make_base_url_override(
    std::string_view toolkit, std::string_view url);

/// "scheme://host:port" of an absolute http(s) URL, host in lower case and the port explicit:
/// the way the outbound client names an origin (transport::url_target::pool_key). "" when
/// the URL cannot be parsed.
std::string origin_key(std::string_view url);

/// Whether `url` is plain http:// to a host other than loopback (common::is_loopback_host:
/// localhost, 127.0.0.0/8, [::1]): credentials would cross a network in clear.
bool is_insecure_remote_url(std::string_view url);

/// The environment variable that overrides `toolkit`'s base: `TOOLGATE_BASE_URL_STOREAPI`.
std::string base_url_variable(std::string_view toolkit);

/// The configured overrides, by toolkit. Immutable once the server has started; shared freely.
class base_url_overrides {
public:
    /// Adds or replaces the override for `entry.toolkit` (a later flag wins over the env).
    void set(base_url_override entry) { urls_[std::move(entry.toolkit)] = std::move(entry.url); }
    /// The replacement base for `toolkit`, if one is configured.
    std::optional<std::string_view> find(std::string_view toolkit) const;
    bool empty() const { return urls_.empty(); }

private:
    std::map<std::string, std::string, std::less<>> urls_;
};

/// `tool`'s URL template with its base replaced when `toolkit` has an override; the template
/// unchanged otherwise. Refuses (rather than silently reaching the real platform) when an
/// override is set but the URL starts with none of the toolkit's base URLs.
tool_result<std::string> resolve_url_template(
    toolkit_spec const& toolkit, tool_spec const& tool, base_url_overrides const& overrides);

} // namespace toolgate::toolkits
