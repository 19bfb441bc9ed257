// Per-toolkit authentication (see auth.hpp). The catalogue says where each toolkit's secrets
// go (`transmission`) and which a tool needs (`secrets`); this file interprets that data, so
// a new platform is data, not code.
#include "toolkits/auth.hpp"

#include "common/ascii.hpp"
#include "common/base64.hpp"
#include "common/masking.hpp"
#include "toolkits/base_url.hpp"
#include "toolkits/request_body.hpp"
#include "toolkits/selection.hpp"

#include <boost/url/encode.hpp>
#include <boost/url/parse.hpp>
#include <boost/url/rfc/unreserved_chars.hpp>
#include <boost/url/scheme.hpp>
#include <boost/url/url_view.hpp>

#include <algorithm>
#include <cctype>

namespace toolgate::toolkits {
using common::to_lower_ascii;
namespace {

namespace urls = boost::urls;

bool contains(std::span<const std::string_view> names, std::string_view name)
{
    return std::find(names.begin(), names.end(), name) != names.end();
}

bool is_variable_name(std::string_view name)
{
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    });
}

std::string apply_format(std::string_view format, std::string_view secret)
{
    std::string out(format);
    if (auto pos = out.find("{}"); pos != std::string::npos) {
        out.replace(pos, 2, secret);
    }
    return out;
}

bool has_header(prepared_request const& prepared, std::string_view name)
{
    auto const& headers = prepared.request.headers;
    return std::any_of(headers.begin(), headers.end(),
        [&](auto const& h) { return common::iequals_ascii(h.first, name); });
}

std::string placeholder(std::string_view variable)
{
    std::string text(1, '{');
    text += variable;
    text += '}';
    return text;
}

/// Whether the rule applies to this request at all: URL rules only while their placeholder
/// is in the URL, header rules only when the caller did not supply that header.
bool is_needed(secret_transmission const& rule, prepared_request const& prepared)
{
    if (rule.in == "url") {
        return prepared.request.url.find(placeholder(rule.secret)) != std::string::npos;
    }
    if (rule.in == "header" || rule.in == "basic") {
        return !has_header(prepared, rule.name);
    }
    return true;
}

bool is_host_label(std::string_view text)
{
    return !text.empty() && text.front() != '-' && text.back() != '-'
        && std::all_of(text.begin(), text.end(),
            [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-'; });
}

/// Whether a client may name `host` (bracket-less, lower case): it matches one of the
/// operator's --client-host-allow globs.
bool client_may_name(std::string const& host, url_secret_policy const& policy)
{
    return std::any_of(policy.client_hosts.begin(), policy.client_hosts.end(),
        [&](std::string const& glob) { return glob_match(to_lower_ascii(glob), host); });
}

/// The host of a filled URL, bracket-less and in lower case ("" when it does not parse).
std::string host_of(std::string_view url)
{
    auto parsed = urls::parse_absolute_uri(url);
    if (!parsed) {
        return {};
    }
    std::string host(parsed->encoded_host());
    if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
        host = host.substr(1, host.size() - 2);
    }
    return to_lower_ascii(host);
}

/// A host a client's own secret names: only one the operator allows, and (unless allowed too)
/// never a loopback, private or link-local address, which the connection checks after
/// resolving the name (security review 3, item 2).
tool_result<void> check_client_host(toolkit_spec const& toolkit, secret_transmission const& rule,
    prepared_request& prepared, url_secret_policy const& policy)
{
    if (!client_may_name(host_of(prepared.request.url), policy)) {
        return refuse(std::string(toolkit.name) + ": the secret " + std::string(rule.secret)
            + " came with the request or the client's own credentials and names a host this "
              "server does not let clients choose (the operator allows hosts with "
              "--client-host-allow); nothing was sent");
    }
    prepared.request.public_addresses_only = !policy.client_private_addresses;
    return {};
}

/// Fills a `{SECRET}` URL placeholder. The host it names is a secret too: the error names
/// the toolkit and the variable only (docs/decisions.md).
tool_result<void> fill_url_secret(toolkit_spec const& toolkit, secret_transmission const& rule,
    std::string value, prepared_request& prepared, url_secret_policy const& policy)
{
    auto const unusable = [&](std::string_view expected) {
        return refuse(std::string(toolkit.name) + ": the secret " + std::string(rule.secret)
            + " is not usable: expected " + std::string(expected) + "; nothing was sent");
    };
    if (rule.name == "host") {
        if (!is_host_label(value)) {
            return unusable("the account's host name label (letters, digits and '-')");
        }
        prepared.redactions.push_back(value);
    } else {
        while (value.ends_with('/')) {
            value.pop_back();
        }
        auto parsed = urls::parse_absolute_uri(value);
        bool const usable = parsed
            && (parsed->scheme_id() == urls::scheme::https
                || parsed->scheme_id() == urls::scheme::http)
            && !parsed->encoded_host().empty() && !parsed->has_userinfo() && !parsed->has_query()
            && !parsed->has_fragment();
        if (!usable) {
            return unusable("an http(s) URL: scheme://host[:port], no query");
        }
        if (!policy.allow_insecure_http && is_insecure_remote_url(value)) {
            return refuse(std::string(toolkit.name) + ": the secret " + std::string(rule.secret)
                + " is an http:// URL of a host that is not loopback, so the "
                  "credentials would travel unencrypted; use https://, or start "
                  "toolgate with --allow-insecure-upstream; nothing was sent");
        }
        prepared.redactions.push_back(value);
        prepared.redactions.push_back(std::string(parsed->encoded_authority()));
        prepared.redactions.push_back(std::string(parsed->encoded_host()));
    }
    prepared.host_variables.emplace_back(rule.secret);
    auto& url = prepared.request.url;
    auto const key = placeholder(rule.secret);
    for (auto pos = url.find(key); pos != std::string::npos; pos = url.find(key, pos)) {
        url.replace(pos, key.size(), value);
        pos += value.size();
    }
    if (rule.name == "host") {
        // The whole host too: a short label is masked only as a word of its own, and the
        // host name is what transport errors quote (common/masking.hpp).
        if (auto filled = urls::parse_absolute_uri(url)) {
            prepared.redactions.emplace_back(filled->encoded_host());
        }
    }
    return {};
}

/// A credential too short to be real, or to be kept out of results: masking it would eat the
/// letters of ordinary words (security review 3, item 19), so it is never sent.
tool_result<void> check_length(
    toolkit_spec const& toolkit, secret_transmission const& rule, std::string const& value)
{
    if (rule.in == "url" || value.size() >= common::min_masked_length) {
        return {};
    }
    return refuse(std::string(toolkit.name) + ": the secret " + std::string(rule.secret)
        + " is shorter than " + std::to_string(common::min_masked_length)
        + " characters, too short to be a real credential or to be kept out of results; "
          "set its real value and call again; nothing was sent");
}

void add_credential(
    secret_transmission const& rule, std::string const& value, prepared_request& prepared)
{
    auto& request = prepared.request;
    prepared.redactions.push_back(value);
    prepared.credential_values.push_back(value);
    prepared.credential_variables.emplace_back(rule.secret);
    if (rule.in == "query") {
        auto encoded = urls::encode(value, urls::unreserved_chars);
        request.url += request.url.find('?') == std::string::npos ? '?' : '&';
        request.url += std::string(rule.name) + "=" + encoded;
        request.secret_query.emplace_back(rule.name);
        prepared.credential_values.push_back(encoded);
        prepared.redactions.push_back(std::move(encoded));
        return;
    }
    std::string header_value;
    if (rule.in == "basic") {
        // Username = the key, empty password (the platform ignores the password).
        auto encoded = common::base64_encode(value + ":");
        header_value = "Basic " + encoded;
        prepared.credential_values.push_back(encoded);
        prepared.redactions.push_back(std::move(encoded));
    } else {
        header_value = apply_format(rule.format, value);
    }
    request.headers.emplace_back(std::string(rule.name), std::move(header_value));
    request.secret_headers.push_back(to_lower_ascii(rule.name));
}

} // namespace

tool_result<void> authenticate(toolkit_spec const& toolkit, tool_spec const& tool,
    credential_source const& credentials, prepared_request& prepared,
    url_secret_policy const& policy)
{
    // Look everything up first, so that one error names every missing variable.
    std::vector<std::pair<secret_transmission const*, std::string>> found;
    std::vector<std::string_view> missing;
    for (auto const& rule : toolkit.transmission) {
        // A URL placeholder must be filled whatever the tool lists; other credentials go only
        // to tools that list them (the engine's health check and OpenAPI document list none).
        bool const wanted = contains(tool.secrets, rule.secret) || rule.in == "url";
        if (!is_variable_name(rule.secret) || !wanted || !is_needed(rule, prepared)) {
            continue;
        }
        if (auto value = credentials.find(rule.secret)) {
            found.emplace_back(&rule, std::move(*value));
        } else {
            missing.push_back(rule.secret);
        }
    }
    if (!missing.empty()) {
        std::string names;
        for (std::size_t i = 0; i < missing.size(); ++i) {
            names += i == 0 ? "" : (i + 1 == missing.size() ? " and " : ", ");
            names += missing[i];
        }
        return refuse(std::string(toolkit.name) + "." + std::string(tool.name) + " needs " + names
            + ", which " + (missing.size() == 1 ? "is" : "are") + " not set: "
            + credentials.missing_hint(missing.size() != 1) + " and call again; nothing was sent");
    }
    for (auto const& [rule, value] : found) {
        if (auto usable = check_length(toolkit, *rule, value); !usable) {
            return usable.error();
        }
    }
    // URL secrets first: they are the ones that can still be refused (malformed values).
    for (auto& [rule, value] : found) {
        if (rule->in != "url") {
            continue;
        }
        if (auto filled = fill_url_secret(toolkit, *rule, std::move(value), prepared, policy);
            !filled) {
            return filled.error();
        }
        if (credentials.from_client(rule->secret)) {
            if (auto allowed = check_client_host(toolkit, *rule, prepared, policy); !allowed) {
                return allowed.error();
            }
        }
    }
    for (auto& [rule, value] : found) {
        if (rule->in != "url") {
            add_credential(*rule, value, prepared);
        }
    }
    return {};
}

} // namespace toolgate::toolkits
