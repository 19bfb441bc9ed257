// The check that keeps a toolkit's words (descriptions.json) and facts (catalogue.json) from
// drifting apart: it catches every kind of drift, naming the tool, parameter or field, and the
// committed files pass it.
#include "toolkits/gen/catalogue_model.hpp"
#include "toolkits/gen/text_check.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

using namespace toolgate::catalogue_gen;
namespace json = boost::json;

namespace {

/// Two tools: a plain one, and an M-tool with a body of one required and one nested field.
json::value demo_catalogue()
{
    return json::parse(R"({"toolkit": "DemoApi", "tools": [
      {"name": "GetThing", "m_tool": false, "params": [
         {"name": "thing_id", "in": "path"}, {"name": "verbose", "in": "query"}],
       "request_body_schema": null},
      {"name": "CreateThing", "m_tool": true, "params": [
         {"name": "mode", "in": "mode"}, {"name": "request_body", "in": "request_body"}],
       "request_body_schema": {"type": "object", "required": ["name"], "properties": {
         "name": {"type": "string"},
         "spec": {"type": "object", "properties": {"size": {"type": "integer"}}}}}}]})");
}

json::value demo_texts()
{
    return json::parse(R"({"toolkit": "DemoApi", "tools": {
      "GetThing": {"title": "Get a thing", "description": "One thing; make one with `DemoApi_CreateThing`.",
        "params": {"thing_id": "The thing's id.", "verbose": "Whether to say more."}},
      "CreateThing": {"title": "Create a thing", "description": "Makes a thing.",
        "body": {"name": "Its name.", "spec": "How it is made.", "spec.size": "How big."}}}})");
}

json::object& tool_texts(json::value& texts, char const* tool)
{
    return texts.at("tools").at(tool).as_object();
}

std::vector<std::string> problems_of(json::value const& catalogue, json::value const& texts)
{
    known_tools known;
    add_known_tools(known, catalogue.as_object());
    return check_texts(catalogue.as_object(), texts.as_object(), known);
}

/// The problems found, one a line, for Catch's messages and Contains matchers.
std::string joined(std::vector<std::string> const& problems)
{
    std::string out;
    for (auto const& p : problems) {
        out += p + "\n";
    }
    return out;
}

json::value read_json(std::string const& path)
{
    std::ifstream in(path, std::ios::binary);
    REQUIRE(in);
    std::stringstream s;
    s << in.rdbuf();
    return json::parse(s.str());
}

std::vector<std::string> committed_toolkits()
{
    std::vector<std::string> out;
    std::stringstream names(TOOLGATE_TOOLKIT_NAMES);
    for (std::string name; std::getline(names, name, ',');) {
        out.push_back(name);
    }
    return out;
}

} // namespace

TEST_CASE("catalogue texts that fit their catalogue pass and are merged in", "[toolkits][gen]")
{
    auto catalogue = demo_catalogue();
    auto const texts = demo_texts();
    REQUIRE(joined(problems_of(catalogue, texts)).empty());

    merge_texts(catalogue.as_object(), texts.as_object(), { "Two steps.", "Mode.", "Body." });
    auto const& get = catalogue.at("tools").at(0);
    CHECK(get.at("title") == "Get a thing");
    CHECK(get.at("params").at(1).at("description") == "Whether to say more.");
    auto const& create = catalogue.at("tools").at(1);
    CHECK(create.at("description") == "Makes a thing. Two steps.");
    CHECK(create.at("params").at(0).at("description") == "Mode.");
    CHECK(create.at("params").at(1).at("description") == "Body.");
    auto const& spec = create.at("request_body_schema").at("properties").at("spec");
    CHECK(spec.at("description") == "How it is made.");
    CHECK(spec.at("properties").at("size").at("description") == "How big.");
}

TEST_CASE(
    "catalogue texts that drift from their catalogue are refused, naming where", "[toolkits][gen]")
{
    auto catalogue = demo_catalogue();
    auto texts = demo_texts();
    std::string expected;
    SECTION("a text for a tool the catalogue lacks")
    {
        texts.at("tools").as_object()["GetThings"] = tool_texts(texts, "GetThing");
        expected = "Tool GetThings: no such tool in catalogue.json";
    }
    SECTION("a text for a parameter the tool lacks")
    {
        tool_texts(texts, "GetThing").at("params").as_object()["thing_identifier"] = "An id.";
        expected = "Tool GetThing parameter thing_identifier: no such parameter in catalogue.json";
    }
    SECTION("a text for a body field the schema lacks")
    {
        tool_texts(texts, "CreateThing").at("body").as_object()["spec.colour"] = "Its colour.";
        expected = "Tool CreateThing body field spec.colour: no such field";
    }
    SECTION("a backticked reference to a tool that does not exist")
    {
        tool_texts(texts, "GetThing")["description"] = "See `DemoApi_ListThings`.";
        expected = "Tool GetThing description names `DemoApi_ListThings`, which does not exist";
    }
    SECTION("a reference in prose, dotted, from a parameter's text")
    {
        tool_texts(texts, "GetThing").at("params").as_object()["thing_id"]
            = "An id from DemoApi.ListThings.";
        expected
            = "Tool GetThing parameter thing_id names `DemoApi_ListThings`, which does not exist";
    }
    SECTION("a backticked reference to a toolkit that does not exist")
    {
        tool_texts(texts, "CreateThing")["title"] = "Like `OtherApi_CreateThing`";
        expected = "Tool CreateThing title names `OtherApi_CreateThing`, but there is no toolkit";
    }
    SECTION("a tool without its text")
    {
        texts.at("tools").as_object().erase("CreateThing");
        expected = "Tool CreateThing: no text";
    }
    SECTION("a parameter without its text")
    {
        tool_texts(texts, "GetThing").at("params").as_object().erase("verbose");
        expected = "Tool GetThing parameter verbose: no text";
    }
    SECTION("a required body field without its text")
    {
        tool_texts(texts, "CreateThing").at("body").as_object().erase("name");
        expected = "Tool CreateThing body field name: no text";
    }
    SECTION("a fact among the words")
    {
        tool_texts(texts, "GetThing")["read_only"] = true;
        expected = "Tool GetThing: `read_only` is not a text; facts belong in catalogue.json";
    }
    SECTION("words left in the catalogue")
    {
        catalogue.at("tools").at(0).as_object()["description"] = "Old words.";
        expected = "Tool GetThing: catalogue.json carries its description";
    }
    auto const problems = problems_of(catalogue, texts);
    INFO(joined(problems));
    CHECK_THAT(joined(problems), Catch::Contains(expected));
}

TEST_CASE("the committed catalogue texts fit the committed catalogues", "[toolkits][gen]")
{
    auto const dir = std::string(TOOLGATE_TEST_SOURCE_DIR) + "/toolkits/";
    auto const kits = committed_toolkits();
    REQUIRE(kits.size() == 8);
    known_tools known;
    for (auto const& kit : kits) {
        add_known_tools(known, read_json(dir + kit + "/catalogue.json").as_object());
    }
    CHECK(known.tools.size() == 1150);
    for (auto const& kit : kits) {
        INFO(kit);
        auto const problems = check_texts(read_json(dir + kit + "/catalogue.json").as_object(),
            read_json(dir + kit + "/descriptions.json").as_object(), known);
        CHECK(joined(problems).empty());
    }
    auto const shared = read_m_tool_words(read_json(dir + "m_tool_descriptions.json").as_object());
    CHECK_FALSE(shared.description_note.empty());
}
