// Refuses catalogues that would compile into a broken server: the checks run at build time so
// that a bad catalogue.json fails the build with `catalogue.json: Tool X: reason`.
#include "toolkits/gen/catalogue_model.hpp"
#include "toolkits/reserved_arguments.hpp"

#include <boost/json/array.hpp>

#include <algorithm>
#include <set>
#include <string>

namespace toolgate::catalogue_gen {
namespace json = boost::json;

namespace {

const std::set<std::string_view> types { "string", "integer", "number", "boolean", "array",
    "object" };
const std::set<std::string_view> item_types { "string", "integer", "number", "boolean", "object" };
const std::set<std::string_view> locations { "path", "query", "header", "body", "form", "mode",
    "request_body" };
const std::set<std::string_view> formats { "", "date", "http_url", "backup_id", "trimmed", "year",
    "utc_date_time", "date_time" };
const std::set<std::string_view> methods { "GET", "POST", "PUT", "PATCH", "DELETE" };

[[noreturn]] void fail(std::string_view tool, std::string const& reason)
{
    throw catalogue_error("Tool " + std::string(tool) + ": " + reason);
}

bool is_upper_secret(std::string_view s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    });
}

bool is_tool_name(std::string_view s)
{
    return !s.empty() && s.size() <= 64 && s.front() >= 'A' && s.front() <= 'Z'
        && std::all_of(s.begin(), s.end(), [](char c) {
               return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
           });
}

/// Every `{name}` in a URL template.
std::vector<std::string> placeholders(std::string_view url)
{
    std::vector<std::string> out;
    for (auto open = url.find('{'); open != std::string_view::npos; open = url.find('{', open)) {
        auto close = url.find('}', open);
        if (close == std::string_view::npos) {
            break;
        }
        out.emplace_back(url.substr(open + 1, close - open - 1));
        open = close;
    }
    return out;
}

void check_param(std::string_view tool, json::object const& p, bool m_tool)
{
    auto name = get_string(p, "name", tool);
    auto where = std::string(" parameter ") + std::string(name);
    if (toolkits::is_reserved_argument(name)) {
        fail(tool,
            "parameter `" + std::string(name)
                + "` takes a name toolgate reserves for itself (toolkits/reserved_arguments.hpp)");
    }
    auto type = get_string(p, "type", tool);
    if (!types.contains(type)) {
        fail(tool, "unknown type `" + std::string(type) + "` of" + where);
    }
    if (type == "array" && !item_types.contains(get_string(p, "item_type", tool))) {
        fail(tool, "unknown item type of array" + where);
    }
    auto in = get_string(p, "in", tool);
    if (!locations.contains(in)) {
        fail(tool, "unknown placement `" + std::string(in) + "` of" + where);
    }
    if ((in == "mode" || in == "request_body") && !m_tool) {
        fail(tool, "only M-tools take" + where);
    }
    if (!formats.contains(get_string(p, "format", tool))) {
        fail(tool, "unknown format of" + where);
    }
    auto af = get_string(p, "array_format", tool);
    if (af != "" && af != "comma" && af != "repeat") {
        fail(tool, "unknown array format of" + where);
    }
    if (auto const* e = p.if_contains("enum"); e && e->is_array()) {
        for (auto const& v : e->as_array()) {
            if (!v.is_string()) {
                fail(tool, "non-string enum value of" + where);
            }
        }
    }
    if (type == "object" && !p.contains("schema")) {
        fail(tool, "object" + where + " has no schema");
    }
}

/// A list tool's paging descriptor: every argument it names is a query parameter of the tool,
/// every style is known and complete, and the tool only reads (continuing a list repeats it).
void check_paging(std::string_view name, json::object const& tool)
{
    auto const* pv = tool.if_contains("paging");
    if (!pv) {
        return;
    }
    if (!pv->is_object()) {
        fail(name, "`paging` must be an object");
    }
    auto const& paging = pv->as_object();
    if (paging.contains("none")) {
        if (paging.size() != 1 || !paging.at("none").is_string()) {
            fail(name, "`paging.none` stands alone and says why the tool does not page");
        }
        return;
    }
    std::set<std::string_view> query;
    for (auto const& p : tool.at("params").as_array()) {
        if (p.as_object().at("in") == "query") {
            query.insert(p.as_object().at("name").as_string());
        }
    }
    auto const known = [&](std::string_view param, std::string_view what) {
        if (!query.contains(param)) {
            fail(name,
                "paging " + std::string(what) + " `" + std::string(param)
                    + "` is not a query parameter of the tool");
        }
    };
    if (!get_bool(tool.at("hints").as_object(), "read_only")) {
        fail(name, "only tools that read may have a paging descriptor");
    }
    get_string(paging, "items", name);
    if (auto const* size = paging.if_contains("size");
        size && size->as_object().contains("param")) {
        known(get_string(size->as_object(), "param", name), "size"); // no param: a fixed size
    }
    auto const* styles = paging.if_contains("styles");
    if (!styles || !styles->is_array() || styles->as_array().empty()) {
        fail(name, "paging without `styles`");
    }
    static const std::set<std::string_view> kinds { "offset", "page", "cursor", "key" };
    for (auto const& sv : styles->as_array()) {
        auto const& style = sv.as_object();
        auto const kind = get_string(style, "kind", name);
        if (!kinds.contains(kind)) {
            fail(name, "unknown paging kind `" + std::string(kind) + "`");
        }
        known(get_string(style, "param", name), "argument");
        if (kind == "cursor") {
            get_string(style, "next", name);
        } else if (kind == "key") {
            get_string(style, "field", name);
        }
        if (auto const* with = style.if_contains("with")) {
            if (!with->is_object() || with->as_object().size() != 1) {
                fail(name, "paging `with` names one argument and its value");
            }
            known(with->as_object().begin()->key(), "argument");
        }
    }
}

void check_tool(json::object const& tool, std::set<std::string_view> const& secrets,
    json::array const& base_urls)
{
    auto name = get_string(tool, "name", "(unnamed)");
    if (!is_tool_name(name)) {
        fail(name, "name must be 1-64 letters and digits, starting with a capital");
    }
    auto const& http = tool.at("http").as_object();
    auto method = get_string(http, "method", name);
    if (!methods.contains(method)) {
        fail(name, "unknown HTTP method `" + std::string(method) + "`");
    }
    auto url = get_string(http, "url", name);
    bool based = std::any_of(base_urls.begin(), base_urls.end(),
        [&](json::value const& b) { return url.starts_with(b.as_string()); });
    if (!based) {
        fail(name, "URL does not start with one of the toolkit's base_urls");
    }
    bool m_tool = get_bool(tool, "m_tool");
    std::set<std::string_view> names, path_wires;
    bool has_mode = false, has_body = false;
    for (auto const& pv : tool.at("params").as_array()) {
        auto const& p = pv.as_object();
        check_param(name, p, m_tool);
        if (!names.insert(get_string(p, "name", name)).second) {
            fail(name, "duplicate parameter " + std::string(get_string(p, "name", name)));
        }
        auto in = get_string(p, "in", name);
        has_mode |= in == "mode";
        has_body |= in == "request_body";
        if (in == "path") {
            path_wires.insert(get_string(p, "wire_name", name));
        }
    }
    for (auto const& ph : placeholders(url)) {
        if (!path_wires.contains(ph) && !(is_upper_secret(ph) && secrets.contains(ph))) {
            fail(name, "URL placeholder {" + ph + "} is bound by no path parameter");
        }
    }
    for (auto wire : path_wires) {
        std::string placeholder(1, '{');
        placeholder.append(wire).push_back('}');
        if (url.find(placeholder) == std::string_view::npos) {
            fail(name, "path parameter `" + std::string(wire) + "` has no placeholder in the URL");
        }
    }
    if (m_tool && (!has_mode || !has_body)) {
        fail(name, "M-tool without `mode` and `request_body` parameters");
    }
    auto const* schema = tool.if_contains("request_body_schema");
    if (m_tool && (!schema || !schema->is_object())) {
        fail(name, "M-tool without request_body_schema");
    }
    check_paging(name, tool);
}

} // namespace

std::string_view get_string(json::object const& o, std::string_view key, std::string_view what)
{
    auto const* v = o.if_contains(key);
    if (!v || !v->is_string()) {
        throw catalogue_error(
            std::string(what) + ": missing string field `" + std::string(key) + "`");
    }
    return v->as_string();
}

bool get_bool(json::object const& o, std::string_view key)
{
    auto const* v = o.if_contains(key);
    return v && v->is_bool() && v->as_bool();
}

void check_catalogue(json::object const& catalogue)
{
    auto kit = get_string(catalogue, "toolkit", "catalogue");
    get_string(catalogue, "version", kit);
    std::set<std::string_view> secrets;
    for (auto const& s : catalogue.at("auth").as_object().at("secrets").as_array()) {
        secrets.insert(s.as_string());
    }
    auto const& base_urls = catalogue.at("base_urls").as_array();
    auto const& tools = catalogue.at("tools").as_array();
    std::set<std::string_view> names;
    for (auto const& t : tools) {
        auto const& tool = t.as_object();
        check_tool(tool, secrets, base_urls);
        if (!names.insert(get_string(tool, "name", kit)).second) {
            fail(get_string(tool, "name", kit), "duplicate tool name");
        }
    }
    if (catalogue.at("tool_count").to_number<std::size_t>() != tools.size()) {
        throw catalogue_error("tool_count does not match the number of tools");
    }
}

} // namespace toolgate::catalogue_gen
