// MCP and JSON-RPC method names and JSON keys, spelled once.
#pragma once

#include <string_view>

namespace toolgate::protocol::names {

// Methods
inline constexpr std::string_view initialize = "initialize";
inline constexpr std::string_view initialized = "notifications/initialized";
inline constexpr std::string_view ping = "ping";
inline constexpr std::string_view discover = "server/discover";
inline constexpr std::string_view tools_list = "tools/list";
inline constexpr std::string_view tools_call = "tools/call";
inline constexpr std::string_view set_level = "logging/setLevel";
inline constexpr std::string_view cancelled = "notifications/cancelled";
inline constexpr std::string_view progress = "notifications/progress";
inline constexpr std::string_view message = "notifications/message";
inline constexpr std::string_view elicitation_create = "elicitation/create";
inline constexpr std::string_view elicitation_complete = "notifications/elicitation/complete";

// Request _meta keys (2026-07-28)
inline constexpr std::string_view meta_protocol_version = "io.modelcontextprotocol/protocolVersion";
inline constexpr std::string_view meta_client_capabilities
    = "io.modelcontextprotocol/clientCapabilities";
inline constexpr std::string_view meta_client_info = "io.modelcontextprotocol/clientInfo";
inline constexpr std::string_view meta_log_level = "io.modelcontextprotocol/logLevel";
inline constexpr std::string_view meta_server_info = "io.modelcontextprotocol/serverInfo";
inline constexpr std::string_view progress_token = "progressToken";
/// W3C trace context in `_meta` (docs/protocol-rules.md §4; read in every revision).
inline constexpr std::string_view meta_traceparent = "traceparent";
inline constexpr std::string_view meta_tracestate = "tracestate";

} // namespace toolgate::protocol::names
