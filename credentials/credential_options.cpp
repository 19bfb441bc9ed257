// Platform credentials' flags (see credential_options.hpp).
#include "credentials/credential_options.hpp"

#include <CLI/App.hpp>

namespace toolgate::credentials {

void add_options(CLI::App& app, credential_settings& s)
{
    app.add_option("--secrets-file", s.secrets_file,
           "platform secrets as KEY=VALUE lines (mode 0600), beside the environment and "
           "winning over it; reloaded on SIGHUP")
        ->envname("TOOLGATE_SECRETS_FILE");
    app.add_option("--token-store", s.token_store,
           "where OAuth sign-ins are kept (mode 0600; default "
           "$XDG_STATE_HOME/toolgate/tokens.json)")
        ->envname("TOOLGATE_TOKEN_STORE");
    app.add_option("--credentials-file", s.credentials_file,
           "HTTP with client authentication: each client's own platform secrets, in "
           "[principal] sections of KEY=VALUE lines (mode 0600); reloaded on SIGHUP")
        ->envname("TOOLGATE_CREDENTIALS_FILE");
    app.add_flag("--shared-credentials", s.shared,
        "with --credentials-file or --per-request-credentials: a client without a "
        "secret of its own may use the server's");
    app.add_flag("--per-request-credentials", s.per_request,
        "HTTP with client authentication: a request may bring secrets in "
        "Toolgate-Secret-<VARIABLE> headers, used for that request only");
}

} // namespace toolgate::credentials
