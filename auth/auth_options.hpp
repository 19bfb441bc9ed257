// The flags of client authentication (HTTP only): static bearer tokens, or OAuth
// resource-server mode (README "Client authentication").
#pragma once

#include "auth/client_auth.hpp"

namespace CLI {
class App;
}

namespace toolgate::auth {

/// --auth-token-file, --oauth-jwks-file, --oauth-issuer, --oauth-audience,
/// --oauth-authorization-server, --oauth-scopes and --oauth-leeway into `o` (its `host` is the
/// HTTP bind address, set by whoever serves).
void add_options(CLI::App& app, client_auth_options& o);

} // namespace toolgate::auth
