// Renderings for --list-toolkits and --list-tools.
#include "toolkits/listing.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>
#include <catch2/catch.hpp>

using namespace toolgate::toolkits;
namespace json = boost::json;

TEST_CASE("the toolkit listing shows names, versions, counts, auth and capabilities",
    "[toolkits][listing]")
{
    auto text = list_toolkits_text();
    CHECK_THAT(text, Catch::Contains("StoreApi 0.2.0  188 tools"));
    CHECK_THAT(text, Catch::Contains("DeployApi 0.2.1  194 tools"));
    CHECK_THAT(text, Catch::Contains("secrets: KANBAN_API_KEY, KANBAN_TOKEN"));
    CHECK_THAT(text, Catch::Contains("capabilities: manage files, folders and metadata"));
    CHECK_THAT(text, Catch::EndsWith("8 toolkits, 1150 tools\n"));
}

TEST_CASE("the toolkit listing as JSON has one object per toolkit", "[toolkits][listing]")
{
    auto v = json::parse(list_toolkits_json());
    auto const& kits = v.as_array();
    REQUIRE(kits.size() == 8);
    CHECK(kits[0].at("name") == "StoreApi");
    CHECK(kits[0].at("tool_count") == 188);
    CHECK(kits[0].at("auth").at("secrets").as_array()[0] == "STORE_ACCESS_TOKEN");
    CHECK(kits[3].at("auth").at("scopes").as_array().size() == 13);
    CHECK(kits[1].at("capabilities").as_array().size() == 5);
}

TEST_CASE("the tool listing shows each selected tool with its parameters", "[toolkits][listing]")
{
    auto text = list_tools_text(make_selection(std::vector<std::string> { "StoreApi" }, {}));
    CHECK_THAT(text, Catch::Contains("StoreApi.DeleteFolder [DELETE] folder_identifier*:string"));
    CHECK_THAT(text, Catch::EndsWith("188 tools (* required, ! required when mode is execute)\n"));
    CHECK_THAT(text, !Catch::Contains("KanbanApi."));
    auto m = list_tools_text(
        make_selection({}, std::vector<std::string> { "CoreEngineApi.ExecuteTool" }));
    CHECK_THAT(m, Catch::Contains("mode*:string request_body!:string"));
}

TEST_CASE("the tool listing as JSON names both spellings and the parameters", "[toolkits][listing]")
{
    auto v = json::parse(
        list_tools_json(make_selection({}, std::vector<std::string> { "StoreApi.DeleteFolder" })));
    auto const& tools = v.as_array();
    REQUIRE(tools.size() == 1);
    auto const& t = tools[0].as_object();
    CHECK(t.at("name") == "StoreApi.DeleteFolder");
    CHECK(t.at("wire_name") == "StoreApi_DeleteFolder");
    CHECK(t.at("annotations").at("destructiveHint") == true);
    auto const& p0 = t.at("params").as_array()[0].as_object();
    CHECK(p0.at("name") == "folder_identifier");
    CHECK(p0.at("required") == true);
    CHECK(p0.at("in") == "path");
    CHECK(json::parse(list_tools_json()).as_array().size() == 1150);
}
