// Requests the server sends a 2025 client while a call runs (`elicitation/create`), and the
// client's responses routed back to the waiting call by id. One per conversation: a response
// can only reach a request of the conversation (stdio process or HTTP session) it came from.
#pragma once

#include "protocol/errors.hpp"
#include "protocol/jsonrpc.hpp"
#include "transport/message_sink.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace toolgate::mcp {

class client_requests {
public:
    client_requests() = default;
    client_requests(client_requests const&) = delete;
    client_requests& operator=(client_requests const&) = delete;

    /// Sends `method` with `params` to the client through `sink` (stdout, or the call's own
    /// event stream) and waits up to `timeout` for its response. Returns the response's
    /// `result`, or an error: the client's own, or -32603 when no answer came in time or the
    /// conversation ended. A cancelled call throws as any cancelled wait does; the client is
    /// then told with `notifications/cancelled`, as it is after a timeout.
    boost::asio::awaitable<protocol::rpc_result<boost::json::value>> ask(
        std::shared_ptr<transport::message_sink> sink, std::string method,
        boost::json::object params, std::chrono::milliseconds timeout);

    /// Hands a response the client sent to the call waiting for its id. False when none waits
    /// (an unknown id, one answered already, or given up on).
    bool deliver(protocol::message const& response);

    /// Ends every wait with an error (the conversation ended).
    void close();
    std::size_t waiting() const;

    struct waiter; ///< one request's wait (internal)

private:
    mutable std::mutex mutex_;
    std::unordered_map<std::string, std::shared_ptr<waiter>> waiting_; ///< by id as JSON text
    std::uint64_t next_id_ = 1;
    bool closed_ = false;
};

} // namespace toolgate::mcp
