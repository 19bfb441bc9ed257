// A fake OAuth 2.0 authorization server and OAuth-protected platform for tests, on the fake
// platform's HTTPS server (127.0.0.1, certificate from the test CA). It serves:
//   GET  /authorize    the authorization endpoint: approves at once, as a user clicking
//                      "allow" would, and redirects (302) to redirect_uri with code and state;
//   POST /token        authorization_code (PKCE S256 checked), refresh_token (rotating: an old
//                      refresh token earns invalid_grant) and client_credentials grants;
//   GET  /connections  the tenants an access token reaches;
//   anything else      a protected API: 200 `{"ok":true,...}` for a live access token, else 401.
// Knobs make the token endpoint slow or failing and withdraw tokens.
#pragma once

#include "support/fake_platform.hpp"

#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace toolgate::test {

struct fake_auth_options {
    std::string client_id = "zqClientId-fake";
    std::string client_secret = "zqClientSecret-S3CR3T-fake";
    /// true: the client secret must come as HTTP Basic (as the accounting platform wants);
    /// false: as client_id/client_secret form fields (the storage platform).
    bool basic_auth = false;
    /// Seconds an access token lives (`expires_in`).
    long lifetime = 3600;
    /// The refresh grant returns a new refresh token and retires the old one.
    bool rotate_refresh = true;
    /// client_credentials must carry box_subject_type/box_subject_id.
    bool subject_required = false;
};

class fake_auth_server {
public:
    explicit fake_auth_server(fake_auth_options options = {});
    ~fake_auth_server();

    /// "https://127.0.0.1:<port><path>".
    std::string url(std::string const& path) const { return platform_.url(path); }
    unsigned short port() const { return platform_.port(); }
    fake_platform& platform() { return platform_; }

    void set_lifetime(long seconds);
    /// Every token request waits this long before answering.
    void set_token_delay(std::chrono::milliseconds delay);
    /// Token requests get this status (500, 503, ...) with no tokens; 0: normal service.
    void fail_token_requests(unsigned status);
    /// Every refresh token is withdrawn (the user revoked the app): refreshes get invalid_grant.
    void revoke_refresh_tokens();
    /// Every access token issued so far is refused by the API (401) before it expires.
    void withdraw_access_tokens();
    /// The tenants /connections lists: id -> name.
    void set_tenants(std::map<std::string, std::string> tenants);

    /// Tokens issued directly, as an earlier sign-in would have: {access, refresh}.
    std::pair<std::string, std::string> seed_tokens();

    /// Token requests so far, by grant_type ("refresh_token", ...), and all of them.
    std::size_t token_requests(std::string const& grant) const;
    std::size_t token_requests() const;
    /// Access tokens this server issued, in order (tests compare what the API received).
    std::vector<std::string> access_tokens() const;
    std::vector<std::string> refresh_tokens() const;
    /// The access token each API request carried (in order), "" when none.
    std::vector<std::string> api_tokens() const;

    struct state;

private:
    std::shared_ptr<state> state_;
    fake_platform platform_;
};

/// Splits `a=1&b=2` (form or query) and percent-decodes it ('+' is a space).
std::map<std::string, std::string> parse_form(std::string const& text);
/// RFC 7636 S256: base64url(SHA-256(verifier)) without padding.
std::string s256(std::string const& verifier);

} // namespace toolgate::test
