// The quota counters of a single process (common/call_counters.hpp): the times of each
// principal's calls in the last minute, in memory.
#pragma once

#include "common/call_counters.hpp"

#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>

namespace toolgate::mcp {

class memory_call_counters final : public common::call_counters {
public:
    boost::asio::awaitable<common::count_answer> take(std::string principal, std::uint32_t limit,
        std::chrono::system_clock::time_point now) override;

    /// The same, without a coroutine (the memory needs no waiting).
    common::count_answer take_now(std::string const& principal, std::uint32_t limit,
        std::chrono::system_clock::time_point now);

private:
    std::mutex mutex_;
    std::uint64_t takes_ = 0;
    /// Per principal, the times of its calls within the last minute, oldest first. A
    /// principal whose list empties is removed, so memory follows the active clients.
    std::unordered_map<std::string, std::deque<std::chrono::system_clock::time_point>> calls_;
};

} // namespace toolgate::mcp
