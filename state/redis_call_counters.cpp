// Quota counters in Redis (see redis_call_counters.hpp).
#include "state/redis_call_counters.hpp"

#include "common/random.hpp"
#include "state/ended_ids.hpp"
#include "state/redis_client.hpp"
#include "state/store_keys.hpp"

#include <fmt/format.h>

namespace toolgate::state {
namespace asio = boost::asio;

namespace {

/// One call, atomically: drop what left the window, refuse at the limit (answering when the
/// oldest call leaves it), else count this one. The key expires a minute after its last call.
constexpr std::string_view take_script = R"(
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - 60000)
if redis.call('ZCARD', KEYS[1]) >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, tonumber(oldest[2]) + 60000 - now}
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], 60000)
return {1, 0}
)";

} // namespace

redis_call_counters::redis_call_counters(std::shared_ptr<redis_client> client)
    : client_(std::move(client))
{
    id_digest random;
    common::fill_random(std::span(random.bytes).first(8));
    replica_ = hex_of(random).substr(0, 16);
}

std::string redis_call_counters::key_of(std::string const& principal)
{
    // A digest keeps any character of a principal's name out of the key.
    return std::string(key_prefix) + "calls:" + hex_of(digest_of(principal));
}

asio::awaitable<count_answer> redis_call_counters::take(
    std::string principal, std::uint32_t limit, std::chrono::system_clock::time_point now)
{
    auto const ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch());
    std::vector<std::string> args { std::string("EVAL"), std::string(take_script), std::string("1"),
        key_of(principal), std::to_string(ms.count()), std::to_string(limit),
        fmt::format("{}-{}", replica_, ++taken_) };
    auto reply = co_await client_->command(std::move(args));
    count_answer out;
    if (!reply || reply->is_error() || reply->elements.size() != 2) {
        out.state = count_answer::kind::failed;
        out.failure = !reply ? reply.error().message
                             : "the state store could not count the call: "
                + (reply->is_error() ? reply->text.substr(0, 120) : std::string("bad answer"));
        co_return out;
    }
    if (reply->elements[0].integer == 0) {
        out.state = count_answer::kind::full;
        out.retry_after
            = std::chrono::milliseconds(std::max<long long>(reply->elements[1].integer, 0));
    }
    co_return out;
}

} // namespace toolgate::state
