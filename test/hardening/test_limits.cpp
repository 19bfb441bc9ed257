// Limits, each with its own clear answer: header size (431), open connections (503), live
// sessions (initialize refused), tool calls in flight per session and in total.
#include "hardening_support.hpp"
#include "metrics_probe.hpp"

#include <future>
#include <thread>

using namespace toolgate::testing;
namespace json = boost::json;
using namespace std::chrono_literals;

namespace {

/// A slow call on its own connection, answered in the background.
std::future<http_response> slow_in_background(
    std::uint16_t port, std::string const& session, std::string const& id, int ms)
{
    return std::async(
        std::launch::async, [=] { return mcp_post(port, slow_call(id, ms), session); });
}

} // namespace

TEST_CASE("limits: request headers over --max-header-bytes get 431", "[hardening][http]")
{
    http_server_process server(test_bin, { "--max-header-bytes", "2048" });
    auto const padding = std::string(3000, 'x');
    auto big = http_request(server.port(), "GET", "/healthz", { { "X-Padding", padding } });
    CHECK(big.status == 431);
    CHECK(big.body.find("headers too large") != std::string::npos);
    auto small = http_request(server.port(), "GET", "/healthz", { { "X-Padding", "short" } });
    CHECK(small.status == 200);

    http_server_process roomy(test_bin); // the default (16 KiB) takes the same request
    CHECK(
        http_request(roomy.port(), "GET", "/healthz", { { "X-Padding", padding } }).status == 200);
}

TEST_CASE("limits: connections over --max-connections get 503 and a reason", "[hardening][http]")
{
    http_server_process server(test_bin, { "--max-connections", "2" });
    // Two keep-alive connections that the server has surely accepted (each got an answer).
    http_connection a(server.port());
    http_connection b(server.port());
    for (auto* c : { &a, &b }) {
        REQUIRE(c->send(make_request(server.port(), "GET", "/healthz", {}, {})));
        REQUIRE(c->read_response().status == 200);
    }
    auto refused = http_request(server.port(), "GET", "/healthz");
    CHECK(refused.status == 503);
    CHECK(refused.body.find("--max-connections") != std::string::npos);
    CHECK(refused.closed);

    b.close();
    // The freed place is usable again (the server notices the close asynchronously).
    int status = 0;
    // Up to 15 s: under ASan on a loaded machine the close took over 1 s to be noticed, and
    // once over 5 s (a CI run sharing its 2 cores with other builds).
    auto const deadline = std::chrono::steady_clock::now() + 15s;
    while (status != 200 && std::chrono::steady_clock::now() < deadline) {
        status = http_request(server.port(), "GET", "/healthz").status;
        if (status != 200) {
            std::this_thread::sleep_for(20ms);
        }
    }
    CHECK(status == 200);
}

TEST_CASE(
    "limits: initialize past --max-sessions is refused with a clear error", "[hardening][http]")
{
    http_server_process server(test_bin, { "--max-sessions", "2" });
    auto const first = http_initialize(server.port());
    http_initialize(server.port());

    auto refused = mcp_post(server.port(), initialize_request("2025-11-25", "7"));
    CHECK(refused.status == 503);
    CHECK(refused.has_header("retry-after"));
    CHECK_FALSE(refused.has_header("mcp-session-id"));
    auto body = parse_object(refused.body);
    CHECK(body.at("id") == 7);
    CHECK(error_message(body).find("--max-sessions") != std::string::npos);

    // Ending a session makes room.
    auto ended = http_request(server.port(), "DELETE", "/mcp", { { "Mcp-Session-Id", first } });
    CHECK(ended.status == 200);
    CHECK(mcp_post(server.port(), initialize_request("2025-11-25", "8")).status == 200);
}

TEST_CASE("limits: a call past --max-inflight-per-session gets an error naming the limit",
    "[hardening][stdio]")
{
    stdio_server server({ "--max-inflight-per-session", "2" });
    server.initialize();
    server.send(slow_call("1", 5000));
    server.send(slow_call("2", 5000));
    server.send(slow_call("3", 5000));
    auto third = server.response(3, 5s);
    CHECK(error_message(third).find("--max-inflight-per-session") != std::string::npos);
    // Once one finishes (here: is cancelled), a new call fits again.
    server.send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}})");
    std::optional<json::object> echo;
    for (int i = 0; i < 50; ++i) {
        server.send(call_request(std::to_string(100 + i), "Test_Echo", R"({"n":1})"));
        auto answer = server.response(100 + i, 5s);
        if (!answer.contains("error")) {
            echo = answer;
            break;
        }
        std::this_thread::sleep_for(20ms);
    }
    REQUIRE(echo.has_value());
    CHECK(echo->contains("result"));
}

TEST_CASE("limits: calls past --max-inflight (all sessions together) get a busy error",
    "[hardening][http]")
{
    http_server_process server(test_bin, { "--max-inflight", "2", "--threads", "2" });
    auto const s1 = http_initialize(server.port());
    auto const s2 = http_initialize(server.port());
    auto one = slow_in_background(server.port(), s1, "1", 6000);
    auto two = slow_in_background(server.port(), s2, "2", 6000);
    // Wait until both are running (the metrics say so), then a third call is refused. Probing
    // with calls instead could take a place itself just as the second slow call arrives, which
    // then gets the busy error in its stead.
    REQUIRE(wait_calls_in_flight(server.port(), 2));
    auto third = mcp_post(server.port(), call_request("3", "Test_Echo"), s1);
    REQUIRE(third.status == 200);
    auto const body = parse_object(third.body);
    REQUIRE(body.contains("error"));
    auto const message = error_message(body);
    CHECK(message.find("--max-inflight") != std::string::npos);
    CHECK(message.find("busy") != std::string::npos);
    auto const first = one.get();
    auto const second = two.get();
    CHECK(first.status == 200);
    CHECK(second.status == 200);
    CHECK(parse_object(first.body).contains("result"));
    CHECK(parse_object(second.body).contains("result"));
    // Both done: room again.
    auto after = mcp_post(server.port(), call_request("4", "Test_Echo"), s2);
    CHECK(parse_object(after.body).contains("result"));
}

TEST_CASE("limits: the new flags refuse nonsense values at start-up", "[hardening]")
{
    auto flag = GENERATE(as<std::string> {}, "--max-connections", "--max-sessions",
        "--max-inflight", "--max-inflight-per-session", "--max-header-bytes");
    child_process p(test_bin, { flag, "0" });
    CHECK(p.wait_exit(10s) == 2);
    CHECK(p.stderr_text().find(flag) != std::string::npos);
}

TEST_CASE("robustness: raw octets in a header are quoted as valid JSON in the error (fuzz find)",
    "[hardening][http]")
{
    http_server_process server(test_bin);
    std::string const meta = R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
                             R"("io.modelcontextprotocol/clientCapabilities":{},)"
                             R"("io.modelcontextprotocol/clientInfo":{"name":"h","version":"1"}})";
    auto const body = R"({"jsonrpc":"2.0","id":6,"method":"tools/list","params":{)" + meta + "}}";
    for (std::string header : { "Mcp-Method", "MCP-Protocol-Version" }) {
        header_pairs headers { { "Content-Type", "application/json" },
            { "Accept", "application/json" }, { "MCP-Protocol-Version", "2026-07-28" },
            { "Mcp-Method", "tools/list" } };
        for (auto& [name, value] : headers) {
            if (name == header) {
                value = "\x80tools/\xff";
            }
        }
        auto response = http_request(server.port(), "POST", "/mcp", headers, body);
        CAPTURE(header, response.body);
        CHECK(response.status == 400);
        auto answer = parse_object(response.body); // fails on invalid UTF-8
        CHECK(error_message(answer).find("\\x80") != std::string::npos);
    }
}
