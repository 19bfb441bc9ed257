// The shaping step (projection, budget, note) on whole tool results: what passes untouched, the
// budget and its cap, `0`, the note and `_meta` of a cut answer, text and binary answers.
#include "toolkits/catalogue.hpp"
#include "toolkits/result_limits.hpp"
#include "toolkits/result_note.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <catch2/catch.hpp>
#include <fmt/format.h>

using namespace toolgate::toolkits;
using toolgate::protocol::call_result;
using toolgate::protocol::content_block;
namespace json = boost::json;

namespace {

std::string items(std::size_t count, std::size_t pad = 300)
{
    std::string out = R"({"total_count":)" + std::to_string(count) + R"(,"entries":[)";
    for (std::size_t i = 0; i < count; ++i) {
        out += fmt::format(R"({}{{"id":"{}","name":"file {}","note":"{}"}})", i ? "," : "", i, i,
            std::string(pad, 'n'));
    }
    return out + R"(],"offset":0,"limit":1000})";
}

call_result json_result(std::string text, bool parsed = false)
{
    auto r = call_result::text(std::move(text));
    r.json_answer = true;
    if (parsed) {
        r.structured = json::parse(r.content[0].text);
    }
    return r;
}

call_options options_of(std::string_view reserved)
{
    auto args = json::parse(reserved).as_object();
    auto o = take_call_options(args);
    REQUIRE(o.has_value());
    return std::move(*o);
}

std::size_t text_size(call_result const& r)
{
    std::size_t n = 0;
    for (auto const& b : r.content) {
        n += b.text.size();
    }
    return n;
}

} // namespace

TEST_CASE("an answer within its budget and without _fields passes untouched", "[toolkits][results]")
{
    result_options const settings;
    auto const text = items(10);
    auto in = json_result(text, true);
    auto out = limit_result(in, settings, {});
    REQUIRE(out.content.size() == 1);
    CHECK(out.content[0].text == text);
    CHECK(out.structured == in.structured);
    CHECK_FALSE(out.meta.has_value());
    // A JSON answer the shaper left as it came (too large to parse then) is minified, and
    // parsed when its budget lets it through whole.
    auto as_came = call_result::text("{ \"a\" : [ 1, 2 ],\n  \"s\": \"x y\" }");
    as_came.json_answer = true;
    auto minified = limit_result(as_came, settings, {});
    CHECK(minified.content[0].text == R"({"a":[1,2],"s":"x y"})");
    CHECK(minified.structured == json::parse(R"({"a":[1,2],"s":"x y"})"));
    // Not parsed when it was not JSON to begin with.
    auto plain = limit_result(call_result::text(R"({"looks":"like json"})"), settings, {});
    CHECK_FALSE(plain.structured.has_value());
    // Errors are never cut.
    auto error = call_result::error(std::string(100'000, 'e'));
    CHECK(limit_result(error, settings, {}).content[0].text.size() == 100'000);
}

TEST_CASE("a cut answer fits its budget, keeps its JSON, and says what was cut in a note and "
          "in _meta",
    "[toolkits][results]")
{
    result_options settings;
    settings.max_result_tokens = 2000;
    auto out = limit_result(json_result(items(500)), settings, {});
    REQUIRE(out.content.size() == 2);
    CHECK(text_size(out) <= 2000 * 4);
    auto const shown = json::parse(out.content[0].text);
    REQUIRE(out.structured.has_value());
    CHECK(*out.structured == shown);
    auto const kept = shown.at("entries").as_array().size();
    CHECK(kept > 5);
    auto const& note = out.content[1].text;
    CHECK_THAT(note, Catch::StartsWith("[toolgate] Cut to fit this call's budget of 2,000 tokens"));
    CHECK_THAT(note, Catch::Contains(fmt::format("`entries` shows {} of its 500 elements", kept)));
    CHECK_THAT(note, Catch::Contains("`_fields`, e.g. [\"entries[].id\",\"entries[].name\"]"));
    CHECK_THAT(note, Catch::Contains("`_max_tokens` (up to 50,000)"));
    REQUIRE(out.meta.has_value());
    auto const& meta = out.meta->at(truncated_meta_key).as_object();
    CHECK(meta.at("budget_tokens") == 2000);
    CHECK(meta.at("lists").at(0).at("shown") == kept);
    CHECK(meta.at("lists").at(0).at("of") == 500);
    CHECK(meta.at("answer_tokens").as_uint64() > 2000);
}

TEST_CASE("_max_tokens raises one call's budget up to the cap, and 0 means no budget",
    "[toolkits][results]")
{
    result_options settings;
    settings.max_result_tokens = 1000;
    settings.max_result_tokens_cap = 3000;
    auto const text = items(200); // about 16,000 tokens
    auto const asked = options_of(R"({"_max_tokens":2500})");
    auto raised = limit_result(json_result(text), settings, { nullptr, nullptr, nullptr, &asked });
    CHECK(text_size(raised) <= 2500 * 4);
    CHECK(text_size(raised) > 1000 * 4);

    auto const too_much = options_of(R"({"_max_tokens":90000})");
    auto capped
        = limit_result(json_result(text), settings, { nullptr, nullptr, nullptr, &too_much });
    CHECK(text_size(capped) <= 3000 * 4);
    CHECK_THAT(
        capped.content[1].text, Catch::Contains("the 90,000 asked for is over the server's cap"));

    // A budget large enough for the answer: untouched, and the unparsed JSON gets its value.
    auto const all = options_of(R"({"_max_tokens":20000})");
    settings.max_result_tokens_cap = 0;
    auto whole = limit_result(json_result(text), settings, { nullptr, nullptr, nullptr, &all });
    CHECK(whole.content.size() == 1);
    CHECK(whole.content[0].text == text);
    CHECK(whole.structured.has_value());

    result_options none;
    none.max_result_tokens = 0;
    auto const big = items(3000);
    CHECK(limit_result(json_result(big), none, {}).content[0].text == big);
}

TEST_CASE(
    "_fields projects before the budget, and an empty projection says so", "[toolkits][results]")
{
    result_options const settings;
    auto const fields = options_of(R"({"_fields":["entries[].id","total_count"]})");
    auto out
        = limit_result(json_result(items(50)), settings, { nullptr, nullptr, nullptr, &fields });
    REQUIRE(out.content.size() == 1); // nothing cut, nothing to say
    auto const shown = json::parse(out.content[0].text);
    CHECK(shown.at("total_count") == 50);
    CHECK(shown.at("entries").at(49) == json::parse(R"({"id":"49"})"));
    CHECK(out.structured == shown);

    auto const wrong = options_of(R"({"_fields":["entries.id"]})");
    auto empty
        = limit_result(json_result(items(3)), settings, { nullptr, nullptr, nullptr, &wrong });
    CHECK(empty.content[0].text == "{}");
    REQUIRE(empty.content.size() == 2);
    CHECK_THAT(empty.content[1].text,
        Catch::Contains("`entries.id` matched nothing") && Catch::Contains("write `entries[].id`")
            && Catch::Contains("Its top-level members are `total_count`, `entries`, `offset` and "
                               "`limit`"));

    auto text = limit_result(
        call_result::text("plain words"), settings, { nullptr, nullptr, nullptr, &fields });
    CHECK(text.content[0].text == "plain words");
    CHECK_THAT(text.content.at(1).text, Catch::Contains("applies to JSON answers"));
}

TEST_CASE("a text answer is cut at a character boundary", "[toolkits][results]")
{
    result_options settings;
    settings.max_result_tokens = 100;
    std::string text;
    for (int i = 0; i < 2000; ++i) {
        text += "\xe2\x82\xac"; // three bytes each
    }
    auto out = limit_result(call_result::text(text), settings, {});
    REQUIRE(out.content.size() == 2);
    CHECK(text_size(out) <= 400);
    CHECK(out.content[0].text.size() % 3 == 0);
    CHECK(text.starts_with(out.content[0].text));
    CHECK_THAT(out.content[1].text, Catch::Contains("The text ends after"));
    CHECK(out.meta->at(truncated_meta_key).at("text_bytes") == text.size());
}

TEST_CASE("a binary answer over the budget is described, not included", "[toolkits][results]")
{
    result_options settings;
    settings.max_result_tokens = 1000;
    auto const tool = find_tool("StoreApi.RetrieveFileThumbnail");
    REQUIRE(tool);
    call_result r;
    r.content.push_back({ content_block::kind::image, std::string(40'000, 'A'), "image/png", {} });
    auto out = limit_result(r, settings, { tool->toolkit, tool->tool, nullptr, nullptr });
    REQUIRE(out.content.size() == 1);
    CHECK(out.content[0].type == content_block::kind::text);
    CHECK_THAT(out.content[0].text,
        Catch::Contains("image/png data of about 30,000 bytes")
            && Catch::Contains("call again with `_max_tokens` 10000"));
    settings.max_result_tokens_cap = 5000;
    auto too_big = limit_result(r, settings, { tool->toolkit, tool->tool, nullptr, nullptr });
    CHECK_THAT(too_big.content[0].text,
        Catch::Contains("fetch it from the platform directly (GET https://"));
    // Within the budget it is kept.
    settings.max_result_tokens = 20'000;
    CHECK(limit_result(r, settings, {}).content[0].type == content_block::kind::image);
}
