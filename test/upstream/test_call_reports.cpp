// What a call reports while it runs (issue 17 item 2), through the real stack to the fake
// platform: a log line per platform request with method, masked host and path, status and
// time; retry waits and refusals; progress while it takes longer than a second; nothing
// reported when the client asked for nothing, and never a secret.
#include "tool_calls.hpp"
#include "toolkits/call_reporter.hpp"
#include "toolkits/catalogue.hpp"
#include "upstream_stack.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <catch2/catch.hpp>

using namespace toolgate;
using namespace toolgate::upstream_test;
using namespace std::chrono_literals;
namespace json = boost::json;
using toolkits::log_level;

namespace {

json::object generated(std::string_view qualified)
{
    auto ref = toolkits::find_tool(qualified);
    REQUIRE(ref.has_value());
    return make_arguments(*ref->toolkit, *ref->tool, variant::required_only);
}

std::string message_of(recording_context::log_note const& note)
{
    return std::string(note.data.at("message").as_string());
}

/// Every log message and progress message, one per line, for INFO and secret checks.
std::string everything_reported(recording_context const& c)
{
    std::string out;
    for (auto const& note : c.logs()) {
        out += note.logger + " " + json::serialize(note.data) + "\n";
    }
    for (auto const& p : c.progress()) {
        out += std::to_string(p.progress) + " " + p.message + "\n";
    }
    return out;
}

} // namespace

TEST_CASE("each platform request is logged with method, host and path, status and time",
    "[upstream][reports]")
{
    upstream_stack s;
    s.context.reporting_on = true;
    auto result = s.call("KanbanApi.GetKanbanBoard", generated("KanbanApi.GetKanbanBoard"));
    REQUIRE_FALSE(result.is_error);
    INFO(everything_reported(s.context));
    auto const logs = s.context.logs();
    REQUIRE(logs.size() == 2); // sending (debug), answered (info)
    CHECK(logs[0].level == log_level::debug);
    auto const& answered = logs[1];
    CHECK(answered.level == log_level::info);
    CHECK(answered.logger == "KanbanApi.GetKanbanBoard");
    CHECK(answered.data.at("method") == "GET");
    CHECK(answered.data.at("status") == 200);
    CHECK(answered.data.at("ms").to_number<std::int64_t>() >= 0);
    auto const target = std::string(answered.data.at("target").as_string());
    CHECK_THAT(target, Catch::StartsWith("127.0.0.1:") && Catch::Contains("/KanbanApi/"));
    // The key and token travel in the query, which is never shown.
    CHECK(target.find('?') == std::string::npos);
    CHECK_THAT(
        message_of(answered), Catch::StartsWith("GET 127.0.0.1:") && Catch::Contains(": 200 in "));
    CHECK_FALSE(leaks_secret(everything_reported(s.context)));
    CHECK(s.context.progress().empty()); // a quick call shows no progress
}

TEST_CASE("a Retry-After wait is logged as a warning and shown as progress at once",
    "[upstream][reports]")
{
    upstream_stack s;
    s.context.reporting_on = true;
    s.fake.push({ 429, { { "Retry-After", "1" } }, "{}" });
    auto result = s.call("StoreApi.GetFolderDetails", generated("StoreApi.GetFolderDetails"));
    REQUIRE_FALSE(result.is_error);
    INFO(everything_reported(s.context));
    auto const logs = s.context.logs();
    auto const wait = std::find_if(logs.begin(), logs.end(),
        [](auto const& n) { return n.data.as_object().contains("wait_ms"); });
    REQUIRE(wait != logs.end());
    CHECK(wait->level == log_level::warning);
    CHECK(wait->data.at("wait_ms") == 1000);
    CHECK(wait->data.at("retry_after") == true);
    CHECK_THAT(message_of(*wait),
        Catch::Contains("waiting 1 s before attempt 2 of 3") && Catch::Contains("Retry-After"));
    // The 429 (a warning, before the wait) and the 200 after it are both there.
    std::vector<std::pair<std::int64_t, log_level>> statuses;
    for (auto const& n : logs) {
        if (auto const* status = n.data.as_object().if_contains("status")) {
            statuses.emplace_back(status->to_number<std::int64_t>(), n.level);
        }
    }
    CHECK(statuses
        == std::vector<std::pair<std::int64_t, log_level>> {
            { 429, log_level::warning }, { 200, log_level::info } });
    auto const progress = s.context.progress();
    REQUIRE_FALSE(progress.empty());
    CHECK_THAT(progress.front().message, Catch::Contains("waiting 1 s"));
    for (std::size_t i = 1; i < progress.size(); ++i) {
        CHECK(progress[i].progress > progress[i - 1].progress);
    }
}

TEST_CASE(
    "a slow answer shows progress each second naming what it waits for", "[upstream][reports]")
{
    upstream_stack s;
    s.context.reporting_on = true;
    test::fake_response slow;
    slow.delay = 2500ms;
    s.fake.push(slow);
    auto result = s.call("StoreApi.GetFolderDetails", generated("StoreApi.GetFolderDetails"));
    REQUIRE_FALSE(result.is_error);
    auto const progress = s.context.progress();
    INFO(everything_reported(s.context));
    REQUIRE(progress.size() >= 2); // at about 1 s and 2 s
    CHECK(progress.size() <= 3);
    CHECK(progress[0].progress >= 1.0);
    CHECK(progress[1].progress > progress[0].progress);
    CHECK_THAT(progress[0].message,
        Catch::StartsWith("StoreApi.GetFolderDetails: waiting for "
                          "127.0.0.1:")
            && Catch::Contains("/StoreApi/"));
    // Nothing after the call ended.
    auto const count = progress.size();
    s.ioc.restart();
    s.ioc.run_for(1500ms);
    CHECK(s.context.progress().size() == count);
}

TEST_CASE("a refusal before sending is logged with its reason", "[upstream][reports]")
{
    SECTION("arguments")
    {
        upstream_stack s;
        s.context.reporting_on = true;
        auto result = s.call("StoreApi.GetFolderDetails", json::object {});
        CHECK(result.is_error);
        auto const logs = s.context.logs();
        REQUIRE(logs.size() == 1);
        CHECK(logs[0].level == log_level::warning);
        CHECK(logs[0].logger == "StoreApi.GetFolderDetails");
        CHECK_THAT(message_of(logs[0]),
            Catch::StartsWith("not sent: ") && Catch::Contains("folder_unique_identifier"));
    }
    SECTION("a missing credential")
    {
        upstream_stack s(stack_options(), {});
        s.context.reporting_on = true;
        auto result = s.call("KanbanApi.GetKanbanBoard", generated("KanbanApi.GetKanbanBoard"));
        CHECK(result.is_error);
        auto const logs = s.context.logs();
        REQUIRE(logs.size() == 1);
        CHECK_THAT(message_of(logs[0]),
            Catch::StartsWith("not sent: ") && Catch::Contains("KANBAN_API_KEY"));
        CHECK(s.fake.request_count() == 0);
    }
}

TEST_CASE("the host a secret holds is masked in what a call reports", "[upstream][reports]")
{
    // VectorDbApi's base is the secret VECTORDB_SERVER_URL (here pointed at the fake).
    upstream_stack s(stack_options(), fake_secrets(), {}, { "VectorDbApi" });
    s.credentials.set("VECTORDB_SERVER_URL", s.fake.url(""));
    s.context.reporting_on = true;
    auto result = s.call("VectorDbApi.RetrieveDatabaseSchema", {});
    REQUIRE_FALSE(result.is_error);
    auto const reported = everything_reported(s.context);
    INFO(reported);
    CHECK_THAT(reported, Catch::Contains("***/v1/schema"));
    CHECK(reported.find("127.0.0.1") == std::string::npos);
}

TEST_CASE("a client that asked for nothing gets nothing reported", "[upstream][reports]")
{
    upstream_stack s; // reporting_on stays false
    s.fake.push({ 429, { { "Retry-After", "0" } }, "{}" });
    CHECK_FALSE(
        s.call("StoreApi.GetFolderDetails", generated("StoreApi.GetFolderDetails")).is_error);
    CHECK(s.call("StoreApi.GetFolderDetails", json::object {}).is_error);
    CHECK(s.context.logs().empty());
    CHECK(s.context.progress().empty());
}

TEST_CASE("outbound events read as a person debugging wants them", "[upstream][reports]")
{
    transport::outbound_event e;
    e.method = "POST";
    e.where = "api.example.test/v1/items";
    e.status = 201;
    e.elapsed = 182ms;
    auto line = toolkits::describe(e);
    CHECK(line.level == log_level::info);
    CHECK(line.message == "POST api.example.test/v1/items: 201 in 182 ms");

    e.status = 404;
    CHECK(toolkits::describe(e).level == log_level::notice);
    e.status = 503;
    e.attempt = 2;
    e.max_attempts = 3;
    line = toolkits::describe(e);
    CHECK(line.level == log_level::warning);
    CHECK_THAT(line.message, Catch::EndsWith("(attempt 2 of 3)"));

    e.what = transport::outbound_event::kind::failed;
    e.failure = "connect";
    line = toolkits::describe(e);
    CHECK(line.level == log_level::error);
    CHECK_THAT(line.message, Catch::Contains("no answer (connect)"));

    e.retrying = true;
    line = toolkits::describe(e);
    CHECK(line.level == log_level::info); // sent again at once: not an error yet
    CHECK_THAT(line.message, Catch::EndsWith("; sending again"));
    e.retrying = false;

    e.what = transport::outbound_event::kind::retry_skipped;
    e.wait = 120s;
    e.retry_after = true;
    line = toolkits::describe(e);
    CHECK(line.level == log_level::warning);
    CHECK_THAT(line.message,
        Catch::Contains("wait 120 s (Retry-After)") && Catch::Contains("without a retry"));

    e.what = transport::outbound_event::kind::retry_wait;
    e.wait = 1500ms;
    e.retry_after = false;
    CHECK_THAT(toolkits::describe(e).message,
        Catch::Contains("waiting 1.5 s before attempt 2 of 3") && !Catch::Contains("Retry-After"));
}

TEST_CASE("a GET whose connection closes unanswered and is sent again logs no error",
    "[upstream][reports]")
{
    upstream_stack s;
    s.context.reporting_on = true;
    test::fake_response closed;
    closed.action = test::fake_action::close;
    s.fake.push(closed);
    auto result = s.call("StoreApi.GetFolderDetails", generated("StoreApi.GetFolderDetails"));
    REQUIRE_FALSE(result.is_error);
    INFO(everything_reported(s.context));
    auto const logs = s.context.logs();
    for (auto const& note : logs) {
        CHECK(note.level < log_level::warning);
    }
    auto const again = std::count_if(logs.begin(), logs.end(),
        [](auto const& n) { return message_of(n).ends_with("; sending again"); });
    CHECK(again == 1);
    CHECK(s.fake.request_count() == 2);
}
