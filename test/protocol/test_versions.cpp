// The revision table, per-request _meta helpers, log levels, result shaping per revision
// (docs/decisions.md "structuredContent") and name suggestions.
#include "protocol/call_result_json.hpp"
#include "protocol/log_level.hpp"
#include "protocol/request_meta.hpp"
#include "protocol/suggest.hpp"
#include "protocol/versions.hpp"

#include <boost/json/parse.hpp>
#include <catch2/catch.hpp>

using namespace toolgate::protocol;
namespace json = boost::json;

TEST_CASE("the served revisions are listed newest first, modern before legacy", "[protocol]")
{
    auto list = supported_versions();
    REQUIRE(list.size() == 4);
    CHECK(list[0] == "2026-07-28");
    CHECK(list[1] == "2025-11-25");
    CHECK(list[2] == "2025-06-18");
    CHECK(list[3] == "2025-03-26");
    CHECK(is_modern_version("2026-07-28"));
    CHECK_FALSE(is_modern_version("2025-11-25"));
    for (auto v : { "2025-11-25", "2025-06-18", "2025-03-26" }) {
        CHECK(is_legacy_version(v));
    }
    for (auto v : { "2026-07-28", "2024-11-05", "", "2025-11-25 " }) {
        CHECK_FALSE(is_legacy_version(v));
    }
}

TEST_CASE("L3/L5: initialize negotiation echoes legacy versions and never offers 2026-07-28",
    "[protocol]")
{
    CHECK(negotiate_initialize("2025-03-26") == "2025-03-26");
    CHECK(negotiate_initialize("2025-06-18") == "2025-06-18");
    CHECK(negotiate_initialize("2025-11-25") == "2025-11-25");
    CHECK(negotiate_initialize("2026-07-28") == "2025-11-25");
    CHECK(negotiate_initialize("1999-01-01") == "2025-11-25");
    CHECK(negotiate_initialize("") == "2025-11-25");
}

TEST_CASE("B1/B2: only 2025-03-26 allows batches, title from 2025-06-18 on", "[protocol]")
{
    CHECK(allows_batches("2025-03-26"));
    CHECK_FALSE(allows_batches("2025-06-18"));
    CHECK_FALSE(allows_batches("2025-11-25"));
    CHECK_FALSE(allows_batches("2026-07-28"));
    CHECK_FALSE(allows_title("2025-03-26"));
    CHECK(allows_title("2025-06-18"));
    CHECK(allows_title("2026-07-28"));
}

TEST_CASE("structuredContent policy: none for 03-26, objects for 06-18/11-25, any for "
          "2026-07-28",
    "[protocol]")
{
    CHECK(structured_content_policy("2025-03-26") == structured_policy::none);
    CHECK(structured_content_policy("2025-06-18") == structured_policy::objects_only);
    CHECK(structured_content_policy("2025-11-25") == structured_policy::objects_only);
    CHECK(structured_content_policy("2026-07-28") == structured_policy::any_value);

    call_result object_result = call_result::text(R"({"a":1})");
    object_result.structured = json::parse(R"({"a":1})");
    call_result array_result = call_result::text("[1,2]");
    array_result.structured = json::parse("[1,2]");

    auto has_structured = [](call_result const& r, std::string_view v) {
        auto out = to_json(r, v);
        CHECK(out.at("content").at(0).at("type") == "text"); // the text item is always there
        CHECK_FALSE(out.contains("isError"));
        return out.contains("structuredContent");
    };
    CHECK_FALSE(has_structured(object_result, "2025-03-26"));
    CHECK(has_structured(object_result, "2025-06-18"));
    CHECK(has_structured(object_result, "2025-11-25"));
    CHECK(has_structured(object_result, "2026-07-28"));
    CHECK_FALSE(has_structured(array_result, "2025-03-26"));
    CHECK_FALSE(has_structured(array_result, "2025-06-18"));
    CHECK_FALSE(has_structured(array_result, "2025-11-25"));
    CHECK(has_structured(array_result, "2026-07-28"));
    CHECK(to_json(array_result, "2026-07-28").at("structuredContent") == json::parse("[1,2]"));
}

TEST_CASE("TC2/TC4: an error result has isError, content and no structuredContent", "[protocol]")
{
    auto r = call_result::error("upstream said 500");
    r.structured = json::parse(R"({"a":1})");
    auto out = to_json(r, "2025-11-25");
    CHECK(out.at("isError") == true);
    CHECK(out.at("content").at(0).at("text") == "upstream said 500");
    CHECK_FALSE(out.contains("structuredContent"));

    call_result empty;
    CHECK(to_json(empty, "2025-11-25").at("content").as_array().empty()); // TC2: always present
}

TEST_CASE("image and resource blocks keep their data and mime types", "[protocol]")
{
    call_result r;
    r.content.push_back({ content_block::kind::image, "aGk=", "image/png", {} });
    r.content.push_back({ content_block::kind::resource, "AAE=", "application/pdf", "file:///x" });
    auto out = to_json(r, "2025-06-18");
    auto const& image = out.at("content").at(0).as_object();
    CHECK(image.at("type") == "image");
    CHECK(image.at("data") == "aGk=");
    CHECK(image.at("mimeType") == "image/png");
    auto const& resource = out.at("content").at(1).as_object();
    CHECK(resource.at("type") == "resource");
    CHECK(resource.at("resource").at("blob") == "AAE=");
    CHECK(resource.at("resource").at("uri") == "file:///x");
}

TEST_CASE("§2: the claim is the presence of the protocolVersion key in params._meta", "[protocol]")
{
    auto params = [](char const* text) { return json::parse(text).as_object(); };
    auto p1 = params(R"({"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}})");
    CHECK(has_version_claim(&p1));
    CHECK(claimed_version(&p1) == "2026-07-28");
    auto p2 = params(R"({"_meta":{"io.modelcontextprotocol/protocolVersion":5}})");
    CHECK(has_version_claim(&p2));
    CHECK(claimed_version(&p2).empty());
    auto p3 = params(R"({"_meta":{"progressToken":1}})");
    CHECK_FALSE(has_version_claim(&p3));
    auto p4 = params(R"({"_meta":"x"})");
    CHECK_FALSE(has_version_claim(&p4));
    CHECK_FALSE(has_version_claim(nullptr));
}

TEST_CASE("read_request_meta reads version, capabilities, client info and log level", "[protocol]")
{
    auto p = json::parse(R"({"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
                         R"("io.modelcontextprotocol/clientCapabilities":{"x":{}},)"
                         R"("io.modelcontextprotocol/clientInfo":{"name":"c"},)"
                         R"("io.modelcontextprotocol/logLevel":"error"}})")
                 .as_object();
    auto out = read_request_meta(&p);
    REQUIRE(out.has_value());
    auto const& m = *out;
    CHECK(m.protocol_version == "2026-07-28");
    CHECK(m.client_capabilities.contains("x"));
    REQUIRE(m.client_info.has_value());
    CHECK(m.client_info->at("name") == "c");
    CHECK(m.level == log_level::error);

    auto none = read_request_meta(nullptr);
    REQUIRE(none.has_error());
    CHECK(none.error().code == error_code::invalid_params);
}

TEST_CASE("PG1: progress tokens are strings or integers, anything else is ignored", "[protocol]")
{
    auto token = [](char const* text) {
        auto p = json::parse(text).as_object();
        return progress_token_of(&p);
    };
    CHECK(token(R"({"_meta":{"progressToken":"a"}})") == "a");
    CHECK(token(R"({"_meta":{"progressToken":3}})") == 3);
    CHECK(token(R"({"_meta":{"progressToken":1.5}})").is_null());
    CHECK(token(R"({"_meta":{"progressToken":null}})").is_null());
    CHECK(token(R"({"_meta":{}})").is_null());
    CHECK(progress_token_of(nullptr).is_null());
}

TEST_CASE("LG2: log levels parse by their eight exact names, lowest first", "[protocol]")
{
    CHECK(parse_log_level("debug") == log_level::debug);
    CHECK(parse_log_level("emergency") == log_level::emergency);
    CHECK_FALSE(parse_log_level("Debug").has_value());
    CHECK_FALSE(parse_log_level("warn").has_value());
    CHECK(log_level::debug < log_level::info);
    CHECK(log_level::critical < log_level::alert);
    CHECK(to_string(log_level::notice) == "notice");
}

TEST_CASE("edit distance ignores case and suggestions stay close", "[protocol]")
{
    CHECK(edit_distance_within("abc", "ABC", 2) == 0);
    CHECK(edit_distance_within("kitten", "sitting", 3) == 3);
    std::vector<std::string_view> names { "GetOrder", "GetOrders", "DeleteOrder", "Zebra" };
    auto close = suggest_names("getordr", names);
    REQUIRE_FALSE(close.empty());
    CHECK(close.front() == "GetOrder");
    CHECK(std::find(close.begin(), close.end(), "Zebra") == close.end());
    CHECK(suggest_names("completely-unrelated-name", names).empty());
}
