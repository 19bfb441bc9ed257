// Streamable HTTP, 2026-07-28 rules, with raw requests against the built test server
// (docs/protocol-rules.md §2 HTTP rules, §3 validation order, §6 result fields, §7 headers).
#include "integration_support.hpp"

using namespace toolgate::testing;
namespace json = boost::json;
using namespace std::chrono_literals;

namespace {

std::string modern_request(std::string const& method, std::string const& extra_params = "",
    std::string const& meta = modern_meta(), int id = 1)
{
    return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":")" + method
        + R"(","params":{)" + extra_params + (extra_params.empty() ? "" : ",") + meta + "}}";
}

std::string modern_call(std::string const& tool, std::string const& arguments = "{}",
    std::string const& meta = modern_meta())
{
    return modern_request(
        "tools/call", R"("name":")" + tool + R"(","arguments":)" + arguments, meta);
}

/// Status and JSON-RPC error code of a refused modern request.
std::pair<int, int> refusal(http_response const& response)
{
    auto body = rpc_body(response);
    CHECK(body.at("id") == 1); // §3: every error carries the request id
    return { response.status, error_code_of(body) };
}

} // namespace

TEST_CASE("http modern: server/discover is served without a session", "[http][modern]")
{
    http_server_process server(test_bin);
    auto response = mcp_post(
        server.port(), modern_request("server/discover"), {}, modern_headers("server/discover"));
    REQUIRE(response.status == 200);
    CHECK_FALSE(response.has_header("mcp-session-id")); // §7: never minted on modern requests
    auto result = rpc_body(response).at("result").as_object();
    CHECK(result.at("supportedVersions")
        == json::parse(R"(["2026-07-28","2025-11-25","2025-06-18","2025-03-26"])"));
    CHECK(result.at("resultType") == "complete");
    CHECK(result.at("cacheScope") == "public");
    CHECK(result.at("ttlMs").is_number());
    CHECK(result.at("_meta").at("io.modelcontextprotocol/serverInfo").at("name") == "toolgate");
}

TEST_CASE(
    "http modern: tools/list and tools/call work statelessly and mint no session", "[http][modern]")
{
    http_server_process server(test_bin);
    auto listed
        = mcp_post(server.port(), modern_request("tools/list"), {}, modern_headers("tools/list"));
    REQUIRE(listed.status == 200);
    CHECK_FALSE(listed.has_header("mcp-session-id"));
    auto result = rpc_body(listed).at("result").as_object();
    CHECK(result.at("tools").as_array().size() == 7);
    CHECK(result.at("ttlMs").is_number());
    CHECK(result.at("cacheScope") == "public");
    CHECK(result.at("resultType") == "complete");

    auto called = mcp_post(
        server.port(), modern_call("Test_Array"), {}, modern_headers("tools/call", "Test_Array"));
    REQUIRE(called.status == 200);
    CHECK_FALSE(called.has_header("mcp-session-id"));
    auto call_result = rpc_body(called).at("result").as_object();
    CHECK(call_result.at("structuredContent") == json::parse("[1,2,3]"));
    CHECK(call_result.at("resultType") == "complete");
    CHECK_FALSE(call_result.contains("ttlMs"));
}

TEST_CASE(
    "http modern: an Mcp-Session-Id on a modern request is ignored, never echoed", "[http][modern]")
{
    http_server_process server(test_bin);
    auto headers = modern_headers("tools/list");
    headers.emplace_back("Mcp-Session-Id", "not-a-session");
    auto response = mcp_post(server.port(), modern_request("tools/list"), {}, headers);
    CHECK(response.status == 200);
    CHECK_FALSE(response.has_header("mcp-session-id"));
}

TEST_CASE("http modern: a missing or mismatching MCP-Protocol-Version is 400 -32020 (§3 rows "
          "2, 6)",
    "[http][modern]")
{
    http_server_process server(test_bin);
    SECTION("missing")
    {
        auto response = mcp_post(
            server.port(), modern_request("tools/list"), {}, { { "Mcp-Method", "tools/list" } });
        CHECK(refusal(response) == std::pair { 400, -32020 });
    }
    SECTION("mismatching")
    {
        auto version = GENERATE(as<std::string> {}, "2025-11-25", "2026-07-29", "2026-07-28x");
        CAPTURE(version);
        auto response = mcp_post(server.port(), modern_request("tools/list"), {},
            { { "MCP-Protocol-Version", version }, { "Mcp-Method", "tools/list" } });
        CHECK(refusal(response) == std::pair { 400, -32020 });
    }
    SECTION("header 2026-07-28 with _meta naming v999: the mismatch comes before -32022")
    {
        auto response
            = mcp_post(server.port(), modern_request("tools/list", "", modern_meta("v999")), {},
                modern_headers("tools/list"));
        CHECK(refusal(response) == std::pair { 400, -32020 });
    }
    SECTION("surrounding spaces are trimmed; header names are case-insensitive")
    {
        auto response = mcp_post(server.port(), modern_request("tools/list"), {},
            { { "mcp-protocol-version", " 2026-07-28\t" }, { "MCP-METHOD", "tools/list " } });
        CHECK(response.status == 200);
    }
}

TEST_CASE("http modern: a missing or mismatching Mcp-Method is 400 -32020 (§3 rows 3, 6)",
    "[http][modern]")
{
    http_server_process server(test_bin);
    SECTION("missing")
    {
        auto response = mcp_post(server.port(), modern_request("tools/list"), {},
            { { "MCP-Protocol-Version", "2026-07-28" } });
        CHECK(refusal(response) == std::pair { 400, -32020 });
    }
    SECTION("mismatching")
    {
        auto response = mcp_post(
            server.port(), modern_request("tools/list"), {}, modern_headers("tools/call"));
        CHECK(refusal(response) == std::pair { 400, -32020 });
        // Values compare with case.
        auto upper = mcp_post(
            server.port(), modern_request("tools/list"), {}, modern_headers("TOOLS/LIST"));
        CHECK(refusal(upper) == std::pair { 400, -32020 });
    }
}

TEST_CASE(
    "http modern: Mcp-Name must mirror the tool name, plain or =?base64?…?= (§7)", "[http][modern]")
{
    http_server_process server(test_bin);
    auto const body = modern_call("Test_Echo", R"({"z":1})");
    SECTION("missing")
    {
        CHECK(refusal(mcp_post(server.port(), body, {}, modern_headers("tools/call")))
            == std::pair { 400, -32020 });
    }
    SECTION("mismatching")
    {
        auto name = GENERATE(as<std::string> {}, "Test_Fail", "test_echo", "Test.Echo",
            "=?base64?VGVzdF9GYWls?=" /* Test_Fail */, "=?base64?not base64!?=");
        CAPTURE(name);
        CHECK(refusal(mcp_post(server.port(), body, {}, modern_headers("tools/call", name)))
            == std::pair { 400, -32020 });
    }
    SECTION("matching")
    {
        auto name = GENERATE(as<std::string> {}, "Test_Echo", " Test_Echo ",
            "=?base64?VGVzdF9FY2hv?=" /* Test_Echo */);
        CAPTURE(name);
        auto response = mcp_post(server.port(), body, {}, modern_headers("tools/call", name));
        REQUIRE(response.status == 200);
        CHECK(rpc_body(response).at("result").at("structuredContent").at("z") == 1);
    }
    SECTION("a UTF-8 tool name travels base64-encoded")
    {
        // "Tést" does not exist: the header agrees with the body, so the answer is the
        // in-band unknown tool error, not a header mismatch.
        auto response = mcp_post(server.port(), modern_call("T\xc3\xa9st"), {},
            modern_headers("tools/call", "=?base64?VMOpc3Q=?="));
        CHECK(refusal(response) == std::pair { 200, -32602 });
    }
}

TEST_CASE("http modern: an unserved version is 400 -32022 with data.supported (§3 row 5)",
    "[http][modern]")
{
    http_server_process server(test_bin);
    auto response
        = mcp_post(server.port(), modern_request("tools/list", "", modern_meta("2099-01-01")), {},
            { { "MCP-Protocol-Version", "2099-01-01" }, { "Mcp-Method", "tools/list" } });
    CHECK(refusal(response) == std::pair { 400, -32022 });
    auto data = rpc_body(response).at("error").at("data");
    CHECK(data.at("requested") == "2099-01-01");
    CHECK(data.at("supported").as_array().size() == 4);
}

TEST_CASE("http modern: a malformed _meta is 400 -32602 (§3 row 4)", "[http][modern]")
{
    http_server_process server(test_bin);
    auto meta = GENERATE(as<std::string> {},
        R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"})",
        R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"shout"})");
    CAPTURE(meta);
    auto response = mcp_post(
        server.port(), modern_request("tools/list", "", meta), {}, modern_headers("tools/list"));
    CHECK(refusal(response) == std::pair { 400, -32602 });
}

TEST_CASE("http modern: the header names 2026-07-28 but the body has no _meta: 400 -32602 "
          "(§2 rule 5)",
    "[http][modern]")
{
    http_server_process server(test_bin);
    auto body = GENERATE(as<std::string> {}, R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})",
        R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"progressToken":1}}})",
        R"({"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}})");
    CAPTURE(body);
    auto response = mcp_post(server.port(), body, {}, modern_headers("tools/list"));
    CHECK(refusal(response) == std::pair { 400, -32602 });
    CHECK_FALSE(response.has_header("mcp-session-id"));
}

TEST_CASE(
    "http modern: unknown and removed methods are 404 -32601 (§2, §3 row 7)", "[http][modern]")
{
    http_server_process server(test_bin);
    auto method = GENERATE(as<std::string> {}, "no/such/method", "initialize", "ping",
        "logging/setLevel", "resources/subscribe", "subscriptions/listen");
    CAPTURE(method);
    auto response = mcp_post(server.port(), modern_request(method), {}, modern_headers(method));
    CHECK(refusal(response) == std::pair { 404, -32601 });
    CHECK_FALSE(response.has_header("mcp-session-id"));
}

TEST_CASE("http modern: an unknown tool is 200 with -32602 in-band (§3 row 10)", "[http][modern]")
{
    http_server_process server(test_bin);
    auto response = mcp_post(
        server.port(), modern_call("Test_Ech"), {}, modern_headers("tools/call", "Test_Ech"));
    CHECK(refusal(response) == std::pair { 200, -32602 });
    CHECK_THAT(std::string(rpc_body(response).at("error").at("message").as_string()),
        Catch::Contains("Test_Echo")); // the suggestion
}

TEST_CASE("http modern: a tool execution error is a 200 result with isError", "[http][modern]")
{
    http_server_process server(test_bin);
    auto response = mcp_post(
        server.port(), modern_call("Test_Fail"), {}, modern_headers("tools/call", "Test_Fail"));
    REQUIRE(response.status == 200);
    CHECK(rpc_body(response).at("result").at("isError") == true);
}

TEST_CASE("http modern: a batch holding a modern request is 400 -32600 (§2 HTTP rule 1)",
    "[http][modern]")
{
    http_server_process server(test_bin);
    std::string batch = "[";
    batch += modern_request("tools/list");
    batch += ']';
    auto response = mcp_post(server.port(), batch, {}, modern_headers("tools/list"));
    CHECK(response.status == 400);
    CHECK(error_code_of(rpc_body(response)) == -32600);
}

TEST_CASE("http modern: a notification is accepted with 202", "[http][modern]")
{
    http_server_process server(test_bin);
    auto response = mcp_post(server.port(),
        R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}})", {},
        { { "MCP-Protocol-Version", "2026-07-28" }, { "Mcp-Method", "notifications/cancelled" } });
    CHECK(response.status == 202);
    CHECK(response.body.empty());
}

TEST_CASE("http modern: progress and requested logs travel on the call's SSE stream (§8)",
    "[http][modern]")
{
    http_server_process server(test_bin);
    auto const meta = modern_meta(
        "2026-07-28", R"(,"progressToken":5,"io.modelcontextprotocol/logLevel":"info")");
    auto response
        = mcp_post(server.port(), modern_call("Test_Slow", R"({"ms":150,"steps":3})", meta), {},
            modern_headers("tools/call", "Test_Slow"));
    REQUIRE(response.status == 200);
    CHECK_THAT(*response.header("content-type"), Catch::StartsWith("text/event-stream"));
    auto events = sse_data(response.body);
    REQUIRE(events.size() == 7); // 3 × (progress + info log), then the result
    int progress = 0;
    int logs = 0;
    for (std::size_t i = 0; i + 1 < events.size(); ++i) {
        auto note = parse_rpc(events[i]);
        if (note.at("method") == "notifications/progress") {
            ++progress;
            CHECK(note.at("params").at("progressToken") == 5);
        } else {
            CHECK(note.at("method") == "notifications/message");
            ++logs;
        }
    }
    CHECK(progress == 3);
    CHECK(logs == 3);
    auto result = parse_rpc(events.back()).at("result");
    CHECK(result.at("resultType") == "complete");

    // Without logLevel and progressToken the answer is plain JSON (§8: no logs unasked).
    auto quiet = mcp_post(server.port(), modern_call("Test_Slow", R"({"ms":60,"steps":3})"), {},
        modern_headers("tools/call", "Test_Slow"));
    REQUIRE(quiet.status == 200);
    CHECK(*quiet.header("content-type") == "application/json");
}

TEST_CASE("http modern: a claim naming a legacy version is legacy traffic (§2)", "[http][modern]")
{
    http_server_process server(test_bin);
    // No session: a legacy tools/list needs one (H13), headers of the new revision are not
    // enforced on it.
    auto response
        = mcp_post(server.port(), modern_request("tools/list", "", modern_meta("2025-11-25")));
    CHECK(response.status == 400);
    CHECK(error_code_of(rpc_body(response)) == -32600);
}
