// JSON-or-SSE answers. A tool call that may notify (it carries a progress token, or logs are
// enabled) runs beside a pump: its notifications travel from the call (any thread) to this
// request's coroutine through a concurrent channel, an empty string marking the end, and the
// first one turns the answer into an event stream. Everything else is answered directly.
#include "mcp/http_answer.hpp"

#include "mcp/event_stream.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace toolgate::mcp {
namespace asio = boost::asio;
using namespace asio::experimental::awaitable_operators;

namespace {

class null_sink final : public transport::message_sink {
public:
    void send(std::string) override { }
};

// `result` and `ch` belong to answer_request's frame, which awaits this coroutine.
asio::awaitable<void> produce(router& r, protocol::tool_call call,
    std::shared_ptr<conversation> conv, std::string principal,
    std::shared_ptr<transport::message_sink> sink, std::optional<protocol::reply>& result,
    std::shared_ptr<message_channel> ch, credentials_ptr credentials)
{
    result = co_await r.run_decided(std::move(call), std::move(conv), std::move(sink),
        std::move(principal), std::move(credentials));
    co_await ch->async_send(
        boost::system::error_code(), std::string(), asio::as_tuple(asio::use_awaitable));
}

// `out` and `streaming` belong to answer_request's frame, which awaits this coroutine.
asio::awaitable<void> pump(std::shared_ptr<message_channel> ch, transport::http_responder& out,
    bool& streaming, transport::header_list headers)
{
    for (;;) {
        auto [ec, text] = co_await ch->async_receive(asio::as_tuple(asio::use_awaitable));
        if (ec || text.empty()) {
            co_return;
        }
        if (!streaming) {
            streaming = true;
            co_await out.begin_stream(200, sse_headers(headers));
        }
        co_await out.stream_write(sse_event(text));
    }
}

/// `_meta` wins; the HTTP headers are the fallback (W3C Trace Context over HTTP).
void trace_from_headers(protocol::tool_call& call, answer_format const& format)
{
    if (!call.trace && format.traceparent) {
        call.trace = protocol::parse_traceparent(*format.traceparent);
        if (call.trace && format.tracestate) {
            call.tracestate = protocol::checked_tracestate(*format.tracestate).value_or("");
        }
    }
}

/// Below this a shared page is not worth compressing (one TCP segment or two).
constexpr std::size_t min_gzip_bytes = 8 * 1024;

/// Writes an answer holding a listing page: compressed (from the cache) when the client
/// takes gzip and the page is large, as it is otherwise. `out` belongs to the caller for the
/// whole write.
asio::awaitable<void> send_listing(router& r, protocol::reply result,
    transport::http_responder& out, answer_format format, bool per_client,
    transport::header_list extra_headers)
{
    if (result.shared.size() >= min_gzip_bytes) {
        extra_headers.emplace_back("Vary", "Accept-Encoding"); // caches must key on it
        // A per-connection listing is compressed from its second request on: one asked for
        // once (a new choice each time) costs no compression (security review 3, item 5).
        if (auto segment = format.gzip
                ? format.gzip->segment(result.shared_id, result.shared, !per_client)
                : nullptr) {
            extra_headers.emplace_back("Content-Encoding", "gzip");
            // `segment` keeps the compressed form alive for this write, even if the cache
            // lets it go meanwhile.
            auto frame = transport::gzip_frame_around(result.text, *segment, result.tail);
            if (auto* m = r.observer()) {
                m->record_listing(
                    true, frame.before.size() + segment->blocks.size() + frame.after.size());
            }
            co_await out.respond_parts(result.http_status, std::move(extra_headers),
                std::move(frame.before), segment->blocks, std::move(frame.after));
            co_return;
        }
    }
    if (auto* m = r.observer()) {
        m->record_listing(false, result.text.size() + result.shared.size() + result.tail.size());
    }
    co_await out.respond_parts(result.http_status, std::move(extra_headers), std::move(result.text),
        result.shared, std::move(result.tail));
}

} // namespace

std::shared_ptr<transport::message_sink> discard_sink()
{
    static auto const sink = std::make_shared<null_sink>();
    return sink;
}

asio::awaitable<void> answer_request(router& r, protocol::message msg,
    std::shared_ptr<conversation> conv, std::string principal,
    std::shared_ptr<protocol::tool_view const> view, transport::http_responder& out,
    answer_format format, transport::header_list extra_headers, credentials_ptr credentials,
    protocol::request_meta const* checked_meta)
{
    std::optional<protocol::reply> result;
    bool streaming = false;
    auto decided = r.decide(msg, conv.get(), view, checked_meta);
    if (auto* reply = std::get_if<protocol::reply>(&decided)) {
        r.note_refusal(msg, view.get(), principal);
        result = std::move(*reply);
    } else if (auto* call = std::get_if<protocol::tool_call>(&decided)) {
        trace_from_headers(*call, format);
        if (!format.sse_allowed || !call->may_notify()) {
            // Nothing can precede the result, so no stream is prepared: the common case
            // costs no channel and no second coroutine.
            result = co_await r.run_decided(std::move(*call), std::move(conv), discard_sink(),
                std::move(principal), std::move(credentials));
        } else {
            auto ex = co_await asio::this_coro::executor;
            // Past 256 queued notifications, extra ones are dropped (progress and logs are
            // advisory; LG6/PG4 ask for rate limits anyway).
            auto ch = std::make_shared<message_channel>(ex, 256);
            auto sink = std::make_shared<channel_sink>(ch);
            // Named first: g++ 12 double-destroys temporaries inside a co_await operand.
            auto producing = produce(r, std::move(*call), std::move(conv), std::move(principal),
                sink, result, ch, std::move(credentials));
            auto pumping = pump(ch, out, streaming, extra_headers);
            co_await (std::move(producing) && std::move(pumping));
        }
    }
    if (streaming) {
        if (result) {
            co_await out.stream_write(sse_event(result->take()));
        }
        co_await out.end_stream();
        co_return;
    }
    if (!result) {
        // The call was cancelled (notifications/cancelled, or its session ended): it gets no
        // response (CN1). A client that takes an event stream gets one that ends without one;
        // otherwise the connection closes unanswered, as a request nobody will answer. (A 202
        // would say a notification was accepted, and left the Inspector waiting forever.)
        if (format.sse_allowed) {
            co_await out.begin_stream(200, sse_headers(std::move(extra_headers)));
            co_await out.end_stream();
        } else {
            out.close_after_response();
        }
        co_return;
    }
    extra_headers.emplace_back("Content-Type", "application/json");
    if (result->shared.empty()) {
        co_await out.respond(result->http_status, std::move(extra_headers), result->take());
        co_return;
    }
    bool const per_client = view && view->per_client;
    co_await send_listing(r, std::move(*result), out, format, per_client, std::move(extra_headers));
}

} // namespace toolgate::mcp
