// The inbound HTTP/1.1 server: accepts connections, reads requests under size and time
// limits, and hands each to an http_handler. One strand per connection.
#pragma once

#include "transport/http_types.hpp"

#include <boost/asio/io_context.hpp>

#include <memory>
#include <string>

namespace toolgate::transport {

class http_listener {
public:
    /// Binds at once; throws std::runtime_error naming the address when it cannot.
    /// `handler` must outlive the listener.
    http_listener(boost::asio::io_context& ioc, std::string const& host, std::uint16_t port,
                  http_handler& handler, http_limits limits);
    ~http_listener();

    std::uint16_t port() const; ///< the bound port (useful with port 0)
    void start();
    /// Stops accepting and closes idle keep-alive connections; connections answering a
    /// request finish it (and then close).
    void stop();
    /// Closes every open connection, busy or not: their handlers are cancelled (the end of a
    /// shutdown's grace period). Thread-safe.
    void close_all();
    std::size_t open_connections() const;
    /// Requests being answered now; idle keep-alive connections do not count.
    std::size_t active_requests() const;

    struct impl;

private:
    std::shared_ptr<impl> impl_;
};

} // namespace toolgate::transport
