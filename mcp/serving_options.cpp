// Serving MCP's flags (see serving_options.hpp).
#include "mcp/serving_options.hpp"

#include "common/cli_options.hpp"

#include <algorithm>
#include <sched.h>
#include <thread>

namespace toolgate::mcp {

unsigned default_threads()
{
    // The cores this process may run on (taskset, cpusets), not all the machine has.
    unsigned cores = 0;
    cpu_set_t set;
    if (::sched_getaffinity(0, sizeof set, &set) == 0) {
        cores = static_cast<unsigned>(CPU_COUNT(&set));
    }
    if (cores == 0) {
        cores = std::thread::hardware_concurrency();
    }
    return std::clamp(cores, 1u, 64u);
}

transport::http_limits default_http_limits()
{
    transport::http_limits limits;
    limits.max_connections = 512;
    return limits;
}

void add_http_options(CLI::App& app, http_options& o)
{
    app.add_option("--host", o.host, "HTTP bind address")->envname("TOOLGATE_HOST");
    app.add_option("--port", o.port, "HTTP port (0: any free port)")->envname("TOOLGATE_PORT");
    app.add_option("--path", o.path, "HTTP endpoint path")
        ->envname("TOOLGATE_PATH")
        ->check([](std::string const& p) {
            return p.starts_with('/') ? std::string() : std::string("must start with /");
        });
    app.add_option("--threads", o.threads, "HTTP worker threads (default: one per core)")
        ->check(CLI::Range(1u, 64u));
    app.add_option(
        "--allowed-origin", o.allowed_origins, "extra browser Origin allowed to call (repeatable)");
    app.add_flag("--allow-unauthenticated", o.allow_unauthenticated,
        "allow a non-loopback --host without client authentication");
    auto& l = o.limits;
    app.add_option("--max-body-bytes", l.max_body_bytes, "largest HTTP request body")
        ->check(CLI::Range(std::size_t(1024), std::size_t(1) << 30));
    common::add_seconds(
        app, "--header-timeout", l.header_timeout, "seconds to receive request headers");
    common::add_seconds(app, "--body-timeout", l.body_timeout, "seconds to receive a request body");
    common::add_seconds(
        app, "--idle-timeout", l.idle_timeout, "seconds an idle keep-alive connection lives");
    app.add_option("--max-header-bytes", l.max_header_bytes,
           "largest HTTP request header block (larger: 431)")
        ->check(CLI::Range(std::size_t(1024), std::size_t(1) << 20));
    app.add_option(
           "--max-connections", l.max_connections, "open HTTP connections at once (more: 503)")
        ->check(CLI::Range(std::size_t(1), std::size_t(1) << 20));
    app.add_option("--max-connections-per-address", l.max_connections_per_address,
           "open HTTP connections from one client address (more: 503)")
        ->check(CLI::Range(std::size_t(1), std::size_t(1) << 20));
}

void add_session_options(CLI::App& app, session_options& o)
{
    app.add_option(
           "--session-key", o.key, "secret that signs HTTP session ids; share it between replicas")
        ->envname("TOOLGATE_SESSION_KEY");
    common::add_seconds(app, "--session-idle-timeout", o.idle_timeout,
        "seconds before an idle HTTP session expires");
    common::add_seconds(app, "--session-max-age", o.max_age,
        "seconds a session id stays valid on a replica that did not issue it");
    app.add_option("--max-sessions", o.max_sessions,
           "live HTTP sessions (2025 revisions) at once; initialize past it fails")
        ->check(CLI::Range(std::size_t(1), std::size_t(1) << 24));
    app.add_option("--max-sessions-per-principal", o.max_per_principal,
           "live HTTP sessions of one authenticated client; past it, its least "
           "recently used idle session is ended, or initialize fails (429)")
        ->check(CLI::Range(std::size_t(1), std::size_t(1) << 24));
}

void add_limit_options(CLI::App& app, router_limits& limits, stdio_options& stdio)
{
    app.add_option("--max-line-bytes", stdio.max_line_bytes, "largest stdio message")
        ->check(CLI::Range(std::size_t(1024), std::size_t(1) << 30));
    app.add_option("--max-json-depth", limits.max_depth, "deepest JSON nesting accepted")
        ->check(CLI::Range(std::size_t(4), std::size_t(1024)));
    app.add_option("--max-inflight-per-principal", limits.max_inflight_per_principal,
           "tool calls running at once for one authenticated client")
        ->check(CLI::Range(std::size_t(1), std::size_t(1) << 20));
    app.add_option("--max-inflight-per-session", limits.max_inflight_per_conversation,
           "tool calls running at once in one session (stdio: the process)")
        ->check(CLI::Range(std::size_t(1), std::size_t(1) << 20));
    app.add_option(
           "--max-inflight", limits.max_inflight_total, "tool calls running at once, all clients")
        ->check(CLI::Range(std::size_t(1), std::size_t(1) << 20));
}

void add_view_options(CLI::App& app, view_settings& s)
{
    app.add_option_function<std::string>(
           "--tool-names",
           [&s](std::string const& v) {
               s.naming
                   = v == "dotted" ? protocol::tool_naming::dotted : protocol::tool_naming::wire;
           },
           "how tools/list names tools: wire (StoreApi_DeleteFolder) or dotted")
        ->check(CLI::IsMember({ "wire", "dotted" }))
        ->default_str("wire");
    app.add_option("--page-size", s.page_size, "tools per tools/list page (0: all on one page)");
    app.add_option_function<std::string>(
           "--tool-mode",
           [&s](std::string const& v) {
               s.mode = parse_tool_mode(v).value_or(tool_mode::automatic);
           },
           "full: list every tool; discovery: list the search/describe/call meta-tools "
           "(every tool stays callable by name); auto: full up to --max-listed-tools")
        ->check(CLI::IsMember({ "full", "discovery", "auto" }))
        ->default_str(std::string(tool_mode_name(s.mode)))
        ->envname("TOOLGATE_TOOL_MODE");
    app.add_option("--max-listed-tools", s.max_listed_tools,
           "with --tool-mode auto: list every tool when at most this many are served")
        ->check(CLI::Range(std::size_t(1), std::size_t(100000)));
    app.add_option("--pin", s.pins,
        "in discovery mode, also list the tools matching this glob, e.g. "
        "'KanbanApi.GetBoard*' (repeatable)");
    app.add_flag("--read-only", s.read_only,
           "serve only tools that read (annotated read-only): others are neither listed, "
           "found nor callable")
        ->envname("TOOLGATE_READ_ONLY");
}

} // namespace toolgate::mcp
