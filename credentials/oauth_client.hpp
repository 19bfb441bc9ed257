// Talking to an OAuth toolkit's authorization server: the authorization URL (PKCE, RFC 7636),
// the token endpoint's grants (authorization code, refresh token, client credentials;
// RFC 6749 §4.1, §4.4, §6) and the tenants list, over the outbound client. Failures are
// values naming what went wrong; nothing here logs or returns a secret.
#pragma once

#include "credentials/token_store.hpp"
#include "toolkits/oauth_providers.hpp"
#include "transport/outbound.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace toolgate::credentials {

/// Where a provider's endpoints are: the published ones, or the environment's overrides.
struct oauth_endpoints {
    std::string authorize;
    std::string token;
    std::string tenants; ///< "" when the platform lists none
};

/// `TOOLGATE_OAUTH_<KIND>_URL_<TOOLKIT>`, e.g. TOOLGATE_OAUTH_TOKEN_URL_LEDGERAPI; kind is
/// AUTHORIZE, TOKEN or TENANTS.
std::string endpoint_variable(std::string_view kind, std::string_view toolkit);

/// The provider's endpoints with the overrides the environment sets (self-hosted or regional
/// set-ups, tests). Throws std::invalid_argument, naming the variable, for a URL that is not
/// absolute https (plain http only to loopback, or with `allow_insecure`).
oauth_endpoints endpoints_for(toolkits::oauth_provider const& provider, bool allow_insecure);

struct client_identity {
    std::string id;
    std::string secret; ///< "" for a public (PKCE-only) client
};

/// The outcome of one token request.
struct token_grant {
    enum class outcome {
        granted, ///< `entry` holds the new tokens
        refused, ///< the server said no (`error` is its OAuth error code): retrying won't help
        failed, ///< unreachable, slow or broken: may work later
    };
    outcome state = outcome::failed;
    token_entry entry;
    std::string error; ///< OAuth `error`, e.g. "invalid_grant"
    std::string problem; ///< what went wrong, for messages (no secrets)
};

/// One organisation a token reaches.
struct tenant {
    std::string id;
    std::string name;
    std::string type;
};

struct tenant_list {
    bool ok = false;
    unsigned status = 0; ///< the platform's status when it answered
    std::vector<tenant> tenants;
    std::string problem;
};

/// A PKCE code verifier (43 unreserved characters from 32 random bytes) and its S256
/// challenge.
struct pkce_pair {
    std::string verifier;
    std::string challenge;
};
pkce_pair make_pkce();
/// A random URL-safe string (`bytes` random bytes, base64url): login state values.
std::string random_token(std::size_t bytes = 24);

class oauth_client {
public:
    using clock = std::function<std::int64_t()>; ///< Unix seconds

    /// `client` must outlive this object; `provider` has static storage.
    oauth_client(transport::outbound_client& client, toolkits::oauth_provider const& provider,
        oauth_endpoints endpoints, clock now);

    toolkits::oauth_provider const& provider() const { return provider_; }
    oauth_endpoints const& endpoints() const { return endpoints_; }

    /// The URL a browser opens to sign in (response_type=code, PKCE S256, state, scopes).
    /// `scopes` "": the provider's (requested_scopes).
    std::string authorize_url(std::string const& client_id, std::string const& redirect_uri,
        std::string const& state, std::string const& challenge, std::string scopes = {}) const;

    boost::asio::awaitable<token_grant> exchange_code(
        client_identity client, std::string code, std::string verifier, std::string redirect_uri);
    /// Renews `current` with its refresh token; a rotated refresh token comes back in the
    /// entry, otherwise the current one is kept (RFC 6749 §6).
    boost::asio::awaitable<token_grant> refresh(client_identity client, token_entry current);
    boost::asio::awaitable<token_grant> client_credentials(
        client_identity client, std::string subject_type, std::string subject_id);
    /// The tenants `access_token` reaches (the provider's tenants endpoint).
    boost::asio::awaitable<tenant_list> tenants(std::string access_token);

private:
    using form = std::vector<std::pair<std::string, std::string>>;
    /// The tokens of a successful answer, with `expires_in` kept within sane bounds (the
    /// provider's default lifetime when absent).
    token_entry granted_entry(
        boost::json::object const& body, std::string grant, std::int64_t started) const;
    /// Why the granted tokens cannot be used (control characters, length), or "".
    static std::string usable_problem(token_entry const& entry, std::string const& where);
    boost::asio::awaitable<token_grant> request(
        client_identity client, form fields, std::string grant, std::vector<std::string> secrets);

    transport::outbound_client& client_;
    toolkits::oauth_provider const& provider_;
    oauth_endpoints endpoints_;
    clock now_;
};

} // namespace toolgate::credentials
