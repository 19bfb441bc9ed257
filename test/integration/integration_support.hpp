// Helpers shared by the integration tests: the test server over stdio pipes (every stdout
// line must be JSON-RPC, S3) and MCP requests over raw loopback HTTP.
#pragma once

#include "http_raw.hpp"
#include "process.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace toolgate::testing {

namespace json = boost::json;

inline std::string const test_bin = TOOLGATE_TEST_BIN;
inline std::string const toolgate_bin = TOOLGATE_BIN;

inline std::string initialize_request(std::string const& version, std::string const& id = "0")
{
    return R"({"jsonrpc":"2.0","id":)" + id
        + R"(,"method":"initialize","params":{"protocolVersion":")" + version
        + R"(","capabilities":{},"clientInfo":{"name":"integration","version":"1"}}})";
}

inline std::string const initialized_notification
    = R"({"jsonrpc":"2.0","method":"notifications/initialized"})";

/// `"_meta":{…}` claiming 2026-07-28 (or `version`), plus `extra` members.
inline std::string modern_meta(
    std::string const& version = "2026-07-28", std::string const& extra = "")
{
    return R"("_meta":{"io.modelcontextprotocol/protocolVersion":")" + version
        + R"(","io.modelcontextprotocol/clientCapabilities":{},)"
          R"("io.modelcontextprotocol/clientInfo":{"name":"integration","version":"1"})"
        + extra + "}";
}

inline std::string call_request(std::string const& id, std::string const& tool,
    std::string const& arguments = "{}", std::string const& meta = "")
{
    return R"({"jsonrpc":"2.0","id":)" + id + R"(,"method":"tools/call","params":{"name":")" + tool
        + R"(","arguments":)" + arguments + (meta.empty() ? "" : "," + meta) + "}}";
}

/// Parses one JSON-RPC 2.0 message text; fails the test when it is not one.
inline json::value parse_rpc(std::string const& text)
{
    INFO("message: " << text);
    boost::system::error_code ec;
    auto value = json::parse(text, ec);
    REQUIRE_FALSE(ec);
    auto check_one = [](json::value const& v) {
        REQUIRE(v.is_object());
        REQUIRE(v.as_object().contains("jsonrpc"));
        REQUIRE(v.at("jsonrpc") == "2.0");
    };
    if (value.is_array()) {
        for (auto const& element : value.as_array()) {
            check_one(element);
        }
    } else {
        check_one(value);
    }
    return value;
}

inline int error_code_of(json::value const& msg)
{
    INFO("message: " << json::serialize(msg));
    REQUIRE(msg.as_object().contains("error"));
    return static_cast<int>(msg.at("error").at("code").as_int64());
}

/// The test server (or toolgate) over stdio. Every line read is checked to be JSON-RPC.
class stdio_server {
public:
    explicit stdio_server(std::vector<std::string> args = {}, std::string binary = test_bin,
        spawn_options options = {})
        : process_(std::move(binary), std::move(args), std::move(options))
    {
    }

    void send(std::string const& text) { REQUIRE(process_.write_line(text)); }

    /// The next message, or nullopt at the deadline / EOF.
    std::optional<json::value> next(std::chrono::milliseconds timeout = 10s)
    {
        auto line = process_.read_line(timeout);
        if (!line) {
            return std::nullopt;
        }
        return parse_rpc(*line);
    }

    /// Reads until the response with `id` (compared as JSON); notifications and other
    /// responses met on the way are kept in `seen`.
    json::object response(json::value const& id, std::chrono::milliseconds timeout = 10s)
    {
        auto const deadline = std::chrono::steady_clock::now() + timeout;
        for (;;) {
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            INFO("waiting for the response to id " << json::serialize(id) << "; stderr:\n"
                                                   << process_.stderr_text());
            REQUIRE(left.count() > 0);
            auto msg = next(left);
            REQUIRE(msg.has_value());
            if (msg->is_object() && msg->as_object().contains("id")
                && !msg->as_object().contains("method") && msg->at("id") == id) {
                return msg->as_object();
            }
            seen.push_back(std::move(*msg));
        }
    }
    json::object response(int id, std::chrono::milliseconds timeout = 10s)
    {
        return response(json::value(id), timeout);
    }

    json::object request(std::string const& text, int id)
    {
        send(text);
        return response(id);
    }

    /// initialize + notifications/initialized; returns the InitializeResult.
    json::object initialize(std::string const& version = "2025-11-25")
    {
        send(initialize_request(version, "0"));
        auto answer = response(0);
        REQUIRE(answer.contains("result"));
        send(initialized_notification);
        return answer.at("result").as_object();
    }

    /// Notifications met so far (in order) with this method.
    std::vector<json::object> notifications(std::string_view method) const
    {
        std::vector<json::object> out;
        for (auto const& m : seen) {
            if (m.is_object() && m.as_object().contains("method") && m.at("method").is_string()
                && m.at("method").as_string() == method) {
                out.push_back(m.as_object());
            }
        }
        return out;
    }

    child_process& process() { return process_; }
    std::vector<json::value> seen;

private:
    child_process process_;
};

// --- HTTP ------------------------------------------------------------------------------------

inline header_pairs mcp_headers(std::string const& session = {},
    std::string const& accept = "application/json, text/event-stream")
{
    header_pairs h { { "Content-Type", "application/json" }, { "Accept", accept } };
    if (!session.empty()) {
        h.emplace_back("Mcp-Session-Id", session);
    }
    return h;
}

/// POST /mcp with the usual MCP headers plus `extra`.
inline http_response mcp_post(std::uint16_t port, std::string const& body,
    std::string const& session = {}, header_pairs const& extra = {},
    std::string const& accept = "application/json, text/event-stream")
{
    auto headers = mcp_headers(session, accept);
    headers.insert(headers.end(), extra.begin(), extra.end());
    return http_request(port, "POST", "/mcp", headers, body);
}

/// A response body as one JSON-RPC message (JSON, or the last event of an SSE stream).
inline json::value rpc_body(http_response const& response)
{
    INFO("status " << response.status << " body: " << response.body);
    auto const* type = response.header("content-type");
    REQUIRE(type != nullptr);
    if (type->starts_with("text/event-stream")) {
        auto events = sse_data(response.body);
        REQUIRE_FALSE(events.empty());
        return parse_rpc(events.back());
    }
    REQUIRE(type->starts_with("application/json"));
    return parse_rpc(response.body);
}

/// initialize over HTTP; returns the session id (and checks H11/H12).
inline std::string http_initialize(std::uint16_t port, std::string const& version = "2025-11-25")
{
    auto response = mcp_post(port, initialize_request(version, "1"));
    INFO("body: " << response.body);
    REQUIRE(response.status == 200);
    auto const* id = response.header("mcp-session-id");
    REQUIRE(id != nullptr);
    auto notified
        = mcp_post(port, initialized_notification, *id, { { "MCP-Protocol-Version", version } });
    REQUIRE(notified.status == 202);
    return *id;
}

/// Headers a 2026-07-28 client sends for `method` (and `name` for tools/call).
inline header_pairs modern_headers(std::string const& method, std::string const& name = {})
{
    header_pairs h { { "MCP-Protocol-Version", "2026-07-28" }, { "Mcp-Method", method } };
    if (!name.empty()) {
        h.emplace_back("Mcp-Name", name);
    }
    return h;
}

} // namespace toolgate::testing
