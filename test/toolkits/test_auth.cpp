// Authentication: each platform's transmission, open tools, missing and malformed secrets.
#include "executor_fixtures.hpp"
#include "toolkits/auth.hpp"
#include "toolkits/base_url.hpp"

#include <boost/json/parse.hpp>
#include <catch2/catch.hpp>

namespace json = boost::json;
namespace fx = toolgate::toolkits::fixtures;
using namespace toolgate::toolkits;

namespace {

fixed_credentials all_secrets()
{
    return fixed_credentials({
        { "STORE_ACCESS_TOKEN", "store-token-1" },
        { "ENGINE_API_KEY", "engine-key-1" },
        { "SEARCH_API_KEY", "search-key-1" },
        { "LEDGER_ACCESS_TOKEN", "ledger-token-1" },
        { "DESK_API_KEY", "desk-key-1" },
        { "DESK_SUBDOMAIN", "acme" },
        { "KANBAN_API_KEY", "kanban-key-1" },
        { "KANBAN_TOKEN", "kanban/token+1" },
        { "VECTORDB_API_KEY", "vector-key-1" },
        { "VECTORDB_SERVER_URL", "https://vectors.internal.example:8080/" },
        { "DEPLOY_ACCESS_TOKEN", "deploy-token-1" },
    });
}

prepared_request authed(toolkit_spec const& kit, tool_spec const& tool, std::string_view arguments,
    credential_source const& credentials, base_url_overrides const& overrides = {})
{
    auto built = build_request(kit, tool, json::parse(arguments).as_object(), overrides);
    REQUIRE(built.has_value());
    auto done = authenticate(kit, tool, credentials, *built);
    INFO((done ? std::string() : done.error().message));
    REQUIRE(done.has_value());
    return std::move(*built);
}

std::vector<std::string> headers_named(prepared_request const& p, std::string_view name)
{
    std::vector<std::string> values;
    for (auto const& [key, value] : p.request.headers) {
        if (key == name) {
            values.push_back(value);
        }
    }
    return values;
}

using strings = std::vector<std::string>;

} // namespace

TEST_CASE("each platform's credentials travel as its platform expects", "[toolkits][auth]")
{
    auto const secrets = all_secrets();

    SECTION("Bearer tokens")
    {
        auto [kit, tool, arguments, token, variable] = GENERATE(
            table<toolkit_spec const*, tool_spec const*, std::string, std::string, std::string>({
                { &fx::store, &fx::get_folder, R"({"folder_id":"1"})", "store-token-1",
                    "STORE_ACCESS_TOKEN" },
                { &fx::engine, &fx::list_tools, "{}", "engine-key-1", "ENGINE_API_KEY" },
                { &fx::ledger, &fx::ledger.tools[0], R"({"invoice_id":"i","tenant_id":"t"})",
                    "ledger-token-1", "LEDGER_ACCESS_TOKEN" },
                { &fx::deploy, &fx::accept_transfer,
                    R"({"mode":"execute","project_transfer_code":"c","request_body":"{}"})",
                    "deploy-token-1", "DEPLOY_ACCESS_TOKEN" },
            }));
        auto p = authed(*kit, *tool, arguments, secrets);
        CHECK(headers_named(p, "Authorization") == strings { "Bearer " + token });
        CHECK(p.request.secret_headers == strings { "authorization" });
        CHECK(p.credential_variables == strings { variable });
        CHECK(std::find(p.redactions.begin(), p.redactions.end(), token) != p.redactions.end());
    }
    SECTION("the search key as x-api-key")
    {
        auto p = authed(fx::search, fx::search.tools[0], R"({"webset_id":"w"})", secrets);
        CHECK(headers_named(p, "x-api-key") == strings { "search-key-1" });
        CHECK(headers_named(p, "Authorization").empty());
        CHECK(p.request.secret_headers == strings { "x-api-key" });
    }
    SECTION("the desk key as HTTP Basic, the account host from its subdomain")
    {
        auto p = authed(fx::desk, fx::list_assets, R"({"entries_per_page":5})", secrets);
        // base64("desk-key-1:")
        CHECK(headers_named(p, "Authorization") == strings { "Basic ZGVzay1rZXktMTo=" });
        CHECK(p.request.url == "https://acme.freshservice.com/api/v2/assets?per_page=5");
        CHECK(p.credential_variables == strings { "DESK_API_KEY" });
    }
    SECTION("the kanban key and token as query parameters")
    {
        auto p = authed(fx::kanban, fx::get_cards, R"({"card_ids":["a","b"]})", secrets);
        CHECK(p.request.url
            == "https://api.trello.com/1/cards?ids=a,b&key=kanban-key-1&token=kanban%2Ftoken%2B1");
        CHECK(p.request.secret_query == strings { "key", "token" });
        CHECK(p.request.secret_headers.empty());
        auto q = authed(fx::kanban, fx::get_cards, "{}", secrets);
        CHECK(q.request.url
            == "https://api.trello.com/1/cards?key=kanban-key-1&token=kanban%2Ftoken%2B1");
    }
    SECTION("the vector database base URL from its secret, and a Bearer key")
    {
        auto p = authed(fx::vectordb, fx::get_schema, "{}", secrets);
        CHECK(p.request.url == "https://vectors.internal.example:8080/v1/schema");
        CHECK(headers_named(p, "Authorization") == strings { "Bearer vector-key-1" });
        CHECK(headers_named(p, "consistency") == strings { "true" });
        for (auto const* hidden : { "vectors.internal.example", "vectors.internal.example:8080" }) {
            CHECK(
                std::find(p.redactions.begin(), p.redactions.end(), hidden) != p.redactions.end());
        }
    }
}

TEST_CASE("open tools send no credentials and need none", "[toolkits][auth]")
{
    fixed_credentials none;
    auto p = authed(fx::engine, fx::engine_health, "{}", none);
    CHECK(p.request.headers.empty());
    CHECK(p.request.url == "https://api.arcade.dev/v1/health");
    auto q = authed(fx::engine, fx::engine_health, "{}", all_secrets());
    CHECK(q.request.headers.empty());
}

TEST_CASE("a caller-supplied Authorization replaces the key", "[toolkits][auth]")
{
    fixed_credentials none;
    auto p = authed(fx::engine, fx::engine_projects, R"({"bearer_token":"Bearer jwt"})", none);
    CHECK(headers_named(p, "Authorization") == strings { "Bearer jwt" });
    auto q = authed(
        fx::engine, fx::engine_projects, R"({"bearer_token":"Bearer jwt"})", all_secrets());
    CHECK(headers_named(q, "Authorization") == strings { "Bearer jwt" });
}

TEST_CASE("a missing secret is a tool error naming every missing variable", "[toolkits][auth]")
{
    auto [kit, tool, arguments, expected]
        = GENERATE(table<toolkit_spec const*, tool_spec const*, std::string, std::string>({
            { &fx::store, &fx::get_folder, R"({"folder_id":"1"})",
                "StoreApi.GetFolder needs STORE_ACCESS_TOKEN, which is not set" },
            { &fx::engine, &fx::list_tools, "{}",
                "CoreEngineApi.ListTools needs ENGINE_API_KEY, which is not set" },
            { &fx::search, &fx::search.tools[0], R"({"webset_id":"w"})",
                "SearchApi.GetWebset needs SEARCH_API_KEY, which" },
            { &fx::ledger, &fx::ledger.tools[0], R"({"invoice_id":"i","tenant_id":"t"})",
                "needs LEDGER_ACCESS_TOKEN, which" },
            { &fx::desk, &fx::list_assets, "{}",
                "DeskApi.ListAssets needs DESK_API_KEY and DESK_SUBDOMAIN, which are not set" },
            { &fx::kanban, &fx::get_cards, "{}",
                "needs KANBAN_API_KEY and KANBAN_TOKEN, which are" },
            { &fx::vectordb, &fx::get_schema, "{}",
                "needs VECTORDB_API_KEY and VECTORDB_SERVER_URL, which are" },
            { &fx::deploy, &fx::accept_transfer,
                R"({"mode":"execute","project_transfer_code":"c","request_body":"{}"})",
                "needs DEPLOY_ACCESS_TOKEN, which" },
        }));
    fixed_credentials none;
    auto built = build_request(*kit, *tool, json::parse(arguments).as_object(), {});
    REQUIRE(built.has_value());
    auto done = authenticate(*kit, *tool, none, *built);
    REQUIRE_FALSE(done.has_value());
    CHECK_THAT(
        done.error().message, Catch::Contains(expected) && Catch::Contains("nothing was sent"));
}

TEST_CASE("only the missing one of two secrets is named", "[toolkits][auth]")
{
    fixed_credentials half;
    half.set("KANBAN_API_KEY", "kanban-key-1");
    auto built = build_request(fx::kanban, fx::get_cards, {}, {});
    REQUIRE(built.has_value());
    auto done = authenticate(fx::kanban, fx::get_cards, half, *built);
    REQUIRE_FALSE(done.has_value());
    CHECK_THAT(done.error().message,
        Catch::Contains("needs KANBAN_TOKEN, which is not set")
            && !Catch::Contains("KANBAN_API_KEY"));
}

TEST_CASE("an unusable host secret is refused without showing it", "[toolkits][auth]")
{
    auto [kit, tool, variable, value]
        = GENERATE(table<toolkit_spec const*, tool_spec const*, std::string, std::string>({
            { &fx::desk, &fx::list_assets, "DESK_SUBDOMAIN", "evil.example/x" },
            { &fx::desk, &fx::list_assets, "DESK_SUBDOMAIN", "acme.freshservice.com" },
            { &fx::vectordb, &fx::get_schema, "VECTORDB_SERVER_URL", "ftp://hidden-host" },
            { &fx::vectordb, &fx::get_schema, "VECTORDB_SERVER_URL", "hidden-host:8080" },
            { &fx::vectordb, &fx::get_schema, "VECTORDB_SERVER_URL",
                "https://user:pw@hidden-host" },
        }));
    auto secrets = all_secrets();
    secrets.set(variable, value);
    auto built = build_request(*kit, *tool, {}, {});
    REQUIRE(built.has_value());
    auto done = authenticate(*kit, *tool, secrets, *built);
    REQUIRE_FALSE(done.has_value());
    CHECK_THAT(done.error().message,
        Catch::Contains(std::string(kit->name)) && Catch::Contains(variable)
            && !Catch::Contains(value) && !Catch::Contains("hidden-host")
            && !Catch::Contains("evil"));
}

TEST_CASE("a base-URL override removes the need for the base URL secret", "[toolkits][auth]")
{
    base_url_overrides overrides;
    overrides.set(*make_base_url_override("VectorDbApi", "https://127.0.0.1:9443"));
    fixed_credentials key_only;
    key_only.set("VECTORDB_API_KEY", "vector-key-1");
    auto p = authed(fx::vectordb, fx::get_schema, "{}", key_only, overrides);
    CHECK(p.request.url == "https://127.0.0.1:9443/schema");
    CHECK(headers_named(p, "Authorization") == strings { "Bearer vector-key-1" });
}

TEST_CASE("plain http:// is insecure unless the host is a loopback address", "[toolkits][auth]")
{
    CHECK_FALSE(is_insecure_remote_url("http://127.0.0.1:9/x"));
    CHECK_FALSE(is_insecure_remote_url("http://127.8.9.10"));
    CHECK_FALSE(is_insecure_remote_url("http://LocalHost:8080"));
    CHECK_FALSE(is_insecure_remote_url("http://[::1]:9"));
    CHECK_FALSE(is_insecure_remote_url("https://deploy.example.test")); // encrypted
    CHECK(is_insecure_remote_url("http://deploy.example.test"));
    CHECK(is_insecure_remote_url("http://10.0.0.1"));
    // Names that merely look like loopback resolve wherever their owner says.
    CHECK(is_insecure_remote_url("http://127.evil.example"));
    CHECK(is_insecure_remote_url("http://localhost.evil.example"));
}

TEST_CASE("the environment is the default credential source", "[toolkits][auth]")
{
    ::setenv("TOOLGATE_TEST_SECRET_X", "value-x", 1);
    ::setenv("TOOLGATE_TEST_SECRET_EMPTY", "", 1);
    environment_credentials env;
    CHECK(env.find("TOOLGATE_TEST_SECRET_X") == std::optional<std::string>("value-x"));
    CHECK_FALSE(env.find("TOOLGATE_TEST_SECRET_EMPTY"));
    CHECK_FALSE(env.find("TOOLGATE_TEST_SECRET_ABSENT"));
}
