// The Redis client against a redis-server of the test's own: replies of every kind, AUTH and
// SELECT, the URL rules, and what happens when Redis dies, stops answering or comes back.
#include "redis_server.hpp"
#include "state/redis_client.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <catch2/catch.hpp>

#include <chrono>
#include <optional>
#include <thread>

using namespace toolgate;
using namespace std::chrono_literals;
namespace asio = boost::asio;
using state::redis_client;
using state::redis_reply;

namespace {

std::shared_ptr<redis_client> client_for(asio::io_context& ioc, std::string const& url,
    char const* env_password = nullptr, state::redis_client_options o = {})
{
    auto endpoint = state::parse_redis_url(url, env_password);
    REQUIRE(endpoint.has_value());
    auto client = redis_client::make(ioc.get_executor(), *endpoint, std::move(o));
    client->start();
    return client;
}

/// Runs the io_context until `done` or the deadline.
template <class Done> void run_until(asio::io_context& ioc, Done done, std::chrono::seconds limit)
{
    auto const end = std::chrono::steady_clock::now() + limit;
    while (!done() && std::chrono::steady_clock::now() < end) {
        ioc.run_for(10ms);
        ioc.restart();
    }
}

void wait_connected(asio::io_context& ioc, redis_client& client)
{
    run_until(
        ioc, [&] { return client.status().connected; }, 10s);
    REQUIRE(client.status().connected);
}

asio::awaitable<void> run_one(std::shared_ptr<redis_client> client, std::vector<std::string> args,
    std::optional<common::checked<redis_reply>>* out)
{
    *out = co_await client->command(std::move(args));
}

void rethrow(std::exception_ptr const& e)
{
    if (e) {
        std::rethrow_exception(e);
    }
}

/// Sets key-`n` and reads it back; counts a right answer in `ok`, every end in `done` (both
/// outlive the io_context's run).
asio::awaitable<void> set_and_get(
    std::shared_ptr<redis_client> c, int n, std::atomic<int>* ok, std::atomic<int>* done)
{
    auto const key = "key-" + std::to_string(n);
    std::vector<std::string> set_args { std::string("SET"), key, std::to_string(n * 7) };
    std::vector<std::string> get_args { std::string("GET"), key };
    auto set = co_await c->command(std::move(set_args));
    auto get = co_await c->command(std::move(get_args));
    *ok += set && get && get->text == std::to_string(n * 7);
    ++*done;
}

/// One command, run to its end.
common::checked<redis_reply> call(asio::io_context& ioc,
    std::shared_ptr<redis_client> const& client, std::vector<std::string> args)
{
    std::optional<common::checked<redis_reply>> out;
    asio::co_spawn(ioc, run_one(client, std::move(args), &out), rethrow);
    run_until(
        ioc, [&] { return out.has_value(); }, 10s);
    REQUIRE(out.has_value());
    return std::move(*out);
}

} // namespace

TEST_CASE("redis URLs: host, port, database and password, TLS refused, never the password shown",
    "[state][redis]")
{
    auto e = state::parse_redis_url("redis://:s3cret@10.0.0.5:6380/2", nullptr);
    REQUIRE(e.has_value());
    CHECK(e->host == "10.0.0.5");
    CHECK(e->port == 6380);
    CHECK(e->db == 2);
    CHECK(e->password == "s3cret");
    CHECK(e->describe() == "10.0.0.5:6380/2");
    auto env = state::parse_redis_url("redis://cache", "from-env");
    REQUIRE(env.has_value());
    CHECK(env->port == 6379);
    CHECK(env->password == "from-env");
    auto v6 = state::parse_redis_url("redis://[::1]:7000", nullptr);
    REQUIRE(v6.has_value());
    CHECK(v6->describe() == "[::1]:7000/0");
    auto tls = state::parse_redis_url("rediss://:pw@cache:6380", nullptr);
    REQUIRE_FALSE(tls.has_value());
    CHECK(tls.error().message.find("TLS") != std::string::npos);
    CHECK(tls.error().message.find("pw") == std::string::npos);
    for (auto const* bad : { "http://cache", "redis://:pw@", "redis://cache/x", "redis://c?a=1" }) {
        auto r = state::parse_redis_url(bad, nullptr);
        REQUIRE_FALSE(r.has_value());
        CHECK(r.error().message.find("--state-store") != std::string::npos);
    }
}

TEST_CASE(
    "redis client: strings, integers, nil, arrays and error replies, binary-safe", "[state][redis]")
{
    testing::redis_server redis;
    asio::io_context ioc(1);
    auto client = client_for(ioc, redis.url() + "/3");
    wait_connected(ioc, *client);
    std::string const binary("a\0b\r\nc", 6);
    auto set = call(ioc, client, { "SET", "k", binary });
    REQUIRE(set.has_value());
    CHECK(set->type == redis_reply::kind::status);
    auto get = call(ioc, client, { "GET", "k" });
    REQUIRE(get.has_value());
    CHECK(get->text == binary);
    CHECK(call(ioc, client, { "GET", "missing" })->is_nil());
    CHECK(call(ioc, client, { "INCR", "n" })->integer == 1);
    auto keys = call(ioc, client, { "KEYS", "*" });
    REQUIRE(keys.has_value());
    CHECK(keys->elements.size() == 2);
    auto wrong = call(ioc, client, { "INCR", "k" }); // an answer, not a failure
    REQUIRE(wrong.has_value());
    CHECK(wrong->is_error());
    // SELECT 3 took effect: database 0 is empty.
    CHECK(redis.cli({ "-n", "0", "DBSIZE" }) == "0\n");
    CHECK(redis.cli({ "-n", "3", "DBSIZE" }) == "2\n");
    CHECK(client->status().commands == 6);
    CHECK(client->status().failures == 0);
    client->stop();
    ioc.run_for(50ms);
}

TEST_CASE("redis client: AUTH from the URL or the environment, and a missing one is named",
    "[state][redis]")
{
    testing::redis_server redis({ "--requirepass", "pw-for-test" });
    asio::io_context ioc(1);
    auto without = client_for(ioc, redis.url());
    auto with_env = client_for(ioc, redis.url(), "pw-for-test");
    wait_connected(ioc, *with_env);
    CHECK(call(ioc, with_env, { "PING" })->text == "PONG");
    run_until(
        ioc, [] { return false; }, 1s);
    CHECK_FALSE(without->status().connected);
    auto refused = call(ioc, without, { "PING" });
    REQUIRE_FALSE(refused.has_value());
    CHECK(refused.error().message.find("TOOLGATE_REDIS_PASSWORD") != std::string::npos);
    CHECK(refused.error().message.find("pw-for-test") == std::string::npos);
    without->stop();
    with_env->stop();
    ioc.run_for(50ms);
}

TEST_CASE("redis client: Redis killed, commands fail at once, and restarted, it reconnects",
    "[state][redis]")
{
    testing::redis_server redis;
    asio::io_context ioc(1);
    auto client = client_for(ioc, redis.url());
    wait_connected(ioc, *client);
    REQUIRE(call(ioc, client, { "SET", "a", "1" }).has_value());
    redis.kill();
    run_until(
        ioc, [&] { return !client->status().connected; }, 5s);
    CHECK_FALSE(client->status().connected);
    auto const started = std::chrono::steady_clock::now();
    auto down = call(ioc, client, { "GET", "a" });
    // At once: well under the 1.5 s command timeout (the bound leaves room for a loaded machine).
    CHECK(std::chrono::steady_clock::now() - started < 750ms);
    REQUIRE_FALSE(down.has_value());
    CHECK(down.error().message.find("state store (Redis at 127.0.0.1:") != std::string::npos);
    CHECK(down.error().message.find("unavailable") != std::string::npos);
    redis.start();
    wait_connected(ioc, *client);
    auto back = call(ioc, client, { "SET", "a", "2" });
    REQUIRE(back.has_value());
    CHECK(client->status().connects == 2);
    CHECK(client->status().failures >= 1);
    client->stop();
    ioc.run_for(50ms);
}

TEST_CASE("redis client: a Redis that stops answering fails a command at its deadline without "
          "holding the thread, then recovers",
    "[state][redis]")
{
    testing::redis_server redis;
    asio::io_context ioc(1); // one thread: a blocked call would stop the ticks below
    state::redis_client_options o;
    o.command_timeout = 500ms;
    o.connect_timeout = 500ms;
    auto client = client_for(ioc, redis.url(), nullptr, o);
    wait_connected(ioc, *client);
    redis.pause();
    int ticks = 0;
    asio::steady_timer tick(ioc);
    std::function<void(boost::system::error_code)> again = [&](boost::system::error_code ec) {
        if (!ec) {
            ++ticks;
            tick.expires_after(10ms);
            tick.async_wait(again);
        }
    };
    tick.expires_after(10ms);
    tick.async_wait(again);
    auto const started = std::chrono::steady_clock::now();
    auto stuck = call(ioc, client, { "GET", "a" });
    auto const took = std::chrono::steady_clock::now() - started;
    tick.cancel();
    REQUIRE_FALSE(stuck.has_value());
    CHECK(stuck.error().message.find("no answer within 500 ms") != std::string::npos);
    CHECK(took >= 450ms);
    CHECK(took < 1500ms);
    CHECK(ticks >= 20); // the event loop went on meanwhile
    redis.resume();
    wait_connected(ioc, *client);
    CHECK(call(ioc, client, { "PING" }).has_value());
    client->stop();
    ioc.run_for(50ms);
}

TEST_CASE("redis client: commands from several threads at once all get their own answer",
    "[state][redis]")
{
    testing::redis_server redis;
    asio::io_context ioc(4);
    auto client = client_for(ioc, redis.url());
    wait_connected(ioc, *client);
    std::atomic<int> right { 0 };
    std::atomic<int> finished { 0 };
    for (int i = 0; i < 200; ++i) {
        asio::co_spawn(ioc, set_and_get(client, i, &right, &finished), rethrow);
    }
    std::vector<std::thread> threads;
    for (int t = 0; t < 3; ++t) {
        threads.emplace_back([&] { ioc.run_for(5s); });
    }
    for (auto& t : threads) {
        t.join();
    }
    CHECK(finished == 200);
    CHECK(right == 200);
    client->stop();
    ioc.restart();
    ioc.run_for(50ms);
}
