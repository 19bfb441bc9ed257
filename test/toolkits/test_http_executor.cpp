// The HTTP executor end to end against a fake outbound client: what is sent, what is not,
// and what comes back.
#include "executor_fixtures.hpp"
#include "fake_outbound.hpp"
#include "toolkits/http_executor.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <catch2/catch.hpp>

namespace json = boost::json;
namespace fx = toolgate::toolkits::fixtures;
using namespace toolgate::toolkits;
using toolgate::toolkits::testing::fake_outbound;
using toolgate::toolkits::testing::run_call;
using toolgate::transport::outbound_failure;

namespace {

json::object args(std::string_view text)
{
    return json::parse(text).as_object();
}

fixed_credentials test_secrets()
{
    return fixed_credentials({ { "STORE_ACCESS_TOKEN", "store-token-1" },
        { "ENGINE_API_KEY", "engine-key-1" }, { "DEPLOY_ACCESS_TOKEN", "deploy-token-1" },
        { "DESK_API_KEY", "desk-key-1" }, { "DESK_SUBDOMAIN", "acme" } });
}

std::string const& text_of(toolgate::protocol::call_result const& r)
{
    REQUIRE(r.content.size() == 1);
    return r.content[0].text;
}

} // namespace

TEST_CASE("a call is built, authenticated, sent once and shaped", "[toolkits][executor]")
{
    fake_outbound outbound;
    auto secrets = test_secrets();
    http_executor executor(outbound, secrets, {});
    outbound.script.push_back(fake_outbound::answer(200, "application/json", "{\"id\": \"7\"}"));

    auto r = run_call(
        executor, fx::store, fx::get_folder, args(R"({"folder_id":"7","fields":["a","b"]})"));
    CHECK_FALSE(r.is_error);
    CHECK(text_of(r) == R"({"id":"7"})");
    REQUIRE(outbound.sent.size() == 1);
    auto const& sent = outbound.sent[0];
    CHECK(sent.method == "GET");
    CHECK(sent.url == "https://api.box.com/2.0/folders/7?fields=a,b");
    CHECK(sent.headers
        == toolgate::transport::header_list {
            { "box-version", "2024.0" }, { "Authorization", "Bearer store-token-1" } });
    CHECK(sent.secret_headers == std::vector<std::string> { "authorization" });
}

TEST_CASE("prepare shows the request a call would send", "[toolkits][executor]")
{
    fake_outbound outbound;
    auto secrets = test_secrets();
    http_executor executor(outbound, secrets, {});
    auto prepared = executor.prepare(fx::desk, fx::list_assets, args(R"({"entries_per_page":2})"));
    REQUIRE(prepared.has_value());
    CHECK(prepared->request.url == "https://acme.freshservice.com/api/v2/assets?per_page=2");
    CHECK(outbound.sent.empty());
    run_call(executor, fx::desk, fx::list_assets, args(R"({"entries_per_page":2})"));
    REQUIRE(outbound.sent.size() == 1);
    CHECK(outbound.sent[0].url == prepared->request.url);
    CHECK(outbound.sent[0].headers == prepared->request.headers);
}

TEST_CASE("refused calls send nothing", "[toolkits][executor]")
{
    fake_outbound outbound;
    fixed_credentials secrets = test_secrets();
    http_executor executor(outbound, secrets, {});

    SECTION("M-tool schema request")
    {
        auto r = run_call(
            executor, fx::engine, fx::execute_tool, args(R"({"mode":"get_request_schema"})"));
        CHECK_FALSE(r.is_error);
        CHECK(text_of(r) == fx::execute_tool.request_body_schema);
    }
    SECTION("M-tool with invalid JSON")
    {
        auto r = run_call(executor, fx::engine, fx::execute_tool,
            args(R"({"mode":"execute","request_body":"{\"tool_name\": }"})"));
        CHECK(r.is_error);
        CHECK_THAT(text_of(r), Catch::Contains("line 1, column 15"));
    }
    SECTION("header injection")
    {
        auto r = run_call(executor, fx::store, fx::update_file,
            args(R"({"file_id":"1","etag":"x\r\nX-Injected: 1"})"));
        CHECK(r.is_error);
        CHECK_THAT(text_of(r), Catch::Contains("`etag`"));
    }
    SECTION("missing secret")
    {
        fixed_credentials none;
        http_executor bare(outbound, none, {});
        auto [kit, tool, arguments, variable]
            = GENERATE(table<toolkit_spec const*, tool_spec const*, std::string, std::string>({
                { &fx::store, &fx::get_folder, R"({"folder_id":"1"})", "STORE_ACCESS_TOKEN" },
                { &fx::engine, &fx::list_tools, "{}", "ENGINE_API_KEY" },
                { &fx::search, &fx::search.tools[0], R"({"webset_id":"w"})", "SEARCH_API_KEY" },
                { &fx::ledger, &fx::ledger.tools[0], R"({"invoice_id":"i","tenant_id":"t"})",
                    "LEDGER_ACCESS_TOKEN" },
                { &fx::desk, &fx::list_assets, "{}", "DESK_SUBDOMAIN" },
                { &fx::kanban, &fx::get_cards, "{}", "KANBAN_TOKEN" },
                { &fx::vectordb, &fx::get_schema, "{}", "VECTORDB_SERVER_URL" },
                { &fx::deploy, &fx::accept_transfer,
                    R"({"mode":"execute","project_transfer_code":"c","request_body":"{}"})",
                    "DEPLOY_ACCESS_TOKEN" },
            }));
        auto r = run_call(bare, *kit, *tool, args(arguments));
        CHECK(r.is_error);
        CHECK_THAT(text_of(r), Catch::Contains(variable) && Catch::Contains("nothing was sent"));
    }
    CHECK(outbound.sent.empty());
}

TEST_CASE("open tools are sent without credentials", "[toolkits][executor]")
{
    fake_outbound outbound;
    fixed_credentials none;
    http_executor executor(outbound, none, {});
    auto r = run_call(executor, fx::engine, fx::engine_health, {});
    CHECK_FALSE(r.is_error);
    REQUIRE(outbound.sent.size() == 1);
    CHECK(outbound.sent[0].headers.empty());
}

TEST_CASE("a base-URL override sends every host's tools to the replacement", "[toolkits][executor]")
{
    fake_outbound outbound;
    auto secrets = test_secrets();
    base_url_overrides overrides;
    overrides.set(*parse_base_url_override("StoreApi=https://127.0.0.1:8443/base"));
    http_executor executor(outbound, secrets, overrides);
    run_call(executor, fx::store, fx::get_folder, args(R"({"folder_id":"1"})"));
    run_call(executor, fx::store, fx::abort_upload, args(R"({"upload_session_id":"u"})"));
    run_call(executor, fx::store, fx::download_zip, args(R"({"zip_download_id":"z"})"));
    REQUIRE(outbound.sent.size() == 3);
    CHECK(outbound.sent[0].url == "https://127.0.0.1:8443/base/folders/1");
    CHECK(outbound.sent[1].url == "https://127.0.0.1:8443/base/files/upload_sessions/u");
    CHECK(outbound.sent[2].url == "https://127.0.0.1:8443/base/zip_downloads/z/content");
}

TEST_CASE("platform errors and failures come back as tool errors", "[toolkits][executor]")
{
    fake_outbound outbound;
    auto secrets = test_secrets();
    http_executor executor(outbound, secrets, {});
    outbound.script.push_back(
        fake_outbound::answer(404, "application/json", R"({"code":"not_found"})"));
    outbound.script.push_back(
        fake_outbound::failure(outbound_failure::timeout, "api.box.com:443 after 60 s"));

    auto missing = run_call(executor, fx::store, fx::get_folder, args(R"({"folder_id":"9"})"));
    CHECK(missing.is_error);
    CHECK_THAT(text_of(missing), Catch::Contains("404") && Catch::Contains("folder_id = `9`"));
    auto slow = run_call(executor, fx::store, fx::get_folder, args(R"({"folder_id":"9"})"));
    CHECK(slow.is_error);
    CHECK_THAT(text_of(slow), Catch::Contains("deadline") && Catch::Contains("after 60 s"));
    CHECK(outbound.sent.size() == 2);
}

TEST_CASE("review 9: answers past the memory budget are refused while others are held",
    "[toolkits][executor][review]")
{
    fake_outbound outbound;
    auto secrets = test_secrets();
    execution_options limits;
    limits.answer_budget_bytes = 1000;
    http_executor executor(outbound, secrets, {}, shaping_options {}, limits);
    std::string const big = R"({"blob":")" + std::string(600, 'x') + R"("})";
    outbound.script.push_back(fake_outbound::answer(200, "application/json", big));
    outbound.script.push_back(fake_outbound::answer(200, "application/json", big));
    outbound.script.push_back(fake_outbound::answer(200, "application/json", big));

    auto first = run_call(executor, fx::store, fx::get_folder, args(R"({"folder_id":"1"})"));
    CHECK_FALSE(first.is_error); // alone, even a large answer goes through
    auto second = run_call(executor, fx::store, fx::get_folder, args(R"({"folder_id":"2"})"));
    CHECK(second.is_error); // the first result is still alive and holds its share
    CHECK_THAT(text_of(second), Catch::Contains("memory budget"));
    first = {}; // sent and gone: its share comes back
    auto third = run_call(executor, fx::store, fx::get_folder, args(R"({"folder_id":"3"})"));
    CHECK_FALSE(third.is_error);
}

TEST_CASE("review 14: the toolkit's own credentials are masked in a successful answer",
    "[toolkits][executor][review]")
{
    fake_outbound outbound;
    auto secrets = test_secrets();
    http_executor executor(outbound, secrets, {});
    // A platform that echoes the request, query credentials and all.
    outbound.script.push_back(fake_outbound::answer(200, "application/json",
        R"({"self":"https://api.box.com/2.0/folders/7?access=store-token-1","note":"ok"})"));
    auto r = run_call(executor, fx::store, fx::get_folder, args(R"({"folder_id":"7"})"));
    CHECK_FALSE(r.is_error);
    CHECK(text_of(r).find("store-token-1") == std::string::npos);
    CHECK_THAT(text_of(r), Catch::Contains("access=***"));
    REQUIRE(r.structured);
    CHECK(r.structured->at("note") == "ok");
    CHECK(json::serialize(*r.structured).find("store-token-1") == std::string::npos);
}
