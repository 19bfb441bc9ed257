// Per-principal call counters for quotas (issue 28: `calls_per_minute`), shared by replicas:
// each principal's calls of the last minute in a Redis sorted set, counted and trimmed by one
// script, so that a quota holds across replicas rather than per replica: the quota counters'
// interface (common/call_counters.hpp) when --state-store is set.
#pragma once

#include "common/call_counters.hpp"

#include <boost/asio/awaitable.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

namespace toolgate::state {

class redis_client;

/// What take() answers (the quota counters' own answer).
using count_answer = common::count_answer;

class redis_call_counters final : public common::call_counters {
public:
    explicit redis_call_counters(std::shared_ptr<redis_client> client);

    /// Counts one call of `principal` at `now` unless `limit` calls were counted for it, on
    /// any replica, in the minute before (a sliding window). Never throws for the store.
    boost::asio::awaitable<count_answer> take(std::string principal, std::uint32_t limit,
        std::chrono::system_clock::time_point now) override;

    /// The sorted set holding `principal`'s calls (tests, operators).
    static std::string key_of(std::string const& principal);

private:
    std::shared_ptr<redis_client> client_;
    std::string replica_; ///< random: tells this replica's entries from others'
    std::atomic<std::uint64_t> taken_ { 0 };
};

} // namespace toolgate::state
