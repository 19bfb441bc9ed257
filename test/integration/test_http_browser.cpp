// What browser clients and the MCP Inspector meet over HTTP (issue 17): CORS for allowed
// origins, the answer to a cancelled call, DELETE's status, the logs that explain refusals and
// the start-up banner's stdio command.
#include "integration_support.hpp"

#include <thread>

using namespace toolgate::testing;
namespace json = boost::json;
using namespace std::chrono_literals;

namespace {

std::string const inspector_origin = "http://localhost:6274";
std::string const list_request = R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})";
std::string const cancel_77
    = R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":77}})";

/// A header's value, or "" when the response has none.
std::string header_of(http_response const& r, std::string const& name)
{
    auto const* h = r.header(name);
    return h ? *h : std::string();
}

/// Sends `call` (id 77, Test_Slow for 30 s) on its own connection, then cancels it until the
/// server answers that connection or closes it (a cancellation that arrives before the call
/// is registered is ignored, so it is repeated).
void start_and_cancel(http_connection& slow, std::uint16_t port, std::string const& session,
    std::string const& accept)
{
    auto headers = mcp_headers(session, accept);
    slow.send(make_request(port, "POST", "/mcp", headers,
        call_request("77", "Test_Slow", R"({"ms":30000,"steps":1})")));
    for (int i = 0; i < 50; ++i) {
        REQUIRE(mcp_post(port, cancel_77, session).status == 202);
        if (slow.wait_closed(100ms) || !slow.read_until("HTTP/1.1", 0ms).empty()) {
            return;
        }
    }
    FAIL("the cancelled call's request was neither answered nor closed within 5 s");
}

} // namespace

TEST_CASE("http: a CORS preflight from an allowed origin gets 204 with the methods and headers "
          "MCP needs, before authentication",
    "[http][browser]")
{
    http_server_process server(test_bin);
    auto response = http_request(server.port(), "OPTIONS", "/mcp",
        { { "Origin", inspector_origin }, { "Access-Control-Request-Method", "POST" },
            { "Access-Control-Request-Headers", "content-type,mcp-session-id" } });
    CHECK(response.status == 204);
    CHECK(header_of(response, "access-control-allow-origin") == inspector_origin);
    CHECK_THAT(header_of(response, "access-control-allow-methods"),
        Catch::Contains("POST") && Catch::Contains("DELETE"));
    auto const allowed = header_of(response, "access-control-allow-headers");
    for (auto const* name : { "Content-Type", "Authorization", "Mcp-Session-Id",
             "MCP-Protocol-Version", "Mcp-Method", "Mcp-Name", "Last-Event-ID" }) {
        CHECK_THAT(allowed, Catch::Contains(name));
    }
    CHECK(header_of(response, "vary") == "Origin");
}

TEST_CASE("http: answers to an allowed origin carry Access-Control-Allow-Origin and expose the "
          "session and auth headers, and other origins stay refused without CORS headers",
    "[http][browser]")
{
    http_server_process server(test_bin);
    auto ok = mcp_post(server.port(), initialize_request("2025-11-25", "1"), {},
        { { "Origin", inspector_origin } });
    REQUIRE(ok.status == 200);
    CHECK(header_of(ok, "access-control-allow-origin") == inspector_origin);
    auto const exposed = header_of(ok, "access-control-expose-headers");
    CHECK_THAT(exposed, Catch::Contains("Mcp-Session-Id") && Catch::Contains("WWW-Authenticate"));
    // Errors carry them too, or the page could not read why it was refused.
    auto bad = mcp_post(server.port(), "{nope", {}, { { "Origin", inspector_origin } });
    CHECK(bad.status == 400);
    CHECK(header_of(bad, "access-control-allow-origin") == inspector_origin);

    auto foreign = http_request(server.port(), "OPTIONS", "/mcp",
        { { "Origin", "https://evil.example" }, { "Access-Control-Request-Method", "POST" } });
    CHECK(foreign.status == 403);
    CHECK(foreign.header("access-control-allow-origin") == nullptr);
    auto refused
        = mcp_post(server.port(), list_request, {}, { { "Origin", "https://evil.example" } });
    CHECK(refused.status == 403);
    CHECK(refused.header("access-control-allow-origin") == nullptr);
    // The log names the refused value, so whoever runs the server can allow it on purpose.
    CHECK(server.process().wait_stderr("https://evil.example", 2s));
    CHECK(server.process().wait_stderr("--allowed-origin", 0ms));
}

TEST_CASE("http: a refused Origin is logged printable and clipped", "[http][browser]")
{
    http_server_process server(test_bin);
    // A tab is the one control character a header value may hold.
    std::string const origin = "https://x\ty" + std::string(300, 'a') + ".example";
    CHECK(mcp_post(server.port(), list_request, {}, { { "Origin", origin } }).status == 403);
    REQUIRE(server.process().wait_stderr("refused Origin", 2s));
    auto const& log = server.process().stderr_text();
    CHECK(log.find(std::string(101, 'a')) == std::string::npos);
    CHECK(log.find('\t') == std::string::npos);
    CHECK_THAT(log, Catch::Contains("https://x\\x09y"));
}

TEST_CASE("http: DELETE of a session answers 200 (issue 17 item 6)", "[http][browser]")
{
    http_server_process server(test_bin);
    auto const session = http_initialize(server.port());
    auto deleted = http_request(server.port(), "DELETE", "/mcp", { { "Mcp-Session-Id", session } });
    CHECK(deleted.status == 200);
    CHECK(mcp_post(server.port(), list_request, session).status == 404);
}

TEST_CASE("http: a call cancelled before its answer began gets no response: an event stream "
          "that ends, or for a JSON-only client a closed connection (never a 202)",
    "[http][browser]")
{
    http_server_process server(test_bin);
    auto const session = http_initialize(server.port());
    SECTION("the client takes an event stream")
    {
        http_connection slow(server.port());
        start_and_cancel(slow, server.port(), session, "application/json, text/event-stream");
        auto answer = slow.read_response(5s);
        REQUIRE(answer.status == 200);
        CHECK_THAT(header_of(answer, "content-type"), Catch::StartsWith("text/event-stream"));
        CHECK(sse_data(answer.body).empty());
    }
    SECTION("the client takes JSON only")
    {
        http_connection slow(server.port());
        start_and_cancel(slow, server.port(), session, "application/json");
        CHECK(slow.wait_closed(5s));
        CHECK(slow.read_response(0ms).status == 0); // closed with no response at all
    }
    // The session carries on.
    CHECK(mcp_post(server.port(), list_request, session).status == 200);
}

TEST_CASE("http: at debug level, OPTIONS, GET 405, initialize and the session's end are logged",
    "[http][browser]")
{
    http_server_process server(test_bin, { "--log-level", "debug" });
    http_request(server.port(), "OPTIONS", "/mcp", { { "Origin", inspector_origin } });
    CHECK(server.process().wait_stderr("OPTIONS /mcp", 2s));
    CHECK(http_request(server.port(), "GET", "/mcp", { { "Accept", "text/event-stream" } }).status
        == 405);
    CHECK(server.process().wait_stderr("405", 2s));
    auto const session = http_initialize(server.port());
    CHECK(server.process().wait_stderr("session opened", 2s));
    http_request(server.port(), "DELETE", "/mcp", { { "Mcp-Session-Id", session } });
    CHECK(server.process().wait_stderr("session ended", 2s));
    CHECK(server.process().stderr_text().find(session) == std::string::npos);
}

TEST_CASE("http: the banner's stdio command carries the catalogue flags in force (issue 17 "
          "item 8)",
    "[http][browser]")
{
    SECTION("a subset with overrides")
    {
        http_server_process server(toolgate_bin,
            { "--toolkits", "KanbanApi", "--tools", "KanbanApi.Get*", "--read-only", "--tool-mode",
                "discovery" });
        REQUIRE(server.process().wait_stderr("over stdio", 2s));
        auto const& log = server.process().stderr_text();
        CHECK_THAT(log,
            Catch::Contains("toolgate --toolkits KanbanApi --tools 'KanbanApi.Get*' "
                            "--read-only --tool-mode discovery"));
        CHECK_THAT(log,
            Catch::Contains(R"("args": ["--toolkits","KanbanApi","--tools",)"
                            R"("KanbanApi.Get*","--read-only","--tool-mode",)"
                            R"("discovery"])"));
        CHECK_THAT(log, !Catch::Contains("--transport"));
    }
    SECTION("defaults")
    {
        http_server_process server(toolgate_bin);
        REQUIRE(server.process().wait_stderr("over stdio", 2s));
        CHECK_THAT(
            server.process().stderr_text(), Catch::Contains("over stdio: toolgate (no arguments)"));
    }
}
