// Small helpers for the hardening tests (kept apart from the integration tests' helpers so
// the two suites can change independently): the test server over stdio and MCP over HTTP.
#pragma once

#include "http_raw.hpp"
#include "process.hpp"

#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace toolgate::testing {

namespace json = boost::json;

inline std::string const test_bin = TOOLGATE_TEST_BIN;

inline std::string initialize_request(std::string const& version, std::string const& id)
{
    return R"({"jsonrpc":"2.0","id":)" + id
        + R"(,"method":"initialize","params":{"protocolVersion":")" + version
        + R"(","capabilities":{},"clientInfo":{"name":"hardening","version":"1"}}})";
}

inline std::string call_request(
    std::string const& id, std::string const& tool, std::string const& arguments = "{}")
{
    return R"({"jsonrpc":"2.0","id":)" + id + R"(,"method":"tools/call","params":{"name":")" + tool
        + R"(","arguments":)" + arguments + "}}";
}

inline std::string slow_call(std::string const& id, int ms)
{
    return call_request(id, "Test_Slow", R"({"ms":)" + std::to_string(ms) + R"(,"steps":1})");
}

inline json::object parse_object(std::string const& text)
{
    INFO("message: " << text);
    boost::system::error_code ec;
    auto v = json::parse(text, ec);
    REQUIRE_FALSE(ec);
    REQUIRE(v.is_object());
    return v.as_object();
}

inline std::string error_message(json::object const& msg)
{
    INFO("message: " << json::serialize(msg));
    REQUIRE(msg.contains("error"));
    return std::string(msg.at("error").at("message").as_string());
}

/// The test server over stdio pipes.
class stdio_server {
public:
    explicit stdio_server(std::vector<std::string> args = {})
        : process_(test_bin, std::move(args))
    {
    }
    child_process& process() { return process_; }
    void send(std::string const& text) { REQUIRE(process_.write_line(text)); }

    /// Reads until the response whose id is `id` (other lines are skipped).
    json::object response(int id, std::chrono::milliseconds timeout = std::chrono::seconds(10))
    {
        auto const deadline = std::chrono::steady_clock::now() + timeout;
        for (;;) {
            auto const left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            INFO("waiting for id " << id << "; stderr:\n" << process_.stderr_text());
            REQUIRE(left.count() > 0);
            auto line = process_.read_line(left);
            REQUIRE(line.has_value());
            auto msg = parse_object(*line);
            if (msg.contains("id") && !msg.contains("method") && msg.at("id") == id) {
                return msg;
            }
        }
    }

    /// Sends a ping and waits for its answer. The server dispatches lines in the order it
    /// reads them, so every call sent before is running by then: a barrier, not a guess.
    void dispatched(int ping_id)
    {
        send(R"({"jsonrpc":"2.0","id":)" + std::to_string(ping_id) + R"(,"method":"ping"})");
        REQUIRE(response(ping_id).contains("result"));
    }

    void initialize()
    {
        send(initialize_request("2025-11-25", "0"));
        REQUIRE(response(0).contains("result"));
        send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    }

private:
    child_process process_;
};

/// POST /mcp with the MCP headers (and a session id when given).
inline http_response mcp_post(std::uint16_t port, std::string const& body,
    std::string const& session = {}, std::string const& accept = "application/json")
{
    header_pairs headers { { "Content-Type", "application/json" }, { "Accept", accept } };
    if (!session.empty()) {
        headers.emplace_back("Mcp-Session-Id", session);
        headers.emplace_back("MCP-Protocol-Version", "2025-11-25");
    }
    return http_request(port, "POST", "/mcp", headers, body);
}

/// A stateless 2026-07-28 tools/call over HTTP: `_meta` in the body, the version, method and
/// name headers beside it, no session.
inline http_response modern_call_post(std::uint16_t port, std::string const& id,
    std::string const& tool, std::string const& arguments)
{
    auto const body = R"({"jsonrpc":"2.0","id":)" + id
        + R"(,"method":"tools/call","params":{"name":")" + tool + R"(","arguments":)" + arguments
        + R"(,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
          R"("io.modelcontextprotocol/clientCapabilities":{},)"
          R"("io.modelcontextprotocol/clientInfo":{"name":"hardening","version":"1"}}}})";
    header_pairs const headers { { "Content-Type", "application/json" },
        { "Accept", "application/json" }, { "MCP-Protocol-Version", "2026-07-28" },
        { "Mcp-Method", "tools/call" }, { "Mcp-Name", tool } };
    return http_request(port, "POST", "/mcp", headers, body);
}

/// initialize over HTTP; returns the session id.
inline std::string http_initialize(std::uint16_t port)
{
    auto response = mcp_post(port, initialize_request("2025-11-25", "1"));
    INFO("body: " << response.body);
    REQUIRE(response.status == 200);
    REQUIRE(response.header("mcp-session-id") != nullptr);
    auto const id = *response.header("mcp-session-id");
    REQUIRE(mcp_post(port, R"({"jsonrpc":"2.0","method":"notifications/initialized"})", id).status
        == 202);
    return id;
}

} // namespace toolgate::testing
