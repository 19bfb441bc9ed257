// The flags of what the shipped binary serves and how it reaches the platforms: the served
// toolkits and tools, and the upstream settings (base URLs, CA, time-outs, answer size).
#pragma once

#include "transport/https_client.hpp"

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace toolgate::app {

struct catalogue_options {
    std::vector<std::string> toolkits; ///< --toolkits: served toolkits (empty: all)
    std::vector<std::string> tools; ///< --tools: tool globs (empty: all)
};

struct upstream_options {
    std::vector<std::string> base_urls; ///< --base-url Toolkit=URL overrides
    std::string ca_file; ///< --ca-file: extra trusted CA (PEM)
    std::chrono::seconds connect_timeout { 10 }; ///< --connect-timeout
    /// --call-timeout. Below the TypeScript SDK's 60 s request timeout, so that our error
    /// (naming host, phase and deadline) reaches the client before its own generic "Request
    /// timed out".
    std::chrono::seconds call_timeout { 55 };
    std::size_t max_response_bytes = 32 * 1024 * 1024; ///< --max-response-bytes
    bool allow_insecure = false; ///< --allow-insecure-upstream: http:// platforms off loopback
    /// --client-host-allow: host globs a client's own secret (VECTORDB_SERVER_URL,
    /// DESK_SUBDOMAIN) may name (security review 3, item 2).
    std::vector<std::string> client_host_allow;
    /// --client-host-allow-private: ... even at loopback, private or link-local addresses.
    bool client_host_allow_private = false;
};

/// --toolkits and --tools.
void add_catalogue_options(CLI::App& app, catalogue_options& o);
/// --base-url, --ca-file, --connect-timeout, --call-timeout, --max-response-bytes,
/// --allow-insecure-upstream, --client-host-allow and --client-host-allow-private.
void add_upstream_options(CLI::App& app, upstream_options& o);

/// The HTTPS client's settings for `o` (time-outs, answer size, extra CA).
transport::https_options https_options_of(upstream_options const& o);

} // namespace toolgate::app
