// One line, one coroutine on the conversation's strand (see stdio_session.hpp).
#include "mcp/stdio_session.hpp"

#include "protocol/jsonrpc.hpp"
#include "transport/coroutine_root.hpp"

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/json/array.hpp>
#include <fmt/format.h>

#include <variant>

namespace toolgate::mcp {
namespace asio = boost::asio;

namespace {

/// A line's completion: logs a failure, and keeps the entry (whose signal the coroutine's
/// slot is bound to) alive until the coroutine is entirely done with that slot.
struct line_done {
    std::shared_ptr<inflight_call> entry;
    void operator()(std::exception_ptr const& error) const
    {
        transport::log_root_failure("stdio message", error);
    }
};

} // namespace

stdio_session::stdio_session(router& r, std::shared_ptr<conversation> conv,
    std::shared_ptr<transport::message_sink> out, std::size_t max_line_bytes)
    : router_(r)
    , conv_(std::move(conv))
    , out_(std::move(out))
    , max_line_bytes_(max_line_bytes)
    , strand_(conv_->strand())
{
}

void stdio_session::on_line(std::string line)
{
    // The strand runs the lines' coroutines in the order they were spawned, and each runs
    // until its first real wait: decisions (and a call's registration) keep arrival order.
    // The line's coroutine listens to its own entry's signal: a call registers that entry
    // and runs right there (no second coroutine), and notifications/cancelled reaches it.
    auto entry = std::make_shared<inflight_call>(strand_);
    // Made before co_spawn's arguments, whose order of evaluation is unspecified.
    line_done done { entry };
    auto slot = entry->signal.slot();
    auto served = serve_line(router_, conv_, std::move(line), out_, std::move(entry));
    asio::co_spawn(strand_, std::move(served), asio::bind_cancellation_slot(slot, std::move(done)));
}

void stdio_session::on_oversize()
{
    out_->send(protocol::serialize_error(nullptr,
        { protocol::error_code::parse_error,
            fmt::format("Parse error: message longer than {} bytes; it was skipped (raise "
                        "--max-line-bytes to allow it)",
                max_line_bytes_),
            std::nullopt }));
}

void stdio_session::cancel_all()
{
    router_.cancel_all(*conv_);
}

namespace {

/// What a line leaves to wait for once everything that needs no waiting is answered.
using line_work = std::variant<std::monostate, boost::json::array, protocol::tool_call>;

/// The line's first half, in plain code so that the coroutine's frame stays small (a frame
/// past about a kilobyte is not recycled and costs a large allocation per line): parse,
/// classify and decide; parse errors and replies go out here.
line_work take_line(
    router& r, conversation& conv, std::string const& line, transport::message_sink& out)
{
    auto parsed = protocol::parse_json(line, { r.max_depth() });
    if (!parsed) {
        out.send(protocol::serialize_error(nullptr, parsed.error()));
        return {};
    }
    auto& doc = *parsed;
    if (doc.is_array()) {
        return std::move(doc.get_array());
    }
    auto classified = protocol::classify(std::move(doc));
    if (!classified) {
        out.send(protocol::serialize_error(classified.error().id, classified.error().error));
        return {};
    }
    auto decided = r.decide(*classified, &conv);
    if (auto* reply = std::get_if<protocol::reply>(&decided)) {
        r.note_refusal(*classified, nullptr, {});
        out.send(reply->take());
        return {};
    }
    if (auto* call = std::get_if<protocol::tool_call>(&decided)) {
        return std::move(*call);
    }
    return {};
}

} // namespace

asio::awaitable<void> serve_line(router& r, std::shared_ptr<conversation> conv, std::string line,
    std::shared_ptr<transport::message_sink> out, std::shared_ptr<inflight_call> entry)
{
    auto work = take_line(r, *conv, line, *out);
    if (auto* call = std::get_if<protocol::tool_call>(&work)) {
        auto reply = co_await r.run_decided(
            std::move(*call), std::move(conv), out, {}, {}, std::move(entry));
        if (reply) {
            out->send(reply->take());
        }
    } else if (auto* batch = std::get_if<boost::json::array>(&work)) {
        auto outcome = co_await r.run_batch(std::move(conv), std::move(*batch), out);
        if (outcome.refused) {
            out->send(std::move(*outcome.refused));
        } else if (outcome.answer) {
            out->send(outcome.answer->flatten());
        }
    }
}

} // namespace toolgate::mcp
