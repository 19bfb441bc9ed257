// MCP log level names.
#include "protocol/log_level.hpp"

#include <array>

namespace toolgate::protocol {
namespace {
constexpr std::array<std::string_view, 8> level_names { "debug", "info", "notice", "warning",
    "error", "critical", "alert", "emergency" };
}

std::optional<log_level> parse_log_level(std::string_view text)
{
    for (std::size_t i = 0; i < level_names.size(); ++i) {
        if (level_names[i] == text) {
            return static_cast<log_level>(i);
        }
    }
    return std::nullopt;
}

std::string_view to_string(log_level level)
{
    return level_names[static_cast<std::size_t>(level)];
}

} // namespace toolgate::protocol
