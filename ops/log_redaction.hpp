// Redaction of tool arguments before they reach a log line: values of members named like a
// credential (secret, token, password, key, authorization, cookie, credential) become "***",
// at any depth and inside JSON carried as a string (M-tool request bodies).
#pragma once

#include <boost/json/object.hpp>

#include <string>
#include <string_view>

namespace toolgate::ops {

/// Whether a member of this name may carry a credential (case-insensitive).
bool is_secret_name(std::string_view name);

/// `arguments` with every secret-named member's value replaced by "***".
boost::json::object redact_arguments(boost::json::object const& arguments);

/// The redacted arguments as compact JSON, cut to `max_bytes` (with "…" when cut).
std::string redacted_arguments_text(
    boost::json::object const& arguments, std::size_t max_bytes = 1024);

} // namespace toolgate::ops
