// The Streamable HTTP endpoint in process: requests handed straight to handle(), answers
// caught by a recording responder (no socket, no listener). The door checks, the probes it
// hands to the operator's endpoint, CORS, a 2025 session from initialize to a call, and a
// stateless 2026-07-28 call.
#include "mcp/http_endpoint.hpp"
#include "mcp/router.hpp"
#include "mcp/session_registry.hpp"
#include "ops/metrics.hpp"
#include "protocol/dispatcher.hpp"
#include "protocol/tool_index.hpp"
#include "protocol/tool_pages.hpp"
#include "test_tools.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <catch2/catch.hpp>

#include <atomic>
#include <optional>

using namespace toolgate;
using namespace std::chrono_literals;
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

/// Everything the endpoint wrote for one request.
class recording_responder final : public transport::http_responder {
public:
    unsigned status = 0;
    transport::header_list headers; ///< the answer's, then those added for every answer
    std::string body;
    bool streamed = false;
    bool closes = false;
    bool authenticated = false;

    asio::awaitable<void> respond(
        unsigned code, transport::header_list h, std::string text) override
    {
        answer(code, std::move(h));
        body = std::move(text);
        co_return;
    }
    asio::awaitable<void> respond_parts(unsigned code, transport::header_list h, std::string head,
        std::string_view shared, std::string tail) override
    {
        answer(code, std::move(h));
        body = head + std::string(shared) + tail;
        co_return;
    }
    asio::awaitable<void> respond_pieces(
        unsigned code, transport::header_list h, std::vector<std::string_view> pieces) override
    {
        answer(code, std::move(h));
        for (auto piece : pieces) {
            body += piece;
        }
        co_return;
    }
    asio::awaitable<void> begin_stream(unsigned code, transport::header_list h) override
    {
        answer(code, std::move(h));
        streamed = true;
        co_return;
    }
    asio::awaitable<void> stream_write(std::string data) override
    {
        body += data;
        co_return;
    }
    asio::awaitable<void> end_stream() override { co_return; }
    bool has_responded() const override { return status != 0; }
    void close_after_response() override { closes = true; }
    void add_response_header(std::string name, std::string value) override
    {
        added_.emplace_back(std::move(name), std::move(value));
    }
    void mark_authenticated() override { authenticated = true; }

    /// The first answer header of this name (any letter case), or nullptr.
    std::string const* header(std::string_view name) const
    {
        for (auto const& [key, value] : headers) {
            if (key.size() == name.size()
                && std::equal(key.begin(), key.end(), name.begin(), [](char a, char b) {
                       return std::tolower(static_cast<unsigned char>(a))
                           == std::tolower(static_cast<unsigned char>(b));
                   })) {
                return &value;
            }
        }
        return nullptr;
    }

private:
    void answer(unsigned code, transport::header_list h)
    {
        REQUIRE(status == 0); // one answer per request
        status = code;
        headers = std::move(h);
        headers.insert(headers.end(), added_.begin(), added_.end());
    }
    transport::header_list added_;
};

/// The endpoint over the test tools, as serve_http wires it (no listener).
struct endpoint_fixture {
    asio::io_context ioc;
    std::unique_ptr<toolkits::tool_provider> tools = testing::make_test_tools();
    protocol::tool_pages pages { tools->tools(), protocol::tool_naming::wire, 0, {} };
    protocol::tool_index index { tools->tools() };
    protocol::dispatcher dispatcher { {}, pages, index };
    mcp::router router { *tools, dispatcher };
    mcp::session_registry sessions { ioc.get_executor(), transport::session_signer("test key"),
        3600s, 3600s };
    std::atomic<bool> ready { true };
    ops::server_metrics metrics { tools->tools(), "test" };
    mcp::mcp_http_endpoint endpoint { router, sessions, transport::origin_policy(), options() };

    mcp::endpoint_options options()
    {
        mcp::endpoint_options o;
        o.ops.ready = &ready;
        o.ops.metrics = &metrics;
        o.ops.metrics_public = true;
        return o;
    }

    /// Runs one request through handle() to its end.
    recording_responder serve(transport::http_request request)
    {
        recording_responder out;
        bool done = false;
        asio::co_spawn(
            ioc, endpoint.handle(std::move(request), out), [&done](std::exception_ptr error) {
                REQUIRE_FALSE(error);
                done = true;
            });
        ioc.restart();
        ioc.run_for(5s);
        REQUIRE(done);
        return out;
    }
};

transport::http_request request_of(std::string method, std::string path,
    transport::header_list headers = { { "host", "127.0.0.1:8080" } }, std::string body = {})
{
    transport::http_request r;
    r.method = std::move(method);
    r.target = path;
    r.path = std::move(path);
    r.headers = std::move(headers);
    r.body = std::move(body);
    r.peer = "127.0.0.1:50000";
    return r;
}

transport::http_request post(std::string body, transport::header_list extra = {})
{
    transport::header_list headers { { "host", "127.0.0.1:8080" },
        { "content-type", "application/json" },
        { "accept", "application/json, text/event-stream" } };
    headers.insert(headers.end(), extra.begin(), extra.end());
    return request_of("POST", "/mcp", std::move(headers), std::move(body));
}

std::string const modern_meta
    = R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
      R"("io.modelcontextprotocol/clientCapabilities":{},)"
      R"("io.modelcontextprotocol/clientInfo":{"name":"unit","version":"1"}})";

} // namespace

TEST_CASE("http endpoint in process: the probes answer before any check", "[mcp][http][in-process]")
{
    endpoint_fixture f;
    ops::metrics_sources sources;
    sources.ready = &f.ready;
    f.metrics.set_sources(std::move(sources));
    // A load balancer may name any Host: the probes do not look at it.
    transport::header_list foreign { { "host", "balancer.internal" } };
    auto health = f.serve(request_of("GET", "/healthz", foreign));
    CHECK(health.status == 200);
    CHECK(health.body == R"({"status":"ok"})");
    CHECK(f.serve(request_of("GET", "/readyz", foreign)).status == 200);
    f.ready = false;
    auto draining = f.serve(request_of("GET", "/readyz", foreign));
    CHECK(draining.status == 503);
    CHECK(draining.body == R"({"status":"shutting down"})");
    auto metrics = f.serve(request_of("GET", "/metrics"));
    CHECK(metrics.status == 200);
    REQUIRE(metrics.header("content-type") != nullptr);
    CHECK(metrics.header("content-type")->starts_with("text/plain"));
    CHECK(metrics.body.find("toolgate_ready 0") != std::string::npos);
}

TEST_CASE("http endpoint in process: the door refuses a foreign Origin or Host and a second "
          "Host, and closes the connection",
    "[mcp][http][in-process]")
{
    endpoint_fixture f;
    auto origin = f.serve(post(
        R"({"jsonrpc":"2.0","id":1,"method":"ping"})", { { "origin", "https://evil.example" } }));
    CHECK(origin.status == 403);
    CHECK(origin.closes);
    CHECK(origin.body.find("Origin or Host not allowed") != std::string::npos);
    auto host = f.serve(request_of("POST", "/mcp", { { "host", "rebound.example:8080" } }));
    CHECK(host.status == 403);
    auto twice
        = f.serve(request_of("POST", "/mcp", { { "host", "127.0.0.1" }, { "host", "127.0.0.1" } }));
    CHECK(twice.status == 400);
    CHECK(twice.closes);
    // The same checks guard /metrics.
    CHECK(f.serve(request_of("GET", "/metrics", { { "host", "rebound.example" } })).status == 403);
    auto elsewhere = f.serve(request_of("GET", "/other"));
    CHECK(elsewhere.status == 404);
    CHECK(elsewhere.body.find("the MCP endpoint is /mcp") != std::string::npos);
}

TEST_CASE("http endpoint in process: an allowed browser origin gets CORS headers and its "
          "preflight",
    "[mcp][http][in-process]")
{
    endpoint_fixture f;
    auto preflight = f.serve(request_of("OPTIONS", "/mcp",
        { { "host", "localhost:8080" }, { "origin", "http://localhost:6274" },
            { "access-control-request-headers", "content-type" } }));
    CHECK(preflight.status == 204);
    REQUIRE(preflight.header("access-control-allow-origin") != nullptr);
    CHECK(*preflight.header("access-control-allow-origin") == "http://localhost:6274");
    REQUIRE(preflight.header("access-control-allow-methods") != nullptr);
    CHECK(*preflight.header("access-control-allow-methods") == "POST, GET, DELETE, OPTIONS");
    CHECK_FALSE(preflight.authenticated); // answered before authentication
}

TEST_CASE("http endpoint in process: initialize opens a session whose calls are answered",
    "[mcp][http][in-process]")
{
    endpoint_fixture f;
    auto init = f.serve(post(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{)"
                             R"("protocolVersion":"2025-06-18","capabilities":{},)"
                             R"("clientInfo":{"name":"unit","version":"1"}}})"));
    REQUIRE(init.status == 200);
    CHECK(init.authenticated);
    REQUIRE(init.header("mcp-session-id") != nullptr);
    auto const session = *init.header("mcp-session-id");
    CHECK(f.sessions.size() == 1);
    auto call = f.serve(post(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{)"
                             R"("name":"Test_Echo","arguments":{"x":1}}})",
        { { "mcp-session-id", session }, { "mcp-protocol-version", "2025-06-18" } }));
    REQUIRE(call.status == 200);
    auto const answer = json::parse(call.body).as_object();
    CHECK(answer.at("id") == 2);
    auto const& result = answer.at("result").as_object();
    CHECK_FALSE(result.contains("isError"));
    CHECK(json::serialize(result.at("content")).find(R"(\"x\":1)") != std::string::npos);
    auto unknown = f.serve(post(R"({"jsonrpc":"2.0","id":3,"method":"ping"})",
        { { "mcp-session-id", "not-a-session" }, { "mcp-protocol-version", "2025-06-18" } }));
    CHECK(unknown.status == 404);
    auto ended = f.serve(request_of(
        "DELETE", "/mcp", { { "host", "127.0.0.1:8080" }, { "mcp-session-id", session } }));
    CHECK(ended.status == 200);
    CHECK(f.sessions.size() == 0);
}

TEST_CASE("http endpoint in process: a stateless 2026-07-28 call is answered and counted",
    "[mcp][http][in-process]")
{
    endpoint_fixture f;
    f.router.set_observer(&f.metrics);
    auto call = f.serve(post(R"({"jsonrpc":"2.0","id":"c","method":"tools/call","params":{)"
                             R"("name":"Test_Fail","arguments":{},)"
            + modern_meta + "}}",
        { { "mcp-protocol-version", "2026-07-28" }, { "mcp-method", "tools/call" },
            { "mcp-name", "Test_Fail" } }));
    REQUIRE(call.status == 200);
    auto const answer = json::parse(call.body).as_object();
    CHECK(answer.at("result").as_object().at("isError") == true);
    CHECK(f.metrics.render().find(
              R"(toolgate_tool_calls_total{toolkit="Test",tool="Fail",outcome="tool_error"} 1)")
        != std::string::npos);
}
