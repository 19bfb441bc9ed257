// The operator's flags (README "Operations"): where /metrics and the probes are served, who may
// read /metrics, and what the logs look like.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace CLI {
class App;
}

namespace toolgate::ops {

struct options {
    std::string metrics_listen; ///< ADDR:PORT serving /metrics; empty: the HTTP port
    bool metrics_public = false; ///< /metrics without client authentication
    std::string log_level = "info"; ///< trace, debug, info, warn, error, off
    std::string log_format = "text"; ///< text | json (one object a line)
};

/// --metrics-listen and --metrics-public.
void add_metrics_options(CLI::App& app, options& o);
/// --log-level and --log-format.
void add_log_options(CLI::App& app, options& o);

/// `ADDR:PORT` (`[v6addr]:PORT` for IPv6) as the address and the port; nullopt when malformed.
std::optional<std::pair<std::string, std::uint16_t>> parse_listen_address(std::string_view text);

} // namespace toolgate::ops
