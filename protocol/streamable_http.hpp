// The Streamable HTTP rules of both protocol generations for a POST to the MCP endpoint, as
// pure functions from a plain view of the request to a verdict: an answer to send at once, or
// one classified message (revision decided, headers checked, `_meta` validated, id read) for
// the server to run. No I/O and no server state: the server looks up sessions itself and
// answers a failed lookup with the functions at the end. Rules: docs/protocol-rules.md.
#pragma once

#include "protocol/errors.hpp"
#include "protocol/jsonrpc.hpp"
#include "protocol/request_meta.hpp"

#include <boost/json/array.hpp>
#include <boost/system/result.hpp>

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>

namespace toolgate::protocol::streamable_http {

/// What the rules read from a POST: header values (nullopt when absent) and the body.
struct post_view {
    std::optional<std::string_view> content_type;
    std::optional<std::string_view> accept;
    std::optional<std::string_view> session_id; ///< Mcp-Session-Id
    std::optional<std::string_view> protocol_version; ///< MCP-Protocol-Version
    std::optional<std::string_view> mcp_method; ///< Mcp-Method (2026-07-28)
    std::optional<std::string_view> mcp_name; ///< Mcp-Name (2026-07-28)
    std::string_view body;
};

/// An answer decided without running anything: a status and a JSON body ("" for none).
struct immediate {
    unsigned status = 400;
    std::string body;
};

/// Lets `result<T, immediate>::value()` throw when called on an answer (a programming error).
[[noreturn]] inline void throw_exception_from_error(
    immediate const& answer, boost::source_location const&)
{
    throw std::logic_error("unchecked result: HTTP " + std::to_string(answer.status));
}

/// The forms of answer the client takes (Accept).
struct accepts {
    bool json = false;
    bool sse = false;
};

/// What a classified POST asks the server to do.
enum class route {
    batch, ///< a JSON-RPC array: run in the 2025-03-26 session Mcp-Session-Id names
    notification, ///< a notification or response: 202; given to the named session, if any
    modern, ///< a 2026-07-28 request, stateless, headers and `_meta` checked
    initialize, ///< a 2025 initialize: opens a session unless Mcp-Session-Id names a live one
    in_session, ///< a 2025 request for the session Mcp-Session-Id names
    ping, ///< a 2025 ping without Mcp-Session-Id (no session needed)
};

/// A POST ready to run. `message` is set for every route but `batch`, `batch` only for it,
/// `meta` only for `modern`.
struct classified {
    route kind = route::in_session;
    std::optional<protocol::message> message;
    boost::json::array batch;
    std::optional<request_meta> meta;
};

using verdict = std::variant<immediate, classified>;

/// Content-Type and Accept, checked before the body is read (415, 406).
boost::system::result<accepts, immediate> check_post_headers(post_view const& request);

/// The body: parsed, classified and, per revision, checked against the headers. Call after
/// check_post_headers.
verdict classify_post(post_view const& request, parse_limits limits);

/// Checks a 2026-07-28 request in the order of its §3 (steps 2–6): header/claim and
/// header/method agreement, the `_meta` envelope, the version, then the required headers.
/// Returns the validated `_meta`, or the first failure.
rpc_result<request_meta> check_modern_request(
    post_view const& request, protocol::message const& msg);

/// The HTTP status a JSON-RPC error is answered with (2026-07-28 §3; 2025: 200 but for the
/// envelope errors).
unsigned http_status_for(int code, bool modern);

/// A header value as compared: surrounding spaces and tabs trimmed, `=?base64?…?=` decoded.
/// nullopt when the encoded form is malformed.
std::optional<std::string> decode_header_value(std::string_view raw);

/// A header value made safe to quote in an error message: bytes outside printable ASCII
/// become `\xNN` (a header may carry any octet, a JSON string only valid UTF-8) and the
/// result is cut at `limit` bytes.
std::string printable_header_value(std::string_view value, std::size_t limit = 96);

// Answers for a session lookup that failed (the server holds the sessions).

/// Mcp-Session-Id names no live session (404): for `batch`, `notification`, `in_session`.
immediate session_not_found(route kind, boost::json::value const& id);
/// A batch without Mcp-Session-Id (400): batches belong to 2025-03-26 sessions.
immediate batch_needs_session();
/// initialize with the id of a live session (400): a new session starts without the header.
immediate already_initialized(boost::json::value const& id);

} // namespace toolgate::protocol::streamable_http
