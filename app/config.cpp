// Flags (CLI11) and TOOLGATE_* environment variables.
#include "app/config.hpp"

#include "app/config_file.hpp"
#include "toolkits/base_url.hpp"
#include "toolkits/selection.hpp"

#include <CLI/App.hpp>
#include <CLI/Config.hpp>
#include <CLI/Formatter.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <sched.h>
#include <thread>

namespace toolgate::app {

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
    auto const joined = [](std::vector<std::string> const& items) {
        return fmt::format("{}", fmt::join(items, ","));
    };
    if (!cfg.toolkits.empty()) {
        add("--toolkits", joined(cfg.toolkits));
    }
    for (auto const& t : cfg.tools) {
        add("--tools", t);
    }
    if (cfg.read_only) {
        args.emplace_back("--read-only");
    }
    if (cfg.tool_mode != defaults.tool_mode) {
        add("--tool-mode", cfg.tool_mode);
    }
    if (cfg.max_listed_tools != defaults.max_listed_tools) {
        add("--max-listed-tools", std::to_string(cfg.max_listed_tools));
    }
    for (auto const& p : cfg.pins) {
        add("--pin", p);
    }
    if (cfg.tool_names != defaults.tool_names) {
        add("--tool-names", cfg.tool_names);
    }
    if (cfg.page_size != defaults.page_size) {
        add("--page-size", std::to_string(cfg.page_size));
    }
    for (auto const& b : cfg.base_urls) {
        add("--base-url", b);
    }
    if (!cfg.ca_file.empty()) {
        add("--ca-file", cfg.ca_file);
    }
    if (cfg.allow_insecure_upstream) {
        args.emplace_back("--allow-insecure-upstream");
    }
    if (cfg.connect_timeout != defaults.connect_timeout) {
        add("--connect-timeout", std::to_string(cfg.connect_timeout.count()));
    }
    if (cfg.call_timeout != defaults.call_timeout) {
        add("--call-timeout", std::to_string(cfg.call_timeout.count()));
    }
    if (cfg.max_response_bytes != defaults.max_response_bytes) {
        add("--max-response-bytes", std::to_string(cfg.max_response_bytes));
    }
    return args;
}

namespace {

template <class Rep>
CLI::Option* add_seconds(
    CLI::App& app, std::string const& name, std::chrono::duration<Rep>& d, std::string const& help)
{
    return app
        .add_option_function<long>(
            name, [&d](long v) { d = std::chrono::duration<Rep>(v); }, help)
        ->check(CLI::Range(1L, 86400L * 365))
        ->default_str(std::to_string(d.count()));
}

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

} // namespace

std::optional<std::pair<std::string, std::uint16_t>> parse_listen_address(std::string_view text)
{
    auto const colon = text.rfind(':');
    if (colon == std::string_view::npos || colon == 0) {
        return std::nullopt;
    }
    auto host = text.substr(0, colon);
    if (host.starts_with('[') && host.ends_with(']')) {
        host = host.substr(1, host.size() - 2);
    } else if (host.find(':') != std::string_view::npos) {
        return std::nullopt; // IPv6 needs brackets
    }
    auto const port_text = text.substr(colon + 1);
    unsigned port = 0;
    auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
    if (host.empty() || ec != std::errc() || end != port_text.data() + port_text.size()
        || port > 65535) {
        return std::nullopt;
    }
    return std::pair { std::string(host), static_cast<std::uint16_t>(port) };
}

std::optional<config> parse_config(
    int argc, char** argv, int& exit_code, std::string const& version)
{
    config c;
    CLI::App app {
        "toolgate: an MCP server for eight business platforms (stdio or Streamable HTTP)",
        "toolgate"
    };
    app.option_defaults()->always_capture_default();
    app.set_version_flag("--version", version);

    app.add_option("--transport", c.transport, "stdio (default) or http")
        ->check(CLI::IsMember({ "stdio", "http" }))
        ->envname("TOOLGATE_TRANSPORT");
    app.add_option("--host", c.host, "HTTP bind address")->envname("TOOLGATE_HOST");
    app.add_option("--port", c.port, "HTTP port (0: any free port)")->envname("TOOLGATE_PORT");
    app.add_option("--path", c.path, "HTTP endpoint path")
        ->envname("TOOLGATE_PATH")
        ->check([](std::string const& p) {
            return p.starts_with('/') ? std::string() : std::string("must start with /");
        });
    app.add_option("--threads", c.threads, "HTTP worker threads (default: one per core)")
        ->check(CLI::Range(1u, 64u));
    app.add_option(
        "--allowed-origin", c.allowed_origins, "extra browser Origin allowed to call (repeatable)");
    app.add_flag("--allow-unauthenticated", c.allow_unauthenticated,
        "allow a non-loopback --host without client authentication");
    app.add_option("--session-key", c.session_key,
           "secret that signs HTTP session ids; share it between replicas")
        ->envname("TOOLGATE_SESSION_KEY");
    app.add_option("--auth-token-file", c.auth_token_file,
           "HTTP client auth: file of accepted bearer tokens, one a line, # comments "
           "(env TOOLGATE_AUTH_TOKENS adds comma-separated tokens)")
        ->envname("TOOLGATE_AUTH_TOKEN_FILE");
    app.add_option("--oauth-jwks-file", c.oauth_jwks_file,
           "HTTP client auth: accept JWT access tokens signed by these keys (JWKS file)")
        ->envname("TOOLGATE_OAUTH_JWKS_FILE");
    app.add_option("--oauth-issuer", c.oauth_issuer, "the `iss` JWT access tokens must carry")
        ->envname("TOOLGATE_OAUTH_ISSUER");
    app.add_option("--oauth-audience", c.oauth_audience,
           "the `aud` they must carry: this server's canonical URL, e.g. "
           "https://mcp.example.com/mcp (default http://<host>:<port><path>)")
        ->envname("TOOLGATE_OAUTH_AUDIENCE");
    app.add_option("--oauth-authorization-server", c.oauth_authorization_servers,
        "authorization server named in the resource metadata (repeatable; default "
        "the issuer)");
    app.add_option(
           "--oauth-scopes", c.oauth_scopes, "scopes every token must hold, space separated")
        ->envname("TOOLGATE_OAUTH_SCOPES");
    add_seconds(app, "--oauth-leeway", c.oauth_leeway, "seconds of clock skew allowed on exp/nbf");
    add_seconds(app, "--session-idle-timeout", c.session_idle_timeout,
        "seconds before an idle HTTP session expires");
    add_seconds(app, "--session-max-age", c.session_max_age,
        "seconds a session id stays valid on a replica that did not issue it");

    app.add_option("--max-line-bytes", c.max_line_bytes, "largest stdio message")
        ->check(CLI::Range(std::size_t(1024), std::size_t(1) << 30));
    app.add_option("--max-body-bytes", c.max_body_bytes, "largest HTTP request body")
        ->check(CLI::Range(std::size_t(1024), std::size_t(1) << 30));
    app.add_option("--max-json-depth", c.max_depth, "deepest JSON nesting accepted")
        ->check(CLI::Range(std::size_t(4), std::size_t(1024)));
    add_seconds(app, "--header-timeout", c.header_timeout, "seconds to receive request headers");
    add_seconds(app, "--body-timeout", c.body_timeout, "seconds to receive a request body");
    add_seconds(
        app, "--idle-timeout", c.idle_timeout, "seconds an idle keep-alive connection lives");
    app.add_option("--max-header-bytes", c.max_header_bytes,
           "largest HTTP request header block (larger: 431)")
        ->check(CLI::Range(std::size_t(1024), std::size_t(1) << 20));
    app.add_option(
           "--max-connections", c.max_connections, "open HTTP connections at once (more: 503)")
        ->check(CLI::Range(std::size_t(1), std::size_t(1) << 20));
    app.add_option("--max-sessions", c.max_sessions,
           "live HTTP sessions (2025 revisions) at once; initialize past it fails")
        ->check(CLI::Range(std::size_t(1), std::size_t(1) << 24));
    app.add_option("--max-sessions-per-principal", c.max_sessions_per_principal,
           "live HTTP sessions of one authenticated client; past it, its least "
           "recently used idle session is ended, or initialize fails (429)")
        ->check(CLI::Range(std::size_t(1), std::size_t(1) << 24));
    app.add_option("--max-inflight-per-principal", c.max_inflight_per_principal,
           "tool calls running at once for one authenticated client")
        ->check(CLI::Range(std::size_t(1), std::size_t(1) << 20));
    app.add_option("--max-connections-per-address", c.max_connections_per_address,
           "open HTTP connections from one client address (more: 503)")
        ->check(CLI::Range(std::size_t(1), std::size_t(1) << 20));
    app.add_option("--max-inflight-per-session", c.max_inflight_per_session,
           "tool calls running at once in one session (stdio: the process)")
        ->check(CLI::Range(std::size_t(1), std::size_t(1) << 20));
    app.add_option("--max-inflight", c.max_inflight, "tool calls running at once, all clients")
        ->check(CLI::Range(std::size_t(1), std::size_t(1) << 20));
    app.add_option_function<long>(
           "--shutdown-grace", [&c](long v) { c.shutdown_grace = std::chrono::seconds(v); },
           "seconds SIGTERM/SIGINT waits for calls in flight before cancelling them")
        ->check(CLI::Range(0L, 3600L))
        ->default_str(std::to_string(c.shutdown_grace.count()));
    app.add_option_function<long>(
           "--drain-delay", [&c](long v) { c.drain_delay = std::chrono::seconds(v); },
           "seconds after SIGTERM/SIGINT during which /readyz answers 503 while requests are "
           "still served, so a load balancer stops sending new ones before the listener closes")
        ->check(CLI::Range(0L, 3600L))
        ->default_str(std::to_string(c.drain_delay.count()))
        ->envname("TOOLGATE_DRAIN_DELAY");
    app.add_option("--metrics-listen", c.metrics_listen,
           "serve /metrics (and /healthz, /readyz) on this ADDR:PORT instead of the HTTP "
           "port, e.g. 127.0.0.1:9464")
        ->envname("TOOLGATE_METRICS_LISTEN")
        ->check([](std::string const& v) {
            return parse_listen_address(v) ? std::string()
                                           : std::string("expected ADDR:PORT, e.g. 127.0.0.1:9464");
        });
    app.add_flag("--metrics-public", c.metrics_public,
        "serve /metrics without client authentication (a scraper on a private network)");

    app.add_option("--toolkits", c.toolkits, "toolkits to serve, comma separated (default: all)")
        ->delimiter(',')
        ->envname("TOOLGATE_TOOLKITS");
    app.add_option(
           "--tools", c.tools, "tool name globs to serve, e.g. 'StoreApi.Get*' (repeatable)")
        ->delimiter(',')
        ->envname("TOOLGATE_TOOLS");
    app.add_option("--tool-names", c.tool_names,
           "how tools/list names tools: wire (StoreApi_DeleteFolder) or dotted")
        ->check(CLI::IsMember({ "wire", "dotted" }));
    app.add_option("--page-size", c.page_size, "tools per tools/list page (0: all on one page)");
    app.add_option("--tool-mode", c.tool_mode,
           "full: list every tool; discovery: list the search/describe/call meta-tools "
           "(every tool stays callable by name); auto: full up to --max-listed-tools")
        ->check(CLI::IsMember({ "full", "discovery", "auto" }))
        ->envname("TOOLGATE_TOOL_MODE");
    app.add_option("--max-listed-tools", c.max_listed_tools,
           "with --tool-mode auto: list every tool when at most this many are served")
        ->check(CLI::Range(std::size_t(1), std::size_t(100000)));
    app.add_option("--pin", c.pins,
        "in discovery mode, also list the tools matching this glob, e.g. "
        "'KanbanApi.GetBoard*' (repeatable)");
    app.add_flag("--read-only", c.read_only,
           "serve only tools that read (annotated read-only): others are neither listed, "
           "found nor callable")
        ->envname("TOOLGATE_READ_ONLY");

    app.add_option("--base-url", c.base_urls,
        "replace a toolkit's platform URL: Toolkit=https://host[:port][/prefix] "
        "(repeatable; env TOOLGATE_BASE_URL_<TOOLKIT>)");
    app.add_option("--ca-file", c.ca_file, "extra CA certificates (PEM) to trust upstream")
        ->envname("TOOLGATE_CA_FILE");
    add_seconds(app, "--connect-timeout", c.connect_timeout, "seconds to connect upstream");
    add_seconds(app, "--call-timeout", c.call_timeout, "seconds an upstream call may take");
    app.add_option("--max-response-bytes", c.max_response_bytes, "largest upstream answer");
    app.add_flag("--allow-insecure-upstream", c.allow_insecure_upstream,
        "allow plain http:// platform URLs (--base-url, VECTORDB_SERVER_URL) to hosts "
        "other than loopback; credentials then travel unencrypted");

    app.add_option("--secrets-file", c.secrets_file,
           "platform secrets as KEY=VALUE lines (mode 0600), beside the environment and "
           "winning over it; reloaded on SIGHUP")
        ->envname("TOOLGATE_SECRETS_FILE");
    app.add_option("--token-store", c.token_store,
           "where OAuth sign-ins are kept (mode 0600; default "
           "$XDG_STATE_HOME/toolgate/tokens.json)")
        ->envname("TOOLGATE_TOKEN_STORE");
    app.add_option("--credentials-file", c.credentials_file,
           "HTTP with client authentication: each client's own platform secrets, in "
           "[principal] sections of KEY=VALUE lines (mode 0600); reloaded on SIGHUP")
        ->envname("TOOLGATE_CREDENTIALS_FILE");
    app.add_flag("--shared-credentials", c.shared_credentials,
        "with --credentials-file or --per-request-credentials: a client without a "
        "secret of its own may use the server's");
    app.add_flag("--per-request-credentials", c.per_request_credentials,
        "HTTP with client authentication: a request may bring secrets in "
        "Toolgate-Secret-<VARIABLE> headers, used for that request only");
    credentials::add_sign_in_options(app, c.sign_in);
    credentials::add_auth_commands(app, c.auth);

    app.add_option("--log-level", c.log_level, "stderr log level")
        ->check(CLI::IsMember({ "trace", "debug", "info", "warn", "error", "off" }))
        ->envname("TOOLGATE_LOG_LEVEL");
    app.add_option("--log-format", c.log_format,
           "stderr log format: text, or json (one object a line: time, level, message, "
           "fields)")
        ->check(CLI::IsMember({ "text", "json" }))
        ->envname("TOOLGATE_LOG_FORMAT");
    app.add_option("--config", c.config_file,
           "TOML file of settings: any option's name without -- as a key, e.g. "
           "port = 8080 (flags and environment variables win over it)")
        ->envname("TOOLGATE_CONFIG");
    app.add_flag("--print-config", c.print_config,
        "print the effective settings as TOML, with their sources and secrets masked, "
        "and exit");
    app.add_flag("--list-toolkits", c.list_toolkits, "print the toolkits and exit");
    app.add_flag("--list-tools", c.list_tools, "print the tools and exit");
    app.add_option("--toolkit", c.list_toolkit, "with --list-tools: only this toolkit");
    app.add_flag("--json", c.list_json, "with --list-*: print JSON");

    try {
        app.parse(argc, argv);
    } catch (CLI::ParseError const& e) {
        exit_code = e.get_exit_code() == 0 ? 0 : 2;
        if (exit_code == 0) {
            app.exit(e); // --help / --version go to stdout, as users expect
        } else {
            // A client's form that takes one argument per line, given `--toolkits KanbanApi`
            // on one line, passes it as one argument with a space: say how to fix it.
            std::string hint;
            for (int i = 1; i < argc; ++i) {
                std::string_view const arg = argv[i];
                if (arg.starts_with("--") && arg.find(' ') != std::string_view::npos) {
                    hint = fmt::format("; `{}` arrived as one argument: give the flag and its "
                                       "value as two (one per line in a client's form)",
                        arg.substr(0, 60));
                    break;
                }
            }
            print_error(fmt::format("toolgate: {}{} (see --help)", e.what(), hint));
        }
        return std::nullopt;
    }
    // Flags and environment variables are in; the file fills what they left unset.
    std::set<std::string> from_file;
    if (!c.config_file.empty()) {
        try {
            from_file = apply_config_file(app, c.config_file, shadowed_by_environment);
        } catch (std::exception const& e) {
            exit_code = 2;
            print_error(std::string("toolgate: --config ") + e.what());
            return std::nullopt;
        }
    }
    // Flags that only mean something with another one: accepted silently, they would be
    // ignored (`--toolkit KanbanApi` while serving served all 1150 tools).
    auto const refuse = [&](std::string const& message) {
        print_error("toolgate: " + message + " (see --help)");
        exit_code = 2;
        return std::nullopt;
    };
    if (!c.list_toolkit.empty() && !c.list_tools) {
        return refuse(fmt::format("--toolkit {} only narrows --list-tools; to serve a toolkit, "
                                  "did you mean --toolkits {}?",
            c.list_toolkit, c.list_toolkit));
    }
    if (c.list_json && !c.list_tools && !c.list_toolkits) {
        return refuse("--json only changes what --list-tools or --list-toolkits print");
    }
    if (c.list_tools && c.list_toolkits) {
        return refuse("--list-tools and --list-toolkits: give one of them");
    }
    if (!c.pins.empty() && c.tool_mode == "full") {
        return refuse("--pin lists tools beside the meta-tools of discovery mode; with "
                      "--tool-mode full every tool is listed already");
    }
    if (c.print_config) {
        auto const text = effective_config(app, argc, argv, from_file, c.config_file);
        // A one-shot command, not the protocol: stdout is the user's terminal here.
        std::fwrite(text.data(), 1, text.size(), stdout);
        std::fflush(stdout);
        exit_code = 0;
        return std::nullopt;
    }
    return c;
}

} // namespace toolgate::app
