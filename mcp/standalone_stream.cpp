// The standalone GET stream (see standalone_stream.hpp). The stream carries notifications only,
// never a response (2025-11-25 transports, "Listening for Messages from the Server"), one
// stream per session (a message goes on one stream only, so a second GET is 409), without
// event ids (no resumption, H20-H25), and an SSE comment now and then keeps proxies from
// closing it as idle.
#include "mcp/standalone_stream.hpp"

#include "mcp/event_stream.hpp"
#include "protocol/errors.hpp"
#include "protocol/jsonrpc.hpp"
#include "protocol/versions.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <spdlog/spdlog.h>

#include <chrono>

namespace toolgate::mcp {
namespace asio = boost::asio;
using namespace asio::experimental::awaitable_operators;

namespace {

/// Detaches the stream's sink from the session's outbox however the stream ends.
struct attachment {
    conversation& conv;
    transport::message_sink const* sink;
    ~attachment() { conv.outbox().detach(sink); }
};

asio::awaitable<void> refuse(transport::http_responder& out, unsigned status, std::string message)
{
    // Named first: g++ 12 mishandles a braced list inside a co_await operand.
    transport::header_list headers { { "Content-Type", "application/json" } };
    auto body = protocol::serialize_error(
        nullptr, protocol::error_code::invalid_request, std::move(message));
    co_await out.respond(status, std::move(headers), std::move(body));
}

bool accepts_event_stream(transport::http_request const& request)
{
    auto const* accept = request.header("accept");
    return accept == nullptr || accept->find("text/event-stream") != std::string::npos
        || accept->find("*/*") != std::string::npos;
}

constexpr auto tick = std::chrono::seconds(1);
constexpr int ticks_per_comment = 15;

} // namespace

asio::awaitable<bool> serve_standalone_stream(transport::http_request const& request,
    transport::http_responder& out, session_registry& sessions, router const& r,
    std::string const& principal)
{
    auto const* id = request.header("mcp-session-id");
    if (request.method != "GET" || id == nullptr) {
        co_return false;
    }
    auto conv = sessions.find(*id, principal);
    if (!conv) {
        co_await refuse(out, 404, "Session not found"); // H14
        co_return true;
    }
    auto const modes = conv->elicitation();
    if (!modes.url || conv->negotiated_version() < protocol::newest_legacy_version) {
        co_return false; // this client is sent nothing unprompted
    }
    if (auto const* version = request.header("mcp-protocol-version");
        version && !protocol::is_legacy_version(*version)) {
        co_await refuse(out, 400, "Bad Request: unsupported MCP-Protocol-Version"); // H17
        co_return true;
    }
    if (!accepts_event_stream(request)) {
        co_await refuse(out, 406,
            "Not Acceptable: GET opens an event stream; send Accept: "
            "text/event-stream");
        co_return true;
    }
    auto const ex = co_await asio::this_coro::executor;
    // Unsolicited messages: past 64 queued, further ones are dropped.
    auto ch = std::make_shared<message_channel>(ex, 64);
    auto sink = std::make_shared<channel_sink>(ch);
    if (!conv->outbox().attach(sink)) {
        co_await refuse(out, 409, "Conflict: this session has a standalone stream open already");
        co_return true;
    }
    attachment attached { *conv, sink.get() };
    co_await out.begin_stream(200, sse_headers());
    spdlog::debug("http: standalone stream opened from {}", request.peer);
    asio::steady_timer timer(ex);
    for (int quiet = 0; !conv->outbox().is_closed() && !r.is_refusing_calls();) {
        timer.expires_after(tick);
        auto next = co_await (ch->async_receive(asio::as_tuple(asio::use_awaitable))
            || timer.async_wait(asio::as_tuple(asio::use_awaitable)));
        if (next.index() == 0) {
            auto& [ec, message] = std::get<0>(next);
            if (ec) {
                break;
            }
            co_await out.stream_write(sse_event(message));
            quiet = 0;
        } else if (++quiet == ticks_per_comment) {
            co_await out.stream_write(": keep-alive\n\n");
            quiet = 0;
        }
    }
    co_await out.end_stream();
    co_return true;
}

} // namespace toolgate::mcp
