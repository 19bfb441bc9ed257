// What HTTP mode tells its operator at start: where it serves (and /metrics), how to connect
// with the Inspector, and the same tools over stdio as a command and a client's `args` list.
#pragma once

#include "app/config.hpp"
#include "auth/client_auth.hpp"

#include <cstdint>
#include <string>

namespace toolgate::app {

/// Logs the banner. `port` and `metrics_port` are the bound ports (0 when none); `summary` the
/// service's and the views' one-line summaries.
void print_banner(config const& cfg, std::uint16_t port, std::string const& summary,
    auth::client_auth const* auth, std::uint16_t metrics_port);

} // namespace toolgate::app
