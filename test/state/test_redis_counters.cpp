// Quota counters shared through Redis: two replicas' counters make one count per principal,
// a sliding minute, and a store that cannot answer says so.
#include "redis_server.hpp"
#include "state/redis_call_counters.hpp"
#include "state/redis_client.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <catch2/catch.hpp>

#include <optional>

using namespace toolgate;
using namespace std::chrono_literals;
namespace asio = boost::asio;
using state::count_answer;

namespace {

asio::awaitable<void> take_into(std::shared_ptr<state::redis_call_counters> counters,
    std::string principal, std::uint32_t limit, std::chrono::system_clock::time_point now,
    std::optional<count_answer>* out)
{
    *out = co_await counters->take(std::move(principal), limit, now);
}

struct rig {
    rig()
    {
        auto endpoint = state::parse_redis_url(redis.url(), nullptr).value();
        client = state::redis_client::make(ioc.get_executor(), endpoint, {});
        client->start();
        for (int i = 0; i < 500 && !client->status().connected; ++i) {
            ioc.run_for(10ms);
        }
        REQUIRE(client->status().connected);
    }
    ~rig()
    {
        client->stop();
        ioc.restart();
        ioc.run_for(20ms);
    }
    count_answer take(std::shared_ptr<state::redis_call_counters> const& counters,
        std::string const& principal, std::uint32_t limit,
        std::chrono::system_clock::time_point now)
    {
        std::optional<count_answer> out;
        asio::co_spawn(
            ioc, take_into(counters, principal, limit, now, &out), [](std::exception_ptr const& e) {
                if (e) {
                    std::rethrow_exception(e);
                }
            });
        ioc.restart();
        for (int i = 0; i < 500 && !out; ++i) {
            ioc.run_for(10ms);
        }
        REQUIRE(out.has_value());
        return *out;
    }

    testing::redis_server redis;
    asio::io_context ioc { 1 };
    std::shared_ptr<state::redis_client> client;
};

} // namespace

TEST_CASE("quota counters on Redis: one count across replicas, over a sliding minute",
    "[state][redis][quota]")
{
    rig r;
    auto first = std::make_shared<state::redis_call_counters>(r.client);
    auto second = std::make_shared<state::redis_call_counters>(r.client); // another replica
    auto const t0 = std::chrono::system_clock::now();
    for (int i = 0; i < 5; ++i) {
        auto const& counters = i % 2 == 0 ? first : second;
        CHECK(r.take(counters, "alice", 5, t0 + std::chrono::seconds(i)).state
            == count_answer::kind::taken);
    }
    auto full = r.take(second, "alice", 5, t0 + 10s);
    CHECK(full.state == count_answer::kind::full);
    CHECK(full.retry_after == 50s); // the first call leaves the minute at t0 + 60 s
    CHECK(r.take(first, "bob", 5, t0 + 10s).state == count_answer::kind::taken);
    CHECK(r.take(first, "alice", 5, t0 + 61s).state == count_answer::kind::taken);
    // t0 and t0 + 1 s have left the minute before t0 + 61 s: three remain, and the new one.
    CHECK(r.redis.cli({ "ZCARD", state::redis_call_counters::key_of("alice") }) == "4\n");
    r.redis.kill();
    for (int i = 0; i < 100 && r.client->status().connected; ++i) {
        r.ioc.run_for(10ms);
    }
    auto failed = r.take(first, "alice", 5, t0 + 62s);
    CHECK(failed.state == count_answer::kind::failed);
    CHECK(failed.failure.find("state store") != std::string::npos);
}
