// Quota counting in memory (see memory_call_counters.hpp): a sliding window of one minute.
#include "mcp/memory_call_counters.hpp"

#include <iterator>

namespace toolgate::mcp {
namespace {

constexpr auto window = std::chrono::minutes(1);
/// Every this many takes, principals with no call in the last minute are forgotten.
constexpr std::uint64_t sweep_every = 1024;

} // namespace

boost::asio::awaitable<common::count_answer> memory_call_counters::take(
    std::string principal, std::uint32_t limit, std::chrono::system_clock::time_point now)
{
    co_return take_now(principal, limit, now);
}

common::count_answer memory_call_counters::take_now(
    std::string const& principal, std::uint32_t limit, std::chrono::system_clock::time_point now)
{
    std::lock_guard lock(mutex_);
    if (++takes_ % sweep_every == 0) {
        std::erase_if(calls_, [&](auto const& entry) {
            return entry.second.empty() || entry.second.back() <= now - window;
        });
    }
    common::count_answer full;
    full.state = common::count_answer::kind::full;
    if (limit == 0) {
        full.retry_after = window;
        return full;
    }
    auto& times = calls_[principal];
    while (!times.empty() && times.front() <= now - window) {
        times.pop_front();
    }
    // A lowered limit (SIGHUP) leaves more than it allows: keeping the newest `limit` gives
    // the same wait as the full list would (the call that must leave the window first).
    if (times.size() > limit) {
        times.erase(times.begin(), std::next(times.begin(), std::ptrdiff_t(times.size() - limit)));
    }
    if (times.size() < limit) {
        times.push_back(now);
        return {};
    }
    full.retry_after = std::chrono::ceil<std::chrono::milliseconds>(times.front() + window - now);
    return full;
}

} // namespace toolgate::mcp
