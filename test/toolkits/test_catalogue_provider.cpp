// catalogue_provider: descriptors, lookup, and the hand-over to the executor — valid calls
// reach it, invalid ones come back as tool errors without reaching it.
#include "toolkits/catalogue.hpp"
#include "toolkits/catalogue_provider.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>
#include <catch2/catch.hpp>

#include <chrono>

using namespace toolgate::toolkits;
using toolgate::protocol::call_result;
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

class recording_executor final : public tool_executor {
public:
    std::vector<std::string> calls;
    asio::awaitable<call_result> execute(
        toolkit_spec const& toolkit, tool_spec const& tool, json::object, call_context&) override
    {
        calls.push_back(std::string(toolkit.name) + "." + std::string(tool.name));
        co_return call_result::text("sent");
    }
};

class null_context final : public call_context {
public:
    void report_progress(double, std::optional<double>, std::string_view) override { }
    void log(log_level, std::string_view, json::value) override { }
    std::string_view protocol_version() const override { return "2025-11-25"; }
};

call_result run_call(catalogue_provider& provider, std::string_view name, std::string_view args)
{
    auto const* tool = provider.find(name);
    REQUIRE(tool);
    null_context ctx;
    asio::io_context io;
    std::optional<call_result> out;
    asio::co_spawn(io, provider.call(*tool, json::parse(args).as_object(), ctx),
        [&](std::exception_ptr e, call_result r) {
            REQUIRE_FALSE(e);
            out = std::move(r);
        });
    io.run_for(std::chrono::seconds(5));
    REQUIRE(out);
    return *out;
}

} // namespace

TEST_CASE("the provider publishes a descriptor per selected tool", "[toolkits][provider]")
{
    recording_executor exec;
    catalogue_provider all(selection {}, exec);
    CHECK(all.tools().size() == 1150);
    auto const* d = all.find("StoreApi_DeleteFolder");
    REQUIRE(d);
    CHECK(d == all.find("StoreApi.DeleteFolder"));
    CHECK(d->dotted_name == "StoreApi.DeleteFolder");
    auto const spec = find_tool("StoreApi.DeleteFolder");
    REQUIRE(spec);
    CHECK(d->title == spec->tool->title);
    CHECK_FALSE(d->title.empty());
    CHECK_FALSE(d->description.empty());
    CHECK(d->hints.destructive);
    CHECK(d->hints.open_world);
    CHECK(d->input_schema.starts_with(R"({"type":"object")"));
    catalogue_provider some(make_selection(std::vector<std::string> { "SearchApi" }, {}), exec);
    CHECK(some.tools().size() == 45);
    CHECK_FALSE(some.find("StoreApi_DeleteFolder"));
}

TEST_CASE("a valid call reaches the executor", "[toolkits][provider]")
{
    recording_executor exec;
    catalogue_provider provider(selection {}, exec);
    auto r = run_call(provider, "StoreApi_DeleteFolder", R"({"folder_identifier":"12"})");
    CHECK_FALSE(r.is_error);
    REQUIRE(exec.calls == std::vector<std::string> { "StoreApi.DeleteFolder" });
}

TEST_CASE("an invalid call is a tool error and never reaches the executor", "[toolkits][provider]")
{
    recording_executor exec;
    catalogue_provider provider(selection {}, exec);
    auto r = run_call(provider, "StoreApi.DeleteFolder", R"({"folder_identifier":12})");
    CHECK(r.is_error);
    REQUIRE(r.content.size() == 1);
    CHECK_THAT(r.content[0].text, Catch::Contains("argument `folder_identifier`"));
    auto rule = run_call(provider, "CoreEngineApi_AuthorizeUserToolAccess",
        R"({"tool_name_for_authorization":"t"})");
    CHECK(rule.is_error);
    CHECK(exec.calls.empty());
}
