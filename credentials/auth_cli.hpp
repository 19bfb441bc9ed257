// `toolgate auth ...`: sign in to the OAuth toolkits (authorization code with PKCE on a
// loopback redirect, RFC 8252; or the client-credentials grant), show where each toolkit's
// credentials come from, sign out, and list the accounting platform's tenants. One-shot
// commands: they write to stdout (this is a terminal, not the protocol).
#pragma once

#include "credentials/credential_hub.hpp"
#include "transport/https_client.hpp"

#include <chrono>
#include <cstdint>
#include <string>

namespace CLI {
class App;
}

namespace toolgate::credentials {

/// `toolgate auth <action> [Toolkit]` as parsed; action "" : no command (serve).
struct auth_command {
    std::string action; ///< login, client-credentials, status, logout, tenants
    std::string toolkit;
    std::uint16_t port = 0; ///< login: loopback callback port (0: any free)
    std::string redirect_host = "127.0.0.1"; ///< login: host named in the redirect URI
    bool no_browser = false; ///< login: print the URL only
    std::string scopes; ///< login: scopes to ask for ("" : the catalogue's)
    std::chrono::seconds login_timeout { 300 };
    std::string subject_type = "enterprise"; ///< client-credentials (storage platform)
    std::string subject_id;
    /// status, logout: a client's sign-ins (`static:alice`, `jwt:<sub>`) instead of the
    /// server's own.
    std::string principal;
};

/// What a command runs with: the command, where the server's secrets and tokens are, and how
/// to reach the platforms' authorization servers.
struct auth_cli_settings {
    auth_command command;
    credential_settings credentials; ///< secrets file, token store, allow_insecure
    transport::https_options https; ///< connect timeout, deadline, extra CA
    /// --state-store: sign-ins go to the shared store (sealed with `credentials.keys`).
    std::string state_store;
};

/// Adds the `auth` subcommands to `app`; parsing fills `command`.
void add_auth_commands(CLI::App& app, auth_command& command);

/// Runs `settings.command`. Returns the exit status: 0 done, 1 failed (the platform refused,
/// the sign-in timed out), 2 bad usage or configuration.
int run_auth_command(auth_cli_settings const& settings);

} // namespace toolgate::credentials
