// A count of things in progress (tool calls, HTTP requests) that a shutdown can await reaching
// zero without polling: whoever leaves last wakes the waiters.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/experimental/concurrent_channel.hpp>

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

namespace toolgate::transport {

class activity {
public:
    activity() = default;
    activity(activity const&) = delete;
    activity& operator=(activity const&) = delete;

    /// One more in progress; returns how many were before. Thread-safe, lock-free.
    std::size_t enter() noexcept { return count_.fetch_add(1); }
    /// One fewer; the last one out wakes the waiters. Thread-safe; takes a lock only when
    /// someone waits.
    void leave() noexcept;
    std::size_t count() const noexcept { return count_.load(); }

    /// Completes once nothing is in progress (at once when nothing is now). Any number of
    /// coroutines may wait, on any executor; a cancelled wait ends with operation_aborted.
    boost::asio::awaitable<void> until_idle();

private:
    using channel = boost::asio::experimental::concurrent_channel<void(boost::system::error_code)>;
    void wake() noexcept;

    std::atomic<std::size_t> count_ { 0 };
    /// Waiters registered: leave() looks at this before taking the lock (the waiter sets it
    /// before reading the count, so one of the two sees the other).
    std::atomic<std::size_t> waiting_ { 0 };
    std::mutex mutex_;
    std::vector<std::shared_ptr<channel>> waiters_; ///< guarded by mutex_
};

/// Counts one thing in progress for as long as it lives.
class activity_guard {
public:
    explicit activity_guard(activity& a) noexcept
        : activity_(a)
    {
        activity_.enter();
    }
    activity_guard(activity_guard const&) = delete;
    activity_guard& operator=(activity_guard const&) = delete;
    ~activity_guard() { activity_.leave(); }

private:
    activity& activity_;
};

} // namespace toolgate::transport
