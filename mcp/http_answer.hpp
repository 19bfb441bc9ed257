// Answering one JSON-RPC request over HTTP: a JSON body, or an SSE stream as soon as a
// notification (progress, log) has to go out before the response (H6, PG5, LG7).
#pragma once

#include "mcp/router.hpp"
#include "transport/gzip_splice.hpp"
#include "transport/http_types.hpp"

#include <memory>

namespace toolgate::mcp {

/// A sink that drops everything (requests whose answers carry no notifications).
std::shared_ptr<transport::message_sink> discard_sink();

/// What the client lets an answer be.
struct answer_format {
    /// The first notification switches the answer to text/event-stream; without it
    /// notifications are dropped (an application/json answer cannot carry them).
    bool sse_allowed = false;
    /// Set when the client accepts gzip: large answers (a full tools/list page) are then sent
    /// compressed, from this cache of compressed pages.
    transport::gzip_cache* gzip = nullptr;
    /// The request's `traceparent` / `tracestate` headers (null: none): a tool call whose
    /// `_meta` carries no trace context takes them.
    std::string const* traceparent = nullptr;
    std::string const* tracestate = nullptr;
};

/// Runs `msg` through the router and writes its answer to `out`. `principal` is the
/// authenticated client ("" without client authentication), for its own call limits;
/// `credentials` the request's platform credentials (null: the server's); `checked_meta` the
/// validated `_meta` of a 2026-07-28 request (router::decide).
boost::asio::awaitable<void> answer_request(router& r, protocol::message msg,
    std::shared_ptr<conversation> conv, std::string principal,
    std::shared_ptr<protocol::tool_view const> view, transport::http_responder& out,
    answer_format format, transport::header_list extra_headers, credentials_ptr credentials = {},
    protocol::request_meta const* checked_meta = nullptr);

} // namespace toolgate::mcp
