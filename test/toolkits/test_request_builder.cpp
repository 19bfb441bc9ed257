// Request building: where each argument goes and how it is encoded, M-tools, base-URL
// overrides and the named wire quirks.
#include "executor_fixtures.hpp"
#include "toolkits/catalogue.hpp"
#include "toolkits/request_body.hpp"
#include "toolkits/request_builder.hpp"
#include "toolkits/validate.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>
#include <catch2/catch.hpp>

namespace json = boost::json;
namespace fx = toolgate::toolkits::fixtures;
using namespace toolgate::toolkits;

namespace {

json::object args(std::string_view text)
{
    return json::parse(text).as_object();
}

prepared_request build(toolkit_spec const& kit, tool_spec const& tool, std::string_view arguments,
    base_url_overrides const& overrides = {})
{
    auto built = build_request(kit, tool, args(arguments), overrides);
    INFO((built ? std::string() : built.error().message));
    REQUIRE(built.has_value());
    return std::move(*built);
}

std::string refusal(toolkit_spec const& kit, tool_spec const& tool, std::string_view arguments)
{
    auto built = build_request(kit, tool, args(arguments), {});
    REQUIRE_FALSE(built.has_value());
    return built.error().message;
}

std::string header(prepared_request const& p, std::string_view name)
{
    for (auto const& [key, value] : p.request.headers) {
        if (key == name) {
            return value;
        }
    }
    return "<absent>";
}

} // namespace

TEST_CASE("a hostile path value cannot change the path or the query", "[toolkits][request]")
{
    auto [value, encoded] = GENERATE(table<std::string, std::string>({
        { "../x", "..%2Fx" },
        { "a/b", "a%2Fb" },
        { "?admin=1", "%3Fadmin%3D1" },
        { "#top", "%23top" },
        { "a b", "a%20b" },
        { "\xC3\xBC\xE2\x82\xAC", "%C3%BC%E2%82%AC" },
        { "100%", "100%25" },
        { "%2F", "%252F" },
        { "...", "..." },
        { "a.b", "a.b" },
        { "x\r\ny", "x%0D%0Ay" },
    }));
    json::object a;
    a["folder_id"] = value;
    auto built = build_request(fx::store, fx::get_folder, a, {});
    REQUIRE(built.has_value());
    auto const& url = built->request.url;
    CHECK(url == "https://api.box.com/2.0/folders/" + encoded);
    auto parsed = boost::urls::parse_uri(url);
    REQUIRE(parsed.has_value());
    CHECK_FALSE(parsed->has_query());
    CHECK_FALSE(parsed->has_fragment());
    CHECK(parsed->encoded_segments().size() == 3); // 2.0, folders, the value
    REQUIRE(built->path_arguments.size() == 1);
    CHECK(built->path_arguments[0].value == value);
}

TEST_CASE("dot segments are refused as path values, in any encoding", "[toolkits][request]")
{
    // Security review finding 4: a platform that normalises %2E%2E would otherwise turn
    // DELETE .../env/{key} into the parent's DELETE.
    for (std::string value : { ".", "..", "%2e", "%2E%2e", ".%2E", "%252e%252e", "%25%32%65" }) {
        INFO("folder_id = " << value);
        json::object a;
        a["folder_id"] = value;
        auto built = build_request(fx::store, fx::get_folder, a, {});
        REQUIRE_FALSE(built.has_value());
        CHECK_THAT(
            built.error().message, Catch::Contains("`folder_id`") && Catch::Contains("`..`"));
    }
    for (std::string value : { "...", ".a", "a..", "%2e%2e%2e", "%zz" }) {
        INFO("folder_id = " << value);
        json::object a;
        a["folder_id"] = value;
        CHECK(build_request(fx::store, fx::get_folder, a, {}).has_value());
    }
}

TEST_CASE("header arguments are bounded and free of control characters", "[toolkits][request]")
{
    // Security review finding 1: a 64 KiB header value made Beast throw after a pool slot
    // was taken. It is refused here, as a tool error, before anything is built.
    auto const ledger = find_tool("LedgerApi.RetrieveInvoicePdf").value();
    json::object a;
    a["invoice_id"] = "inv-1";
    a["tenant_identifier"] = std::string(64 * 1024, 't');
    auto built = build_request(*ledger.toolkit, *ledger.tool, a, {});
    REQUIRE_FALSE(built.has_value());
    CHECK_THAT(built.error().message,
        Catch::Contains("`tenant_identifier`") && Catch::Contains("8192 bytes"));
    a["tenant_identifier"] = std::string(8 * 1024, 't');
    CHECK(build_request(*ledger.toolkit, *ledger.tool, a, {}).has_value());
    for (std::string bad : { std::string("a\x01"
                                         "b"),
             std::string("a\x7f"),
             std::string("a\x1b"
                         "b") }) {
        a["tenant_identifier"] = bad;
        auto refused = build_request(*ledger.toolkit, *ledger.tool, a, {});
        REQUIRE_FALSE(refused.has_value());
        CHECK_THAT(refused.error().message, Catch::Contains("control characters"));
    }
    a["tenant_identifier"] = "tab\tok";
    CHECK(build_request(*ledger.toolkit, *ledger.tool, a, {}).has_value());
}

TEST_CASE("an empty path value is refused, naming the argument", "[toolkits][request]")
{
    auto message = refusal(fx::store, fx::get_folder, R"({"folder_id":""})");
    CHECK_THAT(message, Catch::Contains("`folder_id`") && Catch::Contains("path segment"));
}

TEST_CASE("a placeholder inside a segment is filled and encoded", "[toolkits][request]")
{
    auto p = build(fx::store, fx::thumbnail, R"({"file_id":"12","extension":"png"})");
    CHECK(p.request.url == "https://api.box.com/2.0/files/12/thumbnail.png");
}

TEST_CASE("query values follow their type and array format", "[toolkits][request]")
{
    SECTION("comma joins once, a comma inside an item is encoded")
    {
        auto p = build(fx::store, fx::get_folder, R"({"folder_id":"0","fields":["name","x,y"]})");
        CHECK(p.request.url == "https://api.box.com/2.0/folders/0?fields=name,x%2Cy");
    }
    SECTION("repeat sends the key per item")
    {
        auto p
            = build(fx::store, fx::folder_items, R"({"folder_id":"0","event_types":["a","b c"]})");
        CHECK(p.request.url
            == "https://api.box.com/2.0/folders/0/items?event_type=a&event_type=b%20c");
    }
    SECTION("booleans, integers (also integral doubles) and fractions")
    {
        auto p = build(fx::store, fx::folder_items,
            R"({"folder_id":"0","max_items":5.0,"min_score":0.25,"sort_ascending":false})");
        CHECK(p.request.url
            == "https://api.box.com/2.0/folders/0/items?limit=5&score=0.25&asc=false");
    }
    SECTION("separators in a value stay inside it")
    {
        auto p = build(fx::desk, fx::list_assets, R"({"search_query":"a&b=c#d+e"})");
        CHECK(p.request.url.ends_with("/assets?search=a%26b%3Dc%23d%2Be"));
    }
    SECTION("an empty array sends nothing")
    {
        auto p = build(fx::store, fx::get_folder, R"({"folder_id":"0","fields":[]})");
        CHECK(p.request.url == "https://api.box.com/2.0/folders/0");
    }
}

TEST_CASE("arguments left out are not sent, defaults included", "[toolkits][request]")
{
    auto p = build(fx::store, fx::folder_items, R"({"folder_id":"7","max_items":null})");
    CHECK(p.request.url == "https://api.box.com/2.0/folders/7/items");
    CHECK(p.request.body.empty());
    CHECK(p.request.method == "GET");
    CHECK(header(p, "box-version") == "2024.0");
}

TEST_CASE("Box marker pagination adds usemarker=true only when a marker is given",
    "[toolkits][request][quirk]")
{
    CHECK(build(fx::store, fx::folder_items, R"({"folder_id":"0","pagination_start_marker":"m1"})")
              .request.url
        == "https://api.box.com/2.0/folders/0/items?marker=m1&usemarker=true");
    CHECK(
        build(fx::store, fx::folder_items,
            R"({"folder_id":"0","pagination_start_marker":"m1","use_marker_based_pagination":false})")
            .request.url
        == "https://api.box.com/2.0/folders/0/items?marker=m1&usemarker=false");
    CHECK(build(fx::store, fx::folder_items, R"({"folder_id":"0"})").request.url
        == "https://api.box.com/2.0/folders/0/items");
}

TEST_CASE("a parameter the specification calls URL-encoded is sent as given",
    "[toolkits][request][quirk]")
{
    auto [given, sent] = GENERATE(table<std::string, std::string>({
        { "%22department_id%3A5%22", "%22department_id%3A5%22" },
        { "\"department_id:5\"", "%22department_id:5%22" },
        { "a b&c#d", "a%20b%26c%23d" },
        { "100%", "100%25" },
    }));
    json::object a;
    a["asset_filter_query"] = given;
    auto built = build_request(fx::desk, fx::list_assets, a, {});
    REQUIRE(built.has_value());
    CHECK(built->request.url
        == "https://{DESK_SUBDOMAIN}.freshservice.com/api/v2/assets?filter=" + sent);
}

TEST_CASE("header arguments travel as headers, line breaks are refused", "[toolkits][request]")
{
    auto p = build(fx::ledger, fx::ledger.tools[0],
        R"({"invoice_id":"INV-1","tenant_id":"t-1","invoice_ids":["a","b"]})");
    CHECK(header(p, "xero-tenant-id") == "t-1");
    CHECK(header(p, "Accept") == "application/pdf");
    CHECK(p.request.url == "https://api.xero.com/api.xro/2.0/Invoices/INV-1?IDs=a,b");

    auto value = GENERATE(
        as<std::string> {}, "v1\r\nX-Evil: 1", "v1\nX-Evil: 1", "v1\rx", std::string("v1\0x", 4));
    json::object a;
    a["file_id"] = "1";
    a["etag"] = value;
    auto built = build_request(fx::store, fx::update_file, a, {});
    REQUIRE_FALSE(built.has_value());
    CHECK_THAT(built.error().message, Catch::Contains("`etag`") && Catch::Contains("line break"));
}

TEST_CASE("a caller-supplied Authorization header is marked secret", "[toolkits][request]")
{
    auto p = build(fx::engine, fx::engine_projects, R"({"bearer_token":"Bearer jwt-1"})");
    CHECK(header(p, "Authorization") == "Bearer jwt-1");
    CHECK(p.request.secret_headers == std::vector<std::string> { "authorization" });
    CHECK(p.redactions == std::vector<std::string> { "Bearer jwt-1" });
}

TEST_CASE("body arguments nest by dotted wire names", "[toolkits][request]")
{
    auto p = build(fx::store, fx::update_file,
        R"({"file_id":"9","new_name":"a.txt","parent_folder_id":"0","lock_access":"lock","tags":["x"]})");
    CHECK(p.request.method == "PUT");
    CHECK(json::parse(p.request.body)
        == json::parse(
            R"({"name":"a.txt","parent":{"id":"0"},"lock":{"access":"lock"},"tags":["x"]})"));
    CHECK(header(p, "Content-Type") == "application/json");

    SECTION("a body operation without body arguments sends an empty object")
    {
        CHECK(build(fx::store, fx::update_file, R"({"file_id":"9"})").request.body == "{}");
    }
}

TEST_CASE("a body wire name segment ending in [] is a one-element array of objects",
    "[toolkits][request]")
{
    json::value const details = "Paid in full";
    json::value const count = 3;
    body_field const fields[] = { { "history_details", "HistoryRecords[].Details", &details },
        { "count", "HistoryRecords[].Count", &count } };
    auto body = make_json_body(fields);
    REQUIRE(body.has_value());
    CHECK(json::parse(*body)
        == json::parse(R"({"HistoryRecords":[{"Details":"Paid in full","Count":3}]})"));
}

TEST_CASE("a multipart file part's type cannot start another header", "[toolkits][request]")
{
    form_field const fields[] = { { "file", "bytes", "a.txt", "text/plain\r\nX-Injected: 1" } };
    auto const body = make_multipart_body(fields).body;
    CHECK(body.find("\r\nX-Injected") == std::string::npos);
    CHECK(body.find("Content-Type: text/plain%0D%0AX-Injected: 1\r\n") != std::string::npos);
}

TEST_CASE("an entire-body argument is the body", "[toolkits][request]")
{
    auto p = build(
        fx::vectordb, fx::delete_tenants, R"({"class_name":"Doc","tenant_names":["a","b"]})");
    CHECK(p.request.method == "DELETE");
    CHECK(p.request.body == R"(["a","b"])");
    CHECK(p.request.url == "{VECTORDB_SERVER_URL}/v1/schema/Doc/tenants");
}

TEST_CASE("form arguments make an urlencoded body", "[toolkits][request]")
{
    auto p = build(fx::desk, fx::submit_form, R"({"subject":"a b&c","cc_emails":["x@y","z"]})");
    CHECK(p.request.body == "subject=a%20b%26c&cc_emails=x%40y&cc_emails=z");
    CHECK(header(p, "Content-Type") == "application/x-www-form-urlencoded");
}

TEST_CASE("the Kanban attachment is a multipart file part", "[toolkits][request][quirk]")
{
    auto p = build(fx::kanban, fx::add_attachment,
        R"({"card_id":"c1","file_attachment":"hello","attachment_name":"notes.txt",
                       "attachment_mime_type":"text/plain"})");
    CHECK(p.request.url
        == "https://api.trello.com/1/cards/c1/attachments?mimeType=text%2Fplain&name=notes.txt");
    auto const type = header(p, "Content-Type");
    REQUIRE(type.starts_with("multipart/form-data; boundary="));
    auto const boundary = type.substr(type.find('=') + 1);
    CHECK(p.request.body
        == "--" + boundary
            + "\r\nContent-Disposition: form-data; name=\"file\"; "
              "filename=\"notes.txt\"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--"
            + boundary + "--\r\n");

    SECTION("without a name the part is still a file")
    {
        auto q = build(fx::kanban, fx::add_attachment, R"({"card_id":"c1","file_attachment":"x"})");
        CHECK_THAT(q.request.body,
            Catch::Contains("filename=\"attachment\"")
                && Catch::Contains("application/octet-stream"));
    }
}

TEST_CASE("an M-tool answers get_request_schema locally", "[toolkits][request][m-tool]")
{
    auto local = answer_locally(fx::execute_tool, args(R"({"mode":"get_request_schema"})"));
    REQUIRE(local.has_value());
    CHECK_FALSE(local->is_error);
    CHECK(local->content.at(0).text == fx::execute_tool.request_body_schema);
    REQUIRE(local->structured);
    CHECK(local->structured->at("required").at(0) == "tool_name");

    CHECK_FALSE(answer_locally(fx::execute_tool, args(R"({"mode":"execute"})")).has_value());
    CHECK_FALSE(
        answer_locally(fx::get_folder, args(R"({"mode":"get_request_schema"})")).has_value());
}

TEST_CASE("an M-tool executes its request_body with extras in path and query",
    "[toolkits][request][m-tool]")
{
    auto p = build(fx::deploy, fx::accept_transfer,
        R"({"mode":"execute","project_transfer_code":"c/1","team_identifier":"t1",
                       "request_body":"  {\"newProjectName\": \"p\"}\n"})");
    CHECK(p.request.method == "PUT");
    CHECK(p.request.url == "https://api.vercel.com/projects/transfer-request/c%2F1?teamId=t1");
    CHECK(p.request.body == R"({"newProjectName": "p"})");
    CHECK(header(p, "Content-Type") == "application/json");

    SECTION("request_body and the extras are required when executing")
    {
        auto message = refusal(fx::deploy, fx::accept_transfer, R"({"mode":"execute"})");
        CHECK_THAT(message,
            Catch::Contains("`project_transfer_code`") && Catch::Contains("`request_body`")
                && Catch::Contains("get_request_schema"));
    }
    SECTION("invalid JSON is refused with its position")
    {
        auto [text, where] = GENERATE(table<std::string, std::string>({
            { R"({"a": tru})", "line 1, column 7" },
            { "{\"a\": 1,\n  \"b\": x}", "line 2, column 8" },
            { R"({"a": 1)", "line 1, column 8" },
            { R"({} {})", "line 1, column 4" },
        }));
        json::object a;
        a["mode"] = "execute";
        a["project_transfer_code"] = "c";
        a["request_body"] = text;
        auto built = build_request(fx::deploy, fx::accept_transfer, a, {});
        REQUIRE_FALSE(built.has_value());
        CHECK_THAT(built.error().message,
            Catch::StartsWith("argument `request_body` is not valid "
                              "JSON at "
                + where + ": "));
    }
}

TEST_CASE(
    "a base-URL override replaces whichever base the tool uses", "[toolkits][request][base-url]")
{
    base_url_overrides overrides;
    overrides.set(*parse_base_url_override("StoreApi=https://127.0.0.1:8443/base/"));
    auto [tool, arguments, url] = GENERATE(table<tool_spec const*, std::string, std::string>({
        { &fx::get_folder, R"({"folder_id":"1"})", "https://127.0.0.1:8443/base/folders/1" },
        { &fx::abort_upload, R"({"upload_session_id":"u1"})",
            "https://127.0.0.1:8443/base/files/upload_sessions/u1" },
        { &fx::download_zip, R"({"zip_download_id":"z1"})",
            "https://127.0.0.1:8443/base/zip_downloads/z1/content" },
    }));
    auto p = build(fx::store, *tool, arguments, overrides);
    CHECK(p.request.url == url);
    CHECK(p.base_overridden);

    SECTION("other toolkits keep their base")
    {
        CHECK(build(fx::search, fx::search.tools[0], R"({"webset_id":"w"})", overrides).request.url
            == "https://api.exa.ai/websets/v0/websets/w");
    }
}

TEST_CASE("an override replaces a secret base placeholder too", "[toolkits][request][base-url]")
{
    base_url_overrides overrides;
    overrides.set(*make_base_url_override("VectorDbApi", "http://127.0.0.1:9000"));
    CHECK(build(fx::vectordb, fx::get_schema, "{}", overrides).request.url
        == "http://127.0.0.1:9000/schema");
}

TEST_CASE("base-URL overrides parse with clear errors", "[toolkits][base-url]")
{
    std::string_view const known[] = { "StoreApi", "DeskApi" };
    auto ok = parse_base_url_override("storeapi=https://h:1/p", known);
    REQUIRE(ok.has_value());
    CHECK(ok->toolkit == "StoreApi");
    CHECK(ok->url == "https://h:1/p");
    CHECK(base_url_variable("StoreApi") == "TOOLGATE_BASE_URL_STOREAPI");

    auto [text, complaint] = GENERATE(table<std::string, std::string>({
        { "StoreApi", "Toolkit=URL" },
        { "=https://h", "toolkit name is empty" },
        { "Nope=https://h", "unknown toolkit `Nope` (known: StoreApi, DeskApi)" },
        { "StoreApi=ftp://h", "https:// or http://" },
        { "StoreApi=not a url", "not an absolute URL" },
        { "StoreApi=https://u:secret@h", "user:password@" },
        { "StoreApi=https://h/p?x=1", "?query" },
    }));
    auto bad = parse_base_url_override(text, known);
    REQUIRE_FALSE(bad.has_value());
    CHECK_THAT(bad.error().message, Catch::Contains(complaint));
    CHECK_THAT(bad.error().message, !Catch::Contains("secret"));
}

TEST_CASE("an override cannot apply to a URL outside the toolkit's bases", "[toolkits][base-url]")
{
    static constexpr tool_spec stray
        = fx::tool("Stray", { "GET", "https://elsewhere.example/x", {}, "" });
    base_url_overrides overrides;
    overrides.set(*make_base_url_override("StoreApi", "https://127.0.0.1:1"));
    auto resolved = resolve_url_template(fx::store, stray, overrides);
    REQUIRE_FALSE(resolved.has_value());
    CHECK_THAT(resolved.error().message,
        Catch::Contains("StoreApi.Stray") && Catch::Contains("nothing was sent"));
}

TEST_CASE("a dropdown option is sent with its text, colour and position", "[toolkits][request]")
{
    // A repaired binding (toolkits/README.md): the vendor's tool sent only the field's id.
    auto const tool = find_tool("KanbanApi.AddDropdownOptionCustomField").value();
    auto built = build_request(*tool.toolkit, *tool.tool,
        args(R"({"custom_field_id":"5abbe4b7ddc1b351ef961414","option_text":"High",)"
             R"("option_color":"red","option_position":"bottom"})"),
        {});
    REQUIRE(built.has_value());
    CHECK(built->request.method == "POST");
    CHECK(built->request.url.ends_with("/customFields/5abbe4b7ddc1b351ef961414/options"));
    CHECK(json::parse(built->request.body)
        == json::parse(R"({"value":{"text":"High"},"color":"red","pos":"bottom"})"));
    CHECK(header(*built, "Content-Type") == "application/json");
    auto const empty_text = validate_arguments(*tool.toolkit, *tool.tool,
        args(R"({"custom_field_id":"5abbe4b7ddc1b351ef961414","option_text":""})"));
    REQUIRE(empty_text.has_error());
    CHECK_THAT(empty_text.error().message, Catch::Contains("option_text"));
}
