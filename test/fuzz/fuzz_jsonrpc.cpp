// Fuzz target: JSON-RPC parsing, classification and MCP dispatch over a small fixed tool list
// (paged, so cursors are exercised). The input is up to eight newline-separated messages sent
// in order on one legacy session, so the fuzzer can initialize first and then call; a batch
// (array) is taken apart as the router does. Every answer must serialise to valid JSON.
#include "fuzz_target.hpp"
#include "protocol/dispatcher.hpp"
#include "protocol/jsonrpc.hpp"
#include "protocol/tool_index.hpp"
#include "protocol/tool_pages.hpp"

#include <boost/json/parse.hpp>

#include <string_view>
#include <vector>

namespace protocol = toolgate::protocol;
namespace json = boost::json;

namespace {

protocol::tool_descriptor make_tool(std::string toolkit, std::string tool, std::string schema)
{
    protocol::tool_descriptor d;
    d.name = toolkit + "_" + tool;
    d.dotted_name = toolkit + "." + tool;
    d.own_texts(toolkit + " " + tool, "Does " + tool + ".", std::move(schema));
    d.hints.read_only = tool.starts_with("Get");
    return d;
}

struct fixture {
    std::vector<protocol::tool_descriptor> tools {
        make_tool(
            "StoreApi", "GetOrder", R"({"type":"object","properties":{"id":{"type":"string"}}})"),
        make_tool("StoreApi", "DeleteOrder", R"({"type":"object"})"),
        make_tool("KanbanApi", "GetCard", R"({"type":"object","required":["id"]})"),
        make_tool("LedgerApi", "GetEntry", R"({"type":"object"})"),
    };
    protocol::server_identity identity = [] {
        protocol::server_identity id;
        id.version = "0.0.0-fuzz";
        return id;
    }();
    protocol::tool_pages pages { tools, protocol::tool_naming::wire, 2, identity };
    protocol::tool_index index { tools };
    protocol::dispatcher dispatcher { identity, pages, index };
};

void check_json(std::string const& text)
{
    boost::system::error_code ec;
    auto v = json::parse(text, ec);
    TOOLGATE_FUZZ_CHECK(!ec);
    TOOLGATE_FUZZ_CHECK(v.is_object());
}

void handle(fixture const& f, json::value doc, protocol::legacy_session& session)
{
    auto classified = protocol::classify(std::move(doc));
    if (!classified) {
        auto const& bad = classified.error();
        check_json(protocol::serialize_error(bad.id, bad.error));
        return;
    }
    auto const& msg = *classified;
    auto outcome = f.dispatcher.dispatch(msg, session);
    if (auto const* r = std::get_if<protocol::reply>(&outcome)) {
        check_json(r->flatten());
        TOOLGATE_FUZZ_CHECK(r->http_status >= 200 && r->http_status < 600);
    } else if (auto const* call = std::get_if<protocol::tool_call>(&outcome)) {
        TOOLGATE_FUZZ_CHECK(call->tool != nullptr);
        auto result = protocol::call_result::text("done");
        result.structured = json::value(call->arguments);
        check_json(f.dispatcher.call_reply(*call, result));
        check_json(f.dispatcher.call_reply(*call, protocol::call_result::error("failed")));
    }
}

} // namespace

TOOLGATE_FUZZ_TARGET(jsonrpc)
{
    static fixture const f;
    protocol::legacy_session session;
    std::string_view rest(reinterpret_cast<char const*>(data), size);
    for (int n = 0; n < 8 && !rest.empty(); ++n) {
        auto const newline = rest.find('\n');
        auto const line = rest.substr(0, newline);
        rest = newline == std::string_view::npos ? std::string_view() : rest.substr(newline + 1);
        auto parsed = protocol::parse_json(line, { 16 });
        if (!parsed) {
            check_json(protocol::serialize_error(nullptr, parsed.error()));
            continue;
        }
        auto& doc = *parsed;
        if (doc.is_array()) {
            for (auto& element : doc.get_array()) {
                handle(f, std::move(element), session);
            }
        } else {
            handle(f, std::move(doc), session);
        }
    }
    return 0;
}
