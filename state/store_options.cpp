// The shared-state flags (see store_options.hpp).
#include "state/store_options.hpp"

#include <CLI/App.hpp>

namespace toolgate::state {

void add_store_options(CLI::App& app, store_options& options)
{
    app.add_option("--state-store", options.url,
           "state shared by replicas (platform tokens, ended sessions): "
           "redis://[user:password@]host[:port][/db]; the password may come from "
           "TOOLGATE_REDIS_PASSWORD (default: none, this machine only)")
        ->envname("TOOLGATE_STATE_STORE");
    app.add_option("--store-key-file", options.key_file,
        "file (mode 0600) holding the key that encrypts stored tokens: 64 hex characters "
        "(`openssl rand -hex 32`), optionally a second line with the previous key for reading; "
        "default: TOOLGATE_STORE_KEY");
}

} // namespace toolgate::state
