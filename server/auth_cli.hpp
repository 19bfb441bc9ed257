// `toolgate auth ...`: sign in to the OAuth toolkits (authorization code with PKCE on a
// loopback redirect, RFC 8252; or the client-credentials grant), show where each toolkit's
// credentials come from, sign out, and list the accounting platform's tenants. One-shot
// commands: they write to stdout (this is a terminal, not the protocol).
#pragma once

#include "server/config.hpp"

namespace CLI {
class App;
}

namespace toolgate::server {

/// Adds the `auth` subcommands to `app`; parsing fills `c.auth`.
void add_auth_commands(CLI::App& app, config& c);

/// Runs `cfg.auth`. Returns the exit status: 0 done, 1 failed (the platform refused, the
/// sign-in timed out), 2 bad usage or configuration.
int run_auth_command(config const& cfg);

} // namespace toolgate::server
