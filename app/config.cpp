// Flags (CLI11), TOOLGATE_* environment variables and the config file: each subsystem adds its
// own flags (beside its code); this file adds the process's own, parses, and checks the
// combinations that make no sense.
#include "app/config.hpp"

#include "app/config_file.hpp"
#include "auth/auth_options.hpp"
#include "credentials/credential_options.hpp"
#include "credentials/sign_in_options.hpp"
#include "toolkits/base_url.hpp"

#include <CLI/App.hpp>
#include <CLI/Config.hpp>
#include <CLI/Formatter.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <cstdlib>
#include <set>

namespace toolgate::app {

void print_error(std::string const& message)
{
    // One write: std::cerr is unit-buffered and would send a message in pieces, which a
    // client's console (the Inspector's, newest first) shows out of order.
    std::string const line = message + "\n";
    std::fwrite(line.data(), 1, line.size(), stderr);
    std::fflush(stderr);
}

std::vector<std::string> stdio_arguments(config const& cfg)
{
    config const defaults;
    std::vector<std::string> args;
    auto const add = [&](std::string flag, std::string value) {
        args.push_back(std::move(flag));
        args.push_back(std::move(value));
    };
    auto const& views = cfg.views;
    if (!cfg.catalogue.toolkits.empty()) {
        add("--toolkits", fmt::format("{}", fmt::join(cfg.catalogue.toolkits, ",")));
    }
    for (auto const& t : cfg.catalogue.tools) {
        add("--tools", t);
    }
    if (views.read_only) {
        args.emplace_back("--read-only");
    }
    if (views.mode != defaults.views.mode) {
        add("--tool-mode", std::string(mcp::tool_mode_name(views.mode)));
    }
    if (views.max_listed_tools != defaults.views.max_listed_tools) {
        add("--max-listed-tools", std::to_string(views.max_listed_tools));
    }
    for (auto const& p : views.pins) {
        add("--pin", p);
    }
    if (views.naming != defaults.views.naming) {
        add("--tool-names", views.naming == protocol::tool_naming::dotted ? "dotted" : "wire");
    }
    if (views.page_size != defaults.views.page_size) {
        add("--page-size", std::to_string(views.page_size));
    }
    auto const& up = cfg.upstream;
    for (auto const& b : up.base_urls) {
        add("--base-url", b);
    }
    if (!up.ca_file.empty()) {
        add("--ca-file", up.ca_file);
    }
    if (up.allow_insecure) {
        args.emplace_back("--allow-insecure-upstream");
    }
    if (up.connect_timeout != defaults.upstream.connect_timeout) {
        add("--connect-timeout", std::to_string(up.connect_timeout.count()));
    }
    if (up.call_timeout != defaults.upstream.call_timeout) {
        add("--call-timeout", std::to_string(up.call_timeout.count()));
    }
    if (up.max_response_bytes != defaults.upstream.max_response_bytes) {
        add("--max-response-bytes", std::to_string(up.max_response_bytes));
    }
    if (cfg.results.max_result_tokens != defaults.results.max_result_tokens) {
        add("--max-result-tokens", std::to_string(cfg.results.max_result_tokens));
    }
    if (cfg.results.max_result_tokens_cap != defaults.results.max_result_tokens_cap) {
        add("--max-result-tokens-cap", std::to_string(cfg.results.max_result_tokens_cap));
    }
    return args;
}

namespace {

using parsed = common::checked<std::optional<config>>;

/// A `base-url` entry from the config file yields to TOOLGATE_BASE_URL_<TOOLKIT> for the same
/// toolkit (environment over file); other environment variables belong to options.
bool shadowed_by_environment(std::string_view key, std::string_view value)
{
    if (key != "base-url") {
        return false;
    }
    auto const toolkit = value.substr(0, value.find('='));
    auto const variable = toolkits::base_url_variable(toolkit);
    char const* set = std::getenv(variable.c_str());
    return set && *set;
}

/// The process's own flags: the configuration file, --print-config and the listings.
void add_command_options(CLI::App& app, command_options& o)
{
    app.add_option("--config", o.config_file,
           "TOML file of settings: any option's name without -- as a key, e.g. "
           "port = 8080 (flags and environment variables win over it)")
        ->envname("TOOLGATE_CONFIG");
    app.add_flag("--print-config", o.print_config,
        "print the effective settings as TOML, with their sources and secrets masked, "
        "and exit");
    app.add_flag("--list-toolkits", o.list_toolkits, "print the toolkits and exit");
    app.add_flag("--list-tools", o.list_tools, "print the tools and exit");
    app.add_option("--toolkit", o.list_toolkit, "with --list-tools: only this toolkit");
    app.add_flag("--json", o.list_json, "with --list-*: print JSON");
}

/// Every flag, each subsystem's through its own add function, in one order for --help and
/// --print-config.
void add_all_options(CLI::App& app, config& c)
{
    app.add_option("--transport", c.transport, "stdio (default) or http")
        ->check(CLI::IsMember({ "stdio", "http" }))
        ->envname("TOOLGATE_TRANSPORT");
    mcp::add_http_options(app, c.http);
    mcp::add_session_options(app, c.sessions);
    auth::add_options(app, c.client_auth);
    mcp::add_limit_options(app, c.limits, c.stdio);
    add_options(app, c.lifecycle);
    ops::add_metrics_options(app, c.ops);
    add_catalogue_options(app, c.catalogue);
    mcp::add_view_options(app, c.views);
    add_upstream_options(app, c.upstream);
    toolkits::add_result_options(app, c.results);
    credentials::add_options(app, c.credentials);
    credentials::add_options(app, c.sign_in);
    state::add_store_options(app, c.store);
    credentials::add_auth_commands(app, c.auth);
    add_call_command(app, c.call);
    ops::add_audit_options(app, c.audit);
    mcp::add_policy_options(app, c.policy);
    toolkits::add_pacing_options(app, c.pacing);
    ops::add_log_options(app, c.ops);
    add_command_options(app, c.command);
}

/// A client's form that takes one argument per line, given `--toolkits KanbanApi` on one
/// line, passes it as one argument with a space: say how to fix it ("" when none did).
std::string one_argument_hint(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        std::string_view const arg = argv[i];
        if (arg.starts_with("--") && arg.find(' ') != std::string_view::npos) {
            return fmt::format("; `{}` arrived as one argument: give the flag and its value as "
                               "two (one per line in a client's form)",
                arg.substr(0, 60));
        }
    }
    return {};
}

/// The command line and the environment: true to go on, false when --help or --version has
/// been printed (to stdout, as users expect), or what is wrong.
common::checked<bool> parse_command_line(CLI::App& app, int argc, char** argv)
{
    try {
        app.parse(argc, argv);
    } catch (CLI::ParseError const& e) {
        if (e.get_exit_code() == 0) {
            app.exit(e);
            return false;
        }
        return common::problem_of(
            fmt::format("{}{} (see --help)", e.what(), one_argument_hint(argc, argv)));
    }
    return true;
}

/// Flags and environment variables are in; the --config file fills what they left unset.
/// The keys it set, or what is wrong with it.
common::checked<std::set<std::string>> apply_file(CLI::App& app, config const& c)
{
    if (c.command.config_file.empty()) {
        return std::set<std::string>();
    }
    try {
        return apply_config_file(app, c.command.config_file, shadowed_by_environment);
    } catch (std::exception const& e) {
        return common::problem_of(std::string("--config ") + e.what());
    }
}

/// Flags that only mean something with another one: accepted silently, they would be ignored
/// (`--toolkit KanbanApi` while serving served all 1150 tools).
common::checked<void> check_combinations(config const& c)
{
    auto const refuse
        = [](std::string const& message) { return common::problem_of(message + " (see --help)"); };
    auto const& cmd = c.command;
    if (!cmd.list_toolkit.empty() && !cmd.list_tools) {
        return refuse(fmt::format("--toolkit {} only narrows --list-tools; to serve a toolkit, "
                                  "did you mean --toolkits {}?",
            cmd.list_toolkit, cmd.list_toolkit));
    }
    if (cmd.list_json && !cmd.list_tools && !cmd.list_toolkits) {
        return refuse("--json only changes what --list-tools or --list-toolkits print");
    }
    if (cmd.list_tools && cmd.list_toolkits) {
        return refuse("--list-tools and --list-toolkits: give one of them");
    }
    if (!c.views.pins.empty() && c.views.mode == mcp::tool_mode::full) {
        return refuse("--pin lists tools beside the meta-tools of discovery mode; with "
                      "--tool-mode full every tool is listed already");
    }
    return {};
}

} // namespace

parsed parse_config(int argc, char** argv, std::string const& version)
{
    config c;
    CLI::App app {
        "toolgate: an MCP server for eight business platforms (stdio or Streamable HTTP)",
        "toolgate"
    };
    app.option_defaults()->always_capture_default();
    app.set_version_flag("--version", version);
    add_all_options(app, c);
    auto go_on = parse_command_line(app, argc, argv);
    if (!go_on || !*go_on) {
        return go_on ? parsed(std::nullopt) : parsed(go_on.error());
    }
    auto from_file = apply_file(app, c);
    if (!from_file) {
        return from_file.error();
    }
    if (auto combined = check_combinations(c); !combined) {
        return combined.error();
    }
    c.policy.config_file = c.command.config_file; // its `policy` tables are the policy's to read
    if (c.command.print_config) {
        auto const text = effective_config(app, argc, argv, *from_file, c.command.config_file);
        // A one-shot command, not the protocol: stdout is the user's terminal here.
        std::fwrite(text.data(), 1, text.size(), stdout);
        std::fflush(stdout);
        return std::nullopt;
    }
    return std::optional<config>(std::move(c));
}

} // namespace toolgate::app
