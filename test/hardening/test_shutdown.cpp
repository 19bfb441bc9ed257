// Graceful shutdown (docs/decisions.md "Shutdown"): SIGTERM/SIGINT stop taking work, let calls in
// flight finish within --shutdown-grace, then cancel them; exit status 0 either way. stdin EOF
// still cancels at once.
#include "hardening_support.hpp"
#include "metrics_probe.hpp"

#include <csignal>
#include <future>

using namespace toolgate::testing;
namespace json = boost::json;
using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;

namespace {

double seconds_since(clock_type::time_point t)
{
    return std::chrono::duration<double>(clock_type::now() - t).count();
}

} // namespace

TEST_CASE("shutdown: stdio SIGTERM lets a call in flight finish and refuses new ones",
    "[hardening][stdio][shutdown]")
{
    int const sig = GENERATE(SIGTERM, SIGINT);
    stdio_server server({ "--shutdown-grace", "10" });
    server.initialize();
    // Long enough that its answer cannot come before the refusal of call 2 is read.
    server.send(slow_call("1", 3000));
    server.dispatched(9);
    server.process().signal(sig);
    REQUIRE(server.process().wait_stderr("waiting up to 10 s", 5s));
    server.send(call_request("2", "Test_Echo"));
    auto refused = server.response(2, 5s);
    CHECK(std::string(refused.at("error").at("message").as_string()).find("shutting down")
        != std::string::npos);
    auto done = server.response(1, 10s);
    CHECK(done.contains("result"));
    CHECK(server.process().wait_exit(5s) == 0);
}

TEST_CASE("shutdown: stdio cancels what is left when the grace period ends, exit 0",
    "[hardening][stdio][shutdown]")
{
    stdio_server server({ "--shutdown-grace", "1" });
    server.initialize();
    server.send(slow_call("1", 30000));
    server.dispatched(9);
    auto const signalled = clock_type::now();
    server.process().signal(SIGTERM);
    CHECK(server.process().wait_exit(10s) == 0);
    auto const took = seconds_since(signalled);
    CHECK(took >= 0.9);
    CHECK(took < 5.0);
    CHECK(server.process().stderr_text().find("grace period over") != std::string::npos);
}

TEST_CASE("shutdown: stdin EOF cancels calls promptly, without waiting for the grace period",
    "[hardening][stdio][shutdown]")
{
    stdio_server server({ "--shutdown-grace", "30" });
    server.initialize();
    server.send(slow_call("1", 30000));
    server.dispatched(9);
    auto const closed = clock_type::now();
    server.process().close_stdin();
    CHECK(server.process().wait_exit(10s) == 0);
    CHECK(seconds_since(closed) < 3.0);
}

TEST_CASE(
    "shutdown: a second signal cuts the stdio grace period short", "[hardening][stdio][shutdown]")
{
    stdio_server server({ "--shutdown-grace", "30" });
    server.initialize();
    server.send(slow_call("1", 30000));
    server.dispatched(9);
    auto const signalled = clock_type::now();
    server.process().signal(SIGTERM);
    REQUIRE(server.process().wait_stderr("waiting up to 30 s", 5s));
    server.process().signal(SIGTERM);
    CHECK(server.process().wait_exit(10s) == 0);
    CHECK(seconds_since(signalled) < 5.0);
}

TEST_CASE("shutdown: HTTP SIGTERM stops accepting, finishes calls in flight, exits 0",
    "[hardening][http][shutdown]")
{
    http_server_process server(test_bin, { "--shutdown-grace", "10" });
    auto const session = http_initialize(server.port());
    auto const port = server.port();
    auto slow = std::async(
        std::launch::async, [&] { return mcp_post(port, slow_call("1", 1500), session); });
    // An idle keep-alive connection must not hold the shutdown up.
    http_connection idle(port);
    REQUIRE(idle.send(make_request(port, "GET", "/healthz", {}, {})));
    REQUIRE(idle.read_response().status == 200);
    REQUIRE(wait_calls_in_flight(port, 1));

    server.process().signal(SIGTERM);
    REQUIRE(server.process().wait_stderr("no longer accepting", 5s));
    CHECK(idle.wait_closed(3s));
    bool refused = false; // the listener is closed: connection refused (or no answer)
    try {
        refused = http_request(port, "GET", "/healthz", {}, {}, 2s).status == 0;
    } catch (std::exception const&) {
        refused = true;
    }
    CHECK(refused);

    auto answered = slow.get();
    REQUIRE(answered.status == 200);
    CHECK(parse_object(answered.body).contains("result"));
    CHECK(server.process().wait_exit(5s) == 0);
}

TEST_CASE("shutdown: HTTP cancels calls still running after --shutdown-grace, exit 0",
    "[hardening][http][shutdown]")
{
    http_server_process server(test_bin, { "--shutdown-grace", "1" });
    auto const port = server.port();
    // A session call is cancelled through its session; a stateless one only by closing its
    // connection, which the peer watch must take for a departed client.
    bool const stateless = GENERATE(false, true);
    CAPTURE(stateless);
    auto const session = stateless ? std::string() : http_initialize(port);
    auto slow = std::async(std::launch::async, [&] {
        return stateless ? modern_call_post(port, "1", "Test_Slow", R"({"ms":30000,"steps":1})")
                         : mcp_post(port, slow_call("1", 30000), session);
    });
    REQUIRE(wait_calls_in_flight(port, 1));
    auto const signalled = clock_type::now();
    server.process().signal(SIGTERM);
    CHECK(server.process().wait_exit(10s) == 0);
    auto const took = seconds_since(signalled);
    CHECK(took >= 0.9);
    CHECK(took < 6.0);
    CHECK(server.process().stderr_text().find("grace period over") != std::string::npos);
    // Cancelled, not abandoned: the call unwound before the last-resort stop.
    CHECK(server.process().stderr_text().find("stopping anyway") == std::string::npos);
    CHECK(slow.get().status != 200); // cancelled: the connection closed without an answer
}
