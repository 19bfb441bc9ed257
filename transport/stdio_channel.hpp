// MCP over stdio: newline-delimited JSON-RPC read from stdin and written to stdout.
// stdout carries protocol messages only; one writer keeps every message on its own line.
#pragma once

#include "transport/line_framer.hpp"
#include "transport/message_sink.hpp"

#include <boost/asio/any_io_executor.hpp>

#include <functional>
#include <memory>
#include <string>

namespace toolgate::transport {

class stdio_channel : public message_sink, public std::enable_shared_from_this<stdio_channel> {
public:
    struct handlers {
        std::function<void(std::string)> on_line; ///< one complete message text
        std::function<void()> on_oversize; ///< a line passed the limit
        std::function<void()> on_eof; ///< stdin closed or failed
    };

    /// Uses `in_fd`/`out_fd` (normally 0 and 1; tests pass pipes). The executor should be a
    /// single-threaded io_context's.
    stdio_channel(
        boost::asio::any_io_executor executor, std::size_t max_line, int in_fd = 0, int out_fd = 1);
    ~stdio_channel() override;

    /// Starts reading; handlers run on the executor.
    void start(handlers h);
    /// Queues a message; a `\n` is appended. Thread-safe.
    void send(std::string message) override;
    /// Calls `done` on the executor once every queued message has been written.
    void when_flushed(std::function<void()> done);
    /// Drops the handlers once the executor has stopped: they usually hold the channel
    /// itself (a reference cycle LeakSanitizer reports at exit).
    void stop();

    struct impl; ///< defined in the .cpp (keeps Asio types out of this header)

private:
    std::unique_ptr<impl> impl_;
};

} // namespace toolgate::transport
