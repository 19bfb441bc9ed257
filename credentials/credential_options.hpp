// The flags of platform credentials: where the server's secrets and OAuth tokens are, and
// whether clients bring their own (README "Credentials").
#pragma once

#include "credentials/credential_hub.hpp"

namespace CLI {
class App;
}

namespace toolgate::credentials {

/// --secrets-file, --token-store, --credentials-file, --shared-credentials and
/// --per-request-credentials into `s` (its `allow_insecure` is --allow-insecure-upstream, an
/// upstream flag, set by whoever builds the hub).
void add_options(CLI::App& app, credential_settings& s);

} // namespace toolgate::credentials
