// Files that hold platform secrets: `--secrets-file` (KEY=VALUE lines) and `--credentials-file`
// (the same lines in one `[principal]` section per client). Both must be private to their
// owner; errors name the file, the line and the problem, never a value.
#pragma once

#include "toolkits/credentials.hpp"

#include <map>
#include <string>
#include <string_view>

namespace toolgate::credentials {

using secret_map = toolkits::fixed_credentials::map;
/// Each client principal's own secrets (`static:alice`, `jwt:<sub>`).
using principal_secrets = std::map<std::string, secret_map, std::less<>>;

/// Throws std::invalid_argument unless `path` is a regular file without any group or other
/// permission (mode 0600 or stricter): a secret readable by others is not secret. `what`
/// names the setting in the message (e.g. "--secrets-file").
void check_private_file(std::string const& path, std::string_view what);

/// `KEY=VALUE` lines: blank lines and `#` comments skipped, an optional `export ` prefix,
/// blanks around key and value trimmed, one pair of surrounding quotes removed. Keys are
/// upper-case variable names, each given once. Throws std::invalid_argument naming `what`
/// and the line.
secret_map parse_secrets(std::string_view text, std::string_view what);

/// The same lines grouped under `[principal]` headers; a line before the first header is an
/// error, and so is a principal given twice.
principal_secrets parse_principal_secrets(std::string_view text, std::string_view what);

/// Reads `path` after check_private_file. Throws std::invalid_argument.
std::string read_private_file(std::string const& path, std::string_view what);

/// "changed A, B; added C; removed D", or "" when nothing changed. Names only.
std::string describe_changes(secret_map const& before, secret_map const& after);

} // namespace toolgate::credentials
