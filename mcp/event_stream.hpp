// What the two event streams of the HTTP endpoint share: a tool call's notifications
// (http_answer.cpp) and the standalone GET stream (standalone_stream.cpp). Messages travel
// from any thread to the request's coroutine through a bounded channel, and go out as SSE
// `message` events.
#pragma once

#include "transport/message_sink.hpp"
#include "transport/outbound.hpp" // header_list

#include <boost/asio/experimental/concurrent_channel.hpp>

#include <memory>
#include <string>
#include <string_view>

namespace toolgate::mcp {

/// Serialised JSON-RPC messages on their way to a stream.
using message_channel
    = boost::asio::experimental::concurrent_channel<void(boost::system::error_code, std::string)>;

/// A message_sink that queues into a channel. Bounded by the channel: once it is full, further
/// messages are dropped (progress, logs and list changes are advisory).
class channel_sink final : public transport::message_sink {
public:
    explicit channel_sink(std::shared_ptr<message_channel> channel)
        : channel_(std::move(channel))
    {
    }
    void send(std::string message) override
    {
        channel_->try_send(boost::system::error_code(), std::move(message));
    }

private:
    std::shared_ptr<message_channel> channel_;
};

/// One SSE event of type `message` carrying `data` (a compact JSON text: no line breaks).
std::string sse_event(std::string_view data);

/// The headers of an event stream, after `extra`; proxies are asked not to buffer it (H10).
transport::header_list sse_headers(transport::header_list extra = {});

} // namespace toolgate::mcp
