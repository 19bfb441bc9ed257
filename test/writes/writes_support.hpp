// Helpers for the tests of the controls over writes (docs/controlling-writes.md): the shipped
// toolgate pointed at the fake platform for every toolkit, with fake secrets that must never
// show, and calls over stdio, a 2025-11-25 HTTP session and stateless 2026-07-28 HTTP.
#pragma once

#include "integration/integration_support.hpp"
#include "support/fake_platform.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>
#include <vector>

namespace toolgate::testing::writes {

using test::fake_platform;
using test::recorded_request;

/// Fake secrets, each holding `S3CR3T` (any case) so that one search finds any of them.
inline std::vector<std::pair<std::string, std::string>> const& fake_secrets()
{
    static std::vector<std::pair<std::string, std::string>> const values = {
        { "KANBAN_API_KEY", "kanban-key-S3CR3T-1" },
        { "KANBAN_TOKEN", "kanban-token-S3CR3T-2" },
        { "DEPLOY_ACCESS_TOKEN", "deploy-token-S3CR3T-3" },
        { "DESK_API_KEY", "desk-key-S3CR3T-4" },
        { "DESK_SUBDOMAIN", "desk-s3cr3t-tenant" },
        { "LEDGER_ACCESS_TOKEN", "ledger-token-S3CR3T-5" },
    };
    return values;
}

inline std::string const& secret(std::string_view variable)
{
    auto const& all = fake_secrets();
    return std::find_if(all.begin(), all.end(), [&](auto const& s) {
        return s.first == variable;
    })->second;
}

/// The environment holding every fake secret.
inline spawn_options secret_env(std::vector<std::string> more = {})
{
    spawn_options options;
    for (auto const& [name, value] : fake_secrets()) {
        options.env.push_back(name + "=" + value);
    }
    // No token store of the user's: an empty one in a place nobody else uses.
    options.env.emplace_back("XDG_STATE_HOME=/nonexistent-toolgate-state");
    options.env.insert(options.env.end(), more.begin(), more.end());
    return options;
}

/// Whether `text` holds a fake secret, raw or base64 in a Basic credential.
inline bool leaks_secret(std::string_view text)
{
    std::string lower(text);
    std::transform(lower.begin(), lower.end(), lower.begin(),
        [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    // base64("desk-key-S3CR3T-4:") as the DeskApi adapter sends it.
    return lower.find("s3cr3t") != std::string::npos
        || text.find("ZGVzay1rZXktUzNDUjNULTQ6") != std::string::npos;
}

/// The flags that send the given toolkits' calls to the fake (`/<Toolkit>/…`), every tool
/// listed.
inline std::vector<std::string> platform_args(fake_platform const& platform,
    std::vector<std::string> const& toolkits = { "KanbanApi", "DeployApi", "DeskApi", "LedgerApi" })
{
    std::vector<std::string> args { "--ca-file", fake_platform::ca_file(), "--tool-mode", "full" };
    std::string served;
    for (auto const& toolkit : toolkits) {
        served += served.empty() ? "" : ",";
        served += toolkit;
        args.emplace_back("--base-url");
        args.push_back(
            fmt::format("{}=https://127.0.0.1:{}/{}", toolkit, platform.port(), toolkit));
    }
    args.emplace_back("--toolkits");
    args.push_back(served);
    return args;
}

/// `args` followed by `more`.
inline std::vector<std::string> with(std::vector<std::string> args, std::vector<std::string> more)
{
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

/// A tool result's first text.
inline std::string text_of(json::value const& result)
{
    return std::string(result.at("content").as_array().at(0).at("text").as_string());
}

inline bool is_error(json::value const& result)
{
    auto const* flag = result.as_object().if_contains("isError");
    return flag != nullptr && flag->as_bool();
}

/// A tools/call in a stdio session; returns the result (fails on a JSON-RPC error).
inline json::value stdio_call(
    stdio_server& server, int id, std::string const& tool, std::string const& arguments)
{
    server.send(call_request(std::to_string(id), tool, arguments));
    auto answer = server.response(id);
    INFO(json::serialize(answer));
    REQUIRE(answer.contains("result"));
    return answer.at("result");
}

/// A stateless 2026-07-28 tools/call over HTTP; returns the whole JSON-RPC answer.
inline json::value modern_call(std::uint16_t port, int id, std::string const& tool,
    std::string const& arguments, header_pairs extra = {})
{
    auto headers = modern_headers("tools/call", tool);
    headers.insert(headers.end(), extra.begin(), extra.end());
    auto response = mcp_post(
        port, call_request(std::to_string(id), tool, arguments, modern_meta()), {}, headers);
    return rpc_body(response);
}

/// A tools/call in a 2025-11-25 HTTP session; returns the whole JSON-RPC answer.
inline json::value session_call(std::uint16_t port, std::string const& session, int id,
    std::string const& tool, std::string const& arguments, header_pairs extra = {})
{
    extra.emplace_back("MCP-Protocol-Version", "2025-11-25");
    auto response
        = mcp_post(port, call_request(std::to_string(id), tool, arguments), session, extra);
    return rpc_body(response);
}

/// A 2025-11-25 session opened with `extra` headers (a client token, say).
inline std::string open_session(std::uint16_t port, header_pairs extra = {})
{
    auto response = mcp_post(port, initialize_request("2025-11-25", "1"), {}, extra);
    INFO("body: " << response.body);
    REQUIRE(response.status == 200);
    auto const* id = response.header("mcp-session-id");
    REQUIRE(id != nullptr);
    std::string const session = *id;
    extra.emplace_back("MCP-Protocol-Version", "2025-11-25");
    REQUIRE(mcp_post(port, initialized_notification, session, extra).status == 202);
    return session;
}

} // namespace toolgate::testing::writes
