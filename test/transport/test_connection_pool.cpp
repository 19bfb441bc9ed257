// Example-based unit tests of the outbound connection pool, on one io_context thread: leases
// and slots, the per-host bound, FIFO waiters woken by release, deadlines, idle expiry and
// drop_idle. No sockets: the connections are never opened, only handed around.
#include "transport/connection_pool.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <catch2/catch.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace asio = boost::asio;
using namespace toolgate::transport;
using namespace std::chrono_literals;

namespace {

struct fixture {
    asio::io_context ioc;
    std::shared_ptr<asio::ssl::context> tls
        = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_client);

    std::shared_ptr<upstream_connection> connection()
    {
        return std::make_shared<upstream_connection>(ioc, tls);
    }

    /// Starts an acquire; its result lands in `slot` (outer optional: finished yet).
    void acquire(connection_pool& pool, std::string key, std::chrono::milliseconds wait,
        std::optional<std::optional<connection_pool::lease>>& slot)
    {
        auto const deadline = std::chrono::steady_clock::now() + wait;
        asio::co_spawn(
            ioc,
            [&pool, key, deadline, &slot]() -> asio::awaitable<void> {
                slot = co_await pool.acquire(key, deadline);
            },
            asio::detached);
    }

    void run_a_little()
    {
        ioc.restart();
        ioc.run_for(20ms);
    }
};

using result = std::optional<std::optional<connection_pool::lease>>;

} // namespace

TEST_CASE("pool: slots up to the per-host bound, then callers wait", "[transport][pool]")
{
    fixture f;
    connection_pool pool(2, 10s);
    result a, b, c, other_host;
    f.acquire(pool, "https://a:443", 5s, a);
    f.acquire(pool, "https://a:443", 5s, b);
    f.acquire(pool, "https://a:443", 5s, c);
    f.acquire(pool, "https://b:443", 5s, other_host);
    f.run_a_little();
    REQUIRE(a);
    REQUIRE(*a);
    CHECK((*a)->connection == nullptr); // the right to open one
    CHECK_FALSE((*a)->reused);
    REQUIRE(b);
    CHECK(*b);
    CHECK_FALSE(c); // still waiting: two are open to this host
    REQUIRE(other_host);
    CHECK(*other_host); // another host has its own bound
    CHECK(pool.open_count("https://a:443") == 2);
    CHECK(pool.sum().waiting == 1);
}

TEST_CASE("pool: a released connection goes to the first waiter, in order", "[transport][pool]")
{
    fixture f;
    connection_pool pool(1, 10s);
    result first, second, third;
    f.acquire(pool, "k", 5s, first);
    f.run_a_little();
    REQUIRE(first);
    f.acquire(pool, "k", 5s, second);
    f.run_a_little();
    f.acquire(pool, "k", 5s, third);
    f.run_a_little();
    CHECK_FALSE(second);
    CHECK_FALSE(third);

    auto const conn = f.connection();
    pool.release("k", conn, true);
    f.run_a_little();
    REQUIRE(second);
    REQUIRE(*second);
    CHECK((*second)->connection == conn);
    CHECK((*second)->reused);
    CHECK_FALSE(third);

    // A connection that cannot be reused frees its slot: the next waiter may open a new one.
    pool.release("k", (*second)->connection, false);
    f.run_a_little();
    REQUIRE(third);
    REQUIRE(*third);
    CHECK((*third)->connection == nullptr);
    CHECK(pool.open_count("k") == 1);
}

TEST_CASE(
    "pool: a waiter whose deadline passes gets nothing and leaves the queue", "[transport][pool]")
{
    fixture f;
    connection_pool pool(1, 10s);
    result holder, late;
    f.acquire(pool, "k", 5s, holder);
    f.run_a_little();
    f.acquire(pool, "k", 30ms, late);
    f.ioc.restart();
    f.ioc.run_for(200ms);
    REQUIRE(late);
    CHECK_FALSE(*late);
    CHECK(pool.sum().waiting == 0);
    CHECK(pool.open_count("k") == 1); // the holder's slot only
}

TEST_CASE("pool: idle connections are reused most recent first and expire after the timeout",
    "[transport][pool]")
{
    fixture f;
    connection_pool pool(4, 400ms);
    result a, b;
    f.acquire(pool, "k", 5s, a);
    f.acquire(pool, "k", 5s, b);
    f.run_a_little();
    auto const older = f.connection();
    auto const newer = f.connection();
    pool.release("k", older, true);
    pool.release("k", newer, true);
    CHECK(pool.sum().idle == 2);

    result again;
    f.acquire(pool, "k", 5s, again);
    f.run_a_little();
    REQUIRE(again);
    REQUIRE(*again);
    CHECK((*again)->connection == newer);
    CHECK((*again)->reused);
    pool.release("k", newer, true);

    std::this_thread::sleep_for(500ms); // both idle past the timeout
    result fresh;
    f.acquire(pool, "k", 5s, fresh);
    f.run_a_little();
    REQUIRE(fresh);
    REQUIRE(*fresh);
    CHECK((*fresh)->connection == nullptr); // stale ones dropped, a new slot instead
    CHECK(pool.sum().idle == 0);
    CHECK(pool.open_count("k") == 1);
}

TEST_CASE(
    "pool: drop_idle closes a host's idle connections and frees their slots", "[transport][pool]")
{
    fixture f;
    connection_pool pool(3, 10s);
    result a, b, c;
    f.acquire(pool, "k", 5s, a);
    f.acquire(pool, "k", 5s, b);
    f.acquire(pool, "k", 5s, c);
    f.run_a_little();
    pool.release("k", f.connection(), true);
    pool.release("k", f.connection(), true);
    CHECK(pool.open_count("k") == 3);
    pool.drop_idle("k");
    CHECK(pool.open_count("k") == 1); // the one still leased
    CHECK(pool.sum().idle == 0);
}
