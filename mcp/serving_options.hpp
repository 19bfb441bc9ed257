// The flags of serving MCP: the HTTP endpoint and its listener's limits, legacy sessions, the
// router's limits, stdio's line limit, and the tool views (tool modes, names, pages).
#pragma once

#include "mcp/router.hpp"
#include "mcp/tool_views.hpp"
#include "transport/http_types.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace toolgate::mcp {

/// One HTTP worker thread per core the process may run on (1 when unknown, at most 64).
unsigned default_threads();

/// The listener's limits as the flags default them.
transport::http_limits default_http_limits();

struct http_options {
    std::string host = "127.0.0.1"; ///< --host
    std::uint16_t port = 8080; ///< --port (0: any free port)
    std::string path = "/mcp"; ///< --path
    unsigned threads = default_threads(); ///< --threads: HTTP worker threads
    std::vector<std::string> allowed_origins; ///< --allowed-origin: extra allowed Origins
    bool allow_unauthenticated = false; ///< --allow-unauthenticated: non-loopback without auth
    transport::http_limits limits = default_http_limits(); ///< sizes, time-outs, connections
};

/// Legacy (2025) Streamable HTTP sessions.
struct session_options {
    std::string key; ///< --session-key: HMAC key for session ids
    std::chrono::seconds idle_timeout { 30 * 60 }; ///< --session-idle-timeout
    std::chrono::seconds max_age { 24 * 60 * 60 }; ///< --session-max-age
    std::size_t max_sessions = 1024; ///< --max-sessions: live sessions
    std::size_t max_per_principal = 64; ///< --max-sessions-per-principal
};

struct stdio_options {
    std::size_t max_line_bytes = 4 * 1024 * 1024; ///< --max-line-bytes: one stdio message
};

/// --host, --port, --path, --threads, --allowed-origin, --allow-unauthenticated and the
/// listener's limits (--max-body-bytes, --header-timeout, --body-timeout, --idle-timeout,
/// --max-header-bytes, --max-connections, --max-connections-per-address).
void add_http_options(CLI::App& app, http_options& o);
/// --session-key, --session-idle-timeout, --session-max-age, --max-sessions,
/// --max-sessions-per-principal.
void add_session_options(CLI::App& app, session_options& o);
/// --max-line-bytes, --max-json-depth, --max-inflight-per-session, --max-inflight,
/// --max-inflight-per-principal.
void add_limit_options(CLI::App& app, router_limits& limits, stdio_options& stdio);
/// --tool-names, --page-size, --tool-mode, --max-listed-tools, --pin, --read-only.
void add_view_options(CLI::App& app, view_settings& s);

} // namespace toolgate::mcp
