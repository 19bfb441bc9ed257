// Where messages for one client stream go: stdout in stdio mode, an HTTP response (JSON or
// SSE) in HTTP mode. The router writes responses and notifications through it.
#pragma once

#include <string>

namespace toolgate::transport {

class message_sink {
public:
    virtual ~message_sink() = default;
    /// Queues one serialised JSON-RPC message. Thread-safe; messages keep their order.
    virtual void send(std::string message) = 0;
};

} // namespace toolgate::transport
