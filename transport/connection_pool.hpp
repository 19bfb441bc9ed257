// Keep-alive connection pool of the outbound client: idle connections per scheme+host+port,
// a bound on open connections per host, and a FIFO queue of calls waiting for one.
#pragma once

#include "transport/upstream_connection.hpp"

#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace toolgate::transport {

/// Thread-safe: the mutex guards a few instructions at a time and is never held across a
/// co_await (STYLE §3). A connection is either idle here or leased to exactly one call.
class connection_pool {
public:
    /// What acquire() hands out: a warm idle connection (`connection` set, `reused`), or the
    /// right to open a new one (`connection` empty; the slot is already counted).
    struct lease {
        std::shared_ptr<upstream_connection> connection;
        bool reused = false;
    };

    connection_pool(std::size_t max_per_host, std::chrono::milliseconds idle_timeout);
    ~connection_pool();

    /// Waits, in FIFO order behind other callers, for an idle connection to `key` or a free
    /// slot. Must run on a strand (or single-threaded context) of its own: wake-ups are posted
    /// to the awaiting coroutine's executor. nullopt when the deadline passes or the call is
    /// cancelled first.
    boost::asio::awaitable<std::optional<lease>> acquire(std::string key, steady_time deadline);

    /// Ends a lease. A `reusable` connection goes to the next waiter or the idle list; otherwise
    /// its slot is freed (pass the connection or nullptr, it is dropped either way).
    void release(
        std::string const& key, std::shared_ptr<upstream_connection> connection, bool reusable);

    /// Drops every idle connection to `key`: after a reused one was found dead, its siblings
    /// (idle as long, closed by the same server policy) are likely dead too.
    void drop_idle(std::string const& key);

    /// Open connections (idle and leased) to `key`, for tests and metrics.
    std::size_t open_count(std::string const& key) const;

    /// Over every host: open connections, idle ones, and calls waiting for one (metrics).
    struct totals {
        std::size_t open = 0;
        std::size_t idle = 0;
        std::size_t waiting = 0;
    };
    totals sum() const;

private:
    struct waiter;
    struct idle_entry {
        std::shared_ptr<upstream_connection> connection;
        steady_time since;
    };
    struct host_pool {
        std::size_t open = 0;
        std::deque<idle_entry> idle;
        std::deque<std::shared_ptr<waiter>> waiters;
    };

    /// Pops the next idle connection that is not past the idle timeout (caller holds mutex_);
    /// stale ones are moved to `stale`, to be destroyed outside the lock.
    std::shared_ptr<upstream_connection> take_idle(
        host_pool& pool, std::vector<std::shared_ptr<upstream_connection>>& stale);
    /// Gives a lease to the first waiter of `pool` (caller holds mutex_); false when none waits.
    bool grant_waiter(host_pool& pool, std::shared_ptr<upstream_connection> connection);

    std::size_t const max_per_host_;
    std::chrono::milliseconds const idle_timeout_;
    mutable std::mutex mutex_;
    std::map<std::string, host_pool, std::less<>> hosts_;
};

} // namespace toolgate::transport
