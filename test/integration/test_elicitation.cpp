// The elicitation machinery through the test server's Test_Ask tool, over stdio and HTTP:
// a 2025 session's `elicitation/create` request and the client's answer routed back by id
// (stdout lines; the call's own event stream and a POSTed response), a 2026-07-28
// input_required result and its verified retry (forged, altered and foreign states refused),
// and the standalone GET stream opened only for sessions that may receive something unprompted.
#include "integration_support.hpp"

using namespace toolgate::testing;
namespace json = boost::json;
using namespace std::chrono_literals;

namespace {

std::string init_with(std::string const& capabilities, std::string const& id = "0")
{
    return R"({"jsonrpc":"2.0","id":)" + id
        + R"(,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":)"
        + capabilities + R"(,"clientInfo":{"name":"elicit-test","version":"1"}}})";
}

/// `_meta` of a 2026-07-28 request declaring `capabilities`.
std::string meta_with(std::string const& capabilities)
{
    return R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
           R"("io.modelcontextprotocol/clientCapabilities":)"
        + capabilities + "}";
}

std::string ask_call(std::string const& id, std::string const& meta = "",
    std::string const& retry = "", std::string const& question = "Go?")
{
    std::string extra = meta;
    if (!retry.empty()) {
        extra += (extra.empty() ? "" : ",") + retry;
    }
    return call_request(id, "Test_Ask", R"({"question":")" + question + R"("})", extra);
}

std::string retry_members(std::string const& state, std::string const& answer)
{
    return R"("inputResponses":{"answer":)" + answer + R"(},"requestState":)"
        + json::serialize(json::value(state));
}

std::string result_text(json::object const& answer)
{
    INFO(json::serialize(answer));
    REQUIRE(answer.contains("result"));
    return std::string(answer.at("result").at("content").at(0).at("text").as_string());
}

std::string http_session(std::uint16_t port, std::string const& capabilities)
{
    auto response = mcp_post(port, init_with(capabilities, "1"));
    REQUIRE(response.status == 200);
    auto const* id = response.header("mcp-session-id");
    REQUIRE(id != nullptr);
    REQUIRE(
        mcp_post(port, initialized_notification, *id, { { "MCP-Protocol-Version", "2025-11-25" } })
            .status
        == 202);
    return *id;
}

} // namespace

TEST_CASE("stdio 2025: a call asks the client and gets its answer, routed back by id",
    "[elicitation][stdio]")
{
    stdio_server server;
    server.send(init_with(R"({"elicitation":{"form":{}}})"));
    REQUIRE(server.response(0).contains("result"));
    server.send(initialized_notification);
    server.send(ask_call("1"));
    auto request = server.next();
    REQUIRE(request);
    auto const& asked = request->as_object();
    CHECK(asked.at("method") == "elicitation/create");
    CHECK(asked.at("params").at("mode") == "form");
    CHECK(asked.at("params").at("message") == "Go?");
    REQUIRE(asked.contains("id"));
    auto const id = json::serialize(asked.at("id"));
    // An answer naming another id reaches no call; the call keeps waiting.
    server.send(R"({"jsonrpc":"2.0","id":"not-ours","result":{"action":"decline"}})");
    server.send(R"({"jsonrpc":"2.0","id":)" + id
        + R"(,"result":{"action":"accept","content":{"ok":true}}})");
    CHECK(result_text(server.response(1)) == R"(accepted {"ok":true})");

    server.send(ask_call("2"));
    auto second = server.next();
    REQUIRE(second);
    CHECK(second->at("id") != asked.at("id")); // a fresh id per request
    server.send(R"({"jsonrpc":"2.0","id":)" + json::serialize(second->at("id"))
        + R"(,"error":{"code":-32602,"message":"form mode is switched off"}})");
    auto failed = server.response(2);
    CHECK(failed.at("result").at("isError") == true);
    CHECK_THAT(result_text(failed), Catch::Contains("form mode is switched off"));
}

TEST_CASE(
    "stdio 2025: a client that declared no elicitation is never asked", "[elicitation][stdio]")
{
    stdio_server server;
    server.initialize(); // capabilities {}
    auto answer = server.request(ask_call("1"), 1);
    CHECK(answer.at("result").at("isError") == true);
    CHECK(server.seen.empty()); // no elicitation/create went out (L8)
}

TEST_CASE("stdio 2026-07-28: input_required, then the retry with the signed state completes",
    "[elicitation][stdio][mrtr]")
{
    stdio_server server;
    auto const meta = meta_with(R"({"elicitation":{"form":{}}})");
    auto first = server.request(ask_call("1", meta), 1);
    auto const& needed = first.at("result").as_object();
    CHECK(needed.at("resultType") == "input_required");
    CHECK(needed.at("inputRequests").at("answer").at("method") == "elicitation/create");
    CHECK(needed.at("inputRequests").at("answer").at("params").at("mode") == "form");
    CHECK_FALSE(needed.contains("content"));
    std::string const state(needed.at("requestState").as_string());
    CHECK(server.seen.empty()); // 2026-07-28: no request to the client, ever

    auto const accept = R"({"action":"accept","content":{"ok":true}})";
    auto done = server.request(ask_call("2", meta, retry_members(state, accept)), 2);
    CHECK(done.at("result").at("resultType") == "complete");
    CHECK(result_text(done) == R"(accepted {"ok":true} state {"asked":true})");

    SECTION("a state for other arguments is foreign")
    {
        auto other = server.request(ask_call("3", meta, retry_members(state, accept), "Other?"), 3);
        CHECK(error_code_of(json::value(other)) == -32602);
        CHECK_THAT(std::string(other.at("error").at("message").as_string()),
            Catch::Contains("another call"));
    }
    SECTION("an altered or forged state is refused")
    {
        auto altered = state;
        altered[10] = altered[10] == 'A' ? 'B' : 'A';
        for (auto const& s : { altered, std::string("eyJ2IjoxfQ.AAAA") }) {
            auto refused = server.request(ask_call("4", meta, retry_members(s, accept)), 4);
            CHECK(error_code_of(json::value(refused)) == -32602);
            CHECK_THAT(std::string(refused.at("error").at("message").as_string()),
                Catch::Contains("not issued by this server"));
        }
    }
    SECTION("answers without a state are nobody's: the client is asked again")
    {
        auto again = server.request(
            ask_call("5", meta, R"("inputResponses":{"answer":{"action":"accept"}})"), 5);
        CHECK(again.at("result").at("resultType") == "input_required");
    }
}

TEST_CASE("http 2025: the request travels on the call's event stream and the POSTed answer "
          "reaches the call",
    "[elicitation][http]")
{
    http_server_process server(test_bin);
    auto const session = http_session(server.port(), R"({"elicitation":{}})");
    http_connection call(server.port());
    auto headers = mcp_headers(session);
    headers.emplace_back("MCP-Protocol-Version", "2025-11-25");
    REQUIRE(call.send(make_request(server.port(), "POST", "/mcp", headers, ask_call("7"))));
    auto const& seen = call.read_until("elicitation/create", 10s);
    REQUIRE(seen.find("elicitation/create") != std::string::npos);
    CHECK(seen.find("text/event-stream") != std::string::npos);
    auto const data_at = seen.find("data: ", seen.find("\r\n\r\n"));
    auto const line_end = seen.find('\n', data_at);
    auto request = json::parse(seen.substr(data_at + 6, line_end - data_at - 6)).as_object();
    CHECK(request.at("method") == "elicitation/create");

    auto const answer = R"({"jsonrpc":"2.0","id":)" + json::serialize(request.at("id"))
        + R"(,"result":{"action":"decline"}})";
    SECTION("another session's answer reaches no call")
    {
        auto const other = http_session(server.port(), R"({"elicitation":{}})");
        CHECK(mcp_post(server.port(), answer, other, { { "MCP-Protocol-Version", "2025-11-25" } })
                  .status
            == 202);
        auto const& so_far = call.read_until("declined", 300ms);
        CHECK(so_far.find("declined") == std::string::npos); // still waiting
    }
    CHECK(mcp_post(server.port(), answer, session, { { "MCP-Protocol-Version", "2025-11-25" } })
              .status
        == 202);
    auto streamed = call.read_response(10s);
    REQUIRE(streamed.status == 200);
    auto events = sse_data(streamed.body);
    REQUIRE(events.size() == 2);
    auto result = parse_rpc(events.back()).as_object();
    CHECK(result.at("id") == 7);
    CHECK(result_text(result) == "declined");
}

TEST_CASE("http 2026-07-28: input_required and its retry, statelessly", "[elicitation][http][mrtr]")
{
    http_server_process server(test_bin);
    auto const meta = meta_with(R"({"elicitation":{"form":{}}})");
    auto const headers = modern_headers("tools/call", "Test_Ask");
    auto first = rpc_body(mcp_post(server.port(), ask_call("1", meta), {}, headers));
    auto const& needed = first.at("result").as_object();
    REQUIRE(needed.at("resultType") == "input_required");
    std::string const state(needed.at("requestState").as_string());
    auto done = rpc_body(mcp_post(server.port(),
        ask_call("2", meta, retry_members(state, R"({"action":"cancel"})")), {}, headers));
    CHECK(result_text(done.as_object()) == R"(cancelled state {"asked":true})");
    // Another server (another key) refuses the state.
    http_server_process other(test_bin);
    auto refused = rpc_body(mcp_post(other.port(),
        ask_call("3", meta, retry_members(state, R"({"action":"cancel"})")), {}, headers));
    CHECK(error_code_of(refused) == -32602);
}

TEST_CASE("http: the standalone GET stream opens only for a session that may be sent something "
          "unprompted",
    "[elicitation][http]")
{
    http_server_process server(test_bin);
    header_pairs const accept { { "Accept", "text/event-stream" } };
    auto get = [&](std::string const& session, header_pairs extra = {}) {
        auto headers = accept;
        headers.emplace_back("Mcp-Session-Id", session);
        headers.insert(headers.end(), extra.begin(), extra.end());
        return make_request(server.port(), "GET", "/mcp", headers, {});
    };
    auto const form_only = http_session(server.port(), R"({"elicitation":{"form":{}}})");
    CHECK(http_request(server.port(), "GET", "/mcp", { accept[0], { "Mcp-Session-Id", form_only } })
              .status
        == 405);
    auto const url = http_session(server.port(), R"({"elicitation":{"url":{}}})");
    CHECK(http_request(server.port(), "GET", "/mcp", { accept[0], { "Mcp-Session-Id", "nope" } })
              .status
        == 404);
    CHECK(http_request(server.port(), "GET", "/mcp",
              { { "Accept", "application/json" }, { "Mcp-Session-Id", url } })
              .status
        == 406);

    http_connection stream(server.port());
    REQUIRE(stream.send(get(url)));
    auto const& head = stream.read_until("\r\n\r\n", 5s);
    CHECK(head.starts_with("HTTP/1.1 200"));
    CHECK(head.find("text/event-stream") != std::string::npos);
    // One standalone stream per session: a message goes on one stream only.
    CHECK(
        http_request(server.port(), "GET", "/mcp", { accept[0], { "Mcp-Session-Id", url } }).status
        == 409);
    // Ending the session ends its stream.
    CHECK(
        http_request(server.port(), "DELETE", "/mcp", { { "Mcp-Session-Id", url } }).status == 200);
    auto ended = stream.read_response(5s);
    CHECK(ended.status == 200);
    CHECK(ended.body.find("\"id\"") == std::string::npos); // never a response on it
}
