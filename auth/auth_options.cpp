// Client authentication's flags (see auth_options.hpp).
#include "auth/auth_options.hpp"

#include "common/cli_options.hpp"

namespace toolgate::auth {

void add_options(CLI::App& app, client_auth_options& o)
{
    app.add_option("--auth-token-file", o.token_file,
           "HTTP client auth: file of accepted bearer tokens, one a line, # comments "
           "(env TOOLGATE_AUTH_TOKENS adds comma-separated tokens)")
        ->envname("TOOLGATE_AUTH_TOKEN_FILE");
    app.add_option("--oauth-jwks-file", o.jwks_file,
           "HTTP client auth: accept JWT access tokens signed by these keys (JWKS file)")
        ->envname("TOOLGATE_OAUTH_JWKS_FILE");
    app.add_option("--oauth-issuer", o.issuer, "the `iss` JWT access tokens must carry")
        ->envname("TOOLGATE_OAUTH_ISSUER");
    app.add_option("--oauth-audience", o.audience,
           "the `aud` they must carry: this server's canonical URL, e.g. "
           "https://mcp.example.com/mcp (default http://<host>:<port><path>)")
        ->envname("TOOLGATE_OAUTH_AUDIENCE");
    app.add_option("--oauth-authorization-server", o.authorization_servers,
        "authorization server named in the resource metadata (repeatable; default "
        "the issuer)");
    app.add_option("--oauth-scopes", o.scopes, "scopes every token must hold, space separated")
        ->envname("TOOLGATE_OAUTH_SCOPES");
    common::add_seconds(
        app, "--oauth-leeway", o.leeway, "seconds of clock skew allowed on exp/nbf");
}

} // namespace toolgate::auth
