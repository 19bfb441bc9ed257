// The process's configuration: the option structs of the subsystems, each filled by flags the
// subsystem registers beside its code, from the command line, the TOOLGATE_* environment and a
// TOML file. Bad configuration is reported in one line and the process exits with status 2
// before anything is served.
#pragma once

#include "app/call_cli.hpp"
#include "app/catalogue_options.hpp"
#include "app/lifecycle.hpp"
#include "auth/client_auth.hpp"
#include "common/result.hpp"
#include "credentials/auth_cli.hpp"
#include "credentials/credential_hub.hpp"
#include "credentials/sign_in_options.hpp"
#include "mcp/policy.hpp"
#include "mcp/router.hpp"
#include "mcp/serving_options.hpp"
#include "mcp/tool_views.hpp"
#include "ops/audit_log.hpp"
#include "ops/ops_options.hpp"
#include "state/store_options.hpp"
#include "toolkits/result_options.hpp"
#include "toolkits/upstream_pacer.hpp"

#include <optional>
#include <string>
#include <vector>

namespace toolgate::app {

using mcp::default_threads;
using ops::parse_listen_address;

/// One-shot commands and the configuration's own flags.
struct command_options {
    std::string config_file; ///< --config: TOML, one key per flag
    bool print_config = false; ///< --print-config: print the effective settings and exit
    bool list_toolkits = false; ///< --list-toolkits
    bool list_tools = false; ///< --list-tools
    std::string list_toolkit; ///< --toolkit: with --list-tools, only this toolkit
    bool list_json = false; ///< --json: with --list-*
};

struct config {
    std::string transport = "stdio"; ///< --transport: stdio | http
    mcp::http_options http; ///< the HTTP endpoint and its listener
    mcp::session_options sessions; ///< legacy HTTP sessions
    auth::client_auth_options client_auth; ///< HTTP client authentication
    mcp::router_limits limits; ///< JSON depth, calls in flight
    mcp::stdio_options stdio;
    lifecycle_options lifecycle; ///< shutdown grace, drain delay
    ops::options ops; ///< metrics, logs (README "Operations")
    catalogue_options catalogue; ///< served toolkits and tools
    mcp::view_settings views; ///< tool mode, names, pages, pins, read-only
    upstream_options upstream; ///< base URLs, CA, time-outs
    toolkits::result_options results; ///< the token budget of every result
    /// Platform credentials (credentials/credential_hub.hpp); `allow_insecure` is
    /// `upstream.allow_insecure`, set where the hub is built.
    credentials::credential_settings credentials;
    credentials::sign_in_options sign_in; ///< sign-in from the conversation (--public-url)
    /// State shared by replicas (--state-store, --store-key-file; state/store_options.hpp).
    state::store_options store;
    /// `toolgate auth <action> [Toolkit]` (credentials/auth_cli.hpp); action "" : serve.
    credentials::auth_command auth;
    /// `toolgate call <Tool> '<json>' [--dry-run]` (app/call_cli.hpp).
    call_command call;
    // Controlling writes (docs/controlling-writes.md): each subsystem's own options.
    ops::audit_options audit; ///< --audit-log
    mcp::policy_options policy; ///< --scope-toolsets, --confirm-destructive, the policy tables
    toolkits::pacing_options pacing; ///< --upstream-rate
    command_options command;
};

/// The arguments that make a stdio toolgate serve what `cfg` serves: the catalogue choices and
/// the upstream settings that differ from their defaults (transport and HTTP-only flags left
/// out). The HTTP banner prints them for desktop clients.
std::vector<std::string> stdio_arguments(config const& cfg);

/// Writes `message` and a newline to stderr in one write.
void print_error(std::string const& message);

/// Parses argv, the TOOLGATE_* environment and the --config file: the configuration to run
/// with; nullopt when there is nothing more to do (--help, --version or --print-config printed
/// what was asked: exit 0); or the problem (print "toolgate: " and it, exit 2).
common::checked<std::optional<config>> parse_config(
    int argc, char** argv, std::string const& version);

} // namespace toolgate::app
