// Bearer token checks, challenges (RFC 6750 §3, MCP auth §Error Handling) and Protected
// Resource Metadata (RFC 9728). Rule ids (A…) refer to docs/protocol-rules.md.
#include "auth/client_auth.hpp"

#include "common/ascii.hpp"
#include "common/split_list.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>
#include <fmt/format.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <stdexcept>

namespace toolgate::auth {
namespace json = boost::json;
using verdict = auth_decision::verdict;

namespace {

constexpr std::string_view well_known = "/.well-known/oauth-protected-resource";

std::array<unsigned char, 32> sha256(std::string_view text)
{
    std::array<unsigned char, 32> digest {};
    unsigned int size = 0;
    EVP_Digest(text.data(), text.size(), digest.data(), &size, EVP_sha256(), nullptr);
    return digest;
}

/// A quoted-string for a challenge parameter; our values never hold quotes, but be safe.
std::string quoted(std::string_view value)
{
    std::string out = "\"";
    for (char c : value) {
        if (c == '"' || c == '\\') {
            out += '\\';
        }
        out += c;
    }
    return out + "\"";
}

std::string join(std::vector<std::string> const& items, std::string_view sep)
{
    std::string out;
    for (auto const& item : items) {
        if (!out.empty()) {
            out += sep;
        }
        out += item;
    }
    return out;
}

/// A query parameter that carries a token (RFC 6750 §2.3): we refuse those (A4).
bool has_query_token(std::string_view target)
{
    auto const q = target.find('?');
    if (q == std::string_view::npos) {
        return false;
    }
    std::string_view rest = target.substr(q + 1);
    while (!rest.empty()) {
        auto const amp = rest.find('&');
        if (rest.substr(0, amp).starts_with("access_token=")) {
            return true;
        }
        if (amp == std::string_view::npos) {
            break;
        }
        rest.remove_prefix(amp + 1);
    }
    return false;
}

std::string oauth_error_body(std::string_view error, std::string_view description)
{
    json::object body;
    body["error"] = error;
    body["error_description"] = description;
    return json::serialize(body);
}

bool is_wildcard_host(std::string const& host)
{
    return host == "0.0.0.0" || host == "::" || host == "[::]" || host.empty();
}

} // namespace

std::vector<std::string> read_token_file(std::string const& path)
{
    std::ifstream file(path);
    if (!file) {
        throw std::invalid_argument(fmt::format("--auth-token-file: cannot read {}", path));
    }
    std::vector<std::string> out;
    std::string line;
    while (std::getline(file, line)) {
        auto const token = common::trim_blanks(line);
        if (!token.empty() && !token.starts_with('#')) {
            out.emplace_back(token);
        }
    }
    return out;
}

std::pair<std::string, std::string> split_label(std::string_view entry)
{
    entry = common::trim_blanks(entry);
    auto const blank = entry.find_first_of(" \t");
    if (blank == std::string_view::npos) {
        return { std::string(), std::string(entry) };
    }
    auto const label = entry.substr(0, blank);
    auto const token = common::trim_blanks(entry.substr(blank + 1));
    bool const good = label.size() <= 64 && std::all_of(label.begin(), label.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '_' || c == '@'
            || c == '-';
    });
    if (!good || token.empty() || token.find_first_of(" \t") != std::string_view::npos) {
        // Neither part is quoted: either could be the token.
        throw std::invalid_argument("a client token entry must be `<token>` or `<label> <token>`, "
                                    "the label made of letters, digits, '.', '_', '@' and '-' "
                                    "(at most 64)");
    }
    return { std::string(label), std::string(token) };
}

void static_tokens::add(std::string_view token, std::string label)
{
    digests_.push_back(sha256(token));
    labels_.push_back(std::move(label));
}

std::optional<std::string> static_tokens::match(std::string_view token) const
{
    auto const digest = sha256(token);
    std::size_t found = digests_.size();
    for (std::size_t i = 0; i < digests_.size(); ++i) {
        // No early exit: every digest is compared whichever one matches.
        bool const equal = CRYPTO_memcmp(digest.data(), digests_[i].data(), digest.size()) == 0;
        found = equal ? i : found;
    }
    if (found == digests_.size()) {
        return std::nullopt;
    }
    if (!labels_[found].empty()) {
        return "static:" + labels_[found];
    }
    // A short prefix of the digest names the token in logs and binds sessions to it; it tells
    // nothing useful about a token of reasonable length.
    return fmt::format("static:{:02x}{:02x}{:02x}{:02x}", digests_[found][0], digests_[found][1],
        digests_[found][2], digests_[found][3]);
}

std::string canonical_url(std::string const& host, std::uint16_t port, std::string const& path)
{
    std::string h = common::to_lower_ascii(host);
    if (h.find(':') != std::string::npos && !h.starts_with('[')) {
        h = "[" + h + "]";
    }
    return fmt::format("http://{}:{}{}", h, port, path);
}

namespace {

/// The settings the flags and TOOLGATE_AUTH_TOKENS describe; nullopt when they configure no
/// client authentication. Throws std::invalid_argument on bad configuration.
std::optional<auth_settings> settings_from(client_auth_options const& options)
{
    auth_settings settings;
    std::vector<std::string> tokens;
    if (!options.token_file.empty()) {
        tokens = read_token_file(options.token_file);
        if (tokens.empty()) {
            throw std::invalid_argument(
                fmt::format("--auth-token-file {} holds no token", options.token_file));
        }
    }
    if (char const* env = std::getenv("TOOLGATE_AUTH_TOKENS"); env && *env) {
        auto more = common::split_list(env);
        tokens.insert(tokens.end(), more.begin(), more.end());
    }
    for (auto const& entry : tokens) {
        auto [label, token] = split_label(entry);
        if (token.size() < 16) {
            spdlog::warn("a static client token is shorter than 16 characters; use long random "
                         "tokens (e.g. openssl rand -hex 32)");
        }
        settings.tokens.add(token, std::move(label));
    }
    if (!options.jwks_file.empty()) {
        if (options.issuer.empty()) {
            throw std::invalid_argument("--oauth-jwks-file needs --oauth-issuer");
        }
        if (options.audience.empty() && is_wildcard_host(options.host)) {
            throw std::invalid_argument(
                fmt::format("--host {} is a wildcard: set --oauth-audience to the URL clients use",
                    options.host));
        }
        jwt_policy policy;
        policy.issuer = options.issuer;
        policy.audience = options.audience;
        policy.leeway = options.leeway;
        auto keys = jwks::from_file(options.jwks_file);
        spdlog::debug(
            "oauth: {} verification key(s) loaded, {} skipped", keys.keys().size(), keys.skipped());
        settings.jwt.emplace(std::move(keys), std::move(policy));
        // Scopes are space-separated (RFC 6749 §3.3); commas and tabs are accepted too, since
        // a scope holds none of them and operators write lists with commas elsewhere.
        settings.required_scopes = common::split_list(options.scopes, " ,\t");
        settings.authorization_servers = options.authorization_servers;
        if (settings.authorization_servers.empty()) {
            settings.authorization_servers.push_back(options.issuer);
        }
    } else if (!options.issuer.empty() || !options.audience.empty() || !options.scopes.empty()
        || !options.authorization_servers.empty()) {
        throw std::invalid_argument("the --oauth-* flags need --oauth-jwks-file");
    }
    if (settings.tokens.size() == 0 && !settings.jwt) {
        return std::nullopt;
    }
    return settings;
}

} // namespace

std::unique_ptr<client_auth> client_auth::from_options(client_auth_options const& options)
{
    auto settings = settings_from(options);
    if (!settings) {
        return nullptr;
    }
    auto auth = std::make_unique<client_auth>(std::move(*settings));
    if (!options.audience.empty()) {
        auth->set_resource(options.audience);
    }
    return auth;
}

client_auth::client_auth(auth_settings settings)
    : settings_(std::make_shared<auth_settings const>(std::move(settings)))
{
    if (settings_->jwt) {
        resource_ = settings_->jwt->policy().audience;
    }
}

std::shared_ptr<auth_settings const> client_auth::current() const
{
    std::lock_guard lock(mutex_);
    return settings_;
}

void client_auth::set_resource(std::string url)
{
    resource_ = std::move(url);
    std::lock_guard lock(mutex_);
    if (settings_->jwt) {
        auto copy = *settings_;
        copy.jwt->set_audience(resource_);
        settings_ = std::make_shared<auth_settings const>(std::move(copy));
    }
}

std::string client_auth::reload(client_auth_options const& options)
{
    auto settings = settings_from(options);
    if (!settings) {
        throw std::invalid_argument(
            "the files now configure no client authentication; keeping the current settings");
    }
    if (settings->jwt) {
        settings->jwt->set_audience(resource_); // the server's URL has not changed
    }
    auto summary = fmt::format(
        "{} static token(s), OAuth {}", settings->tokens.size(), settings->jwt ? "on" : "off");
    auto fresh = std::make_shared<auth_settings const>(std::move(*settings));
    std::lock_guard lock(mutex_);
    settings_ = std::move(fresh);
    return summary;
}

std::string client_auth::metadata_url() const
{
    // RFC 9728 §3.1: insert the well-known segment between the host and the path.
    auto const scheme_end = resource_.find("://");
    auto const path_start
        = scheme_end == std::string::npos ? std::string::npos : resource_.find('/', scheme_end + 3);
    if (path_start == std::string::npos) {
        return resource_ + std::string(well_known);
    }
    auto path = resource_.substr(path_start);
    if (path == "/") {
        path.clear();
    }
    return resource_.substr(0, path_start) + std::string(well_known) + path;
}

auth_decision client_auth::check(transport::http_request const& request) const
{
    if (has_query_token(request.target)) {
        return { verdict::bad_request, {}, "token in the query string" };
    }
    std::string const* authorization = nullptr;
    for (auto const& [name, value] : request.headers) {
        if (name == "authorization") {
            if (authorization) {
                return { verdict::bad_request, {}, "more than one Authorization header" };
            }
            authorization = &value;
        }
    }
    if (!authorization) {
        return { verdict::missing, {}, "no Authorization header" };
    }
    auto const value = common::trim_blanks(*authorization);
    if (!common::istarts_with_ascii(value, "bearer ")
        && !common::istarts_with_ascii(value, "bearer\t")) {
        return { verdict::missing, {}, "Authorization is not a Bearer token" };
    }
    auto const token = common::trim_blanks(value.substr(7));
    if (token.empty()) {
        return { verdict::invalid, {}, "empty bearer token" };
    }
    auto const settings = current();
    if (auto principal = settings->tokens.match(token)) {
        return { verdict::allowed, std::move(*principal), {} };
    }
    if (!settings->jwt) {
        return { verdict::invalid, {}, "unknown token" };
    }
    jwt_error error;
    auto claims = settings->jwt->validate(token, error);
    if (!claims) {
        return { verdict::invalid, {}, std::move(error.reason) };
    }
    auto principal = fmt::format("jwt:{}", claims->subject);
    for (auto const& needed : settings->required_scopes) {
        if (std::find(claims->scopes.begin(), claims->scopes.end(), needed)
            == claims->scopes.end()) {
            return { verdict::insufficient_scope, std::move(principal), "insufficient scope" };
        }
    }
    return { verdict::allowed, std::move(principal), {}, std::move(claims->scopes) };
}

std::string client_auth::challenge(
    auth_decision const& decision, auth_settings const& settings) const
{
    std::vector<std::string> params;
    switch (decision.result) {
    case verdict::invalid:
        params.push_back("error=\"invalid_token\"");
        params.push_back("error_description="
            + quoted(decision.reason.empty() ? "invalid token" : decision.reason));
        break;
    case verdict::insufficient_scope:
        params.push_back("error=\"insufficient_scope\"");
        break;
    case verdict::bad_request:
        params.push_back("error=\"invalid_request\"");
        break;
    default:
        break;
    }
    if (settings.jwt) {
        // A3/A9: say which scopes to ask for, and where the metadata is (A2).
        if (!settings.required_scopes.empty()) {
            params.push_back("scope=" + quoted(join(settings.required_scopes, " ")));
        }
        params.push_back("resource_metadata=" + quoted(metadata_url()));
    } else {
        params.insert(params.begin(), "realm=\"toolgate\"");
    }
    return "Bearer " + join(params, ", ");
}

client_auth::answer client_auth::refuse(auth_decision const& decision) const
{
    auto const settings = current();
    answer out;
    std::string error = "invalid_token";
    std::string description = "The bearer token is invalid or expired";
    switch (decision.result) {
    case verdict::missing:
        out.status = 401;
        error = "unauthorized";
        description = "Authorization: Bearer <token> is required";
        break;
    case verdict::invalid:
        out.status = 401;
        break;
    case verdict::insufficient_scope:
        out.status = 403;
        error = "insufficient_scope";
        description = fmt::format(
            "The token lacks a required scope ({})", join(settings->required_scopes, " "));
        break;
    case verdict::bad_request:
        out.status = 400;
        error = "invalid_request";
        description = fmt::format("Malformed authorization: {}; send one Authorization: Bearer "
                                  "header",
            decision.reason);
        break;
    case verdict::allowed:
        break;
    }
    out.headers.emplace_back("WWW-Authenticate", challenge(decision, *settings));
    out.headers.emplace_back("Content-Type", "application/json");
    out.body = oauth_error_body(error, description);
    return out;
}

std::optional<client_auth::answer> client_auth::metadata(
    std::string_view path, std::string_view mcp_path) const
{
    auto const settings = current();
    if (!settings->jwt || !path.starts_with(well_known)) {
        return std::nullopt;
    }
    auto const suffix = path.substr(well_known.size());
    auto const resource_path
        = metadata_url().substr(metadata_url().find(well_known) + well_known.size());
    if (!suffix.empty() && suffix != mcp_path && suffix != resource_path) {
        return std::nullopt;
    }
    json::object doc;
    doc["resource"] = resource_;
    json::array servers;
    for (auto const& s : settings->authorization_servers) {
        servers.emplace_back(s);
    }
    doc["authorization_servers"] = std::move(servers);
    json::array scopes;
    for (auto const& s : settings->required_scopes) {
        if (s != "offline_access") { // §11 (docs/protocol-rules.md): leave it out
            scopes.emplace_back(s);
        }
    }
    if (!scopes.empty()) {
        doc["scopes_supported"] = std::move(scopes);
    }
    doc["bearer_methods_supported"] = json::array { "header" };
    doc["resource_name"] = "toolgate";
    answer out;
    out.status = 200;
    out.headers = { { "Content-Type", "application/json" }, { "Cache-Control", "max-age=300" },
        { "Access-Control-Allow-Origin", "*" } };
    out.body = json::serialize(doc);
    return out;
}

} // namespace toolgate::auth
