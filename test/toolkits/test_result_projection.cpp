// `_fields` from strings: the path grammar and its errors, and what a projection keeps (named
// values, their parents, list positions) or says when a path names nothing.
#include "toolkits/call_options.hpp"
#include "toolkits/result_projection.hpp"

#include <boost/json/parse.hpp>
#include <catch2/catch.hpp>

using namespace toolgate::toolkits;
namespace json = boost::json;

namespace {

std::string project_text(std::string const& input, std::vector<std::string> const& texts,
    projection_report* report = nullptr)
{
    auto paths = parse_field_paths(texts);
    REQUIRE(paths.has_value());
    auto tree = answer_tree::parse(input);
    REQUIRE(tree.has_value());
    auto r = project(*tree, *paths);
    tree->measure();
    auto out = tree->serialize();
    CHECK(out.size() == tree->bytes(answer_tree::root));
    if (report != nullptr) {
        *report = r;
    }
    return out;
}

std::string const folder
    = R"({"total_count":3,"entries":[)"
      R"({"id":"1","name":"a.txt","created_by":{"id":"9","name":"Ann"},"size":1.50},)"
      R"({"id":"2","name":"b.txt","created_by":{"id":"8","name":"Bo"}},)"
      R"({"id":"3","type":"web_link"}],"limit":100})";

} // namespace

TEST_CASE("field paths: the grammar and its errors", "[toolkits][results]")
{
    for (auto const* good : { "a", "a.b", "entries[].id", "[].name", "[]", "a[][].b", "x[3:]",
             "[0:].id", "with space.and-dash" }) {
        INFO(good);
        auto p = parse_field_path(good);
        REQUIRE(p.has_value());
        CHECK(path_text(p->steps) == good);
    }
    auto const error = [](std::string const& path) {
        auto p = parse_field_path(path);
        REQUIRE_FALSE(p.has_value());
        return p.error().message;
    };
    CHECK_THAT(error(""), Catch::Contains("argument `_fields`") && Catch::Contains("empty"));
    CHECK_THAT(error(".a"), Catch::Contains("`.a` is malformed"));
    CHECK_THAT(error("a."), Catch::Contains("ends with a dot"));
    CHECK_THAT(error("a..b"), Catch::Contains("member name is empty"));
    CHECK_THAT(error("a["), Catch::Contains("not closed"));
    CHECK_THAT(error("a[5]"), Catch::Contains("single positions cannot be chosen"));
    CHECK_THAT(error("a[x:]"), Catch::Contains("`[x:]`"));
    CHECK_THAT(error("a[]b"), Catch::Contains("must be followed by"));
    CHECK_THAT(error("a]"), Catch::Contains("has no `[`"));
    auto both = parse_field_paths(std::vector<std::string> { "e[2:].id", "e[].name" });
    REQUIRE_FALSE(both.has_value());
    CHECK_THAT(both.error().message, Catch::Contains("different positions"));
}

TEST_CASE("a projection keeps the named values, their parents and every list position",
    "[toolkits][results]")
{
    CHECK(project_text(folder, { "entries[].id", "entries[].created_by.name" })
        == R"({"entries":[{"id":"1","created_by":{"name":"Ann"}},{"id":"2","created_by":)"
           R"({"name":"Bo"}},{"id":"3"}]})");
    CHECK(project_text(folder, { "total_count", "entries[].size" })
        == R"({"total_count":3,"entries":[{"size":1.50},{},{}]})");
    CHECK(project_text(folder, { "entries[1:].name" }) == R"({"entries":[{"name":"b.txt"},{}]})");
    auto const whole = project_text(folder, { "entries" });
    CHECK(json::parse(whole) == json::object { { "entries", json::parse(folder).at("entries") } });
    CHECK_THAT(whole, Catch::Contains(R"("size":1.50)")); // as the platform wrote it
    CHECK(project_text(R"([{"id":1,"name":"x","d":2},{"id":2,"name":"y"}])", { "[].name" })
        == R"([{"name":"x"},{"name":"y"}])");
    CHECK(project_text(R"({"a\"b":{"c":1},"z":2})", { "a\"b.c" }) == R"({"a\"b":{"c":1}})");
}

TEST_CASE("a path that names nothing gives an empty projection and says why", "[toolkits][results]")
{
    projection_report report;
    CHECK(project_text(folder, { "nothing.here" }, &report) == "{}");
    CHECK(report.unmatched == std::vector<std::string> { "nothing.here" });
    CHECK(project_text(folder, { "entries.id" }, &report) == "{}");
    REQUIRE(report.hints.size() == 1);
    CHECK_THAT(report.hints[0], Catch::Contains("write `entries[].id`"));
    CHECK(project_text(R"([1,2])", { "x" }, &report) == "[]");
    CHECK_THAT(report.hints.at(0), Catch::Contains("the answer is a list: write `[].x`"));
    CHECK(project_text(folder, { "total_count[]" }, &report) == "{}");
    CHECK_THAT(report.hints.at(0), Catch::Contains("`total_count` is not a list"));
    // Matched and unmatched together: the match is kept, the rest reported.
    CHECK(project_text(folder, { "limit", "nope" }, &report) == R"({"limit":100})");
    CHECK(report.unmatched == std::vector<std::string> { "nope" });
}

TEST_CASE("reserved arguments are taken out of the arguments and checked", "[toolkits][results]")
{
    auto args = json::parse(R"({"folder_id":"0","_fields":["entries[].id"],"_max_tokens":20000})")
                    .as_object();
    auto options = take_call_options(args);
    REQUIRE(options.has_value());
    CHECK(args == json::parse(R"({"folder_id":"0"})").as_object());
    REQUIRE(options->fields.has_value());
    CHECK(options->fields->at(0).text == "entries[].id");
    CHECK(options->max_tokens == 20000u);
    CHECK(options->given.size() == 2);

    auto nulls = json::parse(R"({"_fields":null,"_max_tokens":null})").as_object();
    auto none = take_call_options(nulls);
    REQUIRE(none.has_value());
    CHECK(nulls.empty());
    CHECK_FALSE(none->fields.has_value());

    auto const refused = [](std::string const& text) {
        auto a = json::parse(text).as_object();
        auto o = take_call_options(a);
        REQUIRE_FALSE(o.has_value());
        return o.error().message;
    };
    CHECK_THAT(refused(R"({"_fields":"entries[].id"})"), Catch::Contains("expected a list"));
    CHECK_THAT(refused(R"({"_fields":[1]})"), Catch::Contains("must be a string"));
    CHECK_THAT(refused(R"({"_fields":["a..b"]})"), Catch::Contains("`a..b` is malformed"));
    CHECK_THAT(refused(R"({"_max_tokens":"many"})"), Catch::Contains("whole number"));
    CHECK_THAT(refused(R"({"_max_tokens":10})"), Catch::Contains("at least 100"));
    CHECK_THAT(refused(R"({"_max_tokens":1.5})"), Catch::Contains("whole number"));
}
