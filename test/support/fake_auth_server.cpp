// The fake authorization server (see fake_auth_server.hpp). Tokens are random; their state
// lives under one mutex, since the fake platform answers on its own thread.
#include "support/fake_auth_server.hpp"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <atomic>
#include <cstdio>

namespace toolgate::test {

namespace {

std::string base64url(unsigned char const* data, std::size_t size)
{
    static constexpr char alphabet[]
        = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    std::string out;
    std::size_t i = 0;
    for (; i + 2 < size; i += 3) {
        unsigned const n = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
        out += alphabet[(n >> 18) & 63];
        out += alphabet[(n >> 12) & 63];
        out += alphabet[(n >> 6) & 63];
        out += alphabet[n & 63];
    }
    if (size - i == 1) {
        unsigned const n = data[i] << 16;
        out += alphabet[(n >> 18) & 63];
        out += alphabet[(n >> 12) & 63];
    } else if (size - i == 2) {
        unsigned const n = (data[i] << 16) | (data[i + 1] << 8);
        out += alphabet[(n >> 18) & 63];
        out += alphabet[(n >> 12) & 63];
        out += alphabet[(n >> 6) & 63];
    }
    return out;
}

std::string random_text(std::string const& prefix)
{
    unsigned char bytes[18];
    RAND_bytes(bytes, sizeof bytes);
    return prefix + base64url(bytes, sizeof bytes);
}

std::string base64_decode(std::string const& text)
{
    std::string out((text.size() / 4 + 1) * 3, '\0');
    int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
        reinterpret_cast<unsigned char const*>(text.data()), static_cast<int>(text.size()));
    if (n < 0) {
        return {};
    }
    out.resize(static_cast<std::size_t>(n));
    // EVP_DecodeBlock counts each '=' of padding as a zero byte.
    for (auto it = text.rbegin(); it != text.rend() && *it == '=' && !out.empty(); ++it) {
        out.pop_back();
    }
    return out;
}

int hex(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

std::string decode(std::string_view text)
{
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '+') {
            out += ' ';
        } else if (text[i] == '%' && i + 2 < text.size() + 0 && hex(text[i + 1]) >= 0
            && hex(text[i + 2]) >= 0) {
            out += static_cast<char>(hex(text[i + 1]) * 16 + hex(text[i + 2]));
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

fake_response json_answer(unsigned status, std::string body)
{
    fake_response r;
    r.status = status;
    r.headers = { { "Content-Type", "application/json" }, { "Cache-Control", "no-store" } };
    r.body = std::move(body);
    return r;
}

fake_response oauth_error(unsigned status, std::string const& error)
{
    return json_answer(
        status, R"({"error":")" + error + R"(","error_description":"fake: )" + error + R"("})");
}

} // namespace

std::map<std::string, std::string> parse_form(std::string const& text)
{
    std::map<std::string, std::string> out;
    std::string_view rest = text;
    while (!rest.empty()) {
        auto const amp = rest.find('&');
        auto const item = rest.substr(0, amp);
        auto const eq = item.find('=');
        if (eq != std::string_view::npos) {
            out[decode(item.substr(0, eq))] = decode(item.substr(eq + 1));
        } else if (!item.empty()) {
            out[decode(item)] = "";
        }
        if (amp == std::string_view::npos) {
            break;
        }
        rest.remove_prefix(amp + 1);
    }
    return out;
}

std::string s256(std::string const& verifier)
{
    unsigned char digest[32];
    unsigned int size = 0;
    EVP_Digest(verifier.data(), verifier.size(), digest, &size, EVP_sha256(), nullptr);
    return base64url(digest, size);
}

struct fake_auth_server::state {
    explicit state(fake_auth_options o)
        : options(std::move(o))
    {
    }

    std::mutex mutex;
    fake_auth_options options;
    std::chrono::milliseconds token_delay { 0 };
    unsigned failing_status = 0;
    struct pending_code {
        std::string challenge;
        std::string redirect_uri;
    };
    std::map<std::string, pending_code> codes;
    std::map<std::string, std::chrono::steady_clock::time_point> live_access; ///< -> expiry
    std::set<std::string> live_refresh;
    std::vector<std::string> access_issued;
    std::vector<std::string> refresh_issued;
    std::vector<std::string> api_seen;
    std::map<std::string, std::size_t> grants;
    std::map<std::string, std::string> tenants { { "zq-tenant-1", "Fake Books Ltd" } };

    fake_response handle(recorded_request const& request);
    fake_response authorize(recorded_request const& request);
    fake_response token(recorded_request const& request);
    fake_response api(recorded_request const& request);
    std::string issue(bool with_refresh);
    bool client_ok(recorded_request const& request, std::map<std::string, std::string> const& form,
        bool secret_required) const;
    std::string bearer(recorded_request const& request) const;
    bool live(std::string const& token) const;
};

fake_response fake_auth_server::state::handle(recorded_request const& request)
{
    auto const path = request.path();
    if (path == "/authorize" && request.method == "GET") {
        return authorize(request);
    }
    if (path == "/token" && request.method == "POST") {
        return token(request);
    }
    return api(request);
}

fake_response fake_auth_server::state::authorize(recorded_request const& request)
{
    auto q = parse_form(request.query());
    std::lock_guard lock(mutex);
    auto const& redirect = q["redirect_uri"];
    if (redirect.empty()) {
        return json_answer(
            400, R"({"error":"invalid_request","error_description":"redirect_uri"})");
    }
    auto const separator = redirect.find('?') == std::string::npos ? "?" : "&";
    fake_response r;
    r.status = 302;
    r.body.clear();
    if (q["client_id"] != options.client_id || q["response_type"] != "code"
        || q["code_challenge_method"] != "S256" || q["code_challenge"].empty()) {
        r.headers = { { "Location",
            redirect + separator + "error=unauthorized_client&state=" + q["state"] } };
        return r;
    }
    auto code = random_text("zqCode-");
    codes[code] = { q["code_challenge"], redirect };
    r.headers = { { "Location", redirect + separator + "code=" + code + "&state=" + q["state"] } };
    return r;
}

bool fake_auth_server::state::client_ok(recorded_request const& request,
    std::map<std::string, std::string> const& form, bool secret_required) const
{
    auto const get = [&](std::string const& key) {
        auto it = form.find(key);
        return it == form.end() ? std::string() : it->second;
    };
    auto const basic = request.header("Authorization");
    if (options.basic_auth && basic.starts_with("Basic ")) {
        auto const pair = base64_decode(basic.substr(6));
        auto const colon = pair.find(':');
        return colon != std::string::npos && decode(pair.substr(0, colon)) == options.client_id
            && decode(pair.substr(colon + 1)) == options.client_secret;
    }
    if (get("client_id") != options.client_id) {
        return false;
    }
    if (options.basic_auth) {
        // A public (PKCE-only) client: no secret, and none may be needed.
        return !secret_required && get("client_secret").empty();
    }
    return get("client_secret") == options.client_secret
        || (!secret_required && get("client_secret").empty() && options.client_secret.empty());
}

std::string fake_auth_server::state::issue(bool with_refresh)
{
    auto access = random_text("zqAccess-S3CR3T-");
    live_access[access] = std::chrono::steady_clock::now() + std::chrono::seconds(options.lifetime);
    access_issued.push_back(access);
    std::string body = R"({"access_token":")" + access + R"(","token_type":"Bearer","expires_in":)"
        + std::to_string(options.lifetime);
    if (with_refresh) {
        auto refresh = random_text("zqRefresh-S3CR3T-");
        live_refresh.insert(refresh);
        refresh_issued.push_back(refresh);
        body += R"(,"refresh_token":")" + refresh + "\"";
    }
    return body + "}";
}

fake_response fake_auth_server::state::token(recorded_request const& request)
{
    auto form = parse_form(request.body);
    std::lock_guard lock(mutex);
    auto const grant = form["grant_type"];
    ++grants[grant];
    fake_response r;
    if (failing_status != 0) {
        r = json_answer(failing_status, R"({"message":"the fake is failing"})");
    } else if (grant == "authorization_code") {
        auto it = codes.find(form["code"]);
        if (!client_ok(request, form, false)) {
            r = oauth_error(401, "invalid_client");
        } else if (it == codes.end() || it->second.redirect_uri != form["redirect_uri"]
            || s256(form["code_verifier"]) != it->second.challenge) {
            r = oauth_error(400, "invalid_grant");
        } else {
            codes.erase(it); // single use
            r = json_answer(200, issue(true));
        }
    } else if (grant == "refresh_token") {
        auto const old = form["refresh_token"];
        if (!client_ok(request, form, false)) {
            r = oauth_error(401, "invalid_client");
        } else if (!live_refresh.contains(old)) {
            r = oauth_error(400, "invalid_grant");
        } else {
            if (options.rotate_refresh) {
                live_refresh.erase(old);
                r = json_answer(200, issue(true));
            } else {
                r = json_answer(200, issue(false));
            }
        }
    } else if (grant == "client_credentials") {
        if (!client_ok(request, form, true)) {
            r = oauth_error(401, "invalid_client");
        } else if (options.subject_required
            && (form["box_subject_type"].empty() || form["box_subject_id"].empty())) {
            r = oauth_error(400, "invalid_grant");
        } else {
            r = json_answer(200, issue(false));
        }
    } else {
        r = oauth_error(400, "unsupported_grant_type");
    }
    r.delay = token_delay;
    return r;
}

std::string fake_auth_server::state::bearer(recorded_request const& request) const
{
    auto const value = request.header("Authorization");
    return value.starts_with("Bearer ") ? value.substr(7) : std::string();
}

bool fake_auth_server::state::live(std::string const& token) const
{
    auto it = live_access.find(token);
    return it != live_access.end() && std::chrono::steady_clock::now() < it->second;
}

fake_response fake_auth_server::state::api(recorded_request const& request)
{
    std::lock_guard lock(mutex);
    auto const token = bearer(request);
    api_seen.push_back(token);
    if (!live(token)) {
        return json_answer(401, R"({"message":"the access token is not valid"})");
    }
    if (request.path() == "/connections") {
        std::string body = "[";
        for (auto const& [id, name] : tenants) {
            body += (body.size() > 1 ? "," : "") + std::string(R"({"id":"c-)") + id
                + R"(","tenantId":")" + id + R"(","tenantType":"ORGANISATION","tenantName":")"
                + name + R"("})";
        }
        return json_answer(200, body + "]");
    }
    return json_answer(200, R"({"ok":true,"path":")" + request.path() + R"("})");
}

fake_auth_server::fake_auth_server(fake_auth_options options)
    : state_(std::make_shared<state>(std::move(options)))
{
    auto s = state_;
    platform_.set_handler([s](recorded_request const& request) { return s->handle(request); });
}

fake_auth_server::~fake_auth_server() = default;

void fake_auth_server::set_lifetime(long seconds)
{
    std::lock_guard lock(state_->mutex);
    state_->options.lifetime = seconds;
}

void fake_auth_server::set_token_delay(std::chrono::milliseconds delay)
{
    std::lock_guard lock(state_->mutex);
    state_->token_delay = delay;
}

void fake_auth_server::fail_token_requests(unsigned status)
{
    std::lock_guard lock(state_->mutex);
    state_->failing_status = status;
}

void fake_auth_server::revoke_refresh_tokens()
{
    std::lock_guard lock(state_->mutex);
    state_->live_refresh.clear();
}

void fake_auth_server::withdraw_access_tokens()
{
    std::lock_guard lock(state_->mutex);
    state_->live_access.clear();
}

void fake_auth_server::set_tenants(std::map<std::string, std::string> tenants)
{
    std::lock_guard lock(state_->mutex);
    state_->tenants = std::move(tenants);
}

std::pair<std::string, std::string> fake_auth_server::seed_tokens()
{
    std::lock_guard lock(state_->mutex);
    state_->issue(true);
    return { state_->access_issued.back(), state_->refresh_issued.back() };
}

std::size_t fake_auth_server::token_requests(std::string const& grant) const
{
    std::lock_guard lock(state_->mutex);
    auto it = state_->grants.find(grant);
    return it == state_->grants.end() ? 0 : it->second;
}

std::size_t fake_auth_server::token_requests() const
{
    std::lock_guard lock(state_->mutex);
    std::size_t n = 0;
    for (auto const& [grant, count] : state_->grants) {
        n += count;
    }
    return n;
}

std::vector<std::string> fake_auth_server::access_tokens() const
{
    std::lock_guard lock(state_->mutex);
    return state_->access_issued;
}

std::vector<std::string> fake_auth_server::refresh_tokens() const
{
    std::lock_guard lock(state_->mutex);
    return state_->refresh_issued;
}

std::vector<std::string> fake_auth_server::api_tokens() const
{
    std::lock_guard lock(state_->mutex);
    return state_->api_seen;
}

} // namespace toolgate::test
