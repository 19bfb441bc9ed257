// The HTTP seam between transport/ (Beast) and whoever serves requests (mcp/, ops/): a plain
// request value and a responder that can answer once or stream (SSE).
#pragma once

#include "transport/outbound.hpp" // header_list

#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace toolgate::transport {

/// One complete inbound request. Header names are lower case.
struct http_request {
    std::string method; ///< "POST", "GET", ...
    std::string target; ///< as sent, with the query
    std::string path; ///< target without the query
    header_list headers;
    std::string body;
    std::string peer; ///< remote address, for logs

    /// The first header with this (lower-case) name, or nullptr.
    std::string const* header(std::string_view lower_name) const;
};

/// Answers one request: either respond() once, or begin_stream(), stream_write()…, end_stream().
/// Used from the handling coroutine only.
class http_responder {
public:
    virtual ~http_responder() = default;
    virtual boost::asio::awaitable<void> respond(
        unsigned status, header_list headers, std::string body)
        = 0;
    /// respond() with the body `head`, `shared`, `tail` written as they are, without joining
    /// them first (a large shared part is not copied). `shared` must outlive the call.
    virtual boost::asio::awaitable<void> respond_parts(unsigned status, header_list headers,
        std::string head, std::string_view shared, std::string tail)
        = 0;
    /// respond() with the body made of `pieces`, written in order without being joined.
    /// Every piece must outlive the call.
    virtual boost::asio::awaitable<void> respond_pieces(
        unsigned status, header_list headers, std::vector<std::string_view> pieces)
        = 0;
    /// Sends the status and headers of a chunked streaming response (e.g. text/event-stream).
    virtual boost::asio::awaitable<void> begin_stream(unsigned status, header_list headers) = 0;
    virtual boost::asio::awaitable<void> stream_write(std::string data) = 0;
    virtual boost::asio::awaitable<void> end_stream() = 0;
    virtual bool has_responded() const = 0;
    /// The connection closes after this answer (call before answering): a refused client
    /// keeps no connection slot for the keep-alive timeout.
    virtual void close_after_response() = 0;
    /// A header every answer to this request carries (CORS headers for a browser origin).
    /// Call before answering.
    virtual void add_response_header(std::string name, std::string value) = 0;
    /// The request passed client authentication (or none is configured): from now on the
    /// connection may stay idle for the keep-alive timeout. Until then an idle connection
    /// gets only the (short) header timeout.
    virtual void mark_authenticated() = 0;
};

/// Serves requests. If the peer goes away mid-request the handle() coroutine is cancelled
/// (terminal cancellation through its slot).
class http_handler {
public:
    virtual ~http_handler() = default;
    virtual boost::asio::awaitable<void> handle(http_request request, http_responder& out) = 0;
};

struct http_limits {
    std::size_t max_header_bytes = 16 * 1024;
    std::size_t max_body_bytes = 4 * 1024 * 1024;
    std::chrono::seconds header_timeout { 10 };
    std::chrono::seconds body_timeout { 30 };
    std::chrono::seconds idle_timeout { 120 };
    std::size_t max_connections = 1024;
    std::size_t max_connections_per_address = 128; ///< from one remote address (more: 503)
    /// At max_connections, close the longest-open connection that is not answering a request
    /// and take the new one, instead of answering it 503: idle connections cannot lock out
    /// the one request a listener waits for (a sign-in callback; security review 3, item 14).
    bool evict_idle_when_full = false;
};

inline std::string const* http_request::header(std::string_view lower_name) const
{
    for (auto const& [name, value] : headers) {
        if (name == lower_name) {
            return &value;
        }
    }
    return nullptr;
}

} // namespace toolgate::transport
