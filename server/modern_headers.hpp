// The 2026-07-28 HTTP header rules: MCP-Protocol-Version, Mcp-Method and Mcp-Name mirror
// the body and must agree with it (HeaderMismatch, -32020). Pure functions.
#pragma once

#include "protocol/errors.hpp"
#include "protocol/jsonrpc.hpp"
#include "transport/http_types.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace toolgate::server {

/// A header value as compared: surrounding spaces and tabs trimmed, `=?base64?…?=` decoded.
/// nullopt when the encoded form is malformed.
std::optional<std::string> decode_header_value(std::string_view raw);

/// A header value made safe to quote in an error message: bytes outside printable ASCII
/// become `\xNN` (a header may carry any octet, a JSON string only valid UTF-8) and the
/// result is cut at `limit` bytes. Found by fuzzing: raw octets made the answer invalid JSON.
std::string printable_header_value(std::string_view value, std::size_t limit = 96);

/// Checks a modern request in the order of MCP-2026-07-28.md §3 (steps 2–6): header/claim
/// and header/method agreement, the `_meta` envelope, the version, then the required headers.
/// Returns the first failure.
std::optional<protocol::rpc_error> check_modern_request(
    transport::http_request const& request, protocol::message const& msg);

} // namespace toolgate::server
