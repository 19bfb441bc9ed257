// The settings of sign-in from the conversation (credentials/sign_in_service.hpp), and the
// command-line options that set them.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace toolgate::credentials {

struct sign_in_options {
    /// The URL browsers reach toolgate at (`--public-url`): sign-in links and the OAuth
    /// callback are made from it. "": the bound loopback address (HTTP), or a loopback
    /// listener on any free port (stdio).
    std::string public_url;
};

/// Adds `--public-url` (env TOOLGATE_PUBLIC_URL) to `app`, filling `options`.
void add_options(CLI::App& app, sign_in_options& options);

} // namespace toolgate::credentials
