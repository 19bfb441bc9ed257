// Operational logs: spdlog to stderr only (stdout belongs to the protocol in stdio mode).
#pragma once

#include <string>

namespace toolgate::server {

/// Makes a stderr logger the default. Call first thing in main(): spdlog's own default
/// logger writes to stdout, which would corrupt the stdio protocol stream.
void init_logging();
/// Sets the level from its name (trace, debug, info, warn, error, off).
void set_log_level(std::string const& name);

} // namespace toolgate::server
