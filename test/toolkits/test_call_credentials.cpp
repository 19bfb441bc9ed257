// Issue 14 in the executor: a call's own credentials, OAuth access tokens from a token source
// (configured values win; one renewal and retry after a 401), credential-header arguments that
// may be left out, and failures on a host a secret names pointing at the variable.
#include "executor_fixtures.hpp"
#include "fake_outbound.hpp"
#include "toolkits/catalogue.hpp"
#include "toolkits/http_executor.hpp"
#include "toolkits/validate.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>
#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>

namespace json = boost::json;
namespace fx = toolgate::toolkits::fixtures;
using namespace toolgate::toolkits;
using toolgate::toolkits::testing::fake_outbound;
using toolgate::transport::outbound_failure;

namespace {

json::object args(std::string_view text)
{
    return json::parse(text).as_object();
}

/// Answers from a script and records what it was asked.
class fake_tokens final : public token_source {
public:
    std::vector<std::pair<std::string, std::string>> asked; ///< toolkit, refused token
    std::deque<token_answer> answers;

    boost::asio::awaitable<token_answer> access_token(
        std::string toolkit, std::string refused) override
    {
        asked.emplace_back(std::move(toolkit), std::move(refused));
        if (answers.empty()) {
            co_return token_answer {};
        }
        auto next = answers.front();
        answers.pop_front();
        co_return next;
    }
};

token_answer token(std::string value)
{
    return { token_answer::kind::token, std::move(value) };
}

/// A call context that brings its own credentials (or none).
class credentials_context final : public call_context {
public:
    explicit credentials_context(call_credentials const* given)
        : given_(given)
    {
    }
    void report_progress(double, std::optional<double>, std::string_view) override { }
    void log(log_level, std::string_view, boost::json::value) override { }
    std::string_view protocol_version() const override { return "2025-11-25"; }
    call_credentials const* credentials() const override { return given_; }

private:
    call_credentials const* given_;
};

toolgate::protocol::call_result call(http_executor& executor, toolkit_spec const& kit,
    tool_spec const& tool, json::object arguments, call_credentials const* given = nullptr)
{
    boost::asio::io_context io;
    credentials_context context(given);
    std::optional<toolgate::protocol::call_result> result;
    boost::asio::co_spawn(io, executor.execute(kit, tool, std::move(arguments), context),
        [&](std::exception_ptr e, toolgate::protocol::call_result r) {
            REQUIRE_FALSE(e);
            result = std::move(r);
        });
    io.run_for(std::chrono::seconds(2));
    REQUIRE(result.has_value());
    return std::move(*result);
}

std::string header_of(toolgate::transport::outbound_request const& request, std::string_view name)
{
    for (auto const& [key, value] : request.headers) {
        if (key == name) {
            return value;
        }
    }
    return {};
}

std::string text_of(toolgate::protocol::call_result const& r)
{
    REQUIRE(r.content.size() == 1);
    return r.content[0].text;
}

} // namespace

TEST_CASE("an OAuth toolkit's access token comes from the token source when none is configured",
    "[toolkits][credentials]")
{
    fake_outbound outbound;
    fixed_credentials none;
    auto tokens = std::make_shared<fake_tokens>();
    tokens->answers.push_back(token("stored-token-1"));
    http_executor executor(outbound, none, {}, {}, {}, tokens);

    auto r = call(executor, fx::store, fx::get_folder, args(R"({"folder_id":"7"})"));
    CHECK_FALSE(r.is_error);
    REQUIRE(outbound.sent.size() == 1);
    CHECK(header_of(outbound.sent[0], "Authorization") == "Bearer stored-token-1");
    REQUIRE(tokens->asked.size() == 1);
    CHECK(tokens->asked[0] == std::pair<std::string, std::string> { "StoreApi", "" });
    // The stored token is masked in logs like any configured secret.
    CHECK(std::find(outbound.sent[0].log_redactions.begin(), outbound.sent[0].log_redactions.end(),
              "stored-token-1")
        != outbound.sent[0].log_redactions.end());
}

TEST_CASE("a configured access token wins over the token store", "[toolkits][credentials]")
{
    fake_outbound outbound;
    fixed_credentials configured(fixed_credentials::map { { "STORE_ACCESS_TOKEN", "env-token" } });
    auto tokens = std::make_shared<fake_tokens>();
    tokens->answers.push_back(token("stored-token-1"));
    http_executor executor(outbound, configured, {}, {}, {}, tokens);
    call(executor, fx::store, fx::get_folder, args(R"({"folder_id":"7"})"));
    REQUIRE(outbound.sent.size() == 1);
    CHECK(header_of(outbound.sent[0], "Authorization") == "Bearer env-token");
    CHECK(tokens->asked.empty());
    // Toolkits without OAuth never ask.
    call(executor, fx::engine, fx::engine_tools[0], args("{}"));
    CHECK(tokens->asked.empty());
}

TEST_CASE("a 401 to a stored token renews it once and sends again", "[toolkits][credentials]")
{
    fake_outbound outbound;
    fixed_credentials none;
    auto tokens = std::make_shared<fake_tokens>();
    tokens->answers.push_back(token("old-token"));
    tokens->answers.push_back(token("new-token"));
    http_executor executor(outbound, none, {}, {}, {}, tokens);

    SECTION("the retry succeeds")
    {
        outbound.script.push_back(fake_outbound::answer(401, "application/json", "{}"));
        outbound.script.push_back(fake_outbound::answer(200, "application/json", R"({"id":"7"})"));
        auto r = call(executor, fx::store, fx::get_folder, args(R"({"folder_id":"7"})"));
        CHECK_FALSE(r.is_error);
        CHECK(text_of(r) == R"({"id":"7"})");
        REQUIRE(outbound.sent.size() == 2);
        CHECK(header_of(outbound.sent[0], "Authorization") == "Bearer old-token");
        CHECK(header_of(outbound.sent[1], "Authorization") == "Bearer new-token");
        REQUIRE(tokens->asked.size() == 2);
        CHECK(tokens->asked[1] == std::pair<std::string, std::string> { "StoreApi", "old-token" });
    }
    SECTION("a second 401 is the answer: no loop")
    {
        outbound.script.push_back(fake_outbound::answer(401, "application/json", "{}"));
        outbound.script.push_back(fake_outbound::answer(401, "application/json", "{}"));
        auto r = call(executor, fx::store, fx::get_folder, args(R"({"folder_id":"7"})"));
        CHECK(r.is_error);
        CHECK(text_of(r).find("HTTP 401") != std::string::npos);
        CHECK(outbound.sent.size() == 2);
        CHECK(tokens->asked.size() == 2);
    }
    SECTION("no new token: the 401 is the answer, sent once")
    {
        tokens->answers.back() = token("old-token");
        outbound.script.push_back(fake_outbound::answer(401, "application/json", "{}"));
        auto r = call(executor, fx::store, fx::get_folder, args(R"({"folder_id":"7"})"));
        CHECK(r.is_error);
        CHECK(outbound.sent.size() == 1);
    }
}

TEST_CASE("a 401 to a configured token is not retried", "[toolkits][credentials]")
{
    fake_outbound outbound;
    fixed_credentials configured(fixed_credentials::map { { "STORE_ACCESS_TOKEN", "env-token" } });
    auto tokens = std::make_shared<fake_tokens>();
    http_executor executor(outbound, configured, {}, {}, {}, tokens);
    outbound.script.push_back(fake_outbound::answer(401, "application/json", "{}"));
    auto r = call(executor, fx::store, fx::get_folder, args(R"({"folder_id":"7"})"));
    CHECK(r.is_error);
    CHECK(outbound.sent.size() == 1);
    CHECK(tokens->asked.empty());
}

TEST_CASE("a failed renewal is the tool error and nothing is sent", "[toolkits][credentials]")
{
    fake_outbound outbound;
    fixed_credentials none;
    auto tokens = std::make_shared<fake_tokens>();
    tokens->answers.push_back({ token_answer::kind::failed,
        "StoreApi: the sign-in is no longer valid (invalid_grant); run "
        "`toolgate auth login StoreApi`" });
    http_executor executor(outbound, none, {}, {}, {}, tokens);
    auto r = call(executor, fx::store, fx::get_folder, args(R"({"folder_id":"7"})"));
    CHECK(r.is_error);
    CHECK(text_of(r).find("toolgate auth login StoreApi") != std::string::npos);
    CHECK(outbound.sent.empty());
}

TEST_CASE("without a sign-in the missing token's error offers one", "[toolkits][credentials]")
{
    fake_outbound outbound;
    fixed_credentials none;
    auto tokens = std::make_shared<fake_tokens>();
    http_executor executor(outbound, none, {}, {}, {}, tokens);
    auto r = call(executor, fx::store, fx::get_folder, args(R"({"folder_id":"7"})"));
    CHECK(r.is_error);
    CHECK(text_of(r).find("STORE_ACCESS_TOKEN") != std::string::npos);
    CHECK(text_of(r).find("toolgate auth login StoreApi") != std::string::npos);
    CHECK(outbound.sent.empty());

    // A caller that may not use the server's sign-ins is not told to sign the server in.
    auto const asked_before = tokens->asked.size();
    call_credentials own { std::make_shared<layered_credentials const>(
                               std::vector<std::shared_ptr<credential_source const>> {},
                               "add it to this client's credentials"),
        nullptr };
    auto r2 = call(executor, fx::store, fx::get_folder, args(R"({"folder_id":"7"})"), &own);
    CHECK(text_of(r2).find("add it to this client's credentials") != std::string::npos);
    CHECK(text_of(r2).find("auth login") == std::string::npos);
    CHECK(tokens->asked.size() == asked_before);
}

TEST_CASE("a call's own credentials replace the server's", "[toolkits][credentials]")
{
    fake_outbound outbound;
    fixed_credentials server(fixed_credentials::map { { "STORE_ACCESS_TOKEN", "server-token" } });
    http_executor executor(outbound, server, {}, {});
    auto mine = std::make_shared<fixed_credentials const>(
        fixed_credentials::map { { "STORE_ACCESS_TOKEN", "client-token" } });
    call_credentials own { std::make_shared<layered_credentials const>(
                               std::vector<std::shared_ptr<credential_source const>> { mine }),
        nullptr };
    call(executor, fx::store, fx::get_folder, args(R"({"folder_id":"7"})"), &own);
    call(executor, fx::store, fx::get_folder, args(R"({"folder_id":"7"})"));
    REQUIRE(outbound.sent.size() == 2);
    CHECK(header_of(outbound.sent[0], "Authorization") == "Bearer client-token");
    CHECK(header_of(outbound.sent[1], "Authorization") == "Bearer server-token");
}

TEST_CASE("layers answer in order and an overlay sets one variable", "[toolkits][credentials]")
{
    auto first = std::make_shared<fixed_credentials const>(fixed_credentials::map { { "A", "1" } });
    auto second = std::make_shared<fixed_credentials const>(
        fixed_credentials::map { { "A", "2" }, { "B", "2" }, { "C", "" } });
    layered_credentials layers({ first, second });
    CHECK(layers.find("A") == "1");
    CHECK(layers.find("B") == "2");
    CHECK_FALSE(layers.find("C").has_value()); // empty counts as not set
    CHECK_FALSE(layers.find("D").has_value());
    overlay_credentials overlay(layers, "B", "3");
    CHECK(overlay.find("B") == "3");
    CHECK(overlay.find("A") == "1");
}

TEST_CASE("third review 1: the first layer with any of a toolkit's secrets supplies all of them",
    "[toolkits][credentials]")
{
    auto client = std::make_shared<fixed_credentials const>(
        fixed_credentials::map { { "VECTORDB_SERVER_URL", "https://client.example.test" },
            { "KANBAN_API_KEY", "client-kanban-key" } });
    auto server = std::make_shared<fixed_credentials const>(
        fixed_credentials::map { { "VECTORDB_SERVER_URL", "https://server.example.test" },
            { "VECTORDB_API_KEY", "server-vector-key" }, { "KANBAN_API_KEY", "server-kanban-key" },
            { "KANBAN_TOKEN", "server-kanban-token" }, { "DEPLOY_ACCESS_TOKEN", "server-deploy" },
            { "UNRELATED", "server-value" } });
    layered_credentials layers({ client, server });
    CHECK(layers.find("VECTORDB_SERVER_URL") == "https://client.example.test");
    CHECK_FALSE(layers.find("VECTORDB_API_KEY").has_value()); // never the server's
    CHECK(layers.find("KANBAN_API_KEY") == "client-kanban-key");
    CHECK_FALSE(layers.find("KANBAN_TOKEN").has_value());
    // Toolkits the client supplies nothing for, and variables of no toolkit, fall through.
    CHECK(layers.find("DEPLOY_ACCESS_TOKEN") == "server-deploy");
    CHECK(layers.find("UNRELATED") == "server-value");
    // Third review 2: whose value it is decides how far a host it names is trusted.
    layered_credentials marked({ client, server }, {}, 1);
    CHECK(marked.from_client("VECTORDB_SERVER_URL"));
    CHECK_FALSE(marked.from_client("DEPLOY_ACCESS_TOKEN"));
    CHECK_FALSE(marked.from_client("VECTORDB_API_KEY")); // supplied by nobody
    CHECK_FALSE(layers.from_client("VECTORDB_SERVER_URL")); // no client layer given
    overlay_credentials with_token(marked, "VECTORDB_SERVER_URL", "https://token.example.test");
    CHECK_FALSE(with_token.from_client("VECTORDB_SERVER_URL"));
    CHECK(with_token.from_client("KANBAN_API_KEY"));
}

TEST_CASE("CoreEngineApi's user-JWT arguments are optional: the server's ENGINE_USER_TOKEN goes "
          "(third review 20)",
    "[toolkits][credentials]")
{
    for (auto name :
        { "CoreEngineApi.GetProjectDetails", "CoreEngineApi.ListAccessibleProjects" }) {
        INFO(name);
        auto ref = find_tool(name);
        REQUIRE(ref.has_value());
        auto const& param = std::string_view(name).ends_with("GetProjectDetails")
            ? "authorization_token"
            : "bearer_token";
        // Optional in the catalogue, so the listed schema asks no model for a credential.
        auto const spec = std::find_if(ref->tool->params.begin(), ref->tool->params.end(),
            [&](auto const& p) { return p.name == param; });
        REQUIRE(spec != ref->tool->params.end());
        CHECK_FALSE(spec->required);
        json::object arguments;
        if (std::string_view(name).ends_with("GetProjectDetails")) {
            arguments["project_id"] = "p1";
        }
        CHECK(validate_arguments(*ref->toolkit, *ref->tool, arguments).has_value());

        fake_outbound outbound;
        // The engine's API key is not a user's JWT: without the user token, nothing is sent.
        fixed_credentials key_only(fixed_credentials::map { { "ENGINE_API_KEY", "engine-key-1" } });
        http_executor without(outbound, key_only, {});
        auto refused = call(without, *ref->toolkit, *ref->tool, arguments);
        CHECK(refused.is_error);
        CHECK_THAT(text_of(refused), Catch::Contains("ENGINE_USER_TOKEN"));
        CHECK(outbound.sent.empty());

        fixed_credentials secrets(fixed_credentials::map {
            { "ENGINE_API_KEY", "engine-key-1" }, { "ENGINE_USER_TOKEN", "zq-user-jwt-1" } });
        http_executor executor(outbound, secrets, {});
        auto r = call(executor, *ref->toolkit, *ref->tool, arguments);
        CHECK_FALSE(r.is_error);
        REQUIRE(outbound.sent.size() == 1);
        CHECK(header_of(outbound.sent[0], "Authorization") == "Bearer zq-user-jwt-1");
        CHECK(text_of(r).find("zq-user-jwt-1") == std::string::npos);

        // Given, the caller's value is sent instead (to act as another user).
        arguments[param] = "Bearer caller-value";
        CHECK(validate_arguments(*ref->toolkit, *ref->tool, arguments).has_value());
        call(executor, *ref->toolkit, *ref->tool, arguments);
        REQUIRE(outbound.sent.size() == 2);
        CHECK(header_of(outbound.sent[1], "Authorization") == "Bearer caller-value");
    }
    // Only the credential becomes optional: a required path argument stays required.
    auto ref = find_tool("CoreEngineApi.GetProjectDetails");
    CHECK(validate_arguments(*ref->toolkit, *ref->tool, json::object {}).has_error());
    // The other engine tools still send the API key, never the user token.
    auto const* engine = find_toolkit("CoreEngineApi");
    REQUIRE(engine != nullptr);
    for (auto const& tool : engine->tools) {
        if (tool.name != "GetProjectDetails" && tool.name != "ListAccessibleProjects") {
            INFO(tool.name);
            CHECK(std::find(tool.secrets.begin(), tool.secrets.end(), "ENGINE_USER_TOKEN")
                == tool.secrets.end());
        }
    }
}

TEST_CASE("a resolve, connect or TLS failure on a secret host names its variable",
    "[toolkits][credentials]")
{
    fake_outbound outbound;
    fixed_credentials secrets(fixed_credentials::map { { "DESK_API_KEY", "desk-key-1" },
        { "DESK_SUBDOMAIN", "zqacme" }, { "VECTORDB_API_KEY", "vector-key-1" },
        { "VECTORDB_SERVER_URL", "https://zqvector.example.test" } });
    http_executor executor(outbound, secrets, {});
    auto failure
        = GENERATE(outbound_failure::resolve, outbound_failure::connect, outbound_failure::tls);
    outbound.script.push_back(
        fake_outbound::failure(failure, "zqacme.freshservice.com:443: no such host"));
    auto r = call(executor, fx::desk, fx::list_assets, args("{}"));
    CHECK(r.is_error);
    CHECK(text_of(r).find("DESK_SUBDOMAIN") != std::string::npos);
    CHECK(text_of(r).find("zqacme") == std::string::npos);

    outbound.script.push_back(fake_outbound::failure(failure, "zqvector.example.test:443"));
    auto v = call(executor, fx::vectordb, fx::get_schema, args("{}"));
    CHECK(text_of(v).find("VECTORDB_SERVER_URL") != std::string::npos);
    CHECK(text_of(v).find("zqvector") == std::string::npos);

    // A host that is the catalogue's own names no variable.
    outbound.script.push_back(fake_outbound::failure(failure, "api.box.com:443"));
    fixed_credentials store(fixed_credentials::map { { "STORE_ACCESS_TOKEN", "store-token-1" } });
    http_executor store_executor(outbound, store, {});
    auto s = call(store_executor, fx::store, fx::get_folder, args(R"({"folder_id":"7"})"));
    CHECK(text_of(s).find("STORE_ACCESS_TOKEN") == std::string::npos);
    CHECK(text_of(s).find("The host comes from") == std::string::npos);
}
