// Focused end-to-end cases through the real stack (catalogue_provider -> http_executor ->
// https_client -> TLS -> the fake platform): hostile path values, header injection, both
// M-tool modes, missing secrets, error mapping, 304/204, binary answers, connection reuse,
// TLS verification, deadlines, the size cap, and secrets kept out of every result.
#include "tool_calls.hpp"
#include "toolkits/catalogue.hpp"
#include "upstream_stack.hpp"

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <catch2/catch.hpp>

using namespace toolgate;
using namespace toolgate::upstream_test;
using namespace std::chrono_literals;
namespace json = boost::json;
using block_kind = protocol::content_block::kind;

namespace {

json::object args(std::string_view text)
{
    return json::parse(text).as_object();
}

/// Generated arguments (tool_calls.cpp) for `Toolkit.Tool`.
json::object generated(std::string_view qualified, variant v = variant::required_only)
{
    auto ref = toolkits::find_tool(qualified);
    REQUIRE(ref.has_value());
    return make_arguments(*ref->toolkit, *ref->tool, v);
}

std::string text_of(protocol::call_result const& result)
{
    REQUIRE(result.content.size() == 1);
    return result.content[0].text;
}

std::map<std::string, std::string, std::less<>> secrets_without(
    std::initializer_list<std::string_view> variables)
{
    auto values = fake_secrets();
    for (auto v : variables) {
        values.erase(values.find(v));
    }
    return values;
}

test::fake_response json_answer(unsigned status, std::string body, test::header_pairs extra = {})
{
    test::header_pairs headers = { { "Content-Type", "application/json" } };
    headers.insert(headers.end(), extra.begin(), extra.end());
    return { status, std::move(headers), std::move(body) };
}

} // namespace

TEST_CASE("Hostile path values cannot change the path or the query", "[upstream][request]")
{
    upstream_stack s;
    std::string const hostile[] = { "../x", "a/b", "?", "#", "a b", "\xC3\xBC\xE6\x97\xA5", "%2F",
        "...", "x?y=1#frag", "..%2F..", "a\\b", "%00;x", "&k=v" };
    for (auto const& value : hostile) {
        INFO("folder_unique_identifier = `" << value << "`");
        json::object call;
        call["folder_unique_identifier"] = value;
        auto result = s.call("StoreApi.GetFolderDetails", call);
        CHECK_FALSE(result.is_error);
        auto seen = s.fake.requests();
        REQUIRE_FALSE(seen.empty());
        auto const& request = seen.back();
        INFO("target: " << request.target);
        CHECK(request.target.find('?') == std::string::npos);
        CHECK(request.target.find('#') == std::string::npos);
        CHECK(request.query().empty());
        std::string const prefix = "/StoreApi/folders/";
        REQUIRE(request.path().starts_with(prefix));
        auto const segment = request.path().substr(prefix.size());
        CHECK(segment.find('/') == std::string::npos);
        CHECK(segment != ".");
        CHECK(segment != "..");
        CHECK(percent_decode(segment) == value);
    }
    CHECK(s.fake.request_count() == std::size(hostile));
}

TEST_CASE("A header argument with CR or LF is refused and nothing is sent", "[upstream][request]")
{
    upstream_stack s;
    for (std::string_view bad : { "tenant\r\nX-Injected: yes", "tenant\nX-Injected: yes",
             "tenant\rX-Injected: yes", "tenant\r\n\r\nGET / HTTP/1.1" }) {
        INFO("tenant_identifier = " << json::serialize(json::string(bad)));
        json::object call;
        call["invoice_id"] = "inv-1";
        call["tenant_identifier"] = bad;
        auto result = s.call("LedgerApi.RetrieveInvoicePdf", call);
        CHECK(result.is_error);
        auto const text = text_of(result);
        CHECK_THAT(text, Catch::Contains("tenant_identifier"));
        CHECK_THAT(text, Catch::Contains("nothing was sent"));
    }
    auto etag = s.call("StoreApi.DeleteFolder",
        args(R"({"folder_identifier":"f1","ensure_unchanged_etag":"1\r\nX: y"})"));
    CHECK(etag.is_error);
    CHECK_THAT(text_of(etag), Catch::Contains("ensure_unchanged_etag"));
    CHECK(s.fake.request_count() == 0);
    CHECK(s.fake.connections_accepted() == 0);
}

TEST_CASE(
    "An M-tool answers get_request_schema without contacting the platform", "[upstream][m-tool]")
{
    upstream_stack s;
    auto result
        = s.call("DeployApi.AcceptProjectTransfer", args(R"({"mode":"get_request_schema"})"));
    CHECK_FALSE(result.is_error);
    auto ref = toolkits::find_tool("DeployApi.AcceptProjectTransfer");
    REQUIRE(ref.has_value());
    CHECK(json::parse(text_of(result)) == json::parse(ref->tool->request_body_schema));
    CHECK(result.structured.has_value());
    CHECK(s.fake.request_count() == 0);
    CHECK(s.fake.connections_accepted() == 0);
}

TEST_CASE("An M-tool execute with invalid JSON is refused quoting the error position",
    "[upstream][m-tool]")
{
    upstream_stack s;
    json::object call;
    call["mode"] = "execute";
    call["project_transfer_code"] = "code-1";
    call["request_body"] = "{\"probe\": 1,\n  \"name\": }";
    auto result = s.call("DeployApi.AcceptProjectTransfer", call);
    CHECK(result.is_error);
    auto const text = text_of(result);
    CHECK_THAT(text, Catch::Contains("request_body"));
    CHECK_THAT(text, Catch::Contains("line 2, column 11"));

    SECTION("and execute without a request_body names it")
    {
        auto missing = s.call("DeployApi.AcceptProjectTransfer",
            args(R"({"mode":"execute","project_transfer_code":"code-1"})"));
        CHECK(missing.is_error);
        CHECK_THAT(text_of(missing), Catch::Contains("request_body"));
    }
    CHECK(s.fake.request_count() == 0);
}

TEST_CASE("An M-tool execute sends its request body with the extras in path and query",
    "[upstream][m-tool]")
{
    upstream_stack s;
    auto result = s.call(
        "DeployApi.AcceptProjectTransfer", args(R"({"mode":"execute","project_transfer_code":"c/1",
                                  "team_identifier":"team 1",
                                  "request_body":"{\"newProjectName\":\"p\"}"})"));
    CHECK_FALSE(result.is_error);
    auto seen = s.fake.requests();
    REQUIRE(seen.size() == 1);
    CHECK(seen[0].method == "PUT");
    CHECK(seen[0].target == "/DeployApi/projects/transfer-request/c%2F1?teamId=team%201");
    CHECK(json::parse(seen[0].body) == json::parse(R"({"newProjectName":"p"})"));
    CHECK(seen[0].header("Content-Type") == "application/json");
    CHECK(seen[0].header("Authorization") == "Bearer " + secret("DEPLOY_ACCESS_TOKEN"));
}

TEST_CASE(
    "A missing secret is a tool error naming the variable, and nothing is sent", "[upstream][auth]")
{
    struct missing_case {
        std::string_view tool;
        std::string_view variable;
    };
    missing_case const cases[] = {
        { "StoreApi.GetFolderDetails", "STORE_ACCESS_TOKEN" },
        { "LedgerApi.RetrieveInvoicePdf", "LEDGER_ACCESS_TOKEN" },
        { "CoreEngineApi.GetToolsList", "ENGINE_API_KEY" },
        { "SearchApi.GetWebhooksList", "SEARCH_API_KEY" },
        { "DeskApi.ListAssets", "DESK_API_KEY" },
        { "KanbanApi.GetKanbanBoard", "KANBAN_TOKEN" },
        { "KanbanApi.GetKanbanBoard", "KANBAN_API_KEY" },
        { "VectorDbApi.RetrieveDatabaseSchema", "VECTORDB_API_KEY" },
        { "DeployApi.AcceptProjectTransfer", "DEPLOY_ACCESS_TOKEN" },
    };
    for (auto const& c : cases) {
        INFO(c.tool << " without " << c.variable);
        upstream_stack s(stack_options(), secrets_without({ c.variable }));
        auto result = s.call(c.tool, generated(c.tool));
        CHECK(result.is_error);
        auto const text = text_of(result);
        CHECK_THAT(text, Catch::Contains(std::string(c.variable)));
        CHECK_THAT(text, Catch::Contains("not set"));
        CHECK_FALSE(leaks_secret(text));
        CHECK(s.fake.request_count() == 0);
    }
}

TEST_CASE("Tools that need no secret, and host secrets replaced by an override, work without them",
    "[upstream][auth]")
{
    upstream_stack s(stack_options(), {});
    for (std::string_view tool :
        { "CoreEngineApi.CheckEngineHealth", "CoreEngineApi.GetOpenapiSpecification" }) {
        INFO(tool);
        auto result = s.call(tool, {});
        CHECK_FALSE(result.is_error);
        auto seen = s.fake.requests();
        REQUIRE_FALSE(seen.empty());
        CHECK_FALSE(seen.back().has_header("Authorization"));
        CHECK_FALSE(seen.back().has_header("x-api-key"));
    }
    // With a base-URL override the account host (DESK_SUBDOMAIN) and the server URL
    // (VECTORDB_SERVER_URL) are not needed; the API keys still are.
    upstream_stack o(stack_options(), secrets_without({ "DESK_SUBDOMAIN", "VECTORDB_SERVER_URL" }));
    CHECK_FALSE(o.call("DeskApi.ListAssets", {}).is_error);
    CHECK_FALSE(o.call("VectorDbApi.RetrieveDatabaseSchema", {}).is_error);
    auto seen = o.fake.requests();
    REQUIRE(seen.size() == 2);
    CHECK(seen[0].target == "/DeskApi/assets");
    CHECK(seen[1].target == "/VectorDbApi/schema");
}

TEST_CASE(
    "HTTP error answers become isError results with status, body and hint", "[upstream][errors]")
{
    upstream_stack s;
    auto const call = args(R"({"folder_identifier":"folder-42","ensure_unchanged_etag":"etag-7"})");
    struct error_case {
        unsigned status;
        test::header_pairs headers;
        std::vector<std::string_view> says;
    };
    error_case const cases[] = {
        { 401, {}, { "HTTP 401 Unauthorized", "STORE_ACCESS_TOKEN", "not accept" } },
        { 403, {}, { "HTTP 403 Forbidden", "STORE_ACCESS_TOKEN", "permission" } },
        { 404, {}, { "HTTP 404 Not Found", "folder_identifier = `folder-42`" } },
        { 412, {}, { "HTTP 412 Precondition Failed", "etag", "If-Match" } },
        { 429, { { "Retry-After", "120" } },
            { "HTTP 429 Too Many Requests", "rate limited", "120 seconds" } },
        { 500, {}, { "HTTP 500 Internal Server Error", "retrying later" } },
    };
    for (auto const& c : cases) {
        INFO("status " << c.status);
        auto const before = s.fake.request_count();
        s.fake.push(json_answer(
            c.status, R"({"error": {"code": "E)" + std::to_string(c.status) + R"("}})", c.headers));
        auto result = s.call("StoreApi.DeleteFolder", call);
        CHECK(result.is_error);
        auto const text = text_of(result);
        INFO(text);
        CHECK_THAT(text, Catch::StartsWith("StoreApi.DeleteFolder failed"));
        for (auto phrase : c.says) {
            CHECK_THAT(text, Catch::Contains(std::string(phrase)));
        }
        CHECK_THAT(text,
            Catch::Contains(
                R"(The platform said: {"error":{"code":"E)" + std::to_string(c.status) + R"("}})"));
        // A Retry-After beyond the deadline and a 500 are not retried.
        CHECK(s.fake.request_count() == before + 1);
    }
    // The server carries on: the next call succeeds on the same connection.
    CHECK_FALSE(s.call("StoreApi.DeleteFolder", call).is_error);
    CHECK(s.fake.tls_handshakes() == 1);
}

TEST_CASE("304 and 204 answers are not errors", "[upstream][results]")
{
    upstream_stack s;
    s.fake.push({ 304, { { "ETag", "\"e1\"" } }, "" });
    auto unchanged = s.call("StoreApi.GetFolderDetails",
        args(R"({"folder_unique_identifier":"f1","ensure_item_has_changed":"e1"})"));
    CHECK_FALSE(unchanged.is_error);
    CHECK_THAT(text_of(unchanged), Catch::Contains("unchanged"));
    CHECK(s.fake.requests().back().header("if-none-match") == "e1");

    s.fake.push({ 204, {}, "" });
    auto empty = s.call("StoreApi.DeleteFolder", args(R"({"folder_identifier":"f1"})"));
    CHECK_FALSE(empty.is_error);
    CHECK_THAT(text_of(empty), Catch::Contains("no content"));
    CHECK_THAT(text_of(empty), Catch::Contains("204"));
}

TEST_CASE(
    "Binary answers become image or embedded-resource content in base64", "[upstream][results]")
{
    upstream_stack s;
    std::string const png("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\xff\xfe", 18);
    s.fake.push({ 200, { { "Content-Type", "image/png" } }, png });
    auto image = s.call("StoreApi.RetrieveFileThumbnail",
        args(R"({"file_identifier":"file-1","thumbnail_file_format":"png"})"));
    CHECK_FALSE(image.is_error);
    REQUIRE(image.content.size() == 1);
    CHECK(image.content[0].type == block_kind::image);
    CHECK(image.content[0].mime_type == "image/png");
    CHECK(image.content[0].text == base64(png));
    CHECK(s.fake.requests().back().path() == "/StoreApi/files/file-1/thumbnail.png");

    std::string const pdf("%PDF-1.7\n\0\x01\x02\xff\xfe%%EOF", 20);
    s.fake.push({ 200, { { "Content-Type", "application/pdf" } }, pdf });
    auto document = s.call("LedgerApi.RetrieveInvoicePdf",
        args(R"({"invoice_id":"inv-1","tenant_identifier":"tenant-1"})"));
    CHECK_FALSE(document.is_error);
    REQUIRE(document.content.size() == 1);
    CHECK(document.content[0].type == block_kind::resource);
    CHECK(document.content[0].mime_type == "application/pdf");
    CHECK(document.content[0].text == base64(pdf));
    CHECK_FALSE(document.content[0].uri.empty());
    auto sent = s.fake.requests().back();
    CHECK(sent.header("Accept") == "application/pdf");
    CHECK(sent.header("xero-tenant-id") == "tenant-1");

    std::string const bytes("\0\x01\x02\x03zip\xff", 8);
    s.fake.push({ 200, { { "Content-Type", "application/octet-stream" } }, bytes });
    auto attachment = s.call("LedgerApi.FetchBankTransferAttachment",
        generated("LedgerApi.FetchBankTransferAttachment"));
    CHECK_FALSE(attachment.is_error);
    REQUIRE(attachment.content.size() == 1);
    CHECK(attachment.content[0].type == block_kind::resource);
    CHECK(attachment.content[0].mime_type == "application/octet-stream");
    CHECK(attachment.content[0].text == base64(bytes));
    CHECK(s.fake.requests().back().header("Accept") == "application/octet-stream");
}

TEST_CASE("Sequential calls to every toolkit reuse one warm connection", "[upstream][pool]")
{
    upstream_stack s;
    std::string_view const tools[] = {
        "StoreApi.GetFolderDetails",
        "CoreEngineApi.CheckEngineHealth",
        "SearchApi.GetWebhooksList",
        "LedgerApi.RetrieveInvoicePdf",
        "DeskApi.ListAssets",
        "KanbanApi.GetKanbanBoard",
        "VectorDbApi.RetrieveDatabaseSchema",
        "DeployApi.AcceptProjectTransfer",
        "StoreApi.DeleteFolder",
        "KanbanApi.GetKanbanBoard",
    };
    for (auto tool : tools) {
        INFO(tool);
        CHECK_FALSE(s.call(tool, generated(tool)).is_error);
    }
    CHECK(s.fake.request_count() == std::size(tools));
    CHECK(s.fake.tls_handshakes() == 1);
    CHECK(s.fake.connections_accepted() == 1);
    for (auto const& request : s.fake.requests()) {
        CHECK(request.connection == 1);
    }
}

TEST_CASE("No fake secret appears in any tool result, even when errors echo the request",
    "[upstream][secrets]")
{
    upstream_stack s;
    unsigned const statuses[] = { 400, 401, 403, 404, 409, 412, 422, 500 };
    std::size_t n = 0;
    s.fake.set_handler([&](test::recorded_request const& request) {
        // An error body that repeats everything the platform received.
        json::object echo;
        echo["method"] = request.method;
        echo["target"] = request.target;
        json::object headers;
        for (auto const& [k, v] : request.headers) {
            headers[k] = v;
        }
        echo["headers"] = std::move(headers);
        echo["body"] = request.body;
        return json_answer(statuses[n++ % std::size(statuses)], json::serialize(echo));
    });
    std::size_t calls = 0;
    for (auto const* toolkit : toolkits::all_toolkits()) {
        for (auto const& tool : toolkit->tools) {
            auto const name = std::string(toolkit->name) + "." + std::string(tool.name);
            INFO(name);
            auto result = s.call(name, make_arguments(*toolkit, tool, variant::required_only));
            CHECK(result.is_error);
            auto const text = all_text(result);
            INFO(text);
            CHECK_FALSE(leaks_secret(text));
            ++calls;
        }
    }
    CHECK(calls == 1150);
    CHECK(s.fake.request_count() == 1150);
}

TEST_CASE("An untrusted platform certificate is a clear tool error", "[upstream][tls]")
{
    using cert = test::fake_platform_options::certificate;
    for (auto kind : { cert::unknown_ca, cert::wrong_host }) {
        INFO((kind == cert::unknown_ca ? "unknown CA" : "wrong host name"));
        upstream_stack s(stack_options(), fake_secrets(), { kind, true });
        auto result = s.call("StoreApi.GetFolderDetails", generated("StoreApi.GetFolderDetails"));
        CHECK(result.is_error);
        auto const text = text_of(result);
        CHECK_THAT(text, Catch::Contains("TLS handshake"));
        CHECK_THAT(text, Catch::Contains("127.0.0.1"));
        CHECK_FALSE(leaks_secret(text));
        CHECK(s.fake.request_count() == 0);
    }
}

TEST_CASE("A platform that does not answer in time, or answers too much, is a clear tool error",
    "[upstream][errors]")
{
    auto options = stack_options();
    options.deadline = 300ms;
    options.max_response_bytes = 4096;
    upstream_stack s(options);

    test::fake_response stall;
    stall.action = test::fake_action::stall;
    s.fake.push(stall);
    auto late
        = s.call("DeployApi.AcceptProjectTransfer", generated("DeployApi.AcceptProjectTransfer"));
    CHECK(late.is_error);
    CHECK_THAT(text_of(late), Catch::Contains("deadline"));
    CHECK_THAT(text_of(late), Catch::Contains("may still have carried out"));

    s.fake.push(json_answer(200, R"({"data":")" + std::string(10000, 'x') + R"("})"));
    auto big = s.call("StoreApi.GetFolderDetails", generated("StoreApi.GetFolderDetails"));
    CHECK(big.is_error);
    CHECK_THAT(text_of(big), Catch::Contains("size limit"));
}

TEST_CASE("A 503 with Retry-After is retried through the whole stack and then succeeds",
    "[upstream][errors]")
{
    upstream_stack s;
    s.fake.push(json_answer(503, R"({"error":"busy"})", { { "Retry-After", "0" } }));
    auto result = s.call("StoreApi.GetFolderDetails", generated("StoreApi.GetFolderDetails"));
    CHECK_FALSE(result.is_error);
    CHECK(s.fake.request_count() == 2);
}

TEST_CASE("Cancelling a call aborts the upstream request", "[upstream][cancel]")
{
    upstream_stack s;
    test::fake_response stall;
    stall.action = test::fake_action::stall;
    s.fake.push(stall);
    auto const* tool = s.provider.find("StoreApi.GetFolderDetails");
    REQUIRE(tool != nullptr);
    boost::asio::cancellation_signal signal;
    std::optional<protocol::call_result> result;
    std::exception_ptr failure;
    boost::asio::co_spawn(s.ioc,
        s.provider.call(*tool, generated("StoreApi.GetFolderDetails"), s.context),
        boost::asio::bind_cancellation_slot(
            signal.slot(), [&](std::exception_ptr e, protocol::call_result r) {
                failure = e;
                result = std::move(r);
            }));
    auto const until = std::chrono::steady_clock::now() + 5s;
    while (s.fake.request_count() == 0 && std::chrono::steady_clock::now() < until) {
        s.ioc.run_one_for(10ms);
    }
    REQUIRE(s.fake.request_count() == 1);
    signal.emit(boost::asio::cancellation_type::terminal);
    while (!result && !failure && std::chrono::steady_clock::now() < until) {
        s.ioc.run_one_for(10ms);
    }
    REQUIRE_FALSE(failure);
    REQUIRE(result.has_value());
    CHECK(result->is_error);
    CHECK_THAT(text_of(*result), Catch::Contains("cancelled"));
    CHECK(s.fake.wait_until([](auto const& f) { return f.connections_closed() == 1; }, 5s));
}

TEST_CASE("A line break in the Kanban attachment's name or type cannot add multipart headers",
    "[upstream][request]")
{
    upstream_stack s;
    json::object call;
    call["card_id"] = "card-1";
    call["file_attachment"] = "file bytes";
    call["attachment_name"] = "a.txt\"\r\nContent-Type: text/evil";
    call["attachment_mime_type"]
        = "text/plain\r\nContent-Disposition: form-data; name=\"injected\"";
    auto result = s.call("KanbanApi.AddAttachmentToKanbanCard", call);
    auto seen = s.fake.requests();
    if (result.is_error) {
        CHECK(seen.empty()); // refused before sending is fine too
        return;
    }
    REQUIRE(seen.size() == 1);
    auto const& body = seen[0].body;
    INFO(body);
    // Every line of the part's head is one of the two headers the part may have.
    auto const head = body.substr(0, body.find("\r\n\r\n"));
    std::size_t lines = 0;
    for (std::size_t at = 0; at != std::string::npos; at = head.find("\r\n", at + 1)) {
        ++lines;
    }
    CHECK(lines == 3); // boundary, Content-Disposition, Content-Type
    CHECK(body.find("\r\nContent-Type: text/evil") == std::string::npos);
    CHECK(body.find("\r\nContent-Disposition: form-data; name=\"injected\"") == std::string::npos);
}

TEST_CASE(
    "A download redirected within the configured platform is followed", "[upstream][redirect]")
{
    upstream_stack s;
    auto const location = s.fake.url("/dl/blob-1?sig=abc"); // the override's own origin
    s.fake.push({ 302, { { "Location", location } }, "" });
    std::string const bytes("PK\x03\x04\0\x01zip-bytes", 15);
    s.fake.push({ 200, { { "Content-Type", "application/zip" } }, bytes });
    auto result = s.call("StoreApi.DownloadFileContent", args(R"({"file_identifier":"file-9"})"));
    CHECK_FALSE(result.is_error);
    REQUIRE(result.content.size() == 1);
    CHECK(result.content[0].type == block_kind::resource);
    CHECK(result.content[0].mime_type == "application/zip");
    CHECK(result.content[0].text == base64(bytes));
    auto seen = s.fake.requests();
    REQUIRE(seen.size() == 2);
    CHECK(seen[0].target == "/StoreApi/files/file-9/content");
    CHECK(seen[1].target == "/dl/blob-1?sig=abc");
}

TEST_CASE("A download redirected to a host nobody allowed comes back as the redirect",
    "[upstream][redirect]")
{
    // Security review finding 5: `localhost` is another origin than the configured
    // 127.0.0.1, listed nowhere, and loopback besides; the 302 is the caller's answer.
    upstream_stack s;
    s.fake.push({ 302, { { "Location", s.fake.url("/dl/blob-1?sig=abc", "localhost") } }, "" });
    auto result = s.call("StoreApi.DownloadFileContent", args(R"({"file_identifier":"file-9"})"));
    CHECK(result.is_error);
    CHECK_THAT(all_text(result), Catch::Contains("HTTP 302") && Catch::Contains("not followed"));
    CHECK(s.fake.request_count() == 1);
}

TEST_CASE("The host a secret holds never appears in an error, whatever the failure",
    "[upstream][secrets]")
{
    // No override for VectorDbApi: its base is VECTORDB_SERVER_URL, pointed at the fake.
    SECTION("an HTTP error whose body names the host")
    {
        upstream_stack s(stack_options(), fake_secrets(), {}, { "VectorDbApi" });
        auto const base = s.fake.url("");
        s.credentials.set("VECTORDB_SERVER_URL", base);
        auto const authority = base.substr(std::string_view("https://").size());
        s.fake.push(json_answer(404,
            R"({"error":"nothing at )" + base + R"(/v1/schema","host":")" + authority + R"("})"));
        auto result = s.call("VectorDbApi.RetrieveDatabaseSchema", {});
        CHECK(result.is_error);
        auto const text = text_of(result);
        INFO(text);
        CHECK_THAT(text, Catch::Contains("HTTP 404"));
        CHECK(text.find("127.0.0.1") == std::string::npos);
        auto seen = s.fake.requests();
        REQUIRE(seen.size() == 1);
        CHECK(seen[0].target == "/v1/schema");
    }
    SECTION("a TLS failure, whose detail names the host")
    {
        using cert = test::fake_platform_options::certificate;
        upstream_stack s(
            stack_options(), fake_secrets(), { cert::unknown_ca, true }, { "VectorDbApi" });
        s.credentials.set("VECTORDB_SERVER_URL", s.fake.url(""));
        auto result = s.call("VectorDbApi.RetrieveDatabaseSchema", {});
        CHECK(result.is_error);
        auto const text = text_of(result);
        INFO(text);
        CHECK_THAT(text, Catch::Contains("TLS handshake"));
        CHECK(text.find("127.0.0.1") == std::string::npos);
    }
}

TEST_CASE("Published forms go to the platform in its own form", "[upstream][request]")
{
    // Issue 11 item 10: a map is published as {key, value} pairs and free-form JSON as JSON
    // text, so strict clients take the tool; the platform still gets its map and objects.
    upstream_stack s;
    auto webhook = s.call("SearchApi.CreateWebhookForNotifications",
        args(R"({"webhook_configuration":{"events":["webset.created"],)"
             R"("url":"https://hooks.example.test/in",)"
             R"("metadata":[{"key":"team","value":"sales"},{"key":"env","value":"prod"}]}})"));
    CHECK_FALSE(webhook.is_error);
    auto seen = s.fake.requests();
    REQUIRE(seen.size() == 1);
    CHECK(json::parse(seen[0].body)
        == json::parse(R"({"events":["webset.created"],"url":"https://hooks.example.test/in",)"
                       R"("metadata":{"team":"sales","env":"prod"}})"));

    auto component = s.call("DeskApi.AddAssetComponent",
        args(R"({"asset_display_id":7,"component_type":"Processor",)"
             R"("component_data":["{\"manufacturer\":\"Intel\",\"cpu_speed\":\"2.1 GHz\"}"]})"));
    CHECK_FALSE(component.is_error);
    seen = s.fake.requests();
    REQUIRE(seen.size() == 2);
    CHECK(json::parse(seen[1].body).at("component_data")
        == json::parse(R"([{"manufacturer":"Intel","cpu_speed":"2.1 GHz"}])"));

    auto broken = s.call("DeskApi.AddAssetComponent",
        args(R"({"asset_display_id":7,"component_data":["{not json"]})"));
    CHECK(broken.is_error);
    CHECK_THAT(text_of(broken),
        Catch::Contains("`component_data` at /0") && Catch::Contains("expected JSON text"));
    CHECK(s.fake.request_count() == 2);
}

TEST_CASE(
    "request_body is checked against the tool's body schema before sending", "[upstream][request]")
{
    // Security review finding 17.
    upstream_stack s;
    auto const call = [&](std::string_view body) {
        json::object a;
        a["mode"] = "execute";
        a["request_body"] = body;
        return s.call("DeployApi.CreateEdgeConfig", a);
    };
    auto array = call("[1,2]");
    CHECK(array.is_error);
    CHECK_THAT(text_of(array), Catch::Contains("must be a JSON object"));
    auto wrong = call(R"({"slug":"has spaces"})");
    CHECK(wrong.is_error);
    CHECK_THAT(text_of(wrong), Catch::Contains("at /slug"));
    auto missing = call(R"({"items":{}})");
    CHECK(missing.is_error);
    CHECK_THAT(text_of(missing), Catch::Contains("slug"));
    CHECK(s.fake.request_count() == 0);
    auto ok = call(R"({"slug":"my-config_1"})");
    CHECK_FALSE(ok.is_error);
    CHECK(s.fake.request_count() == 1);
}
