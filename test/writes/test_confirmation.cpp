// Confirmation by a person (docs/controlling-writes.md "Confirmation by a person"): with
// --confirm-destructive (or a policy's confirm_destructive), a destructive call is sent only
// after the person behind the client accepts a form elicitation naming the tool and its target
// ids; decline or cancel sends nothing; a client that cannot be asked is refused; nothing in
// the arguments stands in for the answer. Over stdio and HTTP 2025 sessions (elicitation/create)
// and stateless 2026-07-28 (input_required, and a retry whose accepted state is used once).
#include "credentials/credentials_support.hpp"
#include "writes_support.hpp"

#include <boost/json/parse.hpp>

#include <thread>

using namespace toolgate::testing;
using namespace toolgate::testing::writes;

namespace {

std::string const delete_b1 = R"({"board_id_to_delete":"b-1"})";

std::string init_with(std::string const& capabilities)
{
    return R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":)"
        + capabilities + R"(,"clientInfo":{"name":"confirm-test","version":"1"}}})";
}

/// The client's answer to the server's request `request`.
std::string answer_to(json::value const& request, std::string const& result)
{
    return R"({"jsonrpc":"2.0","id":)" + json::serialize(request.at("id")) + R"(,"result":)"
        + result + "}";
}

std::string const accept = R"({"action":"accept","content":{"confirm":true}})";

/// A stdio server asked `--confirm-destructive` whose client declared `capabilities`.
std::unique_ptr<stdio_server> stdio_with(
    fake_platform& platform, std::string const& capabilities, std::vector<std::string> more = {})
{
    auto server = std::make_unique<stdio_server>(
        with(with(platform_args(platform), { "--confirm-destructive" }), more), toolgate_bin,
        secret_env());
    server->send(init_with(capabilities));
    REQUIRE(server->response(0).contains("result"));
    server->send(initialized_notification);
    return server;
}

/// Sends a call, expects the server's elicitation/create first, answers it with `result`, and
/// returns the call's result.
json::value ask_and_answer(stdio_server& server, int id, std::string const& tool,
    std::string const& arguments, std::string const& result, json::value* asked = nullptr)
{
    server.send(call_request(std::to_string(id), tool, arguments));
    auto request = server.next();
    REQUIRE(request.has_value());
    INFO(json::serialize(*request));
    REQUIRE(request->as_object().contains("method"));
    CHECK(request->at("method") == "elicitation/create");
    if (asked != nullptr) {
        *asked = *request;
    }
    server.send(answer_to(*request, result));
    auto answer = server.response(id);
    REQUIRE(answer.contains("result"));
    return answer.at("result");
}

std::string audit_text(std::string const& path, std::size_t lines)
{
    auto const deadline = std::chrono::steady_clock::now() + 5s;
    std::string text;
    while (std::chrono::steady_clock::now() < deadline) {
        text = read_file(path);
        if (static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) >= lines) {
            break;
        }
        std::this_thread::sleep_for(20ms);
    }
    return text;
}

} // namespace

TEST_CASE("stdio 2025: a destructive call is sent once after a person accepts, and never after "
          "decline, cancel or an unticked box",
    "[writes][confirm][stdio]")
{
    fake_platform platform;
    temp_dir dir;
    auto server = stdio_with(
        platform, R"({"elicitation":{"form":{}}})", { "--audit-log", dir.file("audit.jsonl") });

    json::value asked;
    auto const sent
        = ask_and_answer(*server, 1, "KanbanApi_DeleteBoard", delete_b1, accept, &asked);
    auto const& params = asked.at("params");
    CHECK(params.at("mode") == "form");
    CHECK_THAT(std::string(params.at("message").as_string()),
        Catch::Contains("KanbanApi.DeleteBoard") && Catch::Contains("b-1"));
    CHECK(params.at("requestedSchema").at("properties").at("confirm").at("type") == "boolean");
    CHECK_FALSE(is_error(sent));
    CHECK(platform.request_count() == 1);

    auto const declined = ask_and_answer(*server, 2, "KanbanApi_DeleteBoard",
        R"({"board_id_to_delete":"b-2"})", R"({"action":"decline"})");
    CHECK_FALSE(is_error(declined));
    CHECK_THAT(text_of(declined), Catch::Contains("not sent") && Catch::Contains("declined"));
    auto const cancelled = ask_and_answer(*server, 3, "KanbanApi_DeleteBoard",
        R"({"board_id_to_delete":"b-3"})", R"({"action":"cancel"})");
    CHECK_THAT(text_of(cancelled), Catch::Contains("cancelled"));
    auto const unticked = ask_and_answer(*server, 4, "KanbanApi_DeleteBoard",
        R"({"board_id_to_delete":"b-4"})", R"({"action":"accept","content":{"confirm":false}})");
    CHECK_THAT(text_of(unticked), Catch::Contains("did not confirm"));
    CHECK(platform.request_count() == 1);

    // Through toolgate_call_tool the same; a tool that only adds is not asked about; a dry
    // run is not asked about; and an argument cannot stand in for the answer.
    auto const via_meta = ask_and_answer(*server, 5, "toolgate_call_tool",
        R"({"name":"KanbanApi_DeleteBoard","arguments":{"board_id_to_delete":"b-5"}})", accept);
    CHECK_FALSE(is_error(via_meta));
    CHECK(platform.request_count() == 2);
    CHECK_FALSE(is_error(stdio_call(*server, 6, "DeployApi_AddProjectDomain",
        R"({"project_identifier_or_name":"p","project_domain_name":"d.example.test"})")));
    CHECK_FALSE(is_error(stdio_call(
        *server, 7, "KanbanApi_DeleteBoard", R"({"board_id_to_delete":"b-7","_dry_run":true})")));
    CHECK(is_error(stdio_call(
        *server, 8, "KanbanApi_DeleteBoard", R"({"board_id_to_delete":"b-8","confirm":true})")));
    CHECK(platform.request_count() == 3);
    CHECK(server->seen.empty()); // no question went out for calls 6, 7 and 8

    auto const audit = audit_text(dir.file("audit.jsonl"), 8);
    CHECK_THAT(audit, Catch::Contains(R"("targets":{"board_id_to_delete":"b-2"},)"));
    for (auto const* needle : { R"("outcome":"declined")", R"("outcome":"ok")" }) {
        CHECK_THAT(audit, Catch::Contains(needle));
    }
}

TEST_CASE("stdio 2025: a client that cannot be asked is refused, and nothing is sent",
    "[writes][confirm][stdio]")
{
    fake_platform platform;
    auto server = stdio_with(platform, "{}");
    auto const refused = stdio_call(*server, 1, "KanbanApi_DeleteBoard", delete_b1);
    CHECK(is_error(refused));
    CHECK_THAT(text_of(refused), Catch::Contains("requires a person's confirmation"));
    CHECK(server->seen.empty());
    CHECK(platform.request_count() == 0);
}

TEST_CASE("HTTP 2025: the question travels on the call's event stream and the POSTed answer "
          "lets the call through",
    "[writes][confirm][http]")
{
    fake_platform platform;
    http_server_process server(
        toolgate_bin, with(platform_args(platform), { "--confirm-destructive" }), secret_env());
    auto const port = server.port();
    auto response = mcp_post(port, init_with(R"({"elicitation":{}})"));
    REQUIRE(response.status == 200);
    std::string const session = *response.header("mcp-session-id");
    header_pairs const version { { "MCP-Protocol-Version", "2025-11-25" } };
    REQUIRE(mcp_post(port, initialized_notification, session, version).status == 202);

    http_connection call(port);
    auto headers = mcp_headers(session);
    headers.emplace_back("MCP-Protocol-Version", "2025-11-25");
    REQUIRE(call.send(make_request(
        port, "POST", "/mcp", headers, call_request("7", "KanbanApi_DeleteBoard", delete_b1))));
    auto const& seen = call.read_until("elicitation/create", 10s);
    REQUIRE(seen.find("elicitation/create") != std::string::npos);
    auto const data_at = seen.find("data: ", seen.find("\r\n\r\n"));
    auto const request
        = json::parse(seen.substr(data_at + 6, seen.find('\n', data_at) - data_at - 6));
    CHECK_THAT(std::string(request.at("params").at("message").as_string()), Catch::Contains("b-1"));
    CHECK(platform.request_count() == 0);
    CHECK(mcp_post(port, answer_to(request, accept), session, version).status == 202);
    auto streamed = call.read_response(10s);
    REQUIRE(streamed.status == 200);
    auto const result = parse_rpc(sse_data(streamed.body).back());
    CHECK(result.at("id") == 7);
    CHECK_FALSE(is_error(result.at("result")));
    CHECK(platform.request_count() == 1);
}

TEST_CASE("HTTP 2026-07-28: input_required, then the retry with an accepted answer is sent "
          "once, while a declined retry and a client without form elicitation send nothing",
    "[writes][confirm][http][mrtr]")
{
    fake_platform platform;
    http_server_process server(
        toolgate_bin, with(platform_args(platform), { "--confirm-destructive" }), secret_env());
    auto const port = server.port();
    auto const meta = modern_meta("2026-07-28").substr(0, modern_meta("2026-07-28").size() - 1)
        + R"(,"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}})";
    auto call = [&](int id, std::string const& extra, std::string const& arguments = delete_b1,
                    std::string const& call_meta = "") {
        auto body = call_request(std::to_string(id), "KanbanApi_DeleteBoard", arguments,
            (call_meta.empty() ? meta : call_meta) + extra);
        return rpc_body(
            mcp_post(port, body, {}, modern_headers("tools/call", "KanbanApi_DeleteBoard")));
    };
    auto const first = call(1, "");
    auto const& needed = first.at("result");
    REQUIRE(needed.at("resultType") == "input_required");
    auto const& question = needed.at("inputRequests").at("confirm");
    CHECK(question.at("method") == "elicitation/create");
    CHECK_THAT(std::string(question.at("params").at("message").as_string()),
        Catch::Contains("KanbanApi.DeleteBoard") && Catch::Contains("b-1"));
    std::string const state(needed.at("requestState").as_string());
    CHECK(platform.request_count() == 0);

    auto const retry = R"(,"inputResponses":{"confirm":)" + std::string(accept)
        + R"(},"requestState":)" + json::serialize(json::value(state));
    auto const done = call(2, retry);
    CHECK_FALSE(is_error(done.at("result")));
    CHECK(platform.request_count() == 1);
    // The same accepted answer again: refused, the platform saw the call once.
    auto const replayed = call(3, retry);
    CHECK(is_error(replayed.at("result")));
    CHECK_THAT(text_of(replayed.at("result")), Catch::Contains("used already"));
    // The state is bound to the call's arguments: another board needs its own question.
    auto const other = call(4, retry, R"({"board_id_to_delete":"b-9"})");
    CHECK(other.as_object().contains("error"));
    CHECK(platform.request_count() == 1);

    auto const again = call(5, "");
    std::string const second_state(again.at("result").at("requestState").as_string());
    auto const declined = call(6,
        R"(,"inputResponses":{"confirm":{"action":"decline"}},"requestState":)"
            + json::serialize(json::value(second_state)));
    CHECK_THAT(text_of(declined.at("result")), Catch::Contains("declined"));
    auto const no_form = call(7, "", delete_b1, modern_meta("2026-07-28"));
    CHECK(is_error(no_form.at("result")));
    CHECK_THAT(text_of(no_form.at("result")), Catch::Contains("requires a person's confirmation"));
    CHECK(platform.request_count() == 1);
}

TEST_CASE("HTTP: confirm_destructive in bob's policy asks about bob's calls only",
    "[writes][confirm][policy][http]")
{
    fake_platform platform;
    temp_dir dir;
    write_file(dir.file("tokens"), "bob bob-client-token-1\nalice alice-client-token-2\n");
    write_file(dir.file("toolgate.toml"), "[policy.\"static:bob\"]\nconfirm_destructive = true\n");
    http_server_process server(toolgate_bin,
        with(platform_args(platform),
            { "--auth-token-file", dir.file("tokens"), "--config", dir.file("toolgate.toml") }),
        secret_env());
    auto const meta = modern_meta("2026-07-28").substr(0, modern_meta("2026-07-28").size() - 1)
        + R"(,"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}})";
    auto call = [&](std::string const& token) {
        auto headers = modern_headers("tools/call", "KanbanApi_DeleteBoard");
        headers.emplace_back("Authorization", "Bearer " + token);
        return rpc_body(mcp_post(server.port(),
            call_request("1", "KanbanApi_DeleteBoard", delete_b1, meta), {}, headers));
    };
    CHECK_FALSE(is_error(call("alice-client-token-2").at("result")));
    CHECK(platform.request_count() == 1);
    CHECK(call("bob-client-token-1").at("result").at("resultType") == "input_required");
    CHECK(platform.request_count() == 1);
}
