// Every one of the catalogue's tools, called through the real stack (catalogue_provider ->
// http_executor -> https_client -> TLS -> the fake platform), twice: with its required
// arguments only and with all of them. Each request the fake receives is compared with the
// one computed from the tool's binding (tool_calls.cpp): method, path, query, headers,
// credentials and body; each result must be the fake's JSON. M-tools also answer
// get_request_schema without a request.
#include "tool_calls.hpp"
#include "toolkits/catalogue.hpp"
#include "upstream_stack.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <catch2/catch.hpp>

#include <mutex>

using namespace toolgate;
using namespace toolgate::upstream_test;
namespace json = boost::json;

namespace {

/// One stack for the whole executable: one fake platform, one client, one io_context. The
/// fake answers every request with a JSON object naming the toolkit prefix it was sent to and
/// a sequence number, and hands the request over to the test.
class every_tool_fixture {
public:
    every_tool_fixture()
    {
        stack.fake.set_handler([this](test::recorded_request const& request) {
            std::lock_guard lock(mutex_);
            auto const path = request.path();
            auto const segment = path.substr(1, path.find('/', 1) - 1);
            last_answer_ = R"({"answered_by":"fake platform","prefix":")" + segment + R"(","seq":)"
                + std::to_string(++seq_) + "}";
            seen_.push_back(request);
            return test::fake_response { 200, { { "Content-Type", "application/json" } },
                last_answer_ };
        });
    }

    /// The requests received since the last take().
    std::vector<test::recorded_request> take()
    {
        std::lock_guard lock(mutex_);
        return std::exchange(seen_, {});
    }

    std::string last_answer()
    {
        std::lock_guard lock(mutex_);
        return last_answer_;
    }

    upstream_stack stack;

private:
    std::mutex mutex_;
    std::vector<test::recorded_request> seen_;
    std::string last_answer_;
    std::size_t seq_ = 0;
};

every_tool_fixture& shared_fixture()
{
    static every_tool_fixture fixture;
    return fixture;
}

void check_tool_call(every_tool_fixture& f, toolkits::toolkit_spec const& toolkit,
    toolkits::tool_spec const& tool, std::string const& name, variant v)
{
    auto args = make_arguments(toolkit, tool, v);
    INFO(variant_name(v) << ": " << json::serialize(args));
    auto const expected = expect_request(toolkit, tool, args);
    f.take();
    auto const result = f.stack.call(name, std::move(args));
    auto const seen = f.take();
    INFO("result: " << all_text(result));
    CHECK(seen.size() == 1);
    if (seen.size() == 1) {
        INFO("target: " << seen[0].target);
        CHECK(compare(expected, seen[0]) == "");
    }
    CHECK_FALSE(result.is_error);
    REQUIRE(result.content.size() == 1);
    CHECK(result.content[0].type == protocol::content_block::kind::text);
    CHECK(result.content[0].text == f.last_answer());
    CHECK(result.structured.has_value());
    CHECK_FALSE(leaks_secret(all_text(result)));
}

void check_schema_request(every_tool_fixture& f, toolkits::toolkit_spec const& toolkit,
    toolkits::tool_spec const& tool, std::string const& name)
{
    auto args = schema_request_arguments(toolkit, tool);
    INFO("get_request_schema: " << json::serialize(args));
    f.take();
    auto const result = f.stack.call(name, std::move(args));
    CHECK(f.take().empty());
    INFO("result: " << all_text(result));
    CHECK_FALSE(result.is_error);
    REQUIRE(result.content.size() == 1);
    boost::system::error_code ec;
    auto const schema = json::parse(result.content[0].text, ec);
    CHECK_FALSE(ec);
    CHECK(schema == json::parse(tool.request_body_schema));
}

void check_every_tool(std::string_view toolkit_name)
{
    auto& f = shared_fixture();
    auto const* toolkit = toolkits::find_toolkit(toolkit_name);
    REQUIRE(toolkit != nullptr);
    REQUIRE_FALSE(toolkit->tools.empty());
    for (auto const& tool : toolkit->tools) {
        auto const name = std::string(toolkit_name) + "." + std::string(tool.name);
        INFO("tool " << name);
        check_tool_call(f, *toolkit, tool, name, variant::required_only);
        check_tool_call(f, *toolkit, tool, name, variant::all);
        if (tool.m_tool) {
            check_schema_request(f, *toolkit, tool, name);
        }
    }
    // All calls of the run travel over the one warm connection.
    CHECK(f.stack.fake.tls_handshakes() == 1);
    CHECK(f.stack.fake.connections_accepted() == 1);
}

} // namespace

TEST_CASE("The every-tool tests cover all 1150 catalogue tools in eight toolkits", "[upstream]")
{
    auto const toolkits = toolkits::all_toolkits();
    std::vector<std::string_view> names;
    std::size_t tools = 0;
    for (auto const* toolkit : toolkits) {
        names.push_back(toolkit->name);
        tools += toolkit->tools.size();
    }
    // One TEST_CASE below per name.
    CHECK(names
        == std::vector<std::string_view> { "StoreApi", "CoreEngineApi", "SearchApi", "LedgerApi",
            "DeskApi", "KanbanApi", "VectorDbApi", "DeployApi" });
    CHECK(tools == 1150);
}

TEST_CASE("Catalogue bindings carry what the platforms' conventions need", "[upstream]")
{
    for (auto const* toolkit : toolkits::all_toolkits()) {
        for (auto const& tool : toolkit->tools) {
            INFO(toolkit->name << "." << tool.name);
            bool starts_with_base = false;
            for (auto base : toolkit->base_urls) {
                starts_with_base = starts_with_base || tool.http.url.starts_with(base);
            }
            CHECK(starts_with_base);
            for (auto const& p : tool.params) {
                INFO("parameter " << p.name);
                if (p.in == toolkits::param_location::query
                    && p.type == toolkits::json_type::array) {
                    CHECK(p.array_fmt != toolkits::array_format::none);
                }
                if (toolkit->name == "LedgerApi"
                    && p.name.find("tenant") != std::string_view::npos) {
                    // The tenant travels as Xero's `xero-tenant-id` header.
                    CHECK(p.in == toolkits::param_location::header);
                    CHECK(p.wire_name == "xero-tenant-id");
                }
            }
        }
    }
}

#define TOOLGATE_EVERY_TOOL_CASE(toolkit)                                                          \
    TEST_CASE("Every " toolkit " tool sends the request its binding defines and returns the "      \
              "platform's answer",                                                                 \
        "[upstream][every-tool]")                                                                  \
    {                                                                                              \
        check_every_tool(toolkit);                                                                 \
    }

TOOLGATE_EVERY_TOOL_CASE("StoreApi")
TOOLGATE_EVERY_TOOL_CASE("CoreEngineApi")
TOOLGATE_EVERY_TOOL_CASE("SearchApi")
TOOLGATE_EVERY_TOOL_CASE("LedgerApi")
TOOLGATE_EVERY_TOOL_CASE("DeskApi")
TOOLGATE_EVERY_TOOL_CASE("KanbanApi")
TOOLGATE_EVERY_TOOL_CASE("VectorDbApi")
TOOLGATE_EVERY_TOOL_CASE("DeployApi")
