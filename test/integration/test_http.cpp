// Streamable HTTP, 2025 (legacy) rules, with raw requests against the built test server
// (docs/protocol-rules.md: H1–H28, L1/L9, B1/B2, PG5, LG7).
#include "integration_support.hpp"

#include <algorithm>
#include <thread>

using namespace toolgate::testing;
namespace json = boost::json;
using namespace std::chrono_literals;

namespace {

std::string const list_request = R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})";

std::string slow_call_with_token(std::string const& id, int ms, int steps)
{
    return call_request(id, "Test_Slow",
        R"({"ms":)" + std::to_string(ms) + R"(,"steps":)" + std::to_string(steps) + "}",
        R"("_meta":{"progressToken":"tok"})");
}

} // namespace

TEST_CASE("http: H11/H12: initialize issues an Mcp-Session-Id of visible ASCII, unique per "
          "session",
    "[http]")
{
    http_server_process server(test_bin);
    auto response = mcp_post(server.port(), initialize_request("2025-11-25", "1"));
    REQUIRE(response.status == 200);
    CHECK(*response.header("content-type") == "application/json");
    auto body = rpc_body(response);
    CHECK(body.at("id") == 1);
    CHECK(body.at("result").at("protocolVersion") == "2025-11-25");
    auto const* id = response.header("mcp-session-id");
    REQUIRE(id != nullptr);
    CHECK(id->size() >= 32); // ≥128 bits of randomness plus a MAC
    CHECK(std::all_of(id->begin(), id->end(), [](char c) { return c >= 0x21 && c <= 0x7e; }));

    auto second = mcp_post(server.port(), initialize_request("2025-11-25", "1"));
    REQUIRE(second.header("mcp-session-id") != nullptr);
    CHECK(*second.header("mcp-session-id") != *id);
}

TEST_CASE("http: L3: initialize over HTTP negotiates like stdio, never 2026-07-28", "[http]")
{
    http_server_process server(test_bin);
    auto [requested, expected] = GENERATE(table<std::string, std::string>({
        { "2025-03-26", "2025-03-26" },
        { "2025-06-18", "2025-06-18" },
        { "2024-01-01", "2025-11-25" },
        { "2026-07-28", "2025-11-25" },
    }));
    auto body = rpc_body(mcp_post(server.port(), initialize_request(requested, "1")));
    CHECK(body.at("result").at("protocolVersion") == json::value(expected));
}

TEST_CASE("http: a session answers tools/list and tools/call", "[http]")
{
    http_server_process server(test_bin);
    auto const session = http_initialize(server.port());
    auto listed = mcp_post(
        server.port(), list_request, session, { { "MCP-Protocol-Version", "2025-11-25" } });
    REQUIRE(listed.status == 200);
    CHECK(rpc_body(listed).at("result").at("tools").as_array().size() == 7);
    CHECK_FALSE(listed.has_header("mcp-session-id")); // issued once, at initialize

    auto called = mcp_post(server.port(), call_request("3", "Test_Echo", R"({"a":"b"})"), session,
        { { "MCP-Protocol-Version", "2025-11-25" } });
    REQUIRE(called.status == 200);
    CHECK(*called.header("content-type") == "application/json"); // H6: fast call, plain JSON
    CHECK(rpc_body(called).at("result").at("structuredContent").at("a") == "b");
}

TEST_CASE("http: H13/L1: a request without Mcp-Session-Id gets 400 (ping excepted, L9)", "[http]")
{
    http_server_process server(test_bin);
    auto text = GENERATE(as<std::string> {}, list_request, call_request("3", "Test_Echo"),
        R"({"jsonrpc":"2.0","id":4,"method":"logging/setLevel","params":{"level":"info"}})");
    CAPTURE(text);
    auto response = mcp_post(server.port(), text);
    CHECK(response.status == 400);
    CHECK(error_code_of(rpc_body(response)) == -32600);

    auto ping = mcp_post(server.port(), R"({"jsonrpc":"2.0","id":5,"method":"ping"})");
    CHECK(ping.status == 200);
    CHECK(rpc_body(ping).at("result") == json::object());
    CHECK_FALSE(ping.has_header("mcp-session-id"));
}

TEST_CASE("http: H14: unknown, forged or tampered session ids get 404", "[http]")
{
    http_server_process server(test_bin);
    auto const good = http_initialize(server.port());
    auto tampered = good;
    tampered.back() = tampered.back() == 'a' ? 'b' : 'a';
    auto other_payload = good;
    other_payload[4] = other_payload[4] == '1' ? '2' : '1';
    for (auto const& id : { std::string("nope"), std::string("v1-2025-11-25-0-00.00"), tampered,
             other_payload, std::string(300, 'a') }) {
        CAPTURE(id);
        CHECK(mcp_post(server.port(), list_request, id).status == 404);
        // Notifications on an unknown session are refused too, and so is DELETE.
        CHECK(mcp_post(server.port(), initialized_notification, id).status == 404);
        CHECK(http_request(server.port(), "DELETE", "/mcp", { { "Mcp-Session-Id", id } }).status
            == 404);
    }
    // The good one still works.
    CHECK(mcp_post(server.port(), list_request, good).status == 200);
}

TEST_CASE("http: H15: DELETE ends a session, later requests with its id get 404", "[http]")
{
    http_server_process server(test_bin);
    auto const session = http_initialize(server.port());
    auto deleted = http_request(server.port(), "DELETE", "/mcp",
        { { "Mcp-Session-Id", session }, { "MCP-Protocol-Version", "2025-11-25" } });
    CHECK(deleted.status == 200); // not 204: the older Inspector's proxy cannot relay it
    CHECK(mcp_post(server.port(), list_request, session).status == 404);
    CHECK(http_request(server.port(), "DELETE", "/mcp", { { "Mcp-Session-Id", session } }).status
        == 404);
    // DELETE without a session id is a bad request.
    CHECK(http_request(server.port(), "DELETE", "/mcp").status == 400);
}

TEST_CASE("http: H15: DELETE cancels the session's call in flight", "[http]")
{
    http_server_process server(test_bin);
    auto const session = http_initialize(server.port());
    http_connection slow(server.port());
    slow.send(make_request(server.port(), "POST", "/mcp", mcp_headers(session),
        slow_call_with_token("9", 30000, 300)));
    // The first progress event shows the call is running (and registered in the session).
    REQUIRE_THAT(
        slow.read_until("notifications/progress", 5s), Catch::Contains("notifications/progress"));
    auto deleted = http_request(server.port(), "DELETE", "/mcp", { { "Mcp-Session-Id", session } });
    CHECK(deleted.status == 200);
    // The stream ends without an answer for the cancelled call (CN1).
    auto answer = slow.read_response(5s);
    REQUIRE(answer.status == 200);
    auto events = sse_data(answer.body);
    REQUIRE_FALSE(events.empty());
    for (auto const& e : events) {
        CHECK(parse_rpc(e).at("method") == "notifications/progress");
    }
}

TEST_CASE("http: H14: an idle session expires after --session-idle-timeout", "[http]")
{
    // 2 s, used every 0.5 s: a stall of up to 1.5 s on a loaded machine does not end it.
    http_server_process server(test_bin, { "--session-idle-timeout", "2" });
    auto const session = http_initialize(server.port());
    // Used more often than the timeout, it stays alive past it.
    for (int i = 0; i < 5; ++i) {
        std::this_thread::sleep_for(500ms);
        REQUIRE(mcp_post(server.port(), list_request, session).status == 200);
    }
    // Expiry needs the session left alone: any request would refresh it, so this is a plain
    // wait (2.6 s > the 2 s timeout), not a polled condition.
    std::this_thread::sleep_for(2600ms);
    CHECK(mcp_post(server.port(), list_request, session).status == 404);
}

TEST_CASE("http: H5: notifications and posted responses get 202 with an empty body", "[http]")
{
    http_server_process server(test_bin);
    auto const session = http_initialize(server.port());
    auto text = GENERATE(as<std::string> {}, initialized_notification,
        R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":77}})",
        R"({"jsonrpc":"2.0","id":5,"result":{}})",
        R"({"jsonrpc":"2.0","id":"x","error":{"code":-1,"message":"no"}})");
    CAPTURE(text);
    auto response = mcp_post(server.port(), text, session);
    CHECK(response.status == 202);
    CHECK(response.body.empty());
    // Without a session (a notification from a stateless client) it is accepted as well.
    CHECK(mcp_post(server.port(), text).status == 202);
}

TEST_CASE("http: H17: an unsupported or malformed MCP-Protocol-Version gets 400", "[http]")
{
    http_server_process server(test_bin);
    auto const session = http_initialize(server.port());
    auto version
        = GENERATE(as<std::string> {}, "1999-01-01", "2024-11-05", "banana", "", "2025-11-25x");
    CAPTURE(version);
    auto response
        = mcp_post(server.port(), list_request, session, { { "MCP-Protocol-Version", version } });
    CHECK(response.status == 400);
}

TEST_CASE("http: H18: a supported version other than the negotiated one is served", "[http]")
{
    http_server_process server(test_bin);
    auto const session = http_initialize(server.port(), "2025-11-25");
    auto version = GENERATE(as<std::string> {}, "2025-03-26", "2025-06-18", "2025-11-25");
    auto response
        = mcp_post(server.port(), list_request, session, { { "MCP-Protocol-Version", version } });
    CHECK(response.status == 200);
    // The session's revision still decides: 2025-11-25 listings carry titles.
    CHECK(rpc_body(response).at("result").at("tools").at(0).as_object().contains("title"));
    // No header at all: the session's version.
    CHECK(mcp_post(server.port(), list_request, session).status == 200);
}

TEST_CASE("http: H26: a hostile Origin gets 403, loopback origins are allowed", "[http]")
{
    http_server_process server(test_bin, { "--allowed-origin", "https://app.example" });
    SECTION("hostile")
    {
        auto origin = GENERATE(as<std::string> {}, "http://evil.example", "null",
            "http://localhost.evil.example", "http://127.0.0.1.nip.io", "file://",
            "http://localhost:3000/path");
        CAPTURE(origin);
        auto response = mcp_post(
            server.port(), initialize_request("2025-11-25", "1"), {}, { { "Origin", origin } });
        CHECK(response.status == 403);
        CHECK_FALSE(response.has_header("mcp-session-id"));
        // Everywhere, not only on initialize.
        CHECK(mcp_post(server.port(), R"({"jsonrpc":"2.0","id":1,"method":"ping"})", {},
                  { { "Origin", origin } })
                  .status
            == 403);
    }
    SECTION("allowed")
    {
        auto origin = GENERATE(as<std::string> {}, "http://localhost", "http://localhost:3000",
            "https://localhost:6274", "http://127.0.0.1:8080", "http://[::1]:5173",
            "https://app.example");
        CAPTURE(origin);
        auto response = mcp_post(
            server.port(), initialize_request("2025-11-25", "1"), {}, { { "Origin", origin } });
        CHECK(response.status == 200);
    }
}

TEST_CASE("http: H27: a foreign Host gets 403 (DNS rebinding), loopback names pass", "[http]")
{
    http_server_process server(test_bin);
    auto const port = std::to_string(server.port());
    SECTION("foreign")
    {
        auto host = GENERATE(
            as<std::string> {}, "evil.example", "evil.example:80", "attacker.localhost.example");
        CAPTURE(host);
        auto response = mcp_post(
            server.port(), R"({"jsonrpc":"2.0","id":1,"method":"ping"})", {}, { { "Host", host } });
        CHECK(response.status == 403);
        // Even with a friendly Origin (the conformance check sends hostile Host + Origin).
        CHECK(mcp_post(server.port(), R"({"jsonrpc":"2.0","id":1,"method":"ping"})", {},
                  { { "Host", host }, { "Origin", "http://localhost" } })
                  .status
            == 403);
    }
    SECTION("loopback")
    {
        auto host = GENERATE_COPY(values<std::string>(
            { "localhost:" + port, "127.0.0.1:" + port, "[::1]:" + port, "localhost" }));
        CAPTURE(host);
        auto response = mcp_post(server.port(), R"({"jsonrpc":"2.0","id":1,"method":"ping"})", {},
            { { "Host", host }, { "Origin", "http://localhost:" + port } });
        CHECK(response.status == 200);
    }
}

TEST_CASE("http: H19: GET /mcp gets 405 with an Allow header", "[http]")
{
    http_server_process server(test_bin);
    auto const session = http_initialize(server.port());
    for (auto const& headers : { header_pairs { { "Accept", "text/event-stream" } },
             header_pairs { { "Accept", "text/event-stream" }, { "Mcp-Session-Id", session } },
             header_pairs { { "Accept", "text/event-stream" }, { "Mcp-Session-Id", session },
                 { "Last-Event-ID", "1" } } }) {
        auto response = http_request(server.port(), "GET", "/mcp", headers);
        CHECK(response.status == 405);
        REQUIRE(response.has_header("allow"));
        CHECK_THAT(*response.header("allow"), Catch::Contains("POST"));
    }
    auto put = http_request(server.port(), "PUT", "/mcp", mcp_headers(), "{}");
    CHECK(put.status == 405);
    CHECK(put.has_header("allow"));
}

TEST_CASE("http: H4: a POST whose Content-Type is not JSON gets 415", "[http]")
{
    http_server_process server(test_bin);
    auto type = GENERATE(as<std::string> {}, "text/plain", "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x", "");
    CAPTURE(type);
    header_pairs headers { { "Accept", "application/json, text/event-stream" } };
    if (!type.empty()) {
        headers.emplace_back("Content-Type", type);
    }
    auto response = http_request(
        server.port(), "POST", "/mcp", headers, R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
    CHECK(response.status == 415);
    // With a charset parameter JSON is fine.
    auto ok = http_request(server.port(), "POST", "/mcp",
        { { "Content-Type", "application/json; charset=utf-8" }, { "Accept", "application/json" } },
        R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
    CHECK(ok.status == 200);
}

TEST_CASE("http: H3: an Accept that allows neither JSON nor SSE gets 406, */* is fine", "[http]")
{
    http_server_process server(test_bin);
    std::string const ping = R"({"jsonrpc":"2.0","id":1,"method":"ping"})";
    auto bad = GENERATE(as<std::string> {}, "text/html", "image/png", "application/xml");
    CAPTURE(bad);
    CHECK(mcp_post(server.port(), ping, {}, {}, bad).status == 406);
    for (auto good : { "*/*", "application/json", "text/event-stream",
             "application/json, text/event-stream", "text/html, */*;q=0.1" }) {
        CAPTURE(good);
        CHECK(mcp_post(server.port(), ping, {}, {}, good).status == 200);
    }
}

TEST_CASE("http: H4: a body over --max-body-bytes gets 413", "[http]")
{
    http_server_process server(test_bin, { "--max-body-bytes", "1024" });
    auto const session = http_initialize(server.port());
    std::string const big
        = call_request("1", "Test_Echo", R"({"pad":")" + std::string(2000, 'x') + R"("})");
    CHECK(mcp_post(server.port(), big, session).status == 413);
    // Without a Content-Length (chunked), the limit is found while reading the body.
    auto chunked = http_request(server.port(), "POST", "/mcp",
        { { "Content-Type", "application/json" }, { "Accept", "application/json" },
            { "Mcp-Session-Id", session }, { "Transfer-Encoding", "chunked" },
            { "Content-Length", "" } },
        "7d0\r\n" + std::string(2000, ' ') + "\r\n0\r\n\r\n");
    CHECK(chunked.status == 413);
    // A body within the limit still works, on the same server.
    std::string const small = call_request("2", "Test_Echo", R"({"pad":"x"})");
    CHECK(mcp_post(server.port(), small, session).status == 200);
}

TEST_CASE("http: GET /healthz answers 200, unknown paths get 404", "[http]")
{
    http_server_process server(test_bin);
    auto health = http_request(server.port(), "GET", "/healthz");
    CHECK(health.status == 200);
    for (auto path : { "/", "/nope", "/mcp/extra", "/MCP", "/sse" }) {
        CAPTURE(path);
        CHECK(http_request(server.port(), "POST", path, mcp_headers(),
                  R"({"jsonrpc":"2.0","id":1,"method":"ping"})")
                  .status
            == 404);
    }
    // A query string does not change the path.
    CHECK(http_request(server.port(), "POST", "/mcp?x=1", mcp_headers(),
              R"({"jsonrpc":"2.0","id":1,"method":"ping"})")
              .status
        == 200);
}

TEST_CASE("http: a custom --path serves MCP there and nowhere else", "[http]")
{
    http_server_process server(test_bin, { "--path", "/api/mcp" });
    std::string const ping = R"({"jsonrpc":"2.0","id":1,"method":"ping"})";
    CHECK(http_request(server.port(), "POST", "/api/mcp", mcp_headers(), ping).status == 200);
    CHECK(http_request(server.port(), "POST", "/mcp", mcp_headers(), ping).status == 404);
}

TEST_CASE("http: malformed bodies: -32700 and -32600 with status 400", "[http]")
{
    http_server_process server(test_bin);
    auto const session = http_initialize(server.port());
    auto parse_error = mcp_post(server.port(), "{not json", session);
    CHECK(parse_error.status == 400);
    auto body = rpc_body(parse_error);
    CHECK(error_code_of(body) == -32700);
    CHECK(body.at("id").is_null());

    auto invalid = mcp_post(server.port(), R"({"id":1,"method":"tools/list"})", session);
    CHECK(invalid.status == 400);
    CHECK(error_code_of(rpc_body(invalid)) == -32600);
}

TEST_CASE("http: PG5/H7/H10: with SSE accepted and a progressToken, progress events precede "
          "the result on a text/event-stream answer",
    "[http]")
{
    http_server_process server(test_bin);
    auto const session = http_initialize(server.port());
    auto response = mcp_post(server.port(), slow_call_with_token("\"s1\"", 200, 4), session);
    REQUIRE(response.status == 200);
    CHECK_THAT(*response.header("content-type"), Catch::StartsWith("text/event-stream"));
    REQUIRE(response.has_header("cache-control"));
    CHECK_THAT(*response.header("cache-control"), Catch::Contains("no-cache"));
    REQUIRE(response.has_header("x-accel-buffering"));
    CHECK(*response.header("x-accel-buffering") == "no");
    auto events = sse_data(response.body);
    REQUIRE(events.size() == 5);
    double last = 0;
    for (std::size_t i = 0; i + 1 < events.size(); ++i) {
        auto note = parse_rpc(events[i]);
        CHECK(note.at("method") == "notifications/progress");
        CHECK(note.at("params").at("progressToken") == "tok");
        auto const p = note.at("params").at("progress").to_number<double>();
        CHECK(p > last);
        last = p;
    }
    auto result = parse_rpc(events.back());
    CHECK(result.at("id") == "s1");
    CHECK(result.at("result").at("content").at(0).at("text") == "slow done");
    // H25: no resumability, so no event ids and no priming events.
    CHECK(response.body.find("\nid:") == std::string::npos);
    CHECK_FALSE(response.body.starts_with("id:"));
}

TEST_CASE("http: H3: a client accepting only JSON gets plain JSON and no progress (PG5)", "[http]")
{
    http_server_process server(test_bin);
    auto const session = http_initialize(server.port());
    auto response = mcp_post(
        server.port(), slow_call_with_token("1", 200, 4), session, {}, "application/json");
    REQUIRE(response.status == 200);
    CHECK(*response.header("content-type") == "application/json");
    auto body = parse_rpc(response.body);
    CHECK(body.at("id") == 1);
    CHECK(body.at("result").at("content").at(0).at("text") == "slow done");
}

TEST_CASE("http: LG7: log messages of a call travel on its SSE stream", "[http]")
{
    http_server_process server(test_bin);
    auto const session = http_initialize(server.port());
    auto set = mcp_post(server.port(),
        R"({"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"alert"}})",
        session);
    REQUIRE(set.status == 200);
    CHECK(rpc_body(set).at("result") == json::object());
    auto response = mcp_post(server.port(), call_request("2", "Test_Log"), session);
    REQUIRE(response.status == 200);
    CHECK_THAT(*response.header("content-type"), Catch::StartsWith("text/event-stream"));
    auto events = sse_data(response.body);
    REQUIRE(events.size() == 3); // alert, emergency, then the result
    CHECK(parse_rpc(events[0]).at("params").at("level") == "alert");
    CHECK(parse_rpc(events[1]).at("params").at("level") == "emergency");
    CHECK(parse_rpc(events[2]).at("id") == 2);

    // Another session has its own level (none set: no logs, plain JSON).
    auto const other = http_initialize(server.port());
    auto quiet = mcp_post(server.port(), call_request("3", "Test_Log"), other);
    CHECK(*quiet.header("content-type") == "application/json");
}

TEST_CASE("http: B1: a batch in a 2025-03-26 session gets an array", "[http]")
{
    http_server_process server(test_bin);
    auto const session = http_initialize(server.port(), "2025-03-26");
    auto response = mcp_post(server.port(),
        R"([{"jsonrpc":"2.0","id":1,"method":"ping"},)"
        R"({"jsonrpc":"2.0","method":"notifications/x"},)"
        R"({"jsonrpc":"2.0","id":2,"method":"tools/list"}])",
        session);
    REQUIRE(response.status == 200);
    auto body = parse_rpc(response.body);
    REQUIRE(body.is_array());
    REQUIRE(body.as_array().size() == 2);
    CHECK(body.at(0).at("id") == 1);
    CHECK(body.at(1).at("id") == 2);
    CHECK_FALSE(body.at(1).at("result").at("tools").at(0).as_object().contains("title"));

    auto only_notes
        = mcp_post(server.port(), R"([{"jsonrpc":"2.0","method":"notifications/x"}])", session);
    CHECK(only_notes.status == 202);
}

TEST_CASE("http: B2: a batch in a 2025-11-25 session or without a session gets 400", "[http]")
{
    http_server_process server(test_bin);
    std::string const batch
        = R"([{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}])";
    auto const session = http_initialize(server.port(), "2025-11-25");
    auto response = mcp_post(server.port(), batch, session);
    CHECK(response.status == 400);
    CHECK(error_code_of(rpc_body(response)) == -32600);
    CHECK(mcp_post(server.port(), batch).status == 400);
}

TEST_CASE(
    "http: §2 rule 3: initialize with MCP-Protocol-Version 2026-07-28 gets 400 -32020", "[http]")
{
    http_server_process server(test_bin);
    auto response = mcp_post(server.port(), initialize_request("2025-11-25", "1"), {},
        { { "MCP-Protocol-Version", "2026-07-28" } });
    CHECK(response.status == 400);
    auto body = rpc_body(response);
    CHECK(error_code_of(body) == -32020);
    CHECK(body.at("id") == 1);
    CHECK_FALSE(response.has_header("mcp-session-id"));
}

TEST_CASE("http: keep-alive connections carry several requests", "[http]")
{
    http_server_process server(test_bin);
    http_connection connection(server.port());
    for (int i = 1; i <= 3; ++i) {
        REQUIRE(connection.send(make_request(server.port(), "POST", "/mcp", mcp_headers(),
            R"({"jsonrpc":"2.0","id":)" + std::to_string(i) + R"(,"method":"ping"})")));
        auto response = connection.read_response(5s);
        REQUIRE(response.status == 200);
        CHECK(parse_rpc(response.body).at("id") == i);
    }
}

TEST_CASE(
    "http: L7: initialize on a live session gets 400, without the id it opens another", "[http]")
{
    http_server_process server(test_bin);
    auto const session = http_initialize(server.port());
    auto again = mcp_post(server.port(), initialize_request("2025-11-25", "9"), session);
    CHECK(again.status == 400);
    CHECK(error_code_of(rpc_body(again)) == -32600);
    CHECK_FALSE(again.has_header("mcp-session-id"));
    CHECK(mcp_post(server.port(), list_request, session).status == 200); // still alive
    // After DELETE (or with an unknown id) initialize starts afresh (H14: re-initialize).
    http_request(server.port(), "DELETE", "/mcp", { { "Mcp-Session-Id", session } });
    auto fresh = mcp_post(server.port(), initialize_request("2025-11-25", "10"), session);
    CHECK(fresh.status == 200);
    CHECK(fresh.has_header("mcp-session-id"));
}
