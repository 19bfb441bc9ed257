// Per-principal call counters behind the operator's quotas (`calls_per_minute` in a policy,
// docs/controlling-writes.md): an interface, so that one process counts in its own memory
// (mcp/memory_call_counters.hpp) while replicas can share one count in a state store.
#pragma once

#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <cstdint>
#include <string>

namespace toolgate::common {

/// What take() answers.
struct count_answer {
    enum class kind : std::uint8_t {
        taken, ///< the call is counted and may go on
        full, ///< `limit` calls were taken in the last minute: none is counted now
        failed, ///< the count could not be read (a store is down): `failure` says so
    };
    kind state = kind::taken;
    /// full: how long until the oldest call of the last minute leaves it.
    std::chrono::milliseconds retry_after { 0 };
    std::string failure; ///< failed: what went wrong, for the caller (never a secret)
};

class call_counters {
public:
    virtual ~call_counters() = default;
    /// Counts one call of `principal` at `now` unless `limit` calls were counted for it in
    /// the minute before (a sliding window: never more than `limit` in any minute). Safe to
    /// call from several calls at once; never throws for a store's failure.
    virtual boost::asio::awaitable<count_answer> take(
        std::string principal, std::uint32_t limit, std::chrono::system_clock::time_point now)
        = 0;
};

} // namespace toolgate::common
