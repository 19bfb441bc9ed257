// Issue 14 through the shipped server as a process: OAuth toolkits keep working across token
// expiry and restarts (the fake authorization server doubles as the platform), a refused
// sign-in says what to run, SIGHUP rereads the secrets file in stdio mode, and over HTTP two
// clients calling at once each reach the platform with their own credentials.
#include "credentials/token_store.hpp"
#include "credentials_support.hpp"
#include "integration/integration_support.hpp"
#include "support/fake_auth_server.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <csignal>
#include <thread>

using namespace toolgate::testing;
using toolgate::credentials::token_entry;
using toolgate::credentials::token_file;
using toolgate::test::fake_auth_options;
using toolgate::test::fake_auth_server;
using toolgate::test::fake_platform;
using toolgate::test::fake_response;
using toolgate::test::recorded_request;

namespace {

std::int64_t unix_now()
{
    return std::chrono::duration_cast<std::chrono::seconds>(
        std::chrono::system_clock::now().time_since_epoch())
        .count();
}

/// A StoreApi sign-in served by `auth`: the token store, the client's secrets file and the
/// flags that point toolgate at the fake.
struct store_sign_in {
    store_sign_in(fake_auth_server& a, std::int64_t lifetime)
        : auth(a)
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
    }

    std::vector<std::string> args() const
    {
        return { "--toolkits", "StoreApi", "--token-store", dir.file("tokens.json"),
            "--secrets-file", dir.file("secrets.env"), "--ca-file", fake_platform::ca_file(),
            "--base-url", "StoreApi=" + auth.url(""), "--log-level", "debug" };
    }
    spawn_options env() const
    {
        spawn_options s;
        s.env
            = { "TOOLGATE_OAUTH_TOKEN_URL_STOREAPI=" + auth.url("/token"), "STORE_ACCESS_TOKEN=" };
        return s;
    }
    token_entry stored() const { return token_file(dir.file("tokens.json")).load().at("StoreApi"); }

    fake_auth_server& auth;
    temp_dir dir;
};

std::string const invite_call_args = R"({"invite_id":"i1"})";

json::object call_tool(
    stdio_server& server, int id, std::string const& tool, std::string const& arguments)
{
    server.send(call_request(std::to_string(id), tool, arguments));
    auto answer = server.response(id);
    REQUIRE(answer.contains("result"));
    return answer.at("result").as_object();
}

bool is_error(json::object const& result)
{
    auto const* flag = result.if_contains("isError");
    return flag != nullptr && flag->as_bool();
}

std::string result_text(json::object const& result)
{
    return std::string(result.at("content").as_array()[0].at("text").as_string());
}

void check_no_tokens(std::string const& text, fake_auth_server const& auth)
{
    for (auto const& t : auth.access_tokens()) {
        CHECK(text.find(t) == std::string::npos);
    }
    for (auto const& t : auth.refresh_tokens()) {
        CHECK(text.find(t) == std::string::npos);
    }
    CHECK(text.find(fake_auth_options().client_secret) == std::string::npos);
}

} // namespace

TEST_CASE("a signed-in toolkit keeps working across token expiry and restarts", "[auth][serving]")
{
    // The authorization server says its access tokens live one second. Review 3 item 10: a
    // lifetime that short is raised to a minute, or every call would spend a renewal.
    fake_auth_server auth;
    auth.set_lifetime(1);
    store_sign_in sign_in(auth, -10); // the stored token has expired already
    auto const first = sign_in.stored();
    {
        stdio_server server(sign_in.args(), toolgate_bin, sign_in.env());
        server.initialize();
        for (int id = 1; id <= 3; ++id) {
            auto result = call_tool(server, id, "StoreApi_CheckUserInviteStatus", invite_call_args);
            INFO(result_text(result) << "\n" << server.process().stderr_text());
            CHECK_FALSE(is_error(result));
            // The platform saw the newest token, and the file holds its rotated refresh token.
            CHECK(auth.api_tokens().back() == auth.access_tokens().back());
            CHECK(sign_in.stored().refresh_token == auth.refresh_tokens().back());
        }
        CHECK(auth.token_requests("refresh_token") == 1);
        auto const renewed = sign_in.stored();
        CHECK(renewed.expires_at - renewed.obtained_at == 60);
        CHECK(renewed.refresh_token != first.refresh_token);
        server.process().close_stdin();
        CHECK(server.process().wait_exit() == 0);
        check_no_tokens(server.process().stderr_text(), auth);
    }
    // The token expires while no server runs; a restart continues from the saved (rotated)
    // refresh token, the first one being dead.
    auto expired = sign_in.stored();
    expired.expires_at = unix_now() - 10;
    token_file(sign_in.dir.file("tokens.json")).update("StoreApi", expired);
    stdio_server again(sign_in.args(), toolgate_bin, sign_in.env());
    again.initialize();
    auto result = call_tool(again, 9, "StoreApi_CheckUserInviteStatus", invite_call_args);
    INFO(again.process().stderr_text());
    CHECK_FALSE(is_error(result));
    CHECK(auth.token_requests("refresh_token") == 2);
    check_no_tokens(result_text(result), auth);
}

TEST_CASE("a withdrawn access token is renewed once and the call goes through", "[auth][serving]")
{
    fake_auth_server auth;
    store_sign_in sign_in(auth, 3600);
    stdio_server server(sign_in.args(), toolgate_bin, sign_in.env());
    server.initialize();
    CHECK_FALSE(is_error(call_tool(server, 1, "StoreApi_CheckUserInviteStatus", invite_call_args)));
    CHECK(auth.token_requests() == 0); // fresh: used as is
    auth.withdraw_access_tokens();
    auto result = call_tool(server, 2, "StoreApi_CheckUserInviteStatus", invite_call_args);
    INFO(result_text(result));
    CHECK_FALSE(is_error(result));
    CHECK(auth.token_requests("refresh_token") == 1);
    auto const seen = auth.api_tokens();
    REQUIRE(seen.size() == 3);
    CHECK(seen[1] != seen[2]); // refused, then the renewed one
}

TEST_CASE(
    "a sign-in the platform no longer accepts says to run toolgate auth login", "[auth][serving]")
{
    fake_auth_server auth;
    auth.set_lifetime(1);
    store_sign_in sign_in(auth, 1);
    auth.revoke_refresh_tokens();
    stdio_server server(sign_in.args(), toolgate_bin, sign_in.env());
    server.initialize();
    auto result = call_tool(server, 1, "StoreApi_CheckUserInviteStatus", invite_call_args);
    CHECK(is_error(result));
    CHECK(result_text(result).find("`toolgate auth login StoreApi`") != std::string::npos);
    CHECK(result_text(result).find("invalid_grant") != std::string::npos);
    CHECK(auth.api_tokens().empty()); // nothing was sent to the platform
    // An access token in the environment still works and wins. It is issued for an hour: with
    // the 1 s lifetime above it expired before the call under ASan on a loaded machine.
    auth.set_lifetime(3600);
    auto env = sign_in.env();
    env.env.back() = "STORE_ACCESS_TOKEN=" + auth.seed_tokens().first;
    stdio_server with_env(sign_in.args(), toolgate_bin, env);
    with_env.initialize();
    CHECK_FALSE(
        is_error(call_tool(with_env, 2, "StoreApi_CheckUserInviteStatus", invite_call_args)));
}

TEST_CASE("SIGHUP rereads the secrets file in stdio mode and logs names only", "[auth][serving]")
{
    fake_platform platform;
    temp_dir dir;
    auto const secrets = dir.file("secrets.env");
    write_file(secrets, "KANBAN_API_KEY=zqKanbanKey1-S3CR3T\nKANBAN_TOKEN=zqKanbanToken-S3CR3T\n");
    stdio_server server({ "--toolkits", "KanbanApi", "--secrets-file", secrets, "--ca-file",
                            fake_platform::ca_file(), "--base-url",
                            "KanbanApi=" + platform.url("/1").substr(0, platform.url("/1").size()),
                            "--log-level", "trace", "--token-store", dir.file("tokens.json") },
        toolgate_bin);
    server.initialize();
    call_tool(server, 1, "KanbanApi_GetActionList", R"({"action_id":"a1"})");
    REQUIRE(platform.request_count() == 1);
    CHECK(platform.requests()[0].query().find("key=zqKanbanKey1-S3CR3T") != std::string::npos);

    write_file(secrets, "KANBAN_API_KEY=zqKanbanKey2-S3CR3T\nKANBAN_TOKEN=zqKanbanToken-S3CR3T\n");
    server.process().signal(SIGHUP);
    REQUIRE(server.process().wait_stderr("secrets file: changed KANBAN_API_KEY"));
    call_tool(server, 2, "KanbanApi_GetActionList", R"({"action_id":"a1"})");
    REQUIRE(platform.request_count() == 2);
    CHECK(platform.requests()[1].query().find("key=zqKanbanKey2-S3CR3T") != std::string::npos);
    server.process().close_stdin();
    CHECK(server.process().wait_exit() == 0);
    CHECK(server.process().stderr_text().find("S3CR3T") == std::string::npos);
}

TEST_CASE("stdio refuses the per-client credential settings", "[auth][serving]")
{
    temp_dir dir;
    write_file(dir.file("clients.ini"), "[static:a]\nDEPLOY_ACCESS_TOKEN=x\n");
    child_process p(toolgate_bin,
        { "--credentials-file", dir.file("clients.ini"), "--token-store",
            dir.file("tokens.json") });
    CHECK(p.wait_exit() == 2);
    CHECK(p.stderr_text().find("--transport http") != std::string::npos);
}

namespace {

std::string const alice_client = "zqClientAlice-S3CR3T-0123456789";
std::string const bob_client = "zqClientBob-S3CR3T-0123456789ab";
std::string const carol_client = "zqClientCarol-S3CR3T-0123456789";
std::string const dave_client = "zqClientDave-S3CR3T-0123456789a";
std::string const alice_secret = "zqDeployAlice-S3CR3T";
std::string const bob_secret = "zqDeployBob-S3CR3T";
std::string const carol_secret = "zqDeployCarol-S3CR3T";
std::string const server_secret = "zqDeployServer-S3CR3T";

std::string const modern_call
    = call_request("1", "DeployApi_CheckRemoteCachingStatus", "{}", modern_meta());

http_response call_as(std::uint16_t port, std::string const& client, header_pairs extra = {})
{
    auto headers = modern_headers("tools/call", "DeployApi_CheckRemoteCachingStatus");
    headers.emplace_back("Authorization", "Bearer " + client);
    headers.insert(headers.end(), extra.begin(), extra.end());
    return mcp_post(port, modern_call, {}, headers);
}

/// The platform answers with whose deploy token it received.
fake_response who_answers(recorded_request const& request)
{
    static std::map<std::string, std::string> const owners
        = { { "Bearer " + alice_secret, "alice" }, { "Bearer " + bob_secret, "bob" },
              { "Bearer " + carol_secret, "carol" },
              { "Bearer zqDeployAlice2-S3CR3T", "alice-rotated" },
              { "Bearer " + server_secret, "server" } };
    fake_response r;
    auto it = owners.find(request.header("Authorization"));
    if (it == owners.end()) {
        r.status = 401;
        r.body = R"({"error":"unknown token"})";
    } else {
        r.body = R"({"account":")" + it->second + R"("})";
    }
    return r;
}

std::string text_of_call(http_response const& response)
{
    auto msg = rpc_body(response);
    REQUIRE(msg.as_object().contains("result"));
    return std::string(msg.at("result").at("content").as_array()[0].at("text").as_string());
}

std::vector<std::string> all_secrets()
{
    return { alice_client, bob_client, carol_client, dave_client, alice_secret, bob_secret,
        carol_secret, server_secret, "zqDeployAlice2-S3CR3T" };
}

} // namespace

TEST_CASE("two clients calling at once each reach the platform with their own credentials",
    "[auth][serving][multi-user]")
{
    fake_platform platform;
    platform.set_handler(who_answers);
    temp_dir dir;
    write_file(dir.file("clients.tokens"),
        "alice " + alice_client + "\nbob " + bob_client + "\ncarol " + carol_client + "\ndave "
            + dave_client + "\n");
    write_file(dir.file("clients.ini"),
        "[static:alice]\nDEPLOY_ACCESS_TOKEN=" + alice_secret
            + "\n\n[static:bob]\nDEPLOY_ACCESS_TOKEN=" + bob_secret + "\n");
    spawn_options env;
    env.env = { "DEPLOY_ACCESS_TOKEN=" + server_secret };
    std::vector<std::string> args
        = { "--toolkits", "DeployApi", "--auth-token-file", dir.file("clients.tokens"),
              "--credentials-file", dir.file("clients.ini"), "--per-request-credentials",
              "--base-url", "DeployApi=" + platform.url(""), "--ca-file", fake_platform::ca_file(),
              "--token-store", dir.file("tokens.json"), "--log-level", "trace", "--threads", "4" };
    http_server_process server(toolgate_bin, args, env);
    auto const port = server.port();

    constexpr int calls = 24;
    std::vector<std::string> alice_answers(calls);
    std::vector<std::string> bob_answers(calls);
    auto run = [port](std::string const& client, std::vector<std::string>& answers) {
        for (auto& answer : answers) {
            auto response = call_as(port, client);
            answer = response.status == 200 ? response.body
                                            : "status " + std::to_string(response.status);
        }
    };
    std::thread a(run, alice_client, std::ref(alice_answers));
    std::thread b(run, bob_client, std::ref(bob_answers));
    a.join();
    b.join();
    for (auto const& answer : alice_answers) {
        INFO(answer);
        CHECK(answer.find(R"(\"account\":\"alice\")") != std::string::npos);
        CHECK(answer.find("bob") == std::string::npos);
        for (auto const& s : all_secrets()) {
            CHECK(answer.find(s) == std::string::npos);
        }
    }
    for (auto const& answer : bob_answers) {
        INFO(answer);
        CHECK(answer.find(R"(\"account\":\"bob\")") != std::string::npos);
        CHECK(answer.find("alice") == std::string::npos);
        for (auto const& s : all_secrets()) {
            CHECK(answer.find(s) == std::string::npos);
        }
    }
    std::size_t from_alice = 0;
    std::size_t from_bob = 0;
    for (auto const& r : platform.requests()) {
        from_alice += r.header("Authorization") == "Bearer " + alice_secret;
        from_bob += r.header("Authorization") == "Bearer " + bob_secret;
    }
    CHECK(from_alice == calls);
    CHECK(from_bob == calls);

    // A request's own header, for that request only.
    auto const carol
        = call_as(port, carol_client, { { "Toolgate-Secret-DEPLOY_ACCESS_TOKEN", carol_secret } });
    CHECK(text_of_call(carol).find(R"("account":"carol")") != std::string::npos);
    auto const carol_again = text_of_call(call_as(port, carol_client));
    CHECK(carol_again.find("DEPLOY_ACCESS_TOKEN") != std::string::npos);
    CHECK(carol_again.find("Toolgate-Secret") != std::string::npos);

    // A browser page may send them too: the CORS preflight allows the names it asks for.
    auto const preflight = http_request(port, "OPTIONS", "/mcp",
        { { "Origin", "http://localhost:6274" }, { "Access-Control-Request-Method", "POST" },
            { "Access-Control-Request-Headers",
                "content-type, Toolgate-Secret-DEPLOY_ACCESS_TOKEN, x-other" } });
    CHECK(preflight.status == 204);
    REQUIRE(preflight.header("access-control-allow-headers"));
    auto const allowed = *preflight.header("access-control-allow-headers");
    CHECK(allowed.find("toolgate-secret-deploy_access_token") != std::string::npos);
    CHECK(allowed.find("x-other") == std::string::npos);

    // No credentials of its own and no --shared-credentials: the server's are not lent.
    auto const dave = text_of_call(call_as(port, dave_client));
    CHECK(dave.find("not set") != std::string::npos);
    std::size_t server_used = 0;
    for (auto const& r : platform.requests()) {
        server_used += r.header("Authorization") == "Bearer " + server_secret;
    }
    CHECK(server_used == 0);

    // SIGHUP rereads the credentials file.
    write_file(dir.file("clients.ini"),
        "[static:alice]\nDEPLOY_ACCESS_TOKEN=zqDeployAlice2-S3CR3T\n\n[static:bob]\n"
        "DEPLOY_ACCESS_TOKEN="
            + bob_secret + "\n");
    server.process().signal(SIGHUP);
    REQUIRE(server.process().wait_stderr("changed for static:alice"));
    CHECK(text_of_call(call_as(port, alice_client)).find(R"("account":"alice-rotated")")
        != std::string::npos);

    auto const& log = server.process().stderr_text();
    for (auto const& s : all_secrets()) {
        INFO(s);
        CHECK(log.find(s) == std::string::npos);
    }
}

TEST_CASE("shared credentials serve clients without their own, and headers need the flag",
    "[auth][serving][multi-user]")
{
    fake_platform platform;
    platform.set_handler(who_answers);
    temp_dir dir;
    write_file(
        dir.file("clients.tokens"), "alice " + alice_client + "\ndave " + dave_client + "\n");
    write_file(
        dir.file("clients.ini"), "[static:alice]\nDEPLOY_ACCESS_TOKEN=" + alice_secret + "\n");
    spawn_options env;
    env.env = { "DEPLOY_ACCESS_TOKEN=" + server_secret };
    http_server_process server(toolgate_bin,
        { "--toolkits", "DeployApi", "--auth-token-file", dir.file("clients.tokens"),
            "--credentials-file", dir.file("clients.ini"), "--shared-credentials", "--base-url",
            "DeployApi=" + platform.url(""), "--ca-file", fake_platform::ca_file(), "--token-store",
            dir.file("tokens.json") },
        env);
    CHECK(text_of_call(call_as(server.port(), dave_client)).find(R"("account":"server")")
        != std::string::npos);
    CHECK(text_of_call(call_as(server.port(), alice_client)).find(R"("account":"alice")")
        != std::string::npos);
    // Per-request secrets are off here: a request carrying one is refused, not half-served.
    auto const refused = call_as(
        server.port(), alice_client, { { "Toolgate-Secret-DEPLOY_ACCESS_TOKEN", carol_secret } });
    CHECK(refused.status == 400);
    CHECK(refused.body.find("--per-request-credentials") != std::string::npos);
    CHECK(refused.body.find(carol_secret) == std::string::npos);
}

TEST_CASE("per-client credentials need client authentication", "[auth][serving][multi-user]")
{
    temp_dir dir;
    child_process p(toolgate_bin,
        { "--transport", "http", "--port", "0", "--per-request-credentials", "--token-store",
            dir.file("tokens.json") });
    CHECK(p.wait_exit() == 2);
    CHECK(p.stderr_text().find("need client authentication") != std::string::npos);
}
