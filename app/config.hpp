// Command-line and environment configuration. Bad configuration is reported in one line and
// the process exits with status 2 before anything is served.
#pragma once

#include "credentials/auth_cli.hpp"
#include "credentials/sign_in_options.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toolgate::app {

/// One HTTP worker thread per core the process may run on (1 when unknown, at most 64).
unsigned default_threads();

struct config {
    // Transport
    std::string transport = "stdio"; ///< stdio | http
    std::string host = "127.0.0.1";
    std::uint16_t port = 8080;
    std::string path = "/mcp";
    unsigned threads = default_threads(); ///< HTTP worker threads: by default one per core
    std::vector<std::string> allowed_origins; ///< extra allowed Origins
    bool allow_unauthenticated = false; ///< non-loopback bind without auth
    std::string session_key; ///< HMAC key for session ids
    std::chrono::seconds session_idle_timeout { 30 * 60 };
    std::chrono::seconds session_max_age { 24 * 60 * 60 };

    // Client authentication (HTTP only; see auth/client_auth.hpp)
    std::string auth_token_file; ///< static bearer tokens, one a line
    std::string oauth_jwks_file; ///< JWKS: OAuth resource-server mode
    std::string oauth_issuer; ///< required `iss`
    std::string oauth_audience; ///< required `aud` (default: our URL)
    std::vector<std::string> oauth_authorization_servers; ///< for the metadata (default: issuer)
    std::string oauth_scopes; ///< required scopes, space separated
    std::chrono::seconds oauth_leeway { 60 }; ///< clock skew on exp/nbf

    // Limits
    std::size_t max_line_bytes = 4 * 1024 * 1024; ///< one stdio message
    std::size_t max_body_bytes = 4 * 1024 * 1024; ///< one HTTP request body
    std::size_t max_depth = 64; ///< JSON nesting
    std::chrono::seconds header_timeout { 10 }; ///< slow clients: reading headers
    std::chrono::seconds body_timeout { 30 }; ///< slow clients: reading a body
    std::chrono::seconds idle_timeout { 120 }; ///< keep-alive idle
    std::size_t max_header_bytes = 16 * 1024; ///< one HTTP request's headers (431)
    std::size_t max_connections = 512; ///< open HTTP connections (503 past it)
    std::size_t max_sessions = 1024; ///< live legacy HTTP sessions
    std::size_t max_sessions_per_principal = 64; ///< of one authenticated client
    std::size_t max_inflight_per_principal = 128; ///< one authenticated client's calls
    std::size_t max_connections_per_address = 128; ///< open HTTP connections from one address
    std::size_t max_inflight_per_session = 64; ///< tool calls at once in one session
    std::size_t max_inflight = 256; ///< tool calls at once, whole server
    std::chrono::seconds shutdown_grace { 10 }; ///< SIGTERM: wait this long for calls

    // Catalogue
    std::vector<std::string> toolkits; ///< served toolkits (empty: all)
    std::vector<std::string> tools; ///< tool globs (empty: all)
    std::string tool_names = "wire"; ///< wire (Toolkit_Tool) | dotted (Toolkit.Tool)
    std::size_t page_size = 0; ///< 0: one page
    std::string tool_mode = "auto"; ///< full | discovery | auto
    std::size_t max_listed_tools = 40; ///< auto: full listing up to this many tools
    std::vector<std::string> pins; ///< tool globs listed beside the meta-tools
    bool read_only = false; ///< only read-only tools are served

    // Upstream
    std::vector<std::string> base_urls; ///< Toolkit=URL overrides
    std::string ca_file; ///< extra trusted CA (PEM)
    std::chrono::seconds connect_timeout { 10 };
    /// Below the TypeScript SDK's 60 s request timeout, so that our error (naming host, phase
    /// and deadline) reaches the client before its own generic "Request timed out".
    std::chrono::seconds call_timeout { 55 };
    std::size_t max_response_bytes = 32 * 1024 * 1024;
    bool allow_insecure_upstream = false; ///< http:// platforms off loopback

    // Operations (README "Operations")
    std::string metrics_listen; ///< ADDR:PORT serving /metrics; empty: the HTTP port
    bool metrics_public = false; ///< /metrics without client authentication
    std::chrono::seconds drain_delay { 0 }; ///< after SIGTERM: /readyz 503, still serving
    std::string config_file; ///< --config: TOML, one key per flag
    bool print_config = false; ///< print the effective settings and exit

    // Platform credentials (credentials/credential_hub.hpp)
    std::string secrets_file; ///< KEY=VALUE platform secrets, reloaded on SIGHUP
    std::string token_store; ///< OAuth tokens ("" : the default path)
    std::string credentials_file; ///< each client principal's own secrets
    bool shared_credentials = false; ///< clients without their own use the server's
    bool per_request_credentials = false; ///< Toolgate-Secret-<VARIABLE> request headers
    credentials::sign_in_options sign_in; ///< sign-in from the conversation (--public-url)

    /// `toolgate auth <action> [Toolkit]` (credentials/auth_cli.hpp); action "" : serve.
    credentials::auth_command auth;

    // Logging and one-shot commands
    std::string log_level = "info";
    std::string log_format = "text"; ///< text | json (one object a line)
    bool list_toolkits = false;
    bool list_tools = false;
    std::string list_toolkit;
    bool list_json = false;
};

/// The arguments that make a stdio toolgate serve what `cfg` serves: the catalogue choices and
/// the upstream settings that differ from their defaults (transport and HTTP-only flags left
/// out). The HTTP banner prints them for desktop clients.
std::vector<std::string> stdio_arguments(config const& cfg);

/// Writes `message` and a newline to stderr in one write.
void print_error(std::string const& message);

/// `ADDR:PORT` (`[v6addr]:PORT` for IPv6) as the address and the port; nullopt when malformed.
std::optional<std::pair<std::string, std::uint16_t>> parse_listen_address(std::string_view text);

/// Parses argv and the TOOLGATE_* environment. Returns nullopt with `exit_code` set when the
/// process should exit now (after --help or --version: 0; on a bad flag: 2, message printed).
std::optional<config> parse_config(
    int argc, char** argv, int& exit_code, std::string const& version);

} // namespace toolgate::app
