// The TOML configuration file (--config F): every command-line option is a key, found
// generically over the CLI11 option set (flags added later get keys without any code here),
// and the effective settings printed back as TOML (--print-config) with secrets masked.
// Precedence: flag > environment > file > default.
#pragma once

#include <functional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>

namespace CLI {
class App;
}

namespace toolgate::app {

/// A file that cannot be read, is not TOML, or sets something it must not. The message names
/// the file, the line and the key.
class config_file_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// True when an environment variable that is not an option's own (CLI11 `envname`) already
/// covers this key's value, so the file's value must yield (e.g. TOOLGATE_BASE_URL_<TOOLKIT>
/// for one `base-url` entry). Arrays are asked element by element.
using environment_shadow = std::function<bool(std::string_view key, std::string_view value)>;

/// Reads `path` and applies each top-level `key = value` to the option `--key` of `app`, after
/// app.parse() has applied flags and environment variables: an option already set by either
/// keeps that value. Values: string, integer, float, boolean, or an array of these for options
/// that repeat. Returns the keys whose values were taken from the file.
/// Throws config_file_error for an unknown key, a table, a date, a value the option refuses.
/// The `policy` tables are not settings: they are left to mcp/policy.hpp.
std::set<std::string> apply_config_file(
    CLI::App& app, std::string const& path, environment_shadow const& shadowed = {});

/// The effective settings as a TOML document that --config accepts, one key per option
/// (commented out when unset), each line saying where its value came from: flag, env NAME,
/// file, or default. Values of secret options (named like a key, token, secret, password or
/// credential, except `…-file` paths) are shown as "***". `argv` tells flags from
/// environment variables; `from_file` is what apply_config_file returned.
std::string effective_config(CLI::App const& app, int argc, char const* const* argv,
    std::set<std::string> const& from_file, std::string_view file);

/// Whether an option of this long name holds a secret value (see effective_config).
bool is_secret_option(std::string_view name);

} // namespace toolgate::app
