// Authorization URLs, token requests and the tenants list (see oauth_client.hpp).
#include "credentials/oauth_client.hpp"

#include "common/ascii.hpp"
#include "common/base64.hpp"
#include "common/masking.hpp"
#include "common/random.hpp"
#include "toolkits/base_url.hpp"
#include "toolkits/request_body.hpp"

#include <boost/json/parse.hpp>
#include <boost/url/encode.hpp>
#include <boost/url/parse.hpp>
#include <boost/url/rfc/unreserved_chars.hpp>
#include <boost/url/scheme.hpp>
#include <boost/url/url_view.hpp>
#include <fmt/format.h>
#include <openssl/evp.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace toolgate::credentials {
namespace json = boost::json;
namespace urls = boost::urls;

namespace {

/// Longer tokens than this are refused: real ones (JWTs with many claims) stay within a few
/// kilobytes, and each is sent in a header on every call.
constexpr std::size_t max_token_length = 8192;
/// `expires_in` is kept within these bounds: 0, a negative number or a second would mean a
/// renewal on every call; a century (or 2^63 - 1) would overflow the expiry time.
constexpr std::int64_t min_lifetime = 60;
constexpr std::int64_t max_lifetime = 366LL * 24 * 3600;

std::string encode(std::string_view text)
{
    return urls::encode(text, urls::unreserved_chars);
}

std::string encode_form(std::vector<std::pair<std::string, std::string>> const& fields)
{
    std::string out;
    for (auto const& [name, value] : fields) {
        out += out.empty() ? "" : "&";
        out += encode(name) + "=" + encode(value);
    }
    return out;
}

std::string origin_of(std::string const& url)
{
    auto parsed = urls::parse_absolute_uri(url);
    if (!parsed) {
        return "the endpoint";
    }
    return std::string(parsed->scheme()) + "://" + std::string(parsed->encoded_authority());
}

/// What the server says about an error, made safe to show: printable ASCII, cut short, with
/// any secret we sent masked (a server could echo one).
std::string safe_text(std::string_view text, std::vector<std::string> const& secrets)
{
    // Masked before it is cut: a cut through a secret would leave its first part readable.
    auto const masked = common::mask_secrets(std::string(text), secrets);
    std::string out;
    for (char c : std::string_view(masked).substr(0, 200)) {
        out += (c >= 0x20 && c < 0x7f) ? c : ' ';
    }
    return out;
}

std::string string_member(json::object const& o, std::string_view key)
{
    auto const* v = o.if_contains(key);
    return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

/// `expires_in` as a number of seconds: an integer, a number or a numeric string (some
/// servers send strings). nullopt when absent or not a number at all.
std::optional<double> seconds_member(json::object const& o, std::string_view key)
{
    auto const* v = o.if_contains(key);
    if (v == nullptr) {
        return std::nullopt;
    }
    if (v->is_int64()) {
        return static_cast<double>(v->get_int64());
    }
    if (v->is_uint64()) {
        return static_cast<double>(v->get_uint64());
    }
    if (v->is_double()) {
        return v->get_double();
    }
    if (v->is_string()) {
        char* end = nullptr;
        auto const n = std::strtod(v->get_string().c_str(), &end);
        if (end != v->get_string().c_str()) {
            return n;
        }
    }
    return std::nullopt;
}

/// Why a token the endpoint sent cannot be used, or "" when it can: visible ASCII only (RFC
/// 6749 §A.12 VSCHAR without the space, which a Bearer header could not carry) and of a sane
/// length (security review 3, item 10). A CR or LF would split the header it is sent in.
std::string token_problem(std::string_view token)
{
    if (token.size() < common::min_masked_length) {
        return fmt::format("shorter than {} characters", common::min_masked_length);
    }
    if (token.size() > max_token_length) {
        return fmt::format("longer than {} characters", max_token_length);
    }
    bool const visible = std::all_of(token.begin(), token.end(), [](char c) {
        auto const u = static_cast<unsigned char>(c);
        return u > 0x20 && u < 0x7f;
    });
    return visible ? std::string() : "it holds spaces, control characters or non-ASCII bytes";
}

std::optional<json::object> parse_object(std::string_view body)
{
    boost::system::error_code ec;
    auto value = json::parse(body, ec);
    if (ec || !value.is_object()) {
        return std::nullopt;
    }
    return std::move(value.get_object());
}

std::string sha256(std::string_view text)
{
    unsigned char digest[32];
    unsigned int size = 0;
    EVP_Digest(text.data(), text.size(), digest, &size, EVP_sha256(), nullptr);
    return std::string(reinterpret_cast<char const*>(digest), size);
}

} // namespace

std::string endpoint_variable(std::string_view kind, std::string_view toolkit)
{
    std::string name = "TOOLGATE_OAUTH_" + std::string(kind) + "_URL_";
    for (char c : toolkit) {
        name += std::isalnum(static_cast<unsigned char>(c)) ? common::to_upper_ascii(c) : '_';
    }
    return name;
}

oauth_endpoints endpoints_for(toolkits::oauth_provider const& provider, bool allow_insecure)
{
    auto const pick = [&](std::string_view kind, std::string_view published) {
        auto const variable = endpoint_variable(kind, provider.toolkit);
        char const* value = std::getenv(variable.c_str());
        if (value == nullptr || *value == '\0') {
            return std::string(published);
        }
        auto parsed = urls::parse_absolute_uri(value);
        bool const web = parsed
            && (parsed->scheme_id() == urls::scheme::https
                || parsed->scheme_id() == urls::scheme::http);
        if (!web || parsed->encoded_host().empty() || parsed->has_userinfo()) {
            throw std::invalid_argument(
                fmt::format("{}: expected an absolute https:// URL", variable));
        }
        if (!allow_insecure && toolkits::is_insecure_remote_url(value)) {
            throw std::invalid_argument(fmt::format(
                "{}: plain http:// to a host that is not loopback would send credentials "
                "unencrypted; use https://, or pass --allow-insecure-upstream",
                variable));
        }
        return std::string(value);
    };
    oauth_endpoints out;
    out.authorize = pick("AUTHORIZE", provider.authorize_url);
    out.token = pick("TOKEN", provider.token_url);
    out.tenants = pick("TENANTS", provider.tenants_url);
    return out;
}

std::string random_token(std::size_t bytes)
{
    return common::base64url_encode(common::random_bytes(bytes));
}

pkce_pair make_pkce()
{
    pkce_pair p;
    p.verifier = random_token(32); // 43 characters, the RFC 7636 minimum length
    p.challenge = common::base64url_encode(sha256(p.verifier));
    return p;
}

oauth_client::oauth_client(transport::outbound_client& client,
    toolkits::oauth_provider const& provider, oauth_endpoints endpoints, clock now)
    : client_(client)
    , provider_(provider)
    , endpoints_(std::move(endpoints))
    , now_(std::move(now))
{
}

std::string oauth_client::authorize_url(std::string const& client_id,
    std::string const& redirect_uri, std::string const& state, std::string const& challenge,
    std::string scopes) const
{
    std::vector<std::pair<std::string, std::string>> query = {
        { "response_type", "code" },
        { "client_id", client_id },
        { "redirect_uri", redirect_uri },
        { "state", state },
        { "code_challenge", challenge },
        { "code_challenge_method", "S256" },
    };
    if (scopes.empty()) {
        scopes = toolkits::requested_scopes(provider_);
    }
    if (!scopes.empty()) {
        query.emplace_back("scope", std::move(scopes));
    }
    auto const separator = endpoints_.authorize.find('?') == std::string::npos ? '?' : '&';
    return endpoints_.authorize + separator + encode_form(query);
}

boost::asio::awaitable<token_grant> oauth_client::exchange_code(
    client_identity client, std::string code, std::string verifier, std::string redirect_uri)
{
    form fields = {
        { "grant_type", "authorization_code" },
        { "code", code },
        { "redirect_uri", redirect_uri },
        { "code_verifier", verifier },
    };
    // Named: no braced lists inside a co_await operand (g++ 12).
    std::vector<std::string> secrets = { code, verifier };
    co_return co_await request(
        std::move(client), std::move(fields), "authorization_code", std::move(secrets));
}

boost::asio::awaitable<token_grant> oauth_client::refresh(
    client_identity client, token_entry current)
{
    form fields = {
        { "grant_type", "refresh_token" },
        { "refresh_token", current.refresh_token },
    };
    std::vector<std::string> secrets = { current.refresh_token, current.access_token };
    auto grant
        = co_await request(std::move(client), std::move(fields), current.grant, std::move(secrets));
    if (grant.state == token_grant::outcome::granted && grant.entry.refresh_token.empty()) {
        grant.entry.refresh_token = current.refresh_token; // not rotated: keep using it
    }
    co_return grant;
}

boost::asio::awaitable<token_grant> oauth_client::client_credentials(
    client_identity client, std::string subject_type, std::string subject_id)
{
    form fields = { { "grant_type", "client_credentials" } };
    if (provider_.credentials_need_subject) {
        // The storage platform acts for an enterprise's service account or one user.
        fields.emplace_back("box_subject_type", subject_type);
        fields.emplace_back("box_subject_id", subject_id);
    }
    std::vector<std::string> no_secrets;
    auto grant = co_await request(
        std::move(client), std::move(fields), "client_credentials", std::move(no_secrets));
    grant.entry.subject_type = std::move(subject_type);
    grant.entry.subject_id = std::move(subject_id);
    co_return grant;
}

boost::asio::awaitable<token_grant> oauth_client::request(
    client_identity client, form fields, std::string grant, std::vector<std::string> secrets)
{
    transport::outbound_request req;
    req.method = "POST";
    req.url = endpoints_.token;
    req.headers.emplace_back("Content-Type", "application/x-www-form-urlencoded");
    req.headers.emplace_back("Accept", "application/json");
    if (!client.secret.empty() && provider_.client_auth == toolkits::client_authentication::basic) {
        // RFC 6749 §2.3.1: both parts form-encoded before Basic.
        auto const basic = common::base64_encode(encode(client.id) + ":" + encode(client.secret));
        req.headers.emplace_back("Authorization", "Basic " + basic);
        req.secret_headers.emplace_back("authorization");
        secrets.push_back(basic);
    } else {
        fields.emplace_back("client_id", client.id);
        if (!client.secret.empty()) {
            fields.emplace_back("client_secret", client.secret);
        }
    }
    secrets.push_back(client.secret);
    req.body = encode_form(fields);
    req.log_redactions = secrets;
    auto const started = now_();
    auto result = co_await client_.send(req);

    token_grant out;
    auto const where = origin_of(endpoints_.token);
    if (result.failure != transport::outbound_failure::none) {
        out.problem = fmt::format("the token endpoint {} could not be reached: {}", where,
            safe_text(result.detail, secrets));
        co_return out;
    }
    auto const& response = result.response;
    auto body = parse_object(response.body);
    if (response.status >= 200 && response.status < 300 && body
        && !string_member(*body, "access_token").empty()) {
        out.entry = granted_entry(*body, std::move(grant), started);
        out.problem = usable_problem(out.entry, where);
        out.state
            = out.problem.empty() ? token_grant::outcome::granted : token_grant::outcome::failed;
        if (!out.problem.empty()) {
            out.entry = {}; // nothing of an unusable answer is kept
        }
        co_return out;
    }
    auto const error = body ? string_member(*body, "error") : std::string();
    if (!error.empty() && response.status >= 400 && response.status < 500
        && response.status != 429) {
        // RFC 6749 §5.2: the server refused the request itself; repeating it will not help.
        out.state = token_grant::outcome::refused;
        out.error = safe_text(error, secrets);
        auto description = safe_text(string_member(*body, "error_description"), secrets);
        out.problem = fmt::format("the token endpoint {} answered {} ({}){}", where,
            response.status, out.error, description.empty() ? "" : ": " + description);
        co_return out;
    }
    out.problem = fmt::format(
        "the token endpoint {} answered HTTP {} without tokens", where, response.status);
    co_return out;
}

token_entry oauth_client::granted_entry(
    json::object const& body, std::string grant, std::int64_t started) const
{
    token_entry e;
    e.grant = std::move(grant);
    e.access_token = string_member(body, "access_token");
    e.refresh_token = string_member(body, "refresh_token");
    e.scope = string_member(body, "scope");
    e.obtained_at = started;
    auto const lifetime = seconds_member(body, "expires_in");
    auto seconds = static_cast<double>(provider_.default_lifetime);
    if (lifetime && std::isfinite(*lifetime)) {
        seconds = *lifetime;
    }
    // Clamped as a double first: casting 1e30 to an integer would be undefined.
    seconds = std::clamp(seconds, double(min_lifetime), double(max_lifetime));
    e.expires_at = started + static_cast<std::int64_t>(seconds);
    return e;
}

std::string oauth_client::usable_problem(token_entry const& entry, std::string const& where)
{
    if (auto why = token_problem(entry.access_token); !why.empty()) {
        return fmt::format(
            "the token endpoint {} answered with an unusable access token ({})", where, why);
    }
    if (entry.refresh_token.empty()) {
        return {};
    }
    if (auto why = token_problem(entry.refresh_token); !why.empty()) {
        return fmt::format(
            "the token endpoint {} answered with an unusable refresh token ({})", where, why);
    }
    return {};
}

boost::asio::awaitable<tenant_list> oauth_client::tenants(std::string access_token)
{
    tenant_list out;
    if (endpoints_.tenants.empty()) {
        out.problem = std::string(provider_.toolkit) + " has no tenants to list";
        co_return out;
    }
    transport::outbound_request req;
    req.method = "GET";
    req.url = endpoints_.tenants;
    req.headers.emplace_back("Authorization", "Bearer " + access_token);
    req.headers.emplace_back("Accept", "application/json");
    req.secret_headers.emplace_back("authorization");
    req.log_redactions.push_back(access_token);
    auto result = co_await client_.send(req);
    auto const where = origin_of(endpoints_.tenants);
    if (result.failure != transport::outbound_failure::none) {
        out.problem = fmt::format(
            "{} could not be reached: {}", where, safe_text(result.detail, { access_token }));
        co_return out;
    }
    out.status = result.response.status;
    boost::system::error_code ec;
    auto value = json::parse(result.response.body, ec);
    if (out.status != 200 || ec || !value.is_array()) {
        out.problem = fmt::format("{} answered HTTP {}{}", where, out.status,
            out.status == 200 ? " with something other than a list" : "");
        co_return out;
    }
    for (auto const& item : value.get_array()) {
        if (!item.is_object()) {
            continue;
        }
        auto const& o = item.get_object();
        out.tenants.push_back({ string_member(o, "tenantId"), string_member(o, "tenantName"),
            string_member(o, "tenantType") });
    }
    out.ok = true;
    co_return out;
}

} // namespace toolgate::credentials
