// The inbound HTTP/1.1 server: accepts connections, reads requests under size and time
// limits, and hands each to an http_handler. One strand per connection.
#pragma once

#include "transport/http_types.hpp"

#include <boost/asio/io_context.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace toolgate::transport {

/// What a listener has done so far, for metrics.
struct http_listener_stats {
    std::size_t open_connections = 0;
    std::size_t active_requests = 0;
    std::uint64_t accepted = 0; ///< connections accepted (those refused at a limit too)
    /// Responses sent, by status code, in ascending order; codes never sent are left out.
    std::vector<std::pair<unsigned, std::uint64_t>> responses;
};

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
    /// Completes once no request is being answered (at once when none is): after stop(), the
    /// moment every answer has been written.
    boost::asio::awaitable<void> until_idle();
    /// Counts for metrics (a consistent-enough snapshot: each number is read once).
    http_listener_stats stats() const;

    struct impl;

private:
    std::shared_ptr<impl> impl_;
};

} // namespace toolgate::transport
