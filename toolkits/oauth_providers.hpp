// The OAuth toolkits' authorization servers: where a user signs in, where tokens come from,
// how the client authenticates there, and which grants the platform offers. Facts from the
// platforms' public OAuth 2.0 documents; every URL can be overridden (credentials/oauth_client.hpp,
// endpoints_for).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace toolgate::toolkits {

/// How a client with a secret authenticates at the token endpoint (RFC 6749 §2.3.1).
enum class client_authentication {
    form, ///< client_id and client_secret in the form body
    basic, ///< HTTP Basic with client_id:client_secret
};

struct oauth_provider {
    std::string_view toolkit; ///< e.g. "StoreApi"
    std::string_view access_variable; ///< the access token's variable
    std::string_view client_id_variable;
    std::string_view client_secret_variable; ///< optional for PKCE-only (public) clients
    std::string_view authorize_url; ///< authorization endpoint (the browser goes here)
    std::string_view token_url; ///< token endpoint
    std::string_view tenants_url; ///< lists reachable tenants; "" when none
    client_authentication client_auth = client_authentication::form;
    /// The client-credentials grant (server-to-server apps) is offered.
    bool client_credentials = false;
    /// The client-credentials grant names whom the token acts for (`box_subject_type`,
    /// `box_subject_id`): the subject type and id must be given.
    bool credentials_need_subject = false;
    /// Scopes beyond the catalogue's, needed for a refresh token (`offline_access`).
    std::span<const std::string_view> extra_scopes {};
    /// How long an access token lives when the answer does not say (seconds).
    long default_lifetime = 3600;
    /// The authorization-code grant needs the client secret (no public, PKCE-only apps).
    bool secret_required = false;
};

/// The two OAuth toolkits' providers.
std::span<const oauth_provider> oauth_providers();

/// The provider of `toolkit` (exact name), or nullptr when it does not use OAuth sign-in.
oauth_provider const* find_oauth_provider(std::string_view toolkit);

/// The scopes a sign-in asks for: the toolkit's catalogue scopes plus the provider's extra
/// ones, space-separated ("" when none: the platform then uses the app's configured scopes).
std::string requested_scopes(oauth_provider const& provider);

} // namespace toolgate::toolkits
