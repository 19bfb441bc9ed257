// Log levels of MCP logging (RFC 5424 severities, lowest first).
#pragma once

#include <optional>
#include <string_view>

namespace toolgate::protocol {

enum class log_level { debug, info, notice, warning, error, critical, alert, emergency };

/// The level named by `text`, or nullopt when it is not one of the eight names.
std::optional<log_level> parse_log_level(std::string_view text);
std::string_view to_string(log_level level);

} // namespace toolgate::protocol
