// Messages a 2025 conversation gets outside any request of its client (today only
// `notifications/elicitation/complete`). Over stdio they go straight to stdout; over HTTP on
// the session's standalone GET stream, and the few sent while none is open wait for the next.
#pragma once

#include "transport/message_sink.hpp"

#include <deque>
#include <memory>
#include <mutex>
#include <string>

namespace toolgate::mcp {

class unsolicited_outbox {
public:
    /// Messages kept while no stream is attached; older ones are dropped past it (they are
    /// advisory: a client must offer a manual retry anyway, 2025-11-25 client/elicitation).
    static constexpr std::size_t max_kept = 16;

    /// Sends every later message to `sink` (and the kept ones at once). False when a stream
    /// is attached already (one standalone stream per session) or the outbox is closed.
    bool attach(std::shared_ptr<transport::message_sink> sink);
    /// Stops sending to `sink` if it is the one attached.
    void detach(transport::message_sink const* sink);
    /// Sends `message` to the attached stream, or keeps it for the next one.
    void send(std::string message);
    /// The conversation ended: nothing is sent, kept or attached from now on (a standalone
    /// stream sees is_closed() and ends).
    void close();
    bool is_closed() const;
    bool is_attached() const;

private:
    mutable std::mutex mutex_;
    std::shared_ptr<transport::message_sink> sink_;
    std::deque<std::string> kept_;
    bool closed_ = false;
};

} // namespace toolgate::mcp
