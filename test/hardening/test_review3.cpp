// Regression tests for the third security review (issue 24) that drive the shipped server as
// a process over stdio or loopback HTTP, against the fake platform and the fake authorization
// server. Each failed on the code before its fix.
#include "credentials/credentials_support.hpp"
#include "credentials/token_store.hpp"
#include "gunzip.hpp"
#include "integration/integration_support.hpp"
#include "metrics_probe.hpp"
#include "support/fake_auth_server.hpp"
#include "support/fake_platform.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <future>
#include <map>
#include <memory>
#include <sys/file.h>
#include <thread>

using namespace toolgate::testing;
using toolgate::credentials::token_entry;
using toolgate::credentials::token_file;
using toolgate::test::fake_auth_options;
using toolgate::test::fake_auth_server;
using toolgate::test::fake_platform;
using toolgate::test::fake_response;
using toolgate::test::recorded_request;
using namespace std::chrono_literals;

namespace {

json::object call_result(stdio_server& server, int id, std::string const& tool,
    std::string const& arguments, std::chrono::milliseconds timeout = 10s)
{
    server.send(call_request(std::to_string(id), tool, arguments));
    auto answer = server.response(id, timeout);
    INFO(json::serialize(answer));
    REQUIRE(answer.contains("result"));
    return answer.at("result").as_object();
}

bool is_error(json::object const& result)
{
    auto const* flag = result.if_contains("isError");
    return flag != nullptr && flag->as_bool();
}

std::string text_of(json::object const& result)
{
    return std::string(result.at("content").as_array()[0].at("text").as_string());
}

/// toolgate serving one toolkit from `platform`, with `env` as its secrets.
stdio_server serve(std::string const& toolkit, fake_platform const& platform,
    std::vector<std::string> env, std::vector<std::string> extra = {})
{
    std::vector<std::string> args
        = { "--toolkits", toolkit, "--base-url", toolkit + "=" + platform.url(""), "--ca-file",
              fake_platform::ca_file(), "--log-level", "trace" };
    args.insert(args.end(), extra.begin(), extra.end());
    spawn_options options;
    options.env = std::move(env);
    return stdio_server(args, toolgate_bin, options);
}

std::int64_t unix_now()
{
    return std::chrono::duration_cast<std::chrono::seconds>(
        std::chrono::system_clock::now().time_since_epoch())
        .count();
}

/// A StoreApi sign-in at `auth` expiring in `lifetime` seconds, and the settings that make
/// toolgate use it (its calls go to `api`).
struct store_sign_in {
    store_sign_in(fake_auth_server& auth, std::int64_t lifetime)
    {
        auto [access, refresh] = auth.seed_tokens();
        token_entry e;
        e.grant = "authorization_code";
        e.access_token = access;
        e.refresh_token = refresh;
        e.obtained_at = unix_now();
        e.expires_at = e.obtained_at + lifetime;
        token_file(dir.file("tokens.json")).update("StoreApi", e);
        write_file(dir.file("secrets.env"),
            fmt::format("STORE_CLIENT_ID={}\nSTORE_CLIENT_SECRET={}\n",
                fake_auth_options().client_id, fake_auth_options().client_secret));
        token_url = auth.url("/token");
    }

    stdio_server serve(fake_platform const& api, std::vector<std::string> extra = {}) const
    {
        std::vector<std::string> args = { "--toolkits", "StoreApi", "--token-store",
            dir.file("tokens.json"), "--secrets-file", dir.file("secrets.env"), "--ca-file",
            fake_platform::ca_file(), "--base-url", "StoreApi=" + api.url("") };
        args.insert(args.end(), extra.begin(), extra.end());
        spawn_options env;
        env.env = { "TOOLGATE_OAUTH_TOKEN_URL_STOREAPI=" + token_url, "STORE_ACCESS_TOKEN=" };
        return stdio_server(args, toolgate_bin, env);
    }

    temp_dir dir;
    std::string token_url;
};

std::string const invite_arguments = R"({"invite_id":"i1"})";

/// A stateless (2026-07-28) tools/call over HTTP as the client holding `client_token`.
http_response call_over_http(std::uint16_t port, std::string const& client_token,
    std::string const& tool, std::string const& arguments, header_pairs extra = {})
{
    auto headers = modern_headers("tools/call", tool);
    headers.emplace_back("Authorization", "Bearer " + client_token);
    headers.insert(headers.end(), extra.begin(), extra.end());
    return mcp_post(port, call_request("1", tool, arguments, modern_meta()), {}, headers);
}

/// The tool result's text of an HTTP answer (the call must have been answered, not refused).
std::string result_text(http_response const& response)
{
    auto const msg = rpc_body(response);
    INFO(response.body);
    REQUIRE(msg.as_object().contains("result"));
    return std::string(msg.at("result").at("content").as_array()[0].at("text").as_string());
}

std::string const alice = "zqClientAlice-S3CR3T-0123456789";
std::string const bob = "zqClientBob-S3CR3T-0123456789ab";
std::string const carol = "zqClientCarol-S3CR3T-0123456789";

} // namespace

TEST_CASE("third review 6: toolgate_describe_tools suggests names for its first few unknown "
          "names only",
    "[hardening][review3]")
{
    stdio_server server({ "--tool-mode", "discovery" }, toolgate_bin);
    server.initialize();
    // Twenty near misses of real names: each suggestion is a pass over the whole catalogue.
    std::vector<std::string> const real = { "StoreApi_AbortUploadSession", "StoreApi_GetUserAvatar",
        "SearchApi_DeleteImport", "LedgerApi_FetchInvoicePayments",
        "LedgerApi_RetrieveQuoteAttachments", "DeskApi_CreateTicketTimeEntry",
        "DeskApi_GetChangeRequestNotes", "DeskApi_RetrieveAgentGroupById",
        "DeskApi_ViewSolutionCategory", "KanbanApi_DismissKanbanMessage",
        "KanbanApi_GetKanbanCardPluginData", "KanbanApi_ListWorkspaceActions",
        "KanbanApi_UpdateKanbanMember", "VectorDbApi_FetchShardingState",
        "DeployApi_CreateAccessGroup", "DeployApi_GetDomainAuthCode",
        "DeployApi_QueryArtifactsInfo", "DeployApi_UpdateResource",
        "StoreApi_GetEnterpriseRetentionPolicies", "LedgerApi_RetrieveAccountAttachment" };
    json::array names;
    for (auto const& name : real) {
        names.emplace_back(name + "x");
    }
    json::object arguments;
    arguments["names"] = names;
    auto result = call_result(server, 1, "toolgate_describe_tools", json::serialize(arguments));
    REQUIRE_FALSE(is_error(result));
    auto const answer = json::parse(text_of(result)).as_object();
    auto const& unknown = answer.at("unknown").as_array();
    REQUIRE(unknown.size() == 20);
    std::size_t suggested = 0;
    for (auto const& miss : unknown) {
        suggested += miss.as_object().contains("did_you_mean") ? 1 : 0;
    }
    CHECK(suggested == 3);
    // The first ones still get their real name, and the answer says why the rest get none.
    CHECK(unknown[0].at("did_you_mean").as_array()[0] == "StoreApi_AbortUploadSession");
    CHECK_THAT(std::string(answer.at("note").as_string()),
        Catch::Contains("first 3") && Catch::Contains("toolgate_search_tools"));
}

TEST_CASE("third review 19: a one-character credential is refused, by name, before anything "
          "is sent",
    "[hardening][review3]")
{
    fake_platform platform;
    auto server = serve("KanbanApi", platform, { "KANBAN_API_KEY=kanban-key-1", "KANBAN_TOKEN=t" });
    CHECK(server.process().wait_stderr("KANBAN_TOKEN is shorter than 8 characters"));
    server.initialize();
    auto result = call_result(server, 1, "KanbanApi_GetActionList", R"({"action_id":"a1"})");
    CHECK(is_error(result));
    CHECK_THAT(text_of(result),
        Catch::Contains("KANBAN_TOKEN") && Catch::Contains("shorter than 8 characters")
            && Catch::Contains("nothing was sent"));
    CHECK(platform.request_count() == 0);
}

TEST_CASE("third review 20: CoreEngineApi's project tools send the server's ENGINE_USER_TOKEN, "
          "and no model is asked for a JWT",
    "[hardening][review3]")
{
    std::string const user_token = "zqEngineUser-S3CR3T-42";
    fake_platform platform;
    auto server = serve("CoreEngineApi", platform,
        { "ENGINE_API_KEY=zqEngineKey-S3CR3T-1", "ENGINE_USER_TOKEN=" + user_token });
    server.initialize();
    server.send(R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})");
    auto const listing = server.response(2);
    for (auto const& tool : listing.at("result").at("tools").as_array()) {
        auto const& name = tool.at("name").as_string();
        if (name == "CoreEngineApi_ListAccessibleProjects"
            || name == "CoreEngineApi_GetProjectDetails") {
            INFO(name);
            auto const& schema = tool.at("inputSchema").as_object();
            auto const required = schema.contains("required")
                ? json::serialize(schema.at("required"))
                : std::string();
            CHECK(required.find("token") == std::string::npos);
        }
    }
    auto result = call_result(server, 3, "CoreEngineApi_ListAccessibleProjects", "{}");
    INFO(text_of(result));
    CHECK_FALSE(is_error(result));
    REQUIRE(platform.request_count() == 1);
    CHECK(platform.requests()[0].header("Authorization") == "Bearer " + user_token);
    CHECK(json::serialize(result).find(user_token) == std::string::npos);
    server.process().close_stdin();
    CHECK(server.process().wait_exit() == 0);
    CHECK(server.process().stderr_text().find(user_token) == std::string::npos);

    // Without it, the call says which secret is missing and sends nothing.
    fake_platform empty;
    auto without = serve("CoreEngineApi", empty, { "ENGINE_API_KEY=zqEngineKey-S3CR3T-1" });
    without.initialize();
    auto refused
        = call_result(without, 4, "CoreEngineApi_GetProjectDetails", R"({"project_id":"p1"})");
    CHECK(is_error(refused));
    CHECK_THAT(text_of(refused), Catch::Contains("ENGINE_USER_TOKEN"));
    CHECK(empty.request_count() == 0);
}

TEST_CASE("third review 21: canned responses and their folders are changed and deleted at "
          "their plural paths",
    "[hardening][review3]")
{
    fake_platform platform;
    auto server = serve("DeskApi", platform, { "DESK_API_KEY=zqDeskKey-S3CR3T-1" });
    server.initialize();
    CHECK_FALSE(is_error(call_result(
        server, 1, "DeskApi_DeleteCannedResponseFolder", R"({"canned_response_folder_id":7})")));
    CHECK_FALSE(is_error(call_result(server, 2, "DeskApi_UpdateCannedResponseFolder",
        R"({"canned_response_folder_id":8,"folder_name":"FAQ"})")));
    CHECK_FALSE(is_error(
        call_result(server, 3, "DeskApi_DeleteCannedResponse", R"({"canned_response_id":9})")));
    auto const requests = platform.requests();
    REQUIRE(requests.size() == 3);
    CHECK(requests[0].method == "DELETE");
    CHECK(requests[0].path() == "/canned_response_folders/7");
    CHECK(requests[1].method == "PUT");
    CHECK(requests[1].path() == "/canned_response_folders/8");
    CHECK(requests[2].path() == "/canned_responses/9");
}

TEST_CASE("third review 11: a platform that answers 401 forever does not cost a renewal per call",
    "[hardening][review3]")
{
    fake_auth_server auth;
    store_sign_in sign_in(auth, 3600);
    fake_platform api; // refuses every token, as a platform that revoked the app would
    api.set_handler([](recorded_request const&) {
        fake_response r;
        r.status = 401;
        r.body = R"({"error":"invalid_token"})";
        return r;
    });
    auto server = sign_in.serve(api);
    server.initialize();
    for (int id = 1; id <= 5; ++id) {
        auto result = call_result(server, id, "StoreApi_CheckUserInviteStatus", invite_arguments);
        CHECK(is_error(result));
        CHECK_THAT(text_of(result), Catch::Contains("401"));
    }
    // The first 401 earned one renewal and a retry; the next calls wait out the pause.
    CHECK(auth.token_requests("refresh_token") == 1);
    CHECK(api.request_count() == 6);
}

TEST_CASE("third review 13: a renewal lock another process holds does not keep a call past "
          "--call-timeout",
    "[hardening][review3]")
{
    fake_auth_server auth;
    store_sign_in sign_in(auth, -10); // expired: the call must renew first
    fake_platform api;
    // Another toolgate (here: this test) holds the toolkit's renewal lock.
    auto held = token_file(sign_in.dir.file("tokens.json")).try_renewal_lock("", "StoreApi");
    REQUIRE(held);
    auto server = sign_in.serve(api, { "--call-timeout", "2" });
    server.initialize();
    // Before the fix the renewal waited up to 70 s for the lock.
    server.send(call_request("1", "StoreApi_CheckUserInviteStatus", invite_arguments));
    auto answer = server.response(1, 4s);
    auto const& result = answer.at("result").as_object();
    CHECK(is_error(result));
    CHECK_THAT(text_of(result),
        Catch::Contains("another toolgate process") && Catch::Contains("call again"));
    CHECK(auth.token_requests("refresh_token") == 0);
    CHECK(api.request_count() == 0);
    // Once the lock is free, the next call renews and goes through.
    held.reset();
    CHECK_FALSE(
        is_error(call_result(server, 2, "StoreApi_CheckUserInviteStatus", invite_arguments)));
    CHECK(auth.token_requests("refresh_token") == 1);
}

TEST_CASE("third review 1: a toolkit's secrets come from one source, never mixed across "
          "principals",
    "[hardening][review3]")
{
    fake_platform server_platform; // where the server's own credentials belong
    fake_platform attacker; // a host a client names
    temp_dir dir;
    write_file(
        dir.file("clients.tokens"), "alice " + alice + "\nbob " + bob + "\ncarol " + carol + "\n");
    // alice's section names only a URL; bob's only one of Kanban's two secrets.
    write_file(dir.file("clients.ini"),
        "[static:alice]\nVECTORDB_SERVER_URL=" + attacker.url("") + "\n\n[static:bob]\n"
            + "KANBAN_API_KEY=zqBobKanbanKey-S3CR3T\n");
    spawn_options env;
    env.env = { "VECTORDB_API_KEY=zqServerVectorKey-S3CR3T",
        "VECTORDB_SERVER_URL=" + server_platform.url(""), "KANBAN_API_KEY=zqServerKanbanKey-S3CR3T",
        "KANBAN_TOKEN=zqServerKanbanToken-S3CR3T", "DESK_API_KEY=zqServerDeskKey-S3CR3T",
        "DESK_SUBDOMAIN=zqserverdesk" };
    http_server_process server(toolgate_bin,
        { "--toolkits", "VectorDbApi,KanbanApi,DeskApi", "--auth-token-file",
            dir.file("clients.tokens"), "--credentials-file", dir.file("clients.ini"),
            "--per-request-credentials", "--shared-credentials", "--ca-file",
            fake_platform::ca_file(), "--base-url", "KanbanApi=" + server_platform.url(""),
            "--base-url", "DeskApi=" + server_platform.url(""), "--token-store",
            dir.file("tokens.json") },
        env);
    auto const port = server.port();
    std::string const schema_tool = "VectorDbApi_GetAuthenticatedUserInfo";

    // carol names a host in a header; alice's section names one: neither gets the server's key.
    auto const by_header = result_text(call_over_http(port, carol, schema_tool, "{}",
        { { "Toolgate-Secret-VECTORDB_SERVER_URL", attacker.url("") } }));
    CHECK_THAT(by_header, Catch::Contains("VECTORDB_API_KEY") && Catch::Contains("not set"));
    auto const by_section = result_text(call_over_http(port, alice, schema_tool, "{}"));
    CHECK_THAT(by_section, Catch::Contains("VECTORDB_API_KEY") && Catch::Contains("not set"));
    CHECK(attacker.request_count() == 0);

    // bob's own Kanban key is not paired with the server's token.
    auto const kanban = result_text(
        call_over_http(port, bob, "KanbanApi_GetActionList", R"({"action_id":"a1"})"));
    CHECK_THAT(kanban, Catch::Contains("KANBAN_TOKEN") && Catch::Contains("not set"));
    // A desk subdomain of carol's is not paired with the server's desk key.
    auto const desk = result_text(call_over_http(port, carol, "DeskApi_GetCannedResponseFolders",
        "{}", { { "Toolgate-Secret-DESK_SUBDOMAIN", "zqcarolsdesk" } }));
    CHECK_THAT(desk, Catch::Contains("DESK_API_KEY") && Catch::Contains("not set"));
    CHECK(server_platform.request_count() == 0);

    // A client without any of a toolkit's secrets still uses the server's (--shared-credentials).
    auto const shared = result_text(call_over_http(port, carol, schema_tool, "{}"));
    CHECK_FALSE(shared.find("not set") != std::string::npos);
    REQUIRE(server_platform.request_count() == 1);
    CHECK(
        server_platform.requests()[0].header("Authorization") == "Bearer zqServerVectorKey-S3CR3T");
    auto const& log = server.process().stderr_text();
    CHECK(log.find("S3CR3T") == std::string::npos);
}

namespace {

/// A 2025-03-26 session (the revision with batches) opened with `extra` headers.
std::string open_batch_session(std::uint16_t port, header_pairs const& extra)
{
    auto response = mcp_post(port, initialize_request("2025-03-26", "1"), {}, extra);
    INFO(response.body);
    REQUIRE(response.status == 200);
    REQUIRE(response.header("mcp-session-id"));
    return *response.header("mcp-session-id");
}

/// POSTs `batch` in `session` with `extra` headers; returns the answer array.
json::array post_batch(
    std::uint16_t port, std::string const& session, std::string const& batch, header_pairs extra)
{
    extra.emplace_back("MCP-Protocol-Version", "2025-03-26");
    auto response = mcp_post(port, batch, session, extra, "application/json");
    INFO(response.body);
    REQUIRE(response.status == 200);
    auto answer = json::parse(response.body);
    REQUIRE(answer.is_array());
    return answer.as_array();
}

} // namespace

TEST_CASE("third review 4: a batch element sees the connection's narrowing as a single message "
          "does",
    "[hardening][review3]")
{
    fake_platform platform;
    spawn_options env;
    env.env = { "DEPLOY_ACCESS_TOKEN=zqDeployToken-S3CR3T" };
    http_server_process server(toolgate_bin,
        { "--toolkits", "DeployApi", "--base-url", "DeployApi=" + platform.url(""), "--ca-file",
            fake_platform::ca_file() },
        env);
    auto const port = server.port();
    auto const remove
        = call_request("7", "DeployApi_DeleteProject", R"({"project_identifier_or_name":"p1"})");
    auto const [header, value] = GENERATE(table<std::string, std::string>({
        { "Toolgate-Read-Only", "1" },
        { "Toolgate-Tools", "DeployApi.Get*" },
        { "Toolgate-Toolkits", "DeployApi:read" },
    }));
    INFO(header << ": " << value);
    header_pairs const narrowed { { header, value } };
    auto const session = open_batch_session(port, narrowed);
    // Alone, the DELETE is refused; as a one-element batch it gets the same refusal.
    auto alone = mcp_post(port, remove, session,
        { { header, value }, { "MCP-Protocol-Version", "2025-03-26" } }, "application/json");
    auto const refusal = json::parse(alone.body).as_object();
    REQUIRE(refusal.contains("error"));
    auto const batch = post_batch(port, session, "[" + remove + "]", narrowed);
    REQUIRE(batch.size() == 1);
    CHECK(batch[0] == refusal);
    // The listing in a batch is the connection's too.
    auto const listed = post_batch(
        port, session, R"([{"jsonrpc":"2.0","id":8,"method":"tools/list"}])", narrowed);
    CHECK(json::serialize(listed).find("DeployApi_DeleteProject") == std::string::npos);
    CHECK(platform.request_count() == 0);
}

TEST_CASE("third review 3: a batch's calls count against the caller's --max-inflight-per-principal",
    "[hardening][review3]")
{
    temp_dir dir;
    write_file(dir.file("tokens"), "alice " + alice + "\nbob " + bob + "\n");
    http_server_process server(
        test_bin, { "--auth-token-file", dir.file("tokens"), "--max-inflight-per-principal", "1" });
    auto const port = server.port();
    header_pairs const as_alice { { "Authorization", "Bearer " + alice } };
    auto const session = open_batch_session(port, as_alice);
    // alice's one place is taken by a slow call...
    auto slow = std::async(std::launch::async, [&] {
        auto headers = modern_headers("tools/call", "Test_Slow");
        headers.emplace_back("Authorization", "Bearer " + alice);
        return mcp_post(port,
            call_request("1", "Test_Slow", R"({"ms":3000,"steps":1})", modern_meta()), {}, headers);
    });
    REQUIRE(wait_calls_in_flight(port, 1, as_alice));
    // ...so a call in her batch is refused, as it would be alone.
    auto const batch = post_batch(
        port, session, "[" + call_request("2", "Test_Echo", R"({"n":1})") + "]", as_alice);
    REQUIRE(batch.size() == 1);
    CHECK_THAT(json::serialize(batch[0]), Catch::Contains("--max-inflight-per-principal"));
    // bob is not affected.
    auto headers = modern_headers("tools/call", "Test_Echo");
    headers.emplace_back("Authorization", "Bearer " + bob);
    auto other
        = mcp_post(port, call_request("3", "Test_Echo", R"({"n":1})", modern_meta()), {}, headers);
    CHECK(other.status == 200);
    CHECK_THAT(other.body, !Catch::Contains("--max-inflight-per-principal"));
    CHECK(slow.get().status == 200);
}

namespace {

/// A stateless tools/list as the connection choosing `tools` (Toolgate-Tools, full mode).
http_response list_choosing(std::uint16_t port, std::string const& tools, bool gzip)
{
    auto headers = modern_headers("tools/list");
    headers.emplace_back("Toolgate-Tools", tools);
    headers.emplace_back("Toolgate-Tool-Mode", "full");
    if (gzip) {
        headers.emplace_back("Accept-Encoding", "gzip");
    }
    auto const body
        = R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{)" + modern_meta() + "}}";
    return mcp_post(port, body, {}, headers, "application/json");
}

/// The answer's body as sent before any content coding.
std::string decoded(http_response const& response)
{
    auto const* coding = response.header("content-encoding");
    if (coding == nullptr) {
        return response.body;
    }
    REQUIRE(*coding == "gzip");
    auto text = gunzip(response.body);
    REQUIRE(text.has_value());
    return *text;
}

/// Resident memory of process `pid` in MiB (/proc/<pid>/status VmRSS).
long resident_mib(pid_t pid)
{
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.starts_with("VmRSS:")) {
            return std::stol(line.substr(6)) / 1024;
        }
    }
    FAIL("no VmRSS for " << pid);
    return 0;
}

/// The catalogue's tool names (wire spelling), of `toolkit` or of all (--list-tools prints
/// one tool a line, its dotted name first).
std::vector<std::string> tools_of(std::string const& toolkit = {})
{
    std::vector<std::string> args = { "--list-tools" };
    if (!toolkit.empty()) {
        args.insert(args.end(), { "--toolkit", toolkit });
    }
    child_process list(toolgate_bin, args);
    std::vector<std::string> out;
    while (auto line = list.read_line(10s)) {
        auto name = line->substr(0, line->find(' '));
        if (auto const dot = name.find('.'); dot != std::string::npos) {
            name[dot] = '_';
            out.push_back(std::move(name));
        }
    }
    return out;
}

std::string joined(std::vector<std::string> const& items)
{
    std::string out;
    for (auto const& item : items) {
        out += (out.empty() ? "" : ",") + item;
    }
    return out;
}

} // namespace

TEST_CASE("third review 5: per-connection choices do not pin memory: 192 distinct listings "
          "leave resident memory bounded",
    "[hardening][review3]")
{
#if defined(__SANITIZE_ADDRESS__)
    // Under AddressSanitizer freed blocks wait in its quarantine (256 MiB), which resident
    // memory would count as kept: the server measured here starts without it (its other
    // checks stay on), so the bound applies to what the server keeps, as in other builds.
    std::string const asan_options = std::getenv("ASAN_OPTIONS") ? std::getenv("ASAN_OPTIONS") : "";
    ::setenv("ASAN_OPTIONS", (asan_options + ":quarantine_size_mb=0").c_str(), 1);
    http_server_process server(toolgate_bin, {});
    ::setenv("ASAN_OPTIONS", asan_options.c_str(), 1);
#else
    http_server_process server(toolgate_bin, {});
#endif
    auto const port = server.port();
    auto const all = tools_of();
    REQUIRE(all.size() > 192);
    REQUIRE(list_choosing(port, "*", true).status == 200); // the first listing's own memory
    auto const before = resident_mib(server.process().pid());
    // Each choice lists all 1150 tools (about 900 KB a listing) and is a new view. Before
    // the fix the first 64 were kept with their pages and compressed forms: +140 MiB.
    for (std::size_t i = 0; i < 192; ++i) {
        auto const response = list_choosing(port, "*," + all[i], true);
        INFO(response.body.substr(0, 300));
        REQUIRE(response.status == 200);
    }
    auto const after = resident_mib(server.process().pid());
    INFO("resident " << before << " MiB -> " << after << " MiB");
    CHECK(after - before < 80);
}

TEST_CASE("third review 7: tool pattern lists are deduplicated and bounded before any "
          "matching",
    "[hardening][review3]")
{
    http_server_process server(toolgate_bin, {});
    auto const port = server.port();
    auto const all = tools_of();
    // 100 distinct names: past the bound, a 400 that names it.
    std::vector<std::string> many(all.begin(), all.begin() + 100);
    auto const refused = list_choosing(port, joined(many), false);
    CHECK(refused.status == 400);
    CHECK_THAT(refused.body,
        Catch::Contains("at most 64 distinct items") && Catch::Contains("Toolgate-Tools"));
    // Long patterns count by their bytes.
    std::vector<std::string> long_ones;
    for (std::size_t i = 0; i < 40; ++i) {
        long_ones.push_back(all[i] + std::string(120, '*'));
    }
    CHECK(list_choosing(port, joined(long_ones), false).status == 400);
    // A thousand copies of one glob (14 KB, near the header limit) are one pattern: served.
    std::vector<std::string> copies(1000, "StoreApi_Get*");
    auto const served = list_choosing(port, joined(copies), false);
    INFO(served.body.substr(0, 300));
    CHECK(served.status == 200);
    CHECK_THAT(served.body, Catch::Contains("StoreApi_GetFolderDetails"));
    // At the bound itself, the choice is served.
    std::vector<std::string> bounded(all.begin(), all.begin() + 64);
    CHECK(list_choosing(port, joined(bounded), false).status == 200);
}

TEST_CASE("third review 9: a compressed listing is never another view's, whatever its length "
          "and address",
    "[hardening][review3]")
{
    http_server_process server(toolgate_bin, {});
    auto const port = server.port();
    auto const all = tools_of();
    // Fill the place kept for per-connection views with small listings (under the size that
    // is compressed): views chosen after them were built per request and freed at once.
    for (std::size_t i = 0; i < 70; ++i) {
        REQUIRE(list_choosing(port, all[i], true).status == 200);
    }
    // Listings of equal length and different content: a toolkit without one of its tools,
    // and two toolkits without one tool of either.
    std::map<std::size_t, std::vector<std::pair<std::string, std::string>>> by_length;
    auto const engine = tools_of("CoreEngineApi");
    auto const search = tools_of("SearchApi");
    auto const add = [&](std::vector<std::string> const& kit, std::string const& other) {
        for (std::size_t skip = 0; skip < kit.size(); ++skip) {
            std::vector<std::string> chosen;
            for (std::size_t i = 0; i < kit.size(); ++i) {
                if (i != skip) {
                    chosen.push_back(kit[i]);
                }
            }
            if (!other.empty()) {
                chosen.push_back(other);
            }
            auto const tools = joined(chosen);
            auto const plain = list_choosing(port, tools, false);
            REQUIRE(plain.status == 200);
            by_length[plain.body.size()].emplace_back(tools, plain.body);
        }
    };
    add(engine, "");
    add(search, "");
    add(engine, "SearchApi.*");
    add(search, "CoreEngineApi.*");
    std::size_t pairs = 0;
    for (auto const& [length, listings] : by_length) {
        for (std::size_t a = 0; a + 1 < listings.size(); ++a) {
            auto const& [tools_a, text_a] = listings[a];
            auto const& [tools_b, text_b] = listings[a + 1];
            if (text_a == text_b) {
                continue;
            }
            ++pairs;
            INFO("length " << length << ": " << tools_a << " / " << tools_b);
            // Each twice, so each is compressed wherever compression is kept for a second use.
            for (int round = 0; round < 2; ++round) {
                CHECK(decoded(list_choosing(port, tools_a, true)) == text_a);
                CHECK(decoded(list_choosing(port, tools_b, true)) == text_b);
            }
        }
    }
    REQUIRE(pairs > 0);
}

TEST_CASE("third review 16: a metrics port off loopback without client authentication needs "
          "--metrics-public",
    "[hardening][review3]")
{
    temp_dir dir;
    std::vector<std::string> const base = { "--transport", "http", "--port", "0", "--token-store",
        dir.file("tokens.json"), "--metrics-listen", "0.0.0.0:0" };
    child_process refused(toolgate_bin, base);
    auto const status = refused.wait_exit(10s);
    REQUIRE(status);
    CHECK(*status == 2);
    CHECK_THAT(refused.stderr_text(),
        Catch::Contains("--metrics-listen 0.0.0.0:0") && Catch::Contains("--metrics-public"));
    // A host name that starts with "127." is no loopback address (common::is_loopback_host).
    auto named = base;
    named.back() = "127.evil.example:0";
    child_process refused_name(toolgate_bin, named);
    CHECK(refused_name.wait_exit(10s) == 2);
    CHECK_THAT(refused_name.stderr_text(),
        Catch::Contains("--metrics-listen 127.evil.example:0")
            && Catch::Contains("--metrics-public"));
    // Said explicitly, or with client authentication, it starts.
    auto with_flag = base;
    with_flag.emplace_back("--metrics-public");
    child_process public_metrics(toolgate_bin, with_flag);
    CHECK(public_metrics.wait_stderr("metrics at http://0.0.0.0:", 10s));
    write_file(dir.file("tokens"), "zqMetricsClient-S3CR3T-0123456789\n");
    auto with_auth = base;
    with_auth.insert(with_auth.end(), { "--auth-token-file", dir.file("tokens") });
    child_process authenticated(toolgate_bin, with_auth);
    CHECK(authenticated.wait_stderr("metrics at http://0.0.0.0:", 10s));
}

TEST_CASE("third review 17: a --config file others can read may not hold a secret",
    "[hardening][review3]")
{
    temp_dir dir;
    auto const config = dir.file("toolgate.toml");
    write_file(
        config, "session-key = \"zqSessionKey-S3CR3T-0123456789\"\nlog-level = \"debug\"\n", 0644);
    std::vector<std::string> const args = { "--transport", "http", "--port", "0", "--config",
        config, "--token-store", dir.file("tokens.json") };
    child_process refused(toolgate_bin, args);
    auto const status = refused.wait_exit(10s);
    REQUIRE(status);
    CHECK(*status == 2);
    CHECK_THAT(refused.stderr_text(),
        Catch::Contains("session-key is a secret") && Catch::Contains("mode 0644")
            && Catch::Contains("TOOLGATE_SESSION_KEY"));
    CHECK(refused.stderr_text().find("S3CR3T") == std::string::npos);
    // Private, it is taken; open to others without a secret in it, too.
    ::chmod(config.c_str(), 0600);
    child_process private_file(toolgate_bin, args);
    CHECK(private_file.wait_stderr("serving MCP", 10s));
    write_file(config, "log-level = \"debug\"\n", 0644);
    child_process no_secret(toolgate_bin, args);
    CHECK(no_secret.wait_stderr("serving MCP", 10s));
}

TEST_CASE("third review 2: a host a client's secret names must be allowed, and public unless "
          "allowed too",
    "[hardening][review3]")
{
    fake_platform internal; // a service on the server's own machine
    temp_dir dir;
    write_file(dir.file("clients.tokens"), "carol " + carol + "\n");
    auto const serve_with = [&](std::vector<std::string> extra) {
        std::vector<std::string> args = { "--toolkits", "VectorDbApi", "--auth-token-file",
            dir.file("clients.tokens"), "--per-request-credentials", "--ca-file",
            fake_platform::ca_file(), "--token-store", dir.file("tokens.json") };
        args.insert(args.end(), extra.begin(), extra.end());
        return std::make_unique<http_server_process>(toolgate_bin, args);
    };
    auto const call_naming = [&](http_server_process& server, std::string const& url) {
        return result_text(
            call_over_http(server.port(), carol, "VectorDbApi_GetAuthenticatedUserInfo", "{}",
                { { "Toolgate-Secret-VECTORDB_SERVER_URL", url },
                    { "Toolgate-Secret-VECTORDB_API_KEY", "zqCarolVectorKey-S3CR3T" } }));
    };
    auto const by_address = internal.url("");
    auto const by_name = internal.url("", "localhost");

    // No host allowed: the client names none.
    auto none = serve_with({});
    auto const refused = call_naming(*none, by_address);
    CHECK_THAT(
        refused, Catch::Contains("VECTORDB_SERVER_URL") && Catch::Contains("--client-host-allow"));
    CHECK(refused.find("127.0.0.1") == std::string::npos);

    // Allowed by name, but the address is loopback: refused when connecting, whether the host
    // is written as the address or as a name that resolves to it.
    auto named = serve_with({ "--client-host-allow", "127.0.0.1,localhost" });
    for (auto const& url : { by_address, by_name }) {
        auto const text = call_naming(*named, url);
        INFO(text);
        CHECK_THAT(
            text, Catch::Contains("VECTORDB_SERVER_URL") && Catch::Contains("loopback, private"));
        CHECK(text.find("127.0.0.1") == std::string::npos);
        CHECK(text.find("localhost") == std::string::npos);
    }
    CHECK(internal.request_count() == 0);

    // The operator allows the internal network too: the call goes there with the client's key.
    auto open = serve_with({ "--client-host-allow", "127.0.0.1", "--client-host-allow-private" });
    auto const served = call_naming(*open, by_address);
    CHECK_THAT(served, Catch::Contains("ok"));
    REQUIRE(internal.request_count() == 1);
    CHECK(internal.requests()[0].header("Authorization") == "Bearer zqCarolVectorKey-S3CR3T");
    // Only the hosts allowed: another name is still refused.
    CHECK_THAT(call_naming(*open, by_name), Catch::Contains("--client-host-allow"));
}
