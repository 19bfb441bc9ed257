// Elicitation's wire shapes (protocol/elicitation.hpp) and what the dispatcher hands a call:
// the modes a client declared (2025-11-25 client/elicitation "Capabilities"; 2026-07-28 per
// request), the -32042 error and completion notification, input_required results and a
// retry's inputResponses/requestState (2026-07-28 basic/patterns/mrtr).
#include "protocol/elicitation.hpp"
#include "protocol/errors.hpp"
#include "protocol_fixture.hpp"

using namespace toolgate::protocol;
using toolgate::testing::modern_meta;
using toolgate::testing::protocol_fixture;
namespace json = boost::json;

namespace {

elicitation_modes modes_of(std::string const& capabilities)
{
    auto const parsed = json::parse(capabilities).as_object();
    return elicitation_modes_of(&parsed);
}

tool_call as_call(outcome out)
{
    REQUIRE(std::holds_alternative<tool_call>(out));
    return std::get<tool_call>(std::move(out));
}

} // namespace

TEST_CASE("a client's elicitation modes: none, form only for an empty object, or those named",
    "[protocol][elicitation]")
{
    auto none = modes_of(R"({"sampling":{}})");
    CHECK_FALSE(none.any());
    CHECK_FALSE(elicitation_modes_of(nullptr).any());
    auto empty = modes_of(R"({"elicitation":{}})");
    CHECK(empty.form);
    CHECK_FALSE(empty.url);
    auto url = modes_of(R"({"elicitation":{"url":{}}})");
    CHECK(url.url);
    CHECK_FALSE(url.form);
    auto both = modes_of(R"({"elicitation":{"form":{},"url":{}}})");
    CHECK(both.form);
    CHECK(both.url);
    CHECK_FALSE(modes_of(R"({"elicitation":true})").any());
}

TEST_CASE("the -32042 error carries one URL elicitation with its id", "[protocol][elicitation]")
{
    url_elicitation e { "e-1", "https://gate.example/signin?state=x", "Connect your account" };
    auto error = url_elicitation_required_error(e, "This call needs a sign-in");
    CHECK(error.code == -32042);
    CHECK(error.message == "This call needs a sign-in");
    REQUIRE(error.data);
    auto const& list = error.data->at("elicitations").as_array();
    REQUIRE(list.size() == 1);
    CHECK(list[0]
        == json::parse(R"({"mode":"url","elicitationId":"e-1",)"
                       R"("url":"https://gate.example/signin?state=x",)"
                       R"("message":"Connect your account"})"));
    // 2026-07-28's ElicitRequestURLParams has no id.
    CHECK_FALSE(url_elicitation_params(e, false).contains("elicitationId"));

    auto note = json::parse(elicitation_complete_notification("e-1")).as_object();
    CHECK(note.at("method") == "notifications/elicitation/complete");
    CHECK(note.at("params").at("elicitationId") == "e-1");
    CHECK_FALSE(note.contains("id"));
}

TEST_CASE("an input_required result leaves out what it does not have", "[protocol][elicitation]")
{
    auto only_state = input_required_result({}, "s");
    CHECK(only_state.at("resultType") == "input_required");
    CHECK(only_state.at("requestState") == "s");
    CHECK_FALSE(only_state.contains("inputRequests"));
    json::object requests;
    requests["q"] = input_request("elicitation/create",
        form_elicitation_params("Go?", json::object { { "type", "object" } }));
    auto full = input_required_result(requests, "");
    CHECK_FALSE(full.contains("requestState"));
    CHECK(full.at("inputRequests").at("q").at("method") == "elicitation/create");
    CHECK(full.at("inputRequests").at("q").at("params").at("mode") == "form");
    CHECK(
        full.at("inputRequests").at("q").at("params").at("requestedSchema").at("type") == "object");
}

TEST_CASE("a retry's members and an elicitation answer are read with their types checked",
    "[protocol][elicitation]")
{
    auto params
        = json::parse(R"({"inputResponses":{"q":{"action":"accept","content":{"ok":true}}},)"
                      R"("requestState":"abc"})")
              .as_object();
    auto retry = read_input_retry(&params);
    REQUIRE(retry.has_value());
    CHECK(*retry->state == "abc");
    CHECK(retry->responses->contains("q"));
    for (auto const* bad : { R"({"requestState":7})", R"({"inputResponses":[]})",
             R"({"inputResponses":{"q":"yes"}})" }) {
        auto p = json::parse(bad).as_object();
        auto read = read_input_retry(&p);
        REQUIRE_FALSE(read.has_value());
        CHECK(read.error().code == error_code::invalid_params);
    }
    auto accepted = read_elicit_answer(json::parse(R"({"action":"accept","content":{"ok":true}})"));
    REQUIRE(accepted.has_value());
    CHECK(accepted->choice == elicit_answer::action::accept);
    CHECK(accepted->content.at("ok") == true);
    CHECK(read_elicit_answer(json::parse(R"({"action":"decline"})"))->choice
        == elicit_answer::action::decline);
    CHECK_FALSE(read_elicit_answer(json::parse(R"({"action":"maybe"})")).has_value());
    CHECK_FALSE(read_elicit_answer(json::parse(R"({"content":{}})")).has_value());
    CHECK_FALSE(read_elicit_answer(json::parse(R"({"action":"accept","content":3})")).has_value());
}

TEST_CASE("a 2025 call carries what initialize declared, a 2026-07-28 call its own _meta",
    "[protocol][elicitation]")
{
    protocol_fixture f;
    auto init = f.reply_to(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{)"
                           R"("protocolVersion":"2025-11-25","capabilities":{"elicitation":)"
                           R"({"url":{}}},"clientInfo":{"name":"Desk Client","version":"1"}}})");
    REQUIRE(init.opened_session);
    auto legacy = as_call(f.send(
        R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"StoreApi_GetOrder",)"
        R"("requestState":"ignored in 2025"}})"));
    CHECK(legacy.elicitation.url);
    CHECK_FALSE(legacy.elicitation.form);
    CHECK(legacy.client_name == "Desk Client");
    CHECK(legacy.retry.empty());

    // 2026-07-28: never an earlier request's capabilities (§4).
    auto modern = as_call(f.send(
        R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"StoreApi_GetOrder",)"
        + modern_meta() + R"(,"requestState":"s1","inputResponses":{"a":{"action":"cancel"}}}})"));
    CHECK_FALSE(modern.elicitation.any());
    CHECK(modern.retry.state == std::optional<std::string>("s1"));
    auto with_form = as_call(f.send(
        R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"StoreApi_GetOrder",)"
        R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
        R"("io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}},)"
        R"("io.modelcontextprotocol/clientInfo":{"name":"Modern","version":"2"}}}})"));
    CHECK(with_form.elicitation.form);
    CHECK(with_form.client_name == "Modern");

    auto refused = f.answer(
        R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"StoreApi_GetOrder",)"
        + modern_meta() + R"(,"requestState":{"forged":true}}})");
    CHECK(refused.at("error").at("code") == error_code::invalid_params);
    CHECK(std::string(refused.at("error").at("message").as_string()).find("requestState")
        != std::string::npos);
}

TEST_CASE("an input_required reply has the result type, the state and the server's identity",
    "[protocol][elicitation]")
{
    protocol_fixture f;
    auto call = as_call(f.send(
        R"({"jsonrpc":"2.0","id":"r","method":"tools/call","params":{"name":"StoreApi_GetOrder",)"
        + modern_meta() + "}}"));
    json::object requests;
    requests["q"] = input_request("elicitation/create", json::object { { "mode", "url" } });
    auto reply = json::parse(f.dispatcher.input_required_reply(call, requests, "st")).as_object();
    CHECK(reply.at("id") == "r");
    auto const& result = reply.at("result").as_object();
    CHECK(result.at("resultType") == "input_required");
    CHECK(result.at("requestState") == "st");
    CHECK(result.at("inputRequests").at("q").at("method") == "elicitation/create");
    CHECK(result.at("_meta").as_object().contains("io.modelcontextprotocol/serverInfo"));
    // CacheableResult fields are not for tools/call (the 2026-07-28 revision of MCP).
    CHECK_FALSE(result.contains("ttlMs"));
}
