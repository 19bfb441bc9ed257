// The answer outline and the budget cut, from strings: what is valid JSON, that untouched values
// keep the platform's spelling, and that a cut keeps the shape (whole elements from the end,
// then marked strings), never changes keys, numbers or ids, and fits its target.
#include "toolkits/answer_tree.hpp"
#include "toolkits/result_budget.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <string>

using namespace toolgate::toolkits;
namespace json = boost::json;

namespace {

/// `count` elements like a storage platform's folder items, ~`pad` bytes of text each.
std::string folder_items(std::size_t count, std::size_t pad = 500)
{
    std::string out = R"({"total_count":)" + std::to_string(count) + R"(,"entries":[)";
    for (std::size_t i = 0; i < count; ++i) {
        out += fmt::format(R"({}{{"type":"file","id":"{}","size":{}.5,"name":"report {}.pdf",)"
                           R"("description":"{}"}})",
            i == 0 ? "" : ",", 1000 + i, i * 7, i, std::string(pad, 'x'));
    }
    return out + R"(],"offset":0,"limit":1000})";
}

struct cut_result {
    std::string text;
    cut_report report;
};

cut_result cut(std::string const& input, std::size_t target)
{
    auto tree = answer_tree::parse(input);
    REQUIRE(tree.has_value());
    auto report = fit_to_budget(*tree, target);
    auto text = tree->serialize();
    CHECK(text.size() == tree->bytes(answer_tree::root)); // the sizes agree with the output
    return { std::move(text), std::move(report) };
}

} // namespace

TEST_CASE("answer outline: valid JSON only, within depth, UTF-8 checked", "[toolkits][results]")
{
    for (auto const* good :
        { "{}", "[]", "0", "-0.0", "1e400", "1.5E+2", "\"\\u00e9\\ud83d\\ude00\"",
            " { \"a\" : [ 1 , true , null ] } ", "\"caf\xc3\xa9\"", "18446744073709551616" }) {
        INFO(good);
        CHECK(answer_tree::parse(good).has_value());
    }
    for (auto const* bad :
        { "", "{", "[1,]", "{\"a\"}", "01", "1.", "-", "+1", "tru", "[1] x", "\"\\x\"",
            "\"\\u12g4\"", "\"a\nb\"", "\"\xc3\x28\"", "\"\xed\xa0\x80\"", "{'a':1}" }) {
        INFO(bad);
        CHECK_FALSE(answer_tree::parse(bad).has_value());
    }
    std::string deep(answer_tree::max_depth - 1, '[');
    deep += std::string(answer_tree::max_depth - 1, ']');
    CHECK(answer_tree::parse(deep).has_value());
    std::string too_deep(answer_tree::max_depth + 1, '[');
    too_deep += std::string(answer_tree::max_depth + 1, ']');
    CHECK_FALSE(answer_tree::parse(too_deep).has_value());
}

TEST_CASE("an answer within its target is left exactly as written", "[toolkits][results]")
{
    std::string const text
        = R"({"a": 1.50, "b": [1E2, -0.0, 18446744073709551616], "c": "\u00e9"})";
    auto r = cut(text, text.size());
    CHECK(r.text == text);
    CHECK_FALSE(r.report.cut());
}

TEST_CASE("the largest list loses whole elements from its end, keys and numbers intact",
    "[toolkits][results]")
{
    auto const input = folder_items(1000);
    auto const original = json::parse(input).as_object();
    auto r = cut(input, 32'000);
    REQUIRE(r.text.size() <= 32'000);
    auto const out = json::parse(r.text).as_object();
    auto const& kept = out.at("entries").as_array();
    auto const& all = original.at("entries").as_array();
    REQUIRE(kept.size() >= 40);
    REQUIRE(kept.size() < 100);
    for (std::size_t i = 0; i < kept.size(); ++i) {
        CHECK(kept[i] == all[i]); // a prefix, each element whole
    }
    CHECK(out.at("total_count") == original.at("total_count"));
    CHECK(out.at("limit") == original.at("limit"));
    CHECK(r.text.find(R"("size":7.5,)") != std::string::npos); // the platform's spelling
    REQUIRE(r.report.lists.size() == 1);
    CHECK(r.report.lists[0].path == "entries");
    CHECK(r.report.lists[0].shown == kept.size());
    CHECK(r.report.lists[0].of == 1000);
    CHECK(r.report.strings == 0);
    // More room keeps more; the same input and target give the same cut.
    CHECK(json::parse(cut(input, 64'000).text).at("entries").as_array().size() > kept.size());
    CHECK(cut(input, 32'000).text == r.text);
}

TEST_CASE("a top-level list is cut like any other", "[toolkits][results]")
{
    std::string input = "[";
    for (int i = 0; i < 500; ++i) {
        input += fmt::format(R"({}{{"id":"{}","name":"card {}","desc":"{}"}})", i ? "," : "", i, i,
            std::string(300, 'd'));
    }
    input += "]";
    auto r = cut(input, 10'000);
    CHECK(r.text.size() <= 10'000);
    auto const kept = json::parse(r.text).as_array();
    CHECK(kept.size() > 10);
    CHECK(kept.back().at("id").as_string() == std::to_string(kept.size() - 1));
    REQUIRE(r.report.lists.size() == 1);
    CHECK(r.report.lists[0].path.empty());
}

TEST_CASE("several large lists are cut alike, nested lists only when one element is left",
    "[toolkits][results]")
{
    std::string a, b;
    for (int i = 0; i < 200; ++i) {
        a += fmt::format("{}{}", i ? "," : "", 100000 + i);
        b += fmt::format("{}{}", i ? "," : "", 200000 + i);
    }
    auto r = cut(R"({"a":[)" + a + R"(],"b":[)" + b + "]}", 1'000);
    auto const out = json::parse(r.text);
    auto const na = out.at("a").as_array().size();
    auto const nb = out.at("b").as_array().size();
    CHECK(r.text.size() <= 1'000);
    CHECK((na > nb ? na - nb : nb - na) <= 1);
    CHECK(r.report.lists.size() == 2);

    // One element holding a huge nested list: the outer list keeps its first element, and the
    // inner list is cut inside it.
    std::string vector;
    for (int i = 0; i < 1536; ++i) {
        vector += fmt::format("{}{}", i ? "," : "", 0.001 * i - 0.5);
    }
    std::string objects = R"({"objects":[)";
    for (int o = 0; o < 5; ++o) {
        objects += fmt::format(R"({}{{"id":"obj-{}","vector":[{}]}})", o ? "," : "", o, vector);
    }
    objects += R"(],"totalResults":5})";
    auto v = cut(objects, 4'000);
    auto const vo = json::parse(v.text);
    REQUIRE(vo.at("objects").as_array().size() == 1);
    CHECK(vo.at("objects").at(0).at("id") == "obj-0");
    CHECK(vo.at("objects").at(0).at("vector").as_array().size() < 1536);
    CHECK(v.text.size() <= 4'000);
    REQUIRE(v.report.lists.size() == 2);
    CHECK(v.report.lists[1].path == "objects[0].vector");
}

TEST_CASE("long strings are shortened at a character boundary with a visible marker, ids are "
          "not",
    "[toolkits][results]")
{
    // Multi-byte characters and escapes (a surrogate pair among them) must stay whole.
    std::string body;
    for (int i = 0; i < 3000; ++i) {
        body += i % 3 == 0 ? "\xc3\xa9" : (i % 3 == 1 ? "\\ud83d\\ude00" : "\\n");
    }
    std::string const id(400, '7');
    auto const input = R"({"id":")" + id + R"(","text":")" + body + R"(","n":1.0})";
    auto r = cut(input, 2'000);
    REQUIRE(r.text.size() <= 2'000);
    auto const out = json::parse(r.text); // valid JSON: no escape or character split
    CHECK(out.at("id").as_string() == id);
    CHECK(out.at("n").is_double());
    CHECK(r.text.find(R"("n":1.0)") != std::string::npos);
    std::string const text(out.at("text").as_string());
    CHECK_THAT(text, Catch::Contains("more bytes]"));
    CHECK(r.report.strings == 1);
    auto const original = std::string(json::parse(input).at("text").as_string());
    auto const marker = text.find("[\xe2\x80\xa6");
    REQUIRE(marker != std::string::npos);
    CHECK(original.starts_with(text.substr(0, marker)));
}

TEST_CASE("a huge string in the one element left is cut after the list", "[toolkits][results]")
{
    auto input = R"({"entries":[{"id":"1","body":")" + std::string(100'000, 'b') + R"("},)"
        + R"({"id":"2","body":"short"}]})";
    auto r = cut(input, 5'000);
    CHECK(r.text.size() <= 5'000);
    auto const out = json::parse(r.text);
    REQUIRE(out.at("entries").as_array().size() == 1);
    CHECK(out.at("entries").at(0).at("id") == "1");
    CHECK(r.report.strings == 1);
}

TEST_CASE(
    "when even the structure is too large, the report says it does not fit", "[toolkits][results]")
{
    std::string input = "{";
    for (int i = 0; i < 200; ++i) {
        input += fmt::format(R"({}"key_{}":{})", i ? "," : "", i, i);
    }
    input += "}";
    auto r = cut(input, 100);
    CHECK_FALSE(r.report.fits);
    CHECK(r.text == input); // nothing cuttable was changed
}

TEST_CASE("value paths name members and positions", "[toolkits][results]")
{
    auto tree = answer_tree::parse(R"({"a":{"b":[1,{"c":[true]}]},"d\"e":2})");
    REQUIRE(tree.has_value());
    auto const a = tree->member(answer_tree::root, "a");
    auto const b = tree->member(a, "b");
    auto const second = tree->next_sibling(tree->first_child(b));
    auto const c = tree->member(second, "c");
    CHECK(value_path(*tree, c) == "a.b[1].c");
    CHECK(value_path(*tree, answer_tree::root).empty());
    CHECK(tree->member(answer_tree::root, "d\"e") != answer_tree::none); // escaped key
}
