// Issue 6 item 6: server processes (toolgate and its test twin, over stdio and HTTP, at
// --log-level trace) run with recognisable fake secrets; calls fail in many ways; no secret
// may appear in stdout, stderr or any result. Arguments named like a secret may come back in
// results (the caller's own data) but never in logs.
#include "auth/jwt_validator.hpp"
#include "common/base64.hpp"
#include "http_raw.hpp"
#include "process.hpp"
#include "token_forge.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <csignal>
#include <map>

using namespace toolgate::testing;

namespace {

std::string const test_bin = TOOLGATE_TEST_BIN;
std::string const toolgate_bin = TOOLGATE_BIN;

std::map<std::string, std::string> const platform_secrets = {
    { "STORE_ACCESS_TOKEN", "zqStore-S3CR3T-a1b2c3" },
    { "LEDGER_ACCESS_TOKEN", "zqLedger-S3CR3T-d4e5f6" },
    { "ENGINE_API_KEY", "zqEngine-S3CR3T-a7b8c9" },
    { "ENGINE_USER_TOKEN", "zqEngineUser-S3CR3T-b8c9d0" },
    { "SEARCH_API_KEY", "zqSearch-S3CR3T-d0e1f2" },
    { "DESK_API_KEY", "zqDesk-S3CR3T-a3b4c5" },
    { "DESK_SUBDOMAIN", "zqdesk-s3cr3t-tenant" },
    { "KANBAN_API_KEY", "zqKanbanKey-S3CR3T-d6e7" },
    { "KANBAN_TOKEN", "zqKanbanToken-S3CR3T-f8a9" },
    { "VECTORDB_API_KEY", "zqVector-S3CR3T-b0c1d2" },
    { "VECTORDB_SERVER_URL", "https://zqvectordb-s3cr3t.example.test" },
    { "DEPLOY_ACCESS_TOKEN", "zqDeploy-S3CR3T-e3f4a5" },
};
std::string const env_client_token = "zqClientEnv-S3CR3T-0123456789";
std::string const file_client_token = "zqClientFile-S3CR3T-9876543210";
std::string const wrong_client_token = "zqWrongClient-S3CR3T-5555555555";
std::string const session_key = "zqSessionKey-S3CR3T-4444444444";
/// Secrets a caller passes as arguments: theirs to see again, never ours to log.
std::string const caller_secret = "zqCaller-S3CR3T-3333333333";

/// Everything that must appear nowhere, with the forms it could take (hosts, Basic).
std::vector<std::string> server_needles()
{
    std::vector<std::string> out;
    for (auto const& [name, value] : platform_secrets) {
        out.push_back(value);
        out.push_back(toolgate::common::base64url_encode(value + ":"));
        out.push_back(toolgate::common::base64url_encode(value + ":X"));
    }
    out.push_back("zqvectordb-s3cr3t"); // the host alone
    out.push_back("zqdesk-s3cr3t");
    for (auto const* v :
        { &env_client_token, &file_client_token, &wrong_client_token, &session_key }) {
        out.push_back(*v);
    }
    return out;
}

/// Base64 (standard alphabet) forms are covered by the url-safe ones for these inputs only if
/// no '+' or '/' occurs; the check below also looks for a case-insensitive S3CR3T marker.
void check_clean(std::string const& what, std::string const& text, bool logs)
{
    INFO(what << ":\n" << text.substr(0, 20000));
    for (auto const& needle : server_needles()) {
        INFO("needle: " << needle);
        CHECK(text.find(needle) == std::string::npos);
    }
    if (logs) {
        CHECK(text.find(caller_secret) == std::string::npos);
        std::string lower = text;
        for (auto& c : lower) {
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
        CHECK(lower.find("s3cr3t") == std::string::npos);
    }
}

spawn_options secret_environment()
{
    spawn_options o;
    for (auto const& [name, value] : platform_secrets) {
        o.env.push_back(name + "=" + value);
    }
    o.env.push_back("TOOLGATE_AUTH_TOKENS=" + env_client_token);
    return o;
}

std::vector<std::string> closed_base_urls()
{
    std::vector<std::string> args;
    for (auto kit : { "StoreApi", "LedgerApi", "CoreEngineApi", "SearchApi", "DeskApi", "KanbanApi",
             "VectorDbApi", "DeployApi" }) {
        args.push_back("--base-url");
        args.push_back(fmt::format("{}=http://127.0.0.1:1", kit));
    }
    return args;
}

std::string const init
    = R"({"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"secrets","version":"1"}}})";

std::string call(int id, std::string const& tool, std::string const& arguments)
{
    return fmt::format(
        R"({{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"{}","arguments":{}}}}})",
        id, tool, arguments);
}

/// Calls that fail in different ways on the catalogue: unknown tool, bad arguments, upstream
/// unreachable (every toolkit's credentials get applied), secret-named arguments.
std::vector<std::string> catalogue_calls()
{
    auto const s = caller_secret;
    return {
        call(10, "NoSuch_Tool", "{}"),
        call(11, "StoreApi_GetFolderDetails", R"({"folder_unique_identifier":5})"),
        call(12, "StoreApi_GetFolderDetails", R"({"folder_unique_identifier":"f1"})"),
        call(13, "LedgerApi_RetrieveInvoicePdf", R"({"invoice_id":"i1","tenant_identifier":"t1"})"),
        call(14, "CoreEngineApi_GetToolsList", "{}"),
        call(15, "SearchApi_GetWebhooksList", "{}"),
        call(16, "DeskApi_ListAssets", "{}"),
        call(17, "KanbanApi_GetKanbanBoard", R"({"board_id":"b1"})"),
        call(18, "VectorDbApi_RetrieveDatabaseSchema", "{}"),
        call(19, "DeployApi_AcceptProjectTransfer",
            R"({"mode":"execute","project_transfer_code":"c1","request_body":"{}"})"),
        call(20, "CoreEngineApi_GetProjectDetails",
            fmt::format(R"({{"authorization_token":"Bearer {}","project_id":"p1"}})", s)),
        call(21, "KanbanApi_GetKanbanTokenOwner", fmt::format(R"({{"kanban_token":"{}"}})", s)),
        call(22, "DeployApi_InitiateProjectTransfer",
            fmt::format(
                R"({{"mode":"execute","project_id":"p1","webhook_signing_secret":"{}","request_body":"{{\"secret\":\"{}\"}}"}})",
                s, s)),
        call(23, "CoreEngineApi_CreateWorker",
            fmt::format(R"({{"worker_id":"w1","http_secret_key":"{}"}})", s)),
        call(24, "StoreApi_GetFolderDetails", R"({"folder_unique_identifier":"f1","bogus":1})"),
    };
}

std::vector<std::string> test_tool_calls()
{
    auto const s = caller_secret;
    return {
        call(30, "Test_Echo",
            fmt::format(
                R"({{"password":"{}","webhook_secret":"{}","api_key":"{}","Authorization":"Bearer {}"}})",
                s, s, s, s)),
        call(31, "Test_Fail", fmt::format(R"({{"token":"{}"}})", s)),
        call(32, "Test_Throw", fmt::format(R"({{"secret":"{}"}})", s)),
        call(33, "Test_Log", "{}"),
        call(34, "No_Such", fmt::format(R"({{"password":"{}"}})", s)),
    };
}

/// Runs a stdio session: every request's answer is awaited, then stdin closes.
/// Returns (stdout, stderr).
std::pair<std::string, std::string> run_stdio(
    std::string const& binary, std::vector<std::string> args, std::vector<std::string> const& calls)
{
    args.insert(args.end(),
        { "--log-level", "trace", "--session-key", session_key, "--connect-timeout", "2",
            "--call-timeout", "8" });
    child_process p(binary, args, secret_environment());
    std::string out;
    auto exchange = [&](std::string const& line, bool await_answer) {
        REQUIRE(p.write_line(line));
        if (!await_answer) {
            return;
        }
        // The answer is the line carrying "id"; notifications may come first.
        auto const id_pos = line.find("\"id\":");
        auto const id = line.substr(id_pos, line.find(',', id_pos) - id_pos);
        for (;;) {
            auto got = p.read_line(20s);
            INFO("waiting for " << id << " after " << line);
            REQUIRE(got);
            out += *got + "\n";
            if (got->find(id) != std::string::npos
                && got->find("\"method\"") == std::string::npos) {
                return;
            }
        }
    };
    exchange(init, true);
    exchange(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", false);
    exchange(
        R"({"jsonrpc":"2.0","id":"lvl","method":"logging/setLevel","params":{"level":"debug"}})",
        true);
    for (auto const& c : calls) {
        exchange(c, true);
    }
    p.close_stdin();
    CHECK(p.wait_exit(15s) == 0);
    while (auto line = p.read_line(100ms)) {
        out += *line + "\n";
    }
    return { out + p.stdout_partial(), p.stderr_text() };
}

header_pairs http_headers(std::string const& token, std::string const& session = {})
{
    header_pairs h { { "Content-Type", "application/json" },
        { "Accept", "application/json, text/event-stream" } };
    if (!token.empty()) {
        h.emplace_back("Authorization", "Bearer " + token);
    }
    if (!session.empty()) {
        h.emplace_back("Mcp-Session-Id", session);
    }
    return h;
}

/// Runs an HTTP server with client auth: refused requests, then the calls in a session.
/// Returns (every response, stderr).
std::pair<std::string, std::string> run_http(
    std::string const& binary, std::vector<std::string> args, std::vector<std::string> const& calls)
{
    temp_file tokens("# clients\n" + file_client_token + "\n");
    args.insert(args.end(),
        { "--log-level", "trace", "--session-key", session_key, "--auth-token-file", tokens.path(),
            "--connect-timeout", "2", "--call-timeout", "8" });
    http_server_process server(binary, args, secret_environment());
    auto const port = server.port();
    std::string answers;
    auto record = [&answers](http_response const& r) {
        answers += fmt::format("{} {}\n", r.status, r.reason);
        for (auto const& [name, value] : r.headers) {
            answers += name + ": " + value + "\n";
        }
        answers += r.body + "\n";
        return r;
    };
    CHECK(record(http_request(port, "POST", "/mcp", http_headers(""), init)).status == 401);
    CHECK(record(http_request(port, "POST", "/mcp", http_headers(wrong_client_token), init)).status
        == 401);
    CHECK(record(http_request(port, "POST", "/mcp?access_token=" + wrong_client_token,
                     http_headers(""), init))
              .status
        == 400);
    auto const opened
        = record(http_request(port, "POST", "/mcp", http_headers(env_client_token), init));
    REQUIRE(opened.header("mcp-session-id"));
    auto const session = *opened.header("mcp-session-id");
    // The other client's token on this session: 404, and nothing about either token in logs.
    CHECK(record(http_request(port, "POST", "/mcp", http_headers(file_client_token, session),
                     R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})"))
              .status
        == 404);
    for (auto const& c : calls) {
        record(http_request(port, "POST", "/mcp", http_headers(env_client_token, session), c,
            std::chrono::seconds(20)));
    }
    record(http_request(port, "DELETE", "/mcp",
        { { "Authorization", "Bearer " + env_client_token }, { "Mcp-Session-Id", session } }));
    // Shutdown's own logs count too; how long shutdown takes is another test's business.
    server.process().signal(SIGTERM);
    server.process().wait_exit(15s);
    return { answers, server.process().stderr_text() };
}

} // namespace

TEST_CASE("toolgate over stdio leaks no secret in output, logs or results", "[auth][secrets]")
{
    auto args = closed_base_urls();
    auto [out, err] = run_stdio(toolgate_bin, args, catalogue_calls());
    CHECK_THAT(out, Catch::Contains("isError")); // the calls did fail
    check_clean("stdout", out, false);
    check_clean("stderr", err, true);
}

TEST_CASE(
    "toolgate leaks no host secret when the platform host comes from a secret", "[auth][secrets]")
{
    // No --base-url: VectorDbApi's host is VECTORDB_SERVER_URL, DeskApi's holds DESK_SUBDOMAIN.
    auto [out, err] = run_stdio(toolgate_bin, { "--toolkits", "VectorDbApi,DeskApi" },
        { call(40, "VectorDbApi_RetrieveDatabaseSchema", "{}"),
            call(41, "DeskApi_ListAssets", "{}") });
    CHECK_THAT(out, Catch::Contains("isError"));
    check_clean("stdout", out, false);
    check_clean("stderr", err, true);
}

TEST_CASE("the test server over stdio logs no secret-named argument", "[auth][secrets]")
{
    auto [out, err] = run_stdio(test_bin, {}, test_tool_calls());
    CHECK_THAT(out, Catch::Contains(caller_secret)); // Test_Echo: the caller's data comes back
    check_clean("stdout", out, false);
    check_clean("stderr", err, true);
}

TEST_CASE("toolgate over HTTP with client auth leaks no secret", "[auth][secrets][http]")
{
    auto [answers, err] = run_http(toolgate_bin, closed_base_urls(), catalogue_calls());
    CHECK_THAT(answers, Catch::Contains("isError"));
    check_clean("responses", answers, false);
    check_clean("stderr", err, true);
}

TEST_CASE("the test server over HTTP with client auth leaks no secret", "[auth][secrets][http]")
{
    auto [answers, err] = run_http(test_bin, {}, test_tool_calls());
    check_clean("responses", answers, false);
    check_clean("stderr", err, true);
}
