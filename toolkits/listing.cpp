// Catalogue listings for the command line (text for people, JSON for scripts).
#include "toolkits/listing.hpp"

#include "toolkits/selection.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

namespace toolgate::toolkits {
namespace json = boost::json;

namespace {

std::string_view type_name(json_type t)
{
    static constexpr std::string_view names[]
        = { "string", "integer", "number", "boolean", "array", "object" };
    return names[static_cast<std::size_t>(t)];
}

std::string_view location_name(param_location l)
{
    static constexpr std::string_view names[]
        = { "path", "query", "header", "body", "form", "mode", "request_body" };
    return names[static_cast<std::size_t>(l)];
}

json::array strings(std::span<const std::string_view> items)
{
    json::array out;
    for (auto s : items) {
        out.emplace_back(s);
    }
    return out;
}

/// The capabilities are stored joined with "; " (see catalogue_gen).
json::array capabilities(toolkit_spec const& kit)
{
    json::array out;
    std::string_view rest = kit.capabilities;
    while (!rest.empty()) {
        auto cut = rest.find("; ");
        out.emplace_back(rest.substr(0, cut));
        rest = cut == std::string_view::npos ? std::string_view {} : rest.substr(cut + 2);
    }
    return out;
}

std::string join(std::span<const std::string_view> items, std::string_view sep)
{
    std::string out;
    for (auto s : items) {
        out += (out.empty() ? "" : std::string(sep)) + std::string(s);
    }
    return out;
}

} // namespace

namespace {

std::size_t read_only_count(toolkit_spec const& kit)
{
    std::size_t n = 0;
    for (auto const& tool : kit.tools) {
        n += tool.read_only ? 1 : 0;
    }
    return n;
}

} // namespace

std::string list_toolkits_text()
{
    std::string out;
    std::size_t total = 0;
    for (auto const* kit : all_toolkits()) {
        total += kit->tools.size();
        out += std::string(kit->name) + " " + std::string(kit->version) + "  "
            + std::to_string(kit->tools.size()) + " tools  (" + std::string(kit->platform) + ")\n";
        out += "  auth: " + std::string(kit->auth_kind);
        if (!kit->secrets.empty()) {
            out += "; secrets: " + join(kit->secrets, ", ");
        }
        if (!kit->scopes.empty()) {
            out += "; scopes: " + join(kit->scopes, " ");
        }
        out += "\n  capabilities: " + std::string(kit->capabilities) + "\n";
        out += "  toolsets: " + std::string(kit->name) + " (all "
            + std::to_string(kit->tools.size()) + "), " + std::string(kit->name)
            + std::string(read_suffix) + " (" + std::to_string(read_only_count(*kit))
            + " read-only)\n";
    }
    out += std::to_string(all_toolkits().size()) + " toolkits, " + std::to_string(total)
        + " tools\n";
    return out;
}

std::string list_toolkits_json()
{
    json::array out;
    for (auto const* kit : all_toolkits()) {
        out.push_back(json::object {
            { "name", kit->name },
            { "version", kit->version },
            { "platform", kit->platform },
            { "tool_count", kit->tools.size() },
            { "capabilities", capabilities(*kit) },
            { "auth",
                json::object { { "kind", kit->auth_kind }, { "scopes", strings(kit->scopes) },
                    { "secrets", strings(kit->secrets) } } },
            { "toolsets",
                json::array {
                    json::object { { "name", kit->name }, { "tools", kit->tools.size() } },
                    json::object { { "name", std::string(kit->name) + std::string(read_suffix) },
                        { "tools", read_only_count(*kit) } } } },
        });
    }
    return json::serialize(out) + "\n";
}

std::string list_tools_text(selection const& sel)
{
    std::string out;
    auto tools = sel.tools();
    for (auto const& ref : tools) {
        out += std::string(ref.toolkit->name) + "." + std::string(ref.tool->name) + " ["
            + std::string(ref.tool->http.method) + "]";
        for (auto const& p : ref.tool->params) {
            out += ' ';
            out += p.name;
            if (p.required) {
                out += '*';
            } else if (p.required_when_executing) {
                out += '!';
            }
            out += ':';
            out += type_name(p.type);
        }
        out += "\n";
    }
    out += std::to_string(tools.size()) + " tools (* required, ! required when mode is execute)\n";
    return out;
}

std::string list_tools_json(selection const& sel)
{
    json::array out;
    for (auto const& ref : sel.tools()) {
        json::array params;
        for (auto const& p : ref.tool->params) {
            json::object o { { "name", p.name }, { "type", type_name(p.type) },
                { "required", p.required },
                { "required_when_executing", p.required_when_executing },
                { "in", location_name(p.in) } };
            if (p.type == json_type::array) {
                o["item_type"] = type_name(p.item_type);
            }
            if (!p.enum_values.empty()) {
                o["enum"] = strings(p.enum_values);
            }
            params.push_back(std::move(o));
        }
        auto const& t = *ref.tool;
        out.push_back(json::object {
            { "name", std::string(ref.toolkit->name) + "." + std::string(t.name) },
            { "wire_name", std::string(ref.toolkit->name) + "_" + std::string(t.name) },
            { "title", t.title },
            { "description", t.description },
            { "method", t.http.method },
            { "m_tool", t.m_tool },
            { "annotations",
                json::object { { "readOnlyHint", t.read_only },
                    { "destructiveHint", t.destructive }, { "idempotentHint", t.idempotent },
                    { "openWorldHint", true } } },
            { "params", std::move(params) },
        });
    }
    return json::serialize(out) + "\n";
}

} // namespace toolgate::toolkits
