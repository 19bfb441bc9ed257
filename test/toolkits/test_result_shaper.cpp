// Result shaping: answers by media type, HTTP errors with hints, transport failures, and
// secrets kept out of every error text.
#include "executor_fixtures.hpp"
#include "fake_outbound.hpp"
#include "toolkits/auth.hpp"
#include "toolkits/result_shaper.hpp"

#include <boost/json/parse.hpp>
#include <catch2/catch.hpp>

namespace json = boost::json;
namespace fx = toolgate::toolkits::fixtures;
using namespace toolgate::toolkits;
using toolgate::protocol::content_block;
using toolgate::toolkits::testing::fake_outbound;
using toolgate::transport::outbound_failure;
using toolgate::transport::outbound_result;

namespace {

prepared_request prepared(
    toolkit_spec const& kit, tool_spec const& tool, std::string_view arguments)
{
    fixed_credentials secrets(
        { { "STORE_ACCESS_TOKEN", "store-token-1" }, { "KANBAN_API_KEY", "kanban-key-1" },
            { "KANBAN_TOKEN", "kanban-token-1" }, { "VECTORDB_API_KEY", "vector-key-1" },
            { "VECTORDB_SERVER_URL", "https://vectors.internal.example:8080" },
            { "LEDGER_ACCESS_TOKEN", "ledger-token-1" } });
    auto built = build_request(kit, tool, json::parse(arguments).as_object(), {});
    REQUIRE(built.has_value());
    REQUIRE(authenticate(kit, tool, secrets, *built).has_value());
    return std::move(*built);
}

std::string const& only_text(toolgate::protocol::call_result const& r)
{
    REQUIRE(r.content.size() == 1);
    REQUIRE(r.content[0].type == content_block::kind::text);
    return r.content[0].text;
}

outbound_result with_header(outbound_result r, std::string name, std::string value)
{
    r.response.headers.emplace_back(std::move(name), std::move(value));
    return r;
}

} // namespace

TEST_CASE("a JSON answer is compact text plus the structured value", "[toolkits][shape]")
{
    auto sent = prepared(fx::store, fx::get_folder, R"({"folder_id":"1"})");
    auto [type, body, compact] = GENERATE(table<std::string, std::string, std::string>({
        { "application/json", "{ \"a\": 1.5,\n \"b\": [1, 2], \"s\": \"x y\" }",
            R"({"a":1.5,"b":[1,2],"s":"x y"})" },
        { "application/json; charset=utf-8", "[ 1, {\"k\": null} ]", R"([1,{"k":null}])" },
        { "application/vnd.api+json", "{\"q\": \"a \\\" b\"}", R"({"q":"a \" b"})" },
        { "", " {\"untyped\": true} ", R"({"untyped":true})" },
        { "application/json", "{ \"path\" : \"C:\\\\dir\\\\\" ,\n\t\"n\" : [ \"\\\" }\" ] }",
            R"({"path":"C:\\dir\\","n":["\" }"]})" },
    }));
    auto r = shape_result(fx::store, fx::get_folder, sent, fake_outbound::answer(200, type, body));
    CHECK_FALSE(r.is_error);
    CHECK(only_text(r) == compact);
    REQUIRE(r.structured);
    CHECK(*r.structured == json::parse(body));
}

TEST_CASE("empty and unchanged answers say so without being errors", "[toolkits][shape]")
{
    auto sent = prepared(fx::store, fx::get_folder, R"({"folder_id":"1"})");
    auto no_content
        = shape_result(fx::store, fx::get_folder, sent, fake_outbound::answer(204, "", ""));
    CHECK_FALSE(no_content.is_error);
    CHECK_THAT(
        only_text(no_content), Catch::Contains("no content") && Catch::Contains("204 No Content"));
    auto empty = shape_result(
        fx::store, fx::get_folder, sent, fake_outbound::answer(202, "application/json", ""));
    CHECK_THAT(only_text(empty), Catch::Contains("no content") && Catch::Contains("HTTP 202"));
    auto unchanged
        = shape_result(fx::store, fx::get_folder, sent, fake_outbound::answer(304, "", ""));
    CHECK_FALSE(unchanged.is_error);
    CHECK_THAT(only_text(unchanged), Catch::Contains("unchanged") && Catch::Contains("304"));
    CHECK_FALSE(unchanged.structured);
}

TEST_CASE("text stays text, binary becomes image or resource content", "[toolkits][shape]")
{
    auto sent = prepared(fx::ledger, fx::ledger.tools[0], R"({"invoice_id":"i","tenant_id":"t"})");
    auto const& tool = fx::ledger.tools[0];

    auto text = shape_result(
        fx::ledger, tool, sent, fake_outbound::answer(200, "text/csv", "a,b\n1,2\n"));
    CHECK(only_text(text) == "a,b\n1,2\n");
    auto not_json = shape_result(
        fx::ledger, tool, sent, fake_outbound::answer(200, "application/json", "oops <html>"));
    CHECK(only_text(not_json) == "oops <html>");

    auto image = shape_result(fx::ledger, tool, sent,
        fake_outbound::answer(200, "image/png", std::string("\x89PNG\0\x01", 6)));
    REQUIRE(image.content.size() == 1);
    CHECK(image.content[0].type == content_block::kind::image);
    CHECK(image.content[0].mime_type == "image/png");
    CHECK(image.content[0].text == "iVBORwAB");

    auto pdf = shape_result(
        fx::ledger, tool, sent, fake_outbound::answer(200, "application/pdf", "%PDF-1.7"));
    REQUIRE(pdf.content.size() == 1);
    CHECK(pdf.content[0].type == content_block::kind::resource);
    CHECK(pdf.content[0].mime_type == "application/pdf");
    CHECK(pdf.content[0].uri == "toolgate://LedgerApi/GetInvoiceAsPdf/response");
    CHECK(pdf.content[0].text == "JVBERi0xLjc=");

    auto invalid_text = shape_result(
        fx::ledger, tool, sent, fake_outbound::answer(200, "text/plain", "\xff\xfe"));
    CHECK(invalid_text.content.at(0).type == content_block::kind::resource);
    auto untyped = shape_result(
        fx::ledger, tool, sent, fake_outbound::answer(200, "", std::string("\0\1\2", 3)));
    CHECK(untyped.content.at(0).type == content_block::kind::resource);
    CHECK(untyped.content.at(0).mime_type == "application/octet-stream");
}

TEST_CASE("HTTP errors name the tool and status and give a hint", "[toolkits][shape][errors]")
{
    auto sent = prepared(fx::store, fx::get_folder, R"({"folder_id":"123"})");
    auto [status, reason, extra_header, expected]
        = GENERATE(table<unsigned, std::string, std::string, std::vector<std::string>>({
            { 401, "", "",
                { "StoreApi.GetFolder failed: HTTP 401 Unauthorized.", "STORE_ACCESS_TOKEN" } },
            { 403, "Forbidden", "", { "HTTP 403 Forbidden", "STORE_ACCESS_TOKEN", "permission" } },
            { 404, "", "", { "HTTP 404 Not Found", "folder_id = `123`" } },
            { 409, "", "", { "HTTP 409 Conflict", "current state" } },
            { 412, "", "", { "HTTP 412 Precondition Failed", "etag" } },
            { 429, "", "30", { "HTTP 429 Too Many Requests", "rate limited", "wait 30 seconds" } },
            { 400, "Bad Request", "",
                { "HTTP 400 Bad Request", "The platform said: {\"message\":\"no\"}" } },
            { 500, "", "", { "HTTP 500 Internal Server Error", "retrying later" } },
            { 503, "Busy", "", { "HTTP 503 Busy", "retrying later" } },
            { 302, "", "", { "HTTP 302", "not followed" } },
        }));
    auto answer
        = fake_outbound::answer(status, "application/json", "{ \"message\": \"no\" }", reason);
    if (!extra_header.empty()) {
        answer = with_header(std::move(answer), "Retry-After", extra_header);
    }
    auto r = shape_result(fx::store, fx::get_folder, sent, answer);
    CHECK(r.is_error);
    for (auto const& piece : expected) {
        CHECK_THAT(only_text(r), Catch::Contains(piece));
    }
    CHECK_THAT(only_text(r), !Catch::Contains("store-token-1"));
}

TEST_CASE("a 404 after a base-URL override says to check the override", "[toolkits][shape][errors]")
{
    auto sent = prepared(fx::store, fx::get_folder, R"({"folder_id":"1"})");
    sent.base_overridden = true;
    auto r = shape_result(fx::store, fx::get_folder, sent, fake_outbound::answer(404, "", ""));
    CHECK_THAT(only_text(r), Catch::Contains("base URL is overridden"));
}

TEST_CASE(
    "a long error body is cut on a character boundary and says so", "[toolkits][shape][errors]")
{
    auto sent = prepared(fx::store, fx::get_folder, R"({"folder_id":"1"})");
    std::string body;
    for (int i = 0; i < 2000; ++i) {
        body += "\xC3\xA9"; // é, two bytes
    }
    auto r = shape_result(fx::store, fx::get_folder, sent,
        fake_outbound::answer(500, "text/plain", body),
        shaping_options { .error_body_limit = 101 });
    auto const& text = only_text(r);
    CHECK_THAT(text, Catch::Contains("(cut to 100 of 4000 bytes)"));
    auto const said = text.find("The platform said: ") + 19;
    auto const quoted = text.substr(said, text.find('\n', said) - said);
    CHECK(quoted.size() == 100);

    auto binary = shape_result(fx::store, fx::get_folder, sent,
        fake_outbound::answer(500, "application/octet-stream", "\xff\x00\xfe"));
    CHECK_THAT(only_text(binary), Catch::Contains("binary data (not shown)"));
}

TEST_CASE("secrets in use never appear in an error", "[toolkits][shape][errors]")
{
    auto sent = prepared(fx::kanban, fx::get_cards, R"({"card_ids":["a"]})");
    auto echo = "invalid key kanban-key-1 for token kanban-token-1 at " + sent.request.url;
    auto r = shape_result(
        fx::kanban, fx::get_cards, sent, fake_outbound::answer(401, "text/plain", echo));
    CHECK_THAT(only_text(r),
        !Catch::Contains("kanban-key-1") && !Catch::Contains("kanban-token-1")
            && Catch::Contains("KANBAN_API_KEY or KANBAN_TOKEN") && Catch::Contains("***"));

    auto v = prepared(fx::vectordb, fx::get_schema, "{}");
    auto failed = shape_result(fx::vectordb, fx::get_schema, v,
        fake_outbound::failure(
            outbound_failure::connect, "connect to vectors.internal.example:8080 refused"));
    CHECK_THAT(only_text(failed),
        !Catch::Contains("vectors.internal.example")
            && Catch::Contains("VectorDbApi.GetSchema failed"));
    auto undetailed = shape_result(
        fx::vectordb, fx::get_schema, v, fake_outbound::failure(outbound_failure::resolve, ""));
    CHECK_THAT(only_text(undetailed), !Catch::Contains("vectors.internal"));
}

TEST_CASE(
    "transport failures name the phase and the transport's detail", "[toolkits][shape][failures]")
{
    auto [failure, phase] = GENERATE(table<outbound_failure, std::string>({
        { outbound_failure::bad_url, "URL could not be used" },
        { outbound_failure::resolve, "could not be resolved" },
        { outbound_failure::connect, "could not connect" },
        { outbound_failure::tls, "TLS handshake" },
        { outbound_failure::timeout, "before the deadline" },
        { outbound_failure::cancelled, "cancelled" },
        { outbound_failure::too_large, "size limit" },
        { outbound_failure::protocol, "not valid HTTP" },
    }));
    auto sent = prepared(fx::store, fx::get_folder, R"({"folder_id":"1"})");
    auto r = shape_result(fx::store, fx::get_folder, sent,
        fake_outbound::failure(failure, "api.box.com:443 after 60 s"));
    CHECK(r.is_error);
    CHECK_THAT(only_text(r),
        Catch::StartsWith("StoreApi.GetFolder failed: ") && Catch::Contains(phase)
            && Catch::Contains("api.box.com:443 after 60 s"));
    CHECK_THAT(only_text(r), !Catch::Contains("may still have"));

    auto write = prepared(fx::store, fx::update_file, R"({"file_id":"1"})");
    auto w = shape_result(
        fx::store, fx::update_file, write, fake_outbound::failure(outbound_failure::timeout, "x"));
    CHECK_THAT(only_text(w), Catch::Contains("may still have carried out"));
    auto no_detail = shape_result(
        fx::store, fx::get_folder, sent, fake_outbound::failure(outbound_failure::connect, ""));
    CHECK_THAT(only_text(no_detail), Catch::Contains("https://api.box.com"));
}

TEST_CASE("redact masks every secret, longest first", "[toolkits][shape]")
{
    std::vector<std::string> secrets { "abcdefgh", "abcdefghij", "" };
    CHECK(redact("xabcdefghijx abcdefgh", secrets) == "x***x ***");
}

TEST_CASE("review 9: a large JSON answer comes back as text without a parsed structure",
    "[toolkits][shape][review]")
{
    auto sent = prepared(fx::store, fx::get_folder, R"({"folder_id":"1"})");
    std::string const big = "{\"items\": [" + std::string(2000, ' ') + "1, 2, 3]}";
    shaping_options options;
    options.structured_limit = 1000;
    auto const r = shape_result(fx::store, fx::get_folder, sent,
        fake_outbound::answer(200, "application/json", big), options);
    CHECK_FALSE(r.is_error);
    CHECK_FALSE(r.structured.has_value());
    CHECK(r.json_answer);
    CHECK(only_text(r) == big); // as it came: the budget step cuts or minifies it
    auto const small = shape_result(fx::store, fx::get_folder, sent,
        fake_outbound::answer(200, "application/json", R"({"a": 1})"), options);
    CHECK(small.structured.has_value());
}
