// The operator's policy per client (docs/controlling-writes.md "Policy per client"): what a
// client's `[policy."<principal>"]` table or its JWT scopes (--scope-toolsets) do not allow is
// neither listed, found, described nor callable, by any path; a client's own choices narrow
// further, never wider; a quota refuses the call past it with retry_after_seconds and sends
// nothing; SIGHUP rereads the tables; a mistake in them stops start-up.
#include "auth/token_forge.hpp"
#include "credentials/credentials_support.hpp"
#include "writes_support.hpp"

#include <boost/json/parse.hpp>

#include <csignal>
#include <set>
#include <thread>

using namespace toolgate::testing;
using namespace toolgate::testing::writes;

namespace {

header_pairs bearer(std::string const& token)
{
    return { { "Authorization", "Bearer " + token } };
}

header_pairs const bob = bearer("bob-client-token-1");
header_pairs const alice = bearer("alice-client-token-2");
header_pairs const carol = bearer("carol-client-token-3");

std::string const bob_policy = R"(
[policy."static:bob"]
toolkits = ["KanbanApi:read"]
calls_per_minute = 30

[policy."static:carol"]
toolkits = ["KanbanApi"]
calls_per_minute = 1
)";

/// A server with bob, alice and carol as static-token clients and the policy `toml`.
struct policy_server {
    explicit policy_server(
        fake_platform const& platform, std::string const& toml, std::vector<std::string> more = {})
    {
        write_file(dir.file("tokens"),
            "bob bob-client-token-1\nalice alice-client-token-2\ncarol carol-client-token-3\n");
        write_file(dir.file("toolgate.toml"), toml);
        auto args = with(platform_args(platform),
            { "--auth-token-file", dir.file("tokens"), "--config", dir.file("toolgate.toml"),
                "--audit-log", dir.file("audit.jsonl") });
        server
            = std::make_unique<http_server_process>(toolgate_bin, with(args, more), secret_env());
    }
    std::uint16_t port() const { return server->port(); }

    temp_dir dir;
    std::unique_ptr<http_server_process> server;
};

/// The names a stateless tools/list (full mode) gives `who`, at `target`.
std::set<std::string> listed(
    std::uint16_t port, header_pairs who, std::string const& target = "/mcp")
{
    auto headers = mcp_headers();
    auto const modern = modern_headers("tools/list");
    headers.insert(headers.end(), modern.begin(), modern.end());
    headers.insert(headers.end(), who.begin(), who.end());
    auto response = http_request(port, "POST", target, headers,
        R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{)" + modern_meta() + "}}");
    auto const answer = rpc_body(response);
    std::set<std::string> names;
    for (auto const& tool : answer.at("result").at("tools").as_array()) {
        names.emplace(tool.at("name").as_string());
    }
    return names;
}

bool only_kanban_reads(std::set<std::string> const& names)
{
    return std::all_of(names.begin(), names.end(), [](std::string const& n) {
        return n.starts_with("toolgate_") || n.starts_with("KanbanApi_");
    });
}

} // namespace

TEST_CASE("HTTP: bob's policy hides and refuses what it does not allow, by every path and in "
          "both eras, and his own choices only narrow it",
    "[writes][policy][http]")
{
    fake_platform platform;
    policy_server server(platform, bob_policy);
    auto const port = server.port();

    auto const for_bob = listed(port, bob);
    auto const for_alice = listed(port, alice);
    CHECK(for_bob.size() == 120); // KanbanApi:read (the full listing has no meta-tools)
    CHECK(only_kanban_reads(for_bob));
    CHECK_FALSE(for_bob.contains("KanbanApi_DeleteBoard"));
    CHECK(for_alice.contains("KanbanApi_DeleteBoard"));
    CHECK(for_alice.contains("DeployApi_AddProjectDomain"));

    // Asking for more gives no more; asking for less gives less; asking for what the policy
    // excludes leaves nothing, and says why.
    auto headers_kanban = bob;
    headers_kanban.emplace_back("Toolgate-Toolkits", "KanbanApi,DeskApi");
    CHECK(listed(port, headers_kanban) == for_bob);
    CHECK(listed(port, bob, "/mcp?tools=KanbanApi.GetBoard*").size() < for_bob.size());
    auto bob_deploy = bob;
    bob_deploy.emplace_back("Toolgate-Toolkits", "DeployApi");
    auto refused_choice
        = mcp_post(port, R"({"jsonrpc":"2.0","id":1,"method":"ping"})", {}, bob_deploy);
    CHECK(refused_choice.status == 400);
    CHECK_THAT(refused_choice.body, Catch::Contains("operator's policy"));

    // A direct call (both eras), through toolgate_call_tool, search and describe.
    auto const direct
        = modern_call(port, 2, "KanbanApi_DeleteBoard", R"({"board_id_to_delete":"b"})", bob);
    CHECK(error_code_of(direct) == -32602);
    CHECK_THAT(std::string(direct.at("error").at("message").as_string()),
        Catch::Contains("operator's policy") && Catch::Contains("KanbanApi:read"));
    auto const session = open_session(port, bob);
    auto const legacy = session_call(port, session, 3, "DeployApi_AddProjectDomain",
        R"({"project_identifier_or_name":"p","project_domain_name":"d.example.test"})", bob);
    CHECK(error_code_of(legacy) == -32602);
    auto const via_meta = session_call(port, session, 4, "toolgate_call_tool",
        R"({"name":"KanbanApi_DeleteBoard","arguments":{"board_id_to_delete":"b"}})", bob);
    CHECK(is_error(via_meta.at("result")));
    CHECK_THAT(text_of(via_meta.at("result")), Catch::Contains("operator's policy"));
    auto const found = modern_call(
        port, 5, "toolgate_search_tools", R"({"query":"delete a board","limit":50})", bob);
    for (auto const& hit : found.at("result").at("structuredContent").at("tools").as_array()) {
        CHECK(hit.at("read_only") == true);
        CHECK_THAT(std::string(hit.at("name").as_string()), Catch::StartsWith("KanbanApi_"));
    }
    auto const described = session_call(port, session, 6, "toolgate_describe_tools",
        R"({"names":["KanbanApi_DeleteBoard","KanbanApi_CheckBoardBillableGuests"]})", bob);
    auto const& answer = described.at("result").at("structuredContent");
    CHECK(answer.at("tools").as_array().size() == 1);
    CHECK(answer.at("unknown").as_array().at(0).at("name") == "KanbanApi_DeleteBoard");

    // What he may use works, and alice's calls are hers.
    auto const allowed = session_call(port, session, 7, "KanbanApi_CheckBoardBillableGuests",
        R"({"board_id":"b","organization_id_or_name":"o"})", bob);
    CHECK_FALSE(is_error(allowed.at("result")));
    auto const hers
        = modern_call(port, 8, "KanbanApi_DeleteBoard", R"({"board_id_to_delete":"a"})", alice);
    CHECK_FALSE(is_error(hers.at("result")));
    CHECK(platform.request_count() == 2);

    // The audit log records bob's refused writes.
    auto const deadline = std::chrono::steady_clock::now() + 5s;
    std::string audit;
    while (std::count(audit.begin(), audit.end(), '\n') < 4
        && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(20ms);
        audit = read_file(server.dir.file("audit.jsonl"));
    }
    CHECK(std::count(audit.begin(), audit.end(), '\n') == 4);
    CHECK_THAT(audit,
        Catch::Contains(R"("principal":"static:bob","tool":"KanbanApi.DeleteBoard")")
            && Catch::Contains(R"("outcome":"refused_policy")"));
}

TEST_CASE("HTTP: bob's 31st call in a minute is refused with retry_after_seconds and the "
          "platform saw 30, and others are not limited by it",
    "[writes][policy][quota][http]")
{
    fake_platform platform;
    policy_server server(platform, bob_policy);
    auto const port = server.port();
    auto const session = open_session(port, bob);
    std::string const read = R"({"board_id":"b","organization_id_or_name":"o"})";
    for (int i = 0; i < 30; ++i) {
        auto const answer = i % 2 == 0
            ? modern_call(port, i, "KanbanApi_CheckBoardBillableGuests", read, bob)
            : session_call(port, session, i, "KanbanApi_CheckBoardBillableGuests", read, bob);
        INFO("call " << i + 1);
        REQUIRE_FALSE(is_error(answer.at("result")));
    }
    auto const refused = modern_call(port, 31, "toolgate_call_tool",
        R"({"name":"KanbanApi_CheckBoardBillableGuests","arguments":)" + read + "}", bob);
    auto const& result = refused.at("result");
    CHECK(is_error(result));
    CHECK_THAT(text_of(result), Catch::Contains("30 calls a minute"));
    auto const wait = json::parse(text_of(result)).at("retry_after_seconds").as_int64();
    CHECK(wait >= 1);
    CHECK(wait <= 60);
    CHECK(platform.request_count() == 30);

    auto const others = modern_call(port, 32, "KanbanApi_CheckBoardBillableGuests", read, alice);
    CHECK_FALSE(is_error(others.at("result")));
    CHECK(platform.request_count() == 31);

    // A write refused by quota is in the audit log.
    CHECK_FALSE(is_error(
        modern_call(port, 33, "KanbanApi_DeleteBoard", R"({"board_id_to_delete":"c1"})", carol)
            .at("result")));
    auto const over
        = modern_call(port, 34, "KanbanApi_DeleteBoard", R"({"board_id_to_delete":"c2"})", carol);
    CHECK(is_error(over.at("result")));
    CHECK(platform.request_count() == 32);
    auto const deadline = std::chrono::steady_clock::now() + 5s;
    std::string audit;
    while (audit.find("refused_quota") == std::string::npos
        && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(20ms);
        audit = read_file(server.dir.file("audit.jsonl"));
    }
    CHECK_THAT(audit,
        Catch::Contains(R"("principal":"static:carol")")
            && Catch::Contains(R"("targets":{"board_id_to_delete":"c2"},)")
            && Catch::Contains(R"("outcome":"refused_quota")"));
}

TEST_CASE("HTTP: SIGHUP rereads the policy tables, and a broken file leaves the policy in force",
    "[writes][policy][http]")
{
    fake_platform platform;
    policy_server server(platform, bob_policy);
    auto const port = server.port();
    REQUIRE(only_kanban_reads(listed(port, bob)));

    write_file(
        server.dir.file("toolgate.toml"), "[policy.\"static:bob\"]\ntoolkits = [\"DeployApi\"]\n");
    server.server->process().signal(SIGHUP);
    REQUIRE(server.server->process().wait_stderr("SIGHUP: policy reloaded"));
    auto const now = listed(port, bob);
    CHECK(now.contains("DeployApi_AddProjectDomain"));
    CHECK_FALSE(now.contains("KanbanApi_CheckBoardBillableGuests"));

    write_file(
        server.dir.file("toolgate.toml"), "[policy.\"static:bob\"]\ntoolkits = [\"NoSuchApi\"]\n");
    server.server->process().signal(SIGHUP);
    REQUIRE(server.server->process().wait_stderr("policy not reloaded"));
    CHECK_THAT(server.server->process().stderr_text(), Catch::Contains("NoSuchApi"));
    CHECK(listed(port, bob) == now);
}

TEST_CASE("HTTP: --scope-toolsets gives JWT clients the toolsets of their scopes, within their "
          "own table",
    "[writes][policy][jwt][http]")
{
    fake_platform platform;
    auto const key = test_key::rsa("k1");
    temp_file jwks(make_jwks({ &key }));
    temp_dir dir;
    write_file(dir.file("toolgate.toml"), "[policy.\"jwt:dora\"]\nread_only = true\n");
    std::string const issuer = "https://as.example.test";
    http_server_process server(toolgate_bin,
        with(platform_args(platform),
            { "--oauth-jwks-file", jwks.path(), "--oauth-issuer", issuer, "--config",
                dir.file("toolgate.toml"), "--scope-toolsets", "mcp:read=*:read",
                "--scope-toolsets", "mcp:kanban=KanbanApi" }),
        secret_env());
    auto const port = server.port();
    auto token = [&](std::string const& subject, std::string const& scope) {
        return bearer(key.token(fmt::format(R"({{"iss":"{}","aud":"http://127.0.0.1:{}/mcp",)"
                                            R"("sub":"{}","scope":"{}","exp":{}}})",
            issuer, port, subject, scope, epoch_seconds(std::chrono::seconds(300)))));
    };
    auto const reader = listed(port, token("eve", "mcp:read"));
    CHECK(reader.size() == 120 + 81 + 94 + 126);
    auto const kanban = listed(port, token("eve", "mcp:kanban"));
    CHECK(kanban.size() == 246);
    auto const both = listed(port, token("eve", "mcp:read mcp:kanban"));
    CHECK(both.size() == 246 + 81 + 94 + 126);
    // dora's own table keeps her to reads, whatever her scopes grant.
    CHECK(listed(port, token("dora", "mcp:kanban")).size() == 120);
    // No scope with a rule: nothing listed, and every call refused with the reason.
    auto const none = token("eve", "other");
    CHECK(listed(port, none).empty());
    auto const refused = modern_call(port, 9, "KanbanApi_CheckBoardBillableGuests",
        R"({"board_id":"b","organization_id_or_name":"o"})", none);
    CHECK(error_code_of(refused) == -32602);
    CHECK_THAT(std::string(refused.at("error").at("message").as_string()),
        Catch::Contains("operator's policy"));
    CHECK(platform.request_count() == 0);
}

TEST_CASE("a mistake in the policy stops start-up with status 2, naming the file, line and key",
    "[writes][policy]")
{
    temp_dir dir;
    auto start = [&](std::string const& toml, std::vector<std::string> more = {}) {
        write_file(dir.file("bad.toml"), toml);
        child_process child(toolgate_bin,
            with({ "--transport", "http", "--port", "0", "--config", dir.file("bad.toml") }, more));
        auto const status = child.wait_exit(10s);
        return std::pair { status.value_or(-1), child.stderr_text() };
    };
    auto [unknown_status, unknown]
        = start("port = 0\n[policy.\"static:bob\"]\ncalls_per_hour = 3\n");
    CHECK(unknown_status == 2);
    CHECK_THAT(unknown, Catch::Contains("bad.toml:3") && Catch::Contains("calls_per_hour"));
    auto [kit_status, kit] = start("[policy.\"static:bob\"]\ntoolkits = [\"KanbanApi:write\"]\n");
    CHECK(kit_status == 2);
    CHECK_THAT(kit, Catch::Contains("KanbanApi:write"));
    auto [rule_status, rule] = start("", { "--scope-toolsets", "mcp:read" });
    CHECK(rule_status == 2);
    CHECK_THAT(rule, Catch::Contains("SCOPE=TOOLSET"));
}
