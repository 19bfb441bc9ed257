// MCP over stdio: every line is a message (or a batch) of the process's one conversation,
// served through the same awaitable path as an HTTP request (router::handle, run_batch); the
// answer, if any, goes to stdout. Lines start in arrival order on the conversation's strand, so
// initialize and notifications take effect in order, and a call is registered before a later
// line can cancel it; calls then run concurrently.
#pragma once

#include "mcp/conversation.hpp"
#include "mcp/router.hpp"
#include "transport/message_sink.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <cstddef>
#include <memory>
#include <string>

namespace toolgate::mcp {

class stdio_session {
public:
    /// `r` must outlive the session's coroutines; `out` is stdout's single writer.
    stdio_session(router& r, std::shared_ptr<conversation> conv,
        std::shared_ptr<transport::message_sink> out, std::size_t max_line_bytes);

    /// One line from stdin: served on the conversation's strand, after every earlier line
    /// has started.
    void on_line(std::string line);
    /// A line longer than --max-line-bytes was skipped: a parse error says so.
    void on_oversize();
    /// Cancels every call in flight (stdin EOF, the end of a shutdown's grace period): they
    /// end without an answer.
    void cancel_all();

private:
    router& router_;
    std::shared_ptr<conversation> conv_;
    std::shared_ptr<transport::message_sink> out_;
    std::size_t max_line_bytes_;
    /// The conversation's strand, made type-erased once (each conversion allocates).
    boost::asio::any_io_executor strand_;
};

/// Serves one line of `conv`: a parse error, a batch's array, or a message's answer goes to
/// `out` (nothing for notifications and cancelled calls). `entry`: the entry whose signal this
/// coroutine's cancellation slot is bound to (a tools/call registers it). `r` must outlive
/// the coroutine.
boost::asio::awaitable<void> serve_line(router& r, std::shared_ptr<conversation> conv,
    std::string line, std::shared_ptr<transport::message_sink> out,
    std::shared_ptr<inflight_call> entry);

} // namespace toolgate::mcp
