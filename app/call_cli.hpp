// `toolgate call <Tool> '<json arguments>' [--dry-run]`: one tool call from the command line,
// through the same catalogue, credentials, flags and controls (audit log, confirmation) as a
// served call. No protocol: the result goes to stdout as JSON, problems to stderr, and the exit
// status says how it went.
#pragma once

#include <boost/asio/io_context.hpp>

#include <string>

namespace CLI {
class App;
}

namespace toolgate::app {

struct config;
struct service;

/// `toolgate call` as parsed.
struct call_command {
    bool requested = false;
    std::string tool; ///< either spelling, or a meta-tool
    std::string arguments = "{}"; ///< a JSON object
    bool dry_run = false; ///< --dry-run: show the request, send nothing
};

/// Adds the `call` subcommand to `app`; parsing fills `command`.
void add_call_command(CLI::App& app, call_command& command);

/// Runs the call on `ioc` and prints its result (the MCP CallToolResult of revision 2025-11-25).
/// Returns the exit status: 0 a result, 1 a tool error (the platform refused, an argument was
/// wrong, a secret is missing), 2 bad usage (unknown tool, arguments that are not a JSON
/// object).
int run_call_command(config const& cfg, boost::asio::io_context& ioc, service& svc);

} // namespace toolgate::app
