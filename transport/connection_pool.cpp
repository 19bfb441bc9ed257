// Keep-alive pool: idle lists per host, a per-host bound, and FIFO waiters woken by release().
#include "transport/connection_pool.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <vector>

namespace toolgate::transport {
namespace asio = boost::asio;

/// A call queued for a connection. The timer runs on the waiting call's executor and expires
/// at its deadline; release() cancels it (posted to that executor) after granting the lease.
struct connection_pool::waiter {
    explicit waiter(asio::any_io_executor ex)
        : timer(ex)
    {
    }
    asio::steady_timer timer;
    bool granted = false; // guarded by mutex_
    std::shared_ptr<upstream_connection> connection; // guarded by mutex_; empty: open one
};

connection_pool::connection_pool(std::size_t max_per_host, std::chrono::milliseconds idle_timeout)
    : max_per_host_(std::max<std::size_t>(max_per_host, 1))
    , idle_timeout_(idle_timeout)
{
}

connection_pool::~connection_pool() = default;

std::shared_ptr<upstream_connection> connection_pool::take_idle(
    host_pool& pool, std::vector<std::shared_ptr<upstream_connection>>& stale)
{
    auto const now = std::chrono::steady_clock::now();
    // Oldest at the front: servers close idle connections after their own timeout, so past
    // ours a connection is more likely dead than warm.
    while (!pool.idle.empty() && now - pool.idle.front().since > idle_timeout_) {
        stale.push_back(std::move(pool.idle.front().connection));
        pool.idle.pop_front();
        --pool.open;
    }
    if (pool.idle.empty()) {
        return nullptr;
    }
    // Most recently used first: it is the one most likely still open.
    auto connection = std::move(pool.idle.back().connection);
    pool.idle.pop_back();
    return connection;
}

bool connection_pool::grant_waiter(host_pool& pool, std::shared_ptr<upstream_connection> connection)
{
    if (pool.waiters.empty()) {
        return false;
    }
    auto next = std::move(pool.waiters.front());
    pool.waiters.pop_front();
    next->granted = true;
    next->connection = std::move(connection);
    // Posted, not called: the timer belongs to the waiter's executor. The waiter cannot miss
    // it: it queued itself and started waiting within one run on that executor.
    asio::post(next->timer.get_executor(), [next] { next->timer.cancel(); });
    return true;
}

asio::awaitable<std::optional<connection_pool::lease>> connection_pool::acquire(
    std::string key, steady_time deadline)
{
    auto const executor = co_await asio::this_coro::executor;
    std::vector<std::shared_ptr<upstream_connection>> stale;
    std::shared_ptr<waiter> me;
    std::optional<lease> out;
    {
        std::lock_guard lock(mutex_);
        auto& pool = hosts_[key];
        if (auto connection = take_idle(pool, stale)) {
            out = lease { std::move(connection), true };
        } else if (pool.open < max_per_host_) {
            ++pool.open;
            out = lease {};
        } else {
            me = std::make_shared<waiter>(executor);
            pool.waiters.push_back(me);
        }
    }
    stale.clear(); // closes them outside the lock
    if (out) {
        co_return out;
    }

    me->timer.expires_at(deadline);
    co_await me->timer.async_wait(asio::as_tuple(asio::use_awaitable));
    auto const cancelled = (co_await asio::this_coro::cancellation_state).cancelled()
        != asio::cancellation_type::none;
    {
        std::lock_guard lock(mutex_);
        if (me->granted) {
            out = lease { std::move(me->connection), false };
            out->reused = out->connection != nullptr;
        } else {
            auto& waiters = hosts_[key].waiters;
            waiters.erase(std::remove(waiters.begin(), waiters.end(), me), waiters.end());
        }
    }
    if (out && (cancelled || std::chrono::steady_clock::now() >= deadline)) {
        // Granted as the call gave up: pass the lease on instead of leaking the slot.
        bool const has_connection = out->connection != nullptr;
        release(key, std::move(out->connection), has_connection);
        out.reset();
    }
    co_return out;
}

void connection_pool::release(
    std::string const& key, std::shared_ptr<upstream_connection> connection, bool reusable)
{
    std::shared_ptr<upstream_connection> dropped;
    if (!reusable) {
        dropped = std::move(connection);
    }
    {
        std::lock_guard lock(mutex_);
        auto& pool = hosts_[key];
        // A dead connection's slot goes to the next waiter as the right to open a new one.
        if (grant_waiter(pool, connection)) {
            return;
        }
        if (reusable) {
            pool.idle.push_back({ std::move(connection), std::chrono::steady_clock::now() });
        } else if (pool.open > 0) {
            --pool.open;
        }
    }
}

void connection_pool::drop_idle(std::string const& key)
{
    std::vector<idle_entry> dropped;
    {
        std::lock_guard lock(mutex_);
        auto& pool = hosts_[key];
        pool.open -= pool.idle.size();
        dropped.assign(
            std::make_move_iterator(pool.idle.begin()), std::make_move_iterator(pool.idle.end()));
        pool.idle.clear();
    }
}

std::size_t connection_pool::open_count(std::string const& key) const
{
    std::lock_guard lock(mutex_);
    auto const it = hosts_.find(key);
    return it == hosts_.end() ? 0 : it->second.open;
}

connection_pool::totals connection_pool::sum() const
{
    totals out;
    std::lock_guard lock(mutex_);
    for (auto const& [key, pool] : hosts_) {
        out.open += pool.open;
        out.idle += pool.idle.size();
        out.waiting += pool.waiters.size();
    }
    return out;
}

} // namespace toolgate::transport
