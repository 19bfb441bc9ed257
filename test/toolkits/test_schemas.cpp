// Every inputSchema and request-body schema is a structurally valid JSON Schema 2020-12
// object schema, free of OpenAPI-isms and of vendor prose.
#include "toolkits/catalogue.hpp"
#include "toolkits/reserved_arguments.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>
#include <catch2/catch.hpp>

using namespace toolgate::toolkits;
namespace json = boost::json;

namespace {

/// Walks a schema; `keys` are schema keywords here (not property names).
void check_schema(json::value const& node, bool prose_allowed)
{
    if (node.is_array()) {
        for (auto const& v : node.as_array()) {
            check_schema(v, prose_allowed);
        }
        return;
    }
    if (!node.is_object()) {
        return;
    }
    auto const& o = node.as_object();
    CHECK_FALSE(o.contains("nullable"));
    CHECK_FALSE(o.contains("definitions"));
    for (auto key : { "exclusiveMinimum", "exclusiveMaximum" }) {
        if (auto const* v = o.if_contains(key)) {
            CHECK(v->is_number());
        }
    }
    if (auto const* e = o.if_contains("enum")) {
        REQUIRE(e->is_array());
        CHECK_FALSE(e->as_array().empty());
    }
    if (auto const* r = o.if_contains("$ref")) {
        CHECK_FALSE(std::string_view(r->as_string()).starts_with("#/components"));
    }
    // Vendor examples never: they are the vendor's prose. Descriptions only where ours go
    // (the descriptions issue adds them to body fields and published forms).
    CHECK_FALSE(o.contains("example"));
    CHECK_FALSE(o.contains("examples"));
    CHECK_FALSE(o.contains("title"));
    if (!prose_allowed) {
        CHECK_FALSE(o.contains("description"));
    }
    for (auto const& [key, value] : o) {
        if (key == "properties" || key == "$defs" || key == "patternProperties") {
            for (auto const& [name, sub] : value.as_object()) {
                check_schema(sub, prose_allowed);
            }
        } else if (key != "enum" && key != "const" && key != "default" && key != "required") {
            check_schema(value, prose_allowed);
        }
    }
}

} // namespace

TEST_CASE("every inputSchema is a valid 2020-12 object schema", "[toolkits][schema]")
{
    std::size_t checked = 0;
    for (auto const* kit : all_toolkits()) {
        for (auto const& tool : kit->tools) {
            ++checked;
            INFO(kit->name << "." << tool.name);
            json::value v;
            REQUIRE_NOTHROW(v = json::parse(tool.input_schema));
            auto const& s = v.as_object();
            CHECK(s.at("type") == "object");
            CHECK(s.at("additionalProperties") == false);
            auto const& props = s.at("properties").as_object();
            // The tool's parameters, then toolgate's reserved arguments.
            CHECK(props.size() == tool.params.size() + std::size(reserved_arguments));
            for (auto const& reserved : reserved_arguments) {
                CHECK(props.contains(reserved.name));
            }
            for (auto const& [name, prop] : props) {
                INFO("property " << name);
                CHECK(prop.as_object().contains("type"));
                CHECK(prop.as_object().contains("description"));
            }
            if (auto const* req = s.if_contains("required")) {
                CHECK_FALSE(req->as_array().empty());
                for (auto const& r : req->as_array()) {
                    CHECK(props.contains(r.as_string()));
                }
            }
            check_schema(v, true);
        }
    }
    CHECK(checked == 1150); // every tool of the catalogue, not an empty loop
}

TEST_CASE("M-tools take mode and request_body as the conventions say", "[toolkits][schema]")
{
    std::size_t m_tools = 0;
    for (auto const* kit : all_toolkits()) {
        for (auto const& tool : kit->tools) {
            if (!tool.m_tool) {
                continue;
            }
            ++m_tools;
            INFO(kit->name << "." << tool.name);
            auto s = json::parse(tool.input_schema).as_object();
            auto const& mode = s.at("properties").at("mode").as_object();
            CHECK(mode.at("enum") == json::parse(R"(["get_request_schema","execute"])"));
            CHECK(s.at("properties").at("request_body").at("type") == "string");
            CHECK(s.at("required").as_array().size() >= 1);
            CHECK(s.at("required").as_array()[0] == "mode");
            REQUIRE_FALSE(tool.request_body_schema.empty());
            check_schema(json::parse(tool.request_body_schema), true);
        }
    }
    CHECK(m_tools == 150);
}

TEST_CASE("structured parameters carry a schema without vendor examples", "[toolkits][schema]")
{
    std::size_t structured = 0;
    for (auto const* kit : all_toolkits()) {
        for (auto const& tool : kit->tools) {
            for (auto const& p : tool.params) {
                if (p.type == json_type::object) {
                    CHECK_FALSE(p.schema.empty());
                }
                if (!p.schema.empty()) {
                    INFO(kit->name << "." << tool.name << " " << p.name);
                    ++structured;
                    check_schema(json::parse(p.schema), true);
                }
            }
        }
    }
    CHECK(structured >= 14);
}

TEST_CASE("limits and formats the specification states are in the schemas", "[toolkits][schema]")
{
    auto prop = [](std::string_view tool, std::string_view name) {
        auto ref = find_tool(tool);
        REQUIRE(ref);
        return json::parse(ref->tool->input_schema).at("properties").at(name).as_object();
    };
    CHECK(prop("StoreApi.GetFolderDetails", "response_offset").at("maximum") == 10000);
    CHECK(prop("CoreEngineApi.CheckAuthStatus", "timeout_in_seconds").at("maximum") == 59);
    CHECK(prop("CoreEngineApi.FetchToolsPage", "number_of_items").at("maximum") == 100);
    CHECK(prop("KanbanApi.AddStickerToKanbanCard", "sticker_left_position").at("minimum") == -60);
    CHECK(prop("LedgerApi.AddQuoteHistory", "idempotency_key").at("maxLength") == 128);
    CHECK(prop("LedgerApi.GetLedgerContactByNumber", "contact_number").at("maxLength") == 50);
    CHECK(prop("LedgerApi.GetTrialBalanceReport", "report_date").at("format") == "date");
    CHECK(prop("VectorDbApi.RestoreBackup", "backup_identifier").contains("pattern"));
    CHECK(prop("KanbanApi.AddAttachmentToKanbanCard", "attachment_url").at("pattern")
        == "^https?://");
}

namespace {

/// Why `node` cannot be turned into a strict-mode schema without changing what it accepts
/// (OpenAI structured outputs / the Agents SDK's strict conversion: every property required,
/// optional ones nullable, objects closed), or "" when it can.
std::string strict_obstacle(json::value const& node, std::string const& where)
{
    auto const* o = node.if_object();
    if (!o) {
        return {};
    }
    for (auto key : { "oneOf", "allOf", "not", "if", "then", "else", "patternProperties",
             "dependentSchemas", "$ref" }) {
        if (o->contains(key)) {
            return where + ": uses " + key;
        }
    }
    auto const* type = o->if_contains("type");
    if (!type && !o->contains("anyOf") && !o->contains("enum") && !o->contains("const")) {
        return where + ": has no type (any value)";
    }
    auto const is = [&](std::string_view t) {
        if (!type) {
            return false;
        }
        if (type->is_string()) {
            return type->get_string() == t;
        }
        for (auto const& item : type->as_array()) {
            if (item.is_string() && item.get_string() == t) {
                return true;
            }
        }
        return false;
    };
    if (is("object")) {
        auto const* props = o->if_contains("properties");
        if (!props) {
            return where + ": an object without declared properties";
        }
        auto const* extra = o->if_contains("additionalProperties");
        if (!extra || !extra->is_bool() || extra->get_bool()) {
            return where + ": an object open to other properties";
        }
        for (auto const& [name, sub] : props->as_object()) {
            if (auto why = strict_obstacle(sub, where + "." + std::string(name)); !why.empty()) {
                return why;
            }
        }
    }
    if (is("array")) {
        auto const* items = o->if_contains("items");
        if (!items) {
            return where + ": an array with no item schema";
        }
        if (auto why = strict_obstacle(*items, where + "[]"); !why.empty()) {
            return why;
        }
    }
    if (auto const* any = o->if_contains("anyOf")) {
        for (auto const& branch : any->as_array()) {
            if (auto why = strict_obstacle(branch, where + "|"); !why.empty()) {
                return why;
            }
        }
    }
    return {};
}

} // namespace

TEST_CASE("every tool's inputSchema converts to strict mode without changing what it accepts",
    "[toolkits][schema]")
{
    // Issue 11 item 10: strict clients (OpenAI's Agents SDK, structured outputs) and LangChain's
    // adapter must get every tool as it is; the published forms (tools/schema_forms.py) make
    // that possible.
    std::vector<std::string> refused;
    for (auto const* kit : all_toolkits()) {
        for (auto const& tool : kit->tools) {
            auto const why = strict_obstacle(json::parse(tool.input_schema),
                std::string(kit->name) + "_" + std::string(tool.name));
            if (!why.empty()) {
                refused.push_back(why);
            }
        }
    }
    INFO("first: " << (refused.empty() ? std::string() : refused.front()));
    CHECK(refused.empty());
}

TEST_CASE("no single-element type lists, and no oneOf objects told apart by a const",
    "[toolkits][schema]")
{
    // The Inspector's strict lint warns on `"type":["string"]`; LangChain merges oneOf
    // branches and keeps only the last const. Input schemas and the M-tools' body schemas
    // (what get_request_schema hands a model) both count.
    std::size_t type_lists = 0;
    auto check_type_lists = [&](std::string_view text) {
        for (auto at = text.find(R"("type":[)"); at != std::string_view::npos;
             at = text.find(R"("type":[)", at + 1)) {
            auto const list = text.substr(at, text.find(']', at) - at);
            CHECK(list.find(',') != std::string_view::npos); // at least two types
            ++type_lists;
        }
    };
    for (auto const* kit : all_toolkits()) {
        for (auto const& tool : kit->tools) {
            INFO(kit->name << "." << tool.name);
            check_type_lists(tool.input_schema);
            check_type_lists(tool.request_body_schema);
            CHECK(tool.input_schema.find(R"("oneOf")") == std::string_view::npos);
        }
    }
    // The body schemas have nullable fields (["string","null"]): the search above must find
    // them, or it checked nothing.
    CHECK(type_lists > 0);
}
