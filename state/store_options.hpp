// The shared-state settings (`--state-store`, `--store-key-file`) and their flags, beside the
// code they configure; app/config adds them to its command line and config file.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace toolgate::state {

struct store_options {
    /// `redis://[user:password@]host[:port][/db]`; "" : this machine only (memory and files).
    std::string url;
    /// The file holding the token encryption key (64 hex characters, mode 0600); "" : the
    /// TOOLGATE_STORE_KEY environment variable, or none.
    std::string key_file;
};

void add_store_options(CLI::App& app, store_options& options);

} // namespace toolgate::state
