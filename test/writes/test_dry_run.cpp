// Dry runs (docs/controlling-writes.md "Dry runs"): `_dry_run` on a tool and `dry_run` on
// toolgate_call_tool show the request a real call sends, credentials masked, and the fake
// platform records nothing; over stdio, a 2025-11-25 HTTP session, stateless 2026-07-28 HTTP
// and `toolgate call --dry-run`.
#include "writes_support.hpp"

#include <boost/json/parse.hpp>

using namespace toolgate::testing;
using namespace toolgate::testing::writes;

namespace {

std::string const delete_board = R"({"board_id_to_delete":"b-1"})";
std::string const add_domain
    = R"({"project_identifier_or_name":"p-9","project_domain_name":"www.example.test","redirect_status_code":301})";

json::object shown_request(json::value const& result)
{
    INFO(json::serialize(result));
    REQUIRE_FALSE(is_error(result));
    auto const& answer = result.at("structuredContent");
    CHECK(answer.at("dry_run") == true);
    CHECK(answer.at("sent") == false);
    return answer.at("request").as_object();
}

/// The shown URL with the masked credentials filled in, as the platform must receive it.
std::string unmasked_target(std::string url, std::uint16_t port)
{
    auto const origin = fmt::format("https://127.0.0.1:{}", port);
    REQUIRE(url.starts_with(origin));
    url.erase(0, origin.size());
    for (auto const& name : { "KANBAN_API_KEY", "KANBAN_TOKEN" }) {
        auto const pos = url.find("***");
        REQUIRE(pos != std::string::npos);
        url.replace(pos, 3, secret(name));
    }
    return url;
}

} // namespace

TEST_CASE("stdio: a dry run shows the request a real call then sends, and sends nothing",
    "[writes][dry_run][stdio]")
{
    fake_platform platform;
    stdio_server server(platform_args(platform), toolgate_bin, secret_env());
    server.initialize();

    // Query credentials: masked in the shown URL, filled in on the wire.
    auto const dry = stdio_call(
        server, 1, "KanbanApi_DeleteBoard", R"({"board_id_to_delete":"b-1","_dry_run":true})");
    auto const request = shown_request(dry);
    CHECK(request.at("method") == "DELETE");
    std::string const url(request.at("url").as_string());
    CHECK_THAT(url,
        Catch::StartsWith(fmt::format("https://127.0.0.1:{}/KanbanApi/", platform.port()))
            && Catch::Contains("b-1") && Catch::Contains("key=***")
            && Catch::Contains("token=***"));
    CHECK_FALSE(leaks_secret(json::serialize(dry)));
    CHECK(platform.request_count() == 0);

    auto const sent = stdio_call(server, 2, "KanbanApi_DeleteBoard", delete_board);
    CHECK_FALSE(is_error(sent));
    REQUIRE(platform.request_count() == 1);
    auto const received = platform.requests().front();
    CHECK(received.method == "DELETE");
    CHECK(received.target == unmasked_target(url, platform.port()));

    // A JSON body and a Bearer header, through toolgate_call_tool's `dry_run`.
    auto const via_meta = stdio_call(server, 3, "toolgate_call_tool",
        R"({"name":"DeployApi_AddProjectDomain","arguments":)" + add_domain
            + R"(,"dry_run":true})");
    auto const shown = shown_request(via_meta);
    CHECK(shown.at("method") == "POST");
    CHECK(shown.at("headers").at("Authorization") == "Bearer ***");
    CHECK(platform.request_count() == 1);
    auto const direct = stdio_call(server, 4, "DeployApi_AddProjectDomain", add_domain);
    CHECK_FALSE(is_error(direct));
    REQUIRE(platform.request_count() == 2);
    auto const posted = platform.requests().back();
    CHECK(posted.header("authorization") == "Bearer " + secret("DEPLOY_ACCESS_TOKEN"));
    CHECK(json::parse(posted.body) == shown.at("body"));
    CHECK(posted.target
        == std::string(shown.at("url").as_string())
               .substr(fmt::format("https://127.0.0.1:{}", platform.port()).size()));

    // Validated exactly as a real call: the same refusal, and still nothing sent.
    auto const bad_dry = stdio_call(server, 5, "KanbanApi_DeleteBoard", R"({"_dry_run":true})");
    auto const bad_real = stdio_call(server, 6, "KanbanApi_DeleteBoard", "{}");
    CHECK(is_error(bad_dry));
    CHECK(text_of(bad_dry) == text_of(bad_real));
    auto const not_boolean = stdio_call(
        server, 7, "KanbanApi_DeleteBoard", R"({"board_id_to_delete":"b","_dry_run":1})");
    CHECK(is_error(not_boolean));
    CHECK_THAT(text_of(not_boolean), Catch::Contains("_dry_run"));
    CHECK(platform.request_count() == 2);

    server.process().close_stdin();
    CHECK(server.process().wait_exit() == 0);
    CHECK_FALSE(leaks_secret(server.process().stderr_text()));
}

TEST_CASE("HTTP: a dry run in a 2025-11-25 session and a stateless 2026-07-28 request shows "
          "the request with every credential masked and sends nothing",
    "[writes][dry_run][http]")
{
    fake_platform platform;
    http_server_process server(toolgate_bin, platform_args(platform), secret_env());
    auto const port = server.port();

    // HTTP Basic from DESK_API_KEY.
    std::string const desk = R"({"agent_group_id_to_delete":7,"_dry_run":true})";
    auto const modern = modern_call(port, 1, "DeskApi_DeleteAgentGroup", desk);
    auto const request = shown_request(modern.at("result"));
    CHECK(request.at("method") == "DELETE");
    CHECK(request.at("headers").at("Authorization") == "Basic ***");
    CHECK_THAT(std::string(request.at("url").as_string()), Catch::EndsWith("/7"));
    CHECK_FALSE(leaks_secret(json::serialize(modern)));

    auto const session = open_session(port);
    auto const legacy = session_call(port, session, 2, "toolgate_call_tool",
        R"({"name":"KanbanApi_DeleteBoard","arguments":)" + delete_board + R"(,"dry_run":true})");
    auto const shown = shown_request(legacy.at("result"));
    CHECK_THAT(std::string(shown.at("url").as_string()),
        Catch::Contains("key=***") && Catch::Contains("token=***"));
    CHECK_FALSE(leaks_secret(json::serialize(legacy)));

    CHECK(platform.request_count() == 0);
    CHECK_FALSE(leaks_secret(server.process().stderr_text()));
}

TEST_CASE("toolgate call prints a result as JSON, sends nothing with --dry-run, and says by its "
          "exit status how it went",
    "[writes][dry_run][cli]")
{
    fake_platform platform;
    auto run = [&](std::vector<std::string> tail) {
        auto args = with(platform_args(platform), { "call" });
        args.insert(args.end(), tail.begin(), tail.end());
        auto child = std::make_unique<child_process>(toolgate_bin, args, secret_env());
        auto const status = child->wait_exit(20s);
        REQUIRE(status.has_value());
        return std::pair { *status, std::move(child) };
    };

    auto [dry_status, dry] = run({ "KanbanApi_DeleteBoard", delete_board, "--dry-run" });
    INFO(dry->stderr_text());
    CHECK(dry_status == 0);
    auto const line = dry->read_line(1s);
    REQUIRE(line.has_value());
    auto const printed = json::parse(*line);
    CHECK(shown_request(printed).at("method") == "DELETE");
    CHECK_FALSE(leaks_secret(*line));
    CHECK(platform.request_count() == 0);

    auto [sent_status, sent] = run({ "KanbanApi_DeleteBoard", delete_board });
    CHECK(sent_status == 0);
    CHECK(platform.request_count() == 1);

    auto [invalid_status, invalid] = run({ "KanbanApi_DeleteBoard", "{}" });
    CHECK(invalid_status == 1);
    auto const refusal = invalid->read_line(1s);
    REQUIRE(refusal.has_value());
    CHECK(is_error(json::parse(*refusal)));

    auto [unknown_status, unknown] = run({ "KanbanApi_DeleteBord", "{}" });
    CHECK(unknown_status == 2);
    CHECK_THAT(unknown->stderr_text(), Catch::Contains("did you mean KanbanApi_DeleteBoard"));
    auto [bad_status, bad] = run({ "KanbanApi_DeleteBoard", "[1]" });
    CHECK(bad_status == 2);
    CHECK_THAT(bad->stderr_text(), Catch::Contains("JSON object"));
    CHECK(platform.request_count() == 1);
}
