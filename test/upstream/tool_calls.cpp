// Generated calls and expected requests (see tool_calls.hpp). Everything here reads the
// catalogue's data and the platforms' documented conventions; nothing calls the request
// builder, so the test checks the builder rather than repeating it.
#include "tool_calls.hpp"

#include "upstream_stack.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <regex>

namespace toolgate::upstream_test {
namespace json = boost::json;
using toolkits::json_type;
using toolkits::param_location;
using toolkits::param_spec;
using toolkits::tool_spec;
using toolkits::toolkit_spec;
using toolkits::value_format;

namespace {

/// Appended to free-form strings in the `all` variant: each of these must be percent-encoded
/// in a path or query (or survive JSON and form encoding) without changing their meaning.
constexpr std::string_view hostile_tail = " \xC3\xA4/?#&%+=";

std::string lower(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
        [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

bool same_name(std::string_view a, std::string_view b)
{
    return lower(a) == lower(b);
}

std::size_t code_points(std::string_view s)
{
    std::size_t n = 0;
    for (unsigned char c : s) {
        n += (c & 0xC0) != 0x80;
    }
    return n;
}

bool given(json::object const& args, std::string_view name)
{
    auto const* v = args.if_contains(name);
    return v != nullptr && !v->is_null();
}

bool is_tool(toolkit_spec const& toolkit, tool_spec const& tool, std::string_view toolkit_name,
    std::string_view tool_name)
{
    return toolkit.name == toolkit_name && tool.name == tool_name;
}

// --- argument values --------------------------------------------------------------------

std::string fit_length(param_spec const& p, std::string text, std::string const& plain)
{
    if (p.max_length != 0 && code_points(text) > p.max_length) {
        text = plain.substr(0, p.max_length);
    }
    while (p.min_length != 0 && code_points(text) < p.min_length) {
        text += 'x';
    }
    return text;
}

/// Parameters the specification calls URL-encoded: sent as given (docs/decisions.md, wire details).
bool is_pre_encoded(toolkit_spec const& toolkit, tool_spec const& tool, param_spec const& p)
{
    return (is_tool(toolkit, tool, "DeskApi", "ListAssets") && p.name == "asset_filter_query")
        || (is_tool(toolkit, tool, "DeskApi", "ListDeskAgents") && p.name == "query_filter");
}

/// An already URL-encoded value for those: its decoded form is what the platform reads.
std::string pre_encoded_value(param_spec const& p)
{
    return "v_" + std::string(p.name) + "%20%3D%20%27a%2Fb%27";
}

json::value string_value(param_spec const& p, variant v)
{
    for (auto e : p.enum_values) {
        if (!e.empty()) {
            return json::string(e);
        }
    }
    std::string const plain = "v_" + std::string(p.name);
    switch (p.format) {
    case value_format::date:
        return "2024-03-15";
    case value_format::year:
        return "2024";
    case value_format::utc_date_time:
        return "2024-03-15T10:20:30Z";
    case value_format::date_time:
        return "2024-03-15T10:20:30";
    case value_format::http_url:
        return json::string("https://example.test/" + plain);
    case value_format::backup_id:
        return json::string(lower(plain));
    case value_format::trimmed:
        return json::string(fit_length(p, plain, plain));
    case value_format::none:
        break;
    }
    // Header values stay plain: line breaks are refused, other bytes are tested elsewhere.
    bool const hostile = v == variant::all && p.in != param_location::header;
    return json::string(fit_length(p, hostile ? plain + std::string(hostile_tail) : plain, plain));
}

double clamp_number(param_spec const& p, double base)
{
    if (p.has_minimum && p.has_maximum) {
        return std::floor((p.minimum + p.maximum) / 2);
    }
    if (p.has_minimum) {
        return std::max(p.minimum, base);
    }
    if (p.has_maximum) {
        return std::min(p.maximum, base);
    }
    return base;
}

json::value number_value(param_spec const& p, std::size_t index)
{
    double const base = 4100.0 + 17.0 * static_cast<double>(index);
    double value = clamp_number(p, base);
    if (p.type == json_type::integer) {
        return static_cast<std::int64_t>(value);
    }
    // A fraction makes the number's formatting visible on the wire.
    if (!p.has_maximum || value + 0.5 <= p.maximum) {
        value += 0.5;
    }
    return value;
}

json::value instance_of(json::value const& schema, bool all, std::string const& name, int depth);

json::value item_value(param_spec const& p, std::size_t index, std::size_t item, variant v)
{
    switch (p.item_type) {
    case json_type::integer:
        return static_cast<std::int64_t>(4100 + 17 * index + item);
    case json_type::number:
        return 4100.5 + 17.0 * static_cast<double>(index) + double(item);
    case json_type::boolean:
        return item == 0;
    case json_type::object:
        if (!p.schema.empty()) {
            auto const schema = json::parse(p.schema);
            if (auto const* items = schema.as_object().if_contains("items")) {
                return instance_of(*items, v == variant::all, std::string(p.name), 1);
            }
        }
        return json::object { { "v_" + std::string(p.name), static_cast<std::int64_t>(item + 1) } };
    case json_type::array:
        return json::array { json::string("v_" + std::string(p.name)) };
    case json_type::string:
        break;
    }
    if (!p.enum_values.empty()) {
        return json::string(p.enum_values[std::min(item, p.enum_values.size() - 1)]);
    }
    std::string text = "v_" + std::string(p.name) + "_" + std::to_string(item + 1);
    if (v == variant::all && item == 1) {
        text += " \xC3\xA4&"; // no comma: commas separate the items of a comma array
    }
    return json::string(text);
}

/// A string the schema's format, pattern and length bounds accept.
std::string string_instance(json::object const& s, std::string const& name)
{
    std::string text = "v_" + name;
    if (auto const* f = s.if_contains("format"); f && f->is_string()) {
        auto const format = std::string(f->get_string());
        if (format == "uri" || format == "URL") {
            text = "https://example.test/" + text;
        } else if (format == "date-time") {
            text = "2024-03-15T10:20:30Z";
        } else if (format == "date") {
            text = "2024-03-15";
        } else if (format == "email") {
            text = "v@example.test";
        } else if (format == "uuid") {
            text = "123e4567-e89b-12d3-a456-426614174000";
        } else if (format == "ipv4") {
            text = "192.0.2.10";
        } else if (format == "ipv6") {
            text = "2001:db8::10";
        } else if (format == "hostname") {
            text = "example.test";
        }
    }
    if (auto const* pattern = s.if_contains("pattern"); pattern && pattern->is_string()) {
        std::regex const re(std::string(pattern->get_string()), std::regex::ECMAScript);
        if (!std::regex_search(text, re)) {
            // Values that the catalogue's patterns (identifiers, numbers, phone numbers,
            // country codes, prefixed ids, paths) accept.
            for (std::string candidate : { "v_" + name, std::string("12"), std::string("GB"),
                     std::string("+44.2079460000"), std::string("0123456789abcdef01234567"),
                     std::string("0123456789abcdef0123456789abcdef"),
                     std::string("https://example.test/x"), std::string("/path"),
                     std::string("icfg_abc"), std::string("iap_abc"), std::string("ag_abc"),
                     std::string("abc.def"), std::string("abc") }) {
                if (std::regex_search(candidate, re)) {
                    text = candidate;
                    break;
                }
            }
        }
    }
    if (auto const* m = s.if_contains("maxLength"); m && m->is_number()) {
        text = text.substr(0, static_cast<std::size_t>(m->to_number<double>()));
    }
    if (auto const* m = s.if_contains("minLength"); m && m->is_number()) {
        while (text.size() < static_cast<std::size_t>(m->to_number<double>())) {
            text += 'x';
        }
    }
    return text;
}

json::value number_instance(json::object const& s, bool integer)
{
    double value = 1;
    if (auto const* m = s.if_contains("minimum"); m && m->is_number()) {
        value = std::max(value, m->to_number<double>());
    }
    if (auto const* m = s.if_contains("exclusiveMinimum"); m && m->is_number()) {
        value = std::max(value, m->to_number<double>() + 1);
    }
    if (auto const* m = s.if_contains("maximum"); m && m->is_number()) {
        value = std::min(value, m->to_number<double>());
    }
    if (integer) {
        return static_cast<std::int64_t>(std::ceil(value));
    }
    return value;
}

/// `schema` with its first oneOf/anyOf alternative and every allOf part folded in
/// (properties and required lists joined), so that an object made from it satisfies them.
json::object folded(json::object const& schema)
{
    json::object out = schema;
    out.erase("oneOf");
    out.erase("anyOf");
    out.erase("allOf");
    std::vector<json::object const*> parts;
    for (std::string_view key : { "oneOf", "anyOf" }) {
        if (auto const* alts = schema.if_contains(key); parts.empty() && alts && alts->is_array()
            && !alts->get_array().empty() && alts->get_array().front().is_object()) {
            parts.push_back(&alts->get_array().front().get_object());
        }
    }
    if (auto const* all = schema.if_contains("allOf"); all && all->is_array()) {
        for (auto const& part : all->get_array()) {
            if (part.is_object()) {
                parts.push_back(&part.get_object());
            }
        }
    }
    for (auto const* part : parts) {
        auto const inner = folded(*part);
        for (auto const& [key, value] : inner) {
            if (key == "properties" && value.is_object()) {
                auto& props = out["properties"];
                if (!props.is_object()) {
                    props = json::object {};
                }
                for (auto const& [name, sub] : value.get_object()) {
                    props.get_object()[name] = sub;
                }
            } else if (key == "required" && value.is_array()) {
                auto& required = out["required"];
                if (!required.is_array()) {
                    required = json::array {};
                }
                for (auto const& name : value.get_array()) {
                    required.get_array().push_back(name);
                }
            } else if (!out.contains(key)) {
                out[key] = value;
            }
        }
    }
    return out;
}

/// A value that a JSON Schema (as the catalogue stores it) accepts; `all` fills optional
/// properties too. Test helper: the server checks bodies and object arguments against these
/// schemas, so every generated value must conform.
json::value instance_of(json::value const& schema, bool all, std::string const& name, int depth)
{
    if (!schema.is_object() || depth > 8) {
        return json::object {};
    }
    auto const s = folded(schema.get_object());
    if (auto const* m = s.if_contains("x-toolgate-wire"); m && m->is_string()) {
        // Published forms (tools/schema_forms.py): JSON text, or a map as {key, value} pairs.
        if (m->get_string() == "json") {
            return json::string(R"({"v_)" + name + R"(":1})");
        }
        json::value value = json::string("v_" + name);
        if (auto const* items = s.if_contains("items")) {
            value
                = instance_of(items->at("properties").at("value"), all, name + "_value", depth + 1);
        }
        return json::array { json::object { { "key", "v_" + name + "_key" }, { "value", value } } };
    }
    if (auto const* c = s.if_contains("const")) {
        return *c;
    }
    if (auto const* e = s.if_contains("enum"); e && e->is_array()) {
        for (auto const& item : e->get_array()) {
            if (!item.is_null()) {
                return item;
            }
        }
    }
    std::string type;
    if (auto const* t = s.if_contains("type")) {
        if (t->is_string()) {
            type = t->get_string();
        } else if (t->is_array()) {
            for (auto const& item : t->get_array()) {
                if (item.is_string() && item.get_string() != "null") {
                    type = item.get_string();
                    break;
                }
            }
        }
    }
    if (type.empty()) {
        type = s.contains("properties") || s.contains("required") ? "object" : "string";
    }
    if (type == "object") {
        json::object out;
        std::vector<std::string> required;
        if (auto const* r = s.if_contains("required"); r && r->is_array()) {
            for (auto const& item : r->get_array()) {
                required.emplace_back(item.as_string());
            }
        }
        auto const* props = s.if_contains("properties");
        for (auto const& key : required) {
            json::value sub = json::object { { "type", "string" } };
            if (props && props->is_object()) {
                if (auto const* p = props->get_object().if_contains(key)) {
                    sub = *p;
                }
            }
            out[key] = instance_of(sub, all, name + "_" + key, depth + 1);
        }
        if (all && props && props->is_object()) {
            for (auto const& [key, sub] : props->get_object()) {
                if (!out.contains(key)) {
                    out[key] = instance_of(sub, all, name + "_" + std::string(key), depth + 1);
                }
            }
        }
        auto const* extra = s.if_contains("additionalProperties");
        if (all && out.empty() && extra && extra->is_object()) {
            out["v_key"] = instance_of(*extra, all, name + "_value", depth + 1);
        }
        return out;
    }
    if (type == "array") {
        json::array out;
        std::size_t count = 1;
        if (auto const* m = s.if_contains("minItems"); m && m->is_number()) {
            count = std::max<std::size_t>(count, static_cast<std::size_t>(m->to_number<double>()));
        }
        if (auto const* items = s.if_contains("items")) {
            for (std::size_t i = 0; i < count; ++i) {
                out.push_back(
                    instance_of(*items, all, name + "_item" + std::to_string(i), depth + 1));
            }
        }
        return out;
    }
    if (type == "integer" || type == "number") {
        return number_instance(s, type == "integer");
    }
    if (type == "boolean") {
        return true;
    }
    if (type == "null") {
        return nullptr;
    }
    return json::string(string_instance(s, name));
}

/// What the platform receives for a value given in a published form (the test's own
/// reading of tools/schema_forms.py: {key, value} lists are maps, JSON texts are their JSON).
json::value platform_value(json::value const& schema, json::value const& value)
{
    auto const* s = schema.if_object();
    if (!s) {
        return value;
    }
    if (auto const* m = s->if_contains("x-toolgate-wire"); m && m->is_string()) {
        if (m->get_string() == "json" && value.is_string()) {
            return json::parse(value.get_string());
        }
        if (m->get_string() == "map" && value.is_array()) {
            json::object out;
            auto const& value_schema = s->at("items").at("properties").at("value");
            for (auto const& pair : value.get_array()) {
                out[pair.at("key").as_string()] = platform_value(value_schema, pair.at("value"));
            }
            return out;
        }
    }
    if (auto const* props = s->if_contains("properties"); props && value.is_object()) {
        json::object out;
        for (auto const& [key, member] : value.get_object()) {
            auto const* sub = props->as_object().if_contains(key);
            out[key] = sub ? platform_value(*sub, member) : member;
        }
        return out;
    }
    if (auto const* items = s->if_contains("items"); items && value.is_array()) {
        json::array out;
        for (auto const& item : value.get_array()) {
            out.push_back(platform_value(*items, item));
        }
        return out;
    }
    return value;
}

json::value platform_form(param_spec const& p, json::value const& value)
{
    if (p.schema.empty()) {
        return value;
    }
    return platform_value(json::parse(p.schema), value);
}

} // namespace

std::string body_instance(tool_spec const& tool, variant v)
{
    if (tool.request_body_schema.empty()) {
        return "{}";
    }
    auto body = instance_of(json::parse(tool.request_body_schema), v == variant::all, "body", 0);
    // A schema that says nothing (`{}`) still asks for a JSON object as the body.
    return body.is_object() || body.is_array() ? json::serialize(body) : std::string("{}");
}

namespace {

json::value value_for(toolkit_spec const& toolkit, tool_spec const& tool, param_spec const& p,
    std::size_t index, variant v)
{
    if (is_pre_encoded(toolkit, tool, p)) {
        return json::string(pre_encoded_value(p));
    }
    if (p.in == param_location::mode) {
        return "execute";
    }
    if (p.in == param_location::request_body) {
        return json::string(body_instance(tool, v));
    }
    switch (p.type) {
    case json_type::string:
        if (!p.schema.empty()) {
            return instance_of(json::parse(p.schema), v == variant::all, std::string(p.name), 0);
        }
        return string_value(p, v);
    case json_type::integer:
    case json_type::number:
        return number_value(p, index);
    case json_type::boolean:
        return true;
    case json_type::array: {
        if (!p.schema.empty()) {
            return instance_of(json::parse(p.schema), v == variant::all, std::string(p.name), 0);
        }
        json::array items;
        items.push_back(item_value(p, index, 0, v));
        items.push_back(item_value(p, index, 1, v));
        if (items[0] == items[1]) {
            items.pop_back(); // a one-member enum
        }
        return items;
    }
    case json_type::object: {
        if (p.schema.empty()) {
            return json::object { { "v_" + std::string(p.name), "x" } };
        }
        return instance_of(json::parse(p.schema), v == variant::all, std::string(p.name), 0);
    }
    }
    return nullptr;
}

bool is_marker(param_spec const& p)
{
    return p.name.ends_with("marker") || p.name == "use_marker_based_pagination";
}

/// The named rules of toolkits/validate_rules.cpp that forbid giving every parameter at once.
bool excluded_by_rule(toolkit_spec const& toolkit, tool_spec const& tool, param_spec const& p)
{
    if (p.required) {
        return false;
    }
    if (toolkit.name == "StoreApi" && p.name.find("offset") != std::string_view::npos
        && std::any_of(tool.params.begin(), tool.params.end(), is_marker)) {
        return true; // marker_excludes_offset
    }
    if (is_tool(toolkit, tool, "VectorDbApi", "ListDataObjects")
        && p.name == "threshold_uuid_after") {
        return true; // start_index_excludes_after
    }
    if (is_tool(toolkit, tool, "DeskApi", "ListAssets") && p.name == "entries_per_page") {
        return true; // page_size_without_search
    }
    return false;
}

bool wanted(toolkit_spec const& toolkit, tool_spec const& tool, param_spec const& p, variant v)
{
    if (p.required) {
        return true;
    }
    if (tool.m_tool
        && (p.in == param_location::mode || p.in == param_location::request_body
            || p.required_when_executing)) {
        return true;
    }
    if (is_tool(toolkit, tool, "CoreEngineApi", "AuthorizeUserToolAccess") && p.name == "user_id") {
        return true; // user_id_with_api_key
    }
    return v == variant::all && !excluded_by_rule(toolkit, tool, p);
}

// --- expected wire text -------------------------------------------------------------------

std::string number_text(double d)
{
    if (std::trunc(d) == d && std::fabs(d) < 9007199254740992.0) {
        return std::to_string(static_cast<std::int64_t>(d));
    }
    char buffer[32];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, d);
    return std::string(buffer, end);
}

std::string scalar_text(json::value const& v)
{
    switch (v.kind()) {
    case json::kind::string:
        return std::string(v.get_string());
    case json::kind::bool_:
        return v.get_bool() ? "true" : "false";
    case json::kind::int64:
        return std::to_string(v.get_int64());
    case json::kind::uint64:
        return std::to_string(v.get_uint64());
    case json::kind::double_:
        return number_text(v.get_double());
    default:
        return json::serialize(v);
    }
}

std::string path_segment(std::string_view value)
{
    if (value.find_first_not_of('.') == std::string_view::npos) {
        std::string dots;
        for (std::size_t i = 0; i < value.size(); ++i) {
            dots += "%2E"; // `.` and `..` must not act as dot segments
        }
        return dots;
    }
    return percent_encode(value);
}

std::string_view longest_base(toolkit_spec const& toolkit, std::string_view url)
{
    std::string_view best;
    for (auto base : toolkit.base_urls) {
        if (url.starts_with(base) && base.size() > best.size()) {
            best = base;
        }
    }
    return best;
}

/// Sets `value` at a dotted wire name; a segment ending in `[]` is a one-element array of
/// objects (toolkits/README.md).
void place(json::object& body, std::string_view wire, json::value const& value)
{
    json::object* node = &body;
    for (auto dot = wire.find('.'); dot != std::string_view::npos; dot = wire.find('.')) {
        auto segment = wire.substr(0, dot);
        wire = wire.substr(dot + 1);
        if (segment.ends_with("[]")) {
            auto& slot = (*node)[segment.substr(0, segment.size() - 2)];
            if (!slot.is_array() || slot.get_array().empty()) {
                slot = json::array { json::object {} };
            }
            node = &slot.get_array().front().as_object();
        } else {
            auto& slot = (*node)[segment];
            if (!slot.is_object()) {
                slot = json::object {};
            }
            node = &slot.get_object();
        }
    }
    (*node)[wire] = value;
}

/// How each toolkit's platform expects its credential (issue 4): checked against this table,
/// not against the catalogue's `transmission` data.
void add_credentials(toolkit_spec const& toolkit, tool_spec const& tool,
    std::map<std::string, std::string>& headers, string_pairs& query)
{
    if (tool.secrets.empty()) {
        return; // the engine's health check and OpenAPI document need no secret
    }
    auto const name = toolkit.name;
    auto bearer = [&](std::string_view variable) {
        headers.try_emplace("authorization", "Bearer " + secret(variable));
    };
    if (name == "StoreApi") {
        bearer("STORE_ACCESS_TOKEN");
    } else if (name == "LedgerApi") {
        bearer("LEDGER_ACCESS_TOKEN");
    } else if (name == "CoreEngineApi") {
        // The project tools act as a user (review 3 item 20); the others use the API key.
        bool const user = std::find(tool.secrets.begin(), tool.secrets.end(), "ENGINE_USER_TOKEN")
            != tool.secrets.end();
        bearer(user ? "ENGINE_USER_TOKEN" : "ENGINE_API_KEY");
    } else if (name == "DeployApi") {
        bearer("DEPLOY_ACCESS_TOKEN");
    } else if (name == "VectorDbApi") {
        bearer("VECTORDB_API_KEY");
    } else if (name == "SearchApi") {
        headers.try_emplace("x-api-key", secret("SEARCH_API_KEY"));
    } else if (name == "DeskApi") {
        headers.try_emplace("authorization", "Basic " + base64(secret("DESK_API_KEY") + ":"));
    } else if (name == "KanbanApi") {
        query.emplace_back("key", secret("KANBAN_API_KEY"));
        query.emplace_back("token", secret("KANBAN_TOKEN"));
    }
}

// --- comparison ------------------------------------------------------------------------

std::string show(string_pairs const& pairs)
{
    std::string out;
    for (auto const& [k, v] : pairs) {
        out += (out.empty() ? "" : " ") + k + "=" + v;
    }
    return out.empty() ? "(none)" : out;
}

struct seen_part {
    std::string name, filename, content_type, value;
};

std::string quoted_param(std::string_view header, std::string_view key)
{
    auto const needle = std::string(key) + "=\"";
    auto pos = header.find(needle);
    if (pos == std::string_view::npos) {
        return {};
    }
    pos += needle.size();
    return std::string(header.substr(pos, header.find('"', pos) - pos));
}

std::vector<seen_part> parse_multipart(
    std::string_view body, std::string_view boundary, std::string& problems)
{
    std::vector<seen_part> parts;
    auto const delimiter = "--" + std::string(boundary);
    auto pos = body.find(delimiter);
    if (pos != 0) {
        problems += "multipart body does not start with its boundary\n";
        return parts;
    }
    for (;;) {
        pos += delimiter.size();
        if (body.substr(pos, 2) == "--") {
            break; // closing delimiter
        }
        if (body.substr(pos, 2) != "\r\n") {
            problems += "multipart boundary not followed by CRLF\n";
            return parts;
        }
        pos += 2;
        auto const head_end = body.find("\r\n\r\n", pos);
        auto const next = body.find("\r\n" + delimiter, pos);
        if (head_end == std::string_view::npos || next == std::string_view::npos
            || head_end > next) {
            problems += "malformed multipart part\n";
            return parts;
        }
        seen_part part;
        auto head = body.substr(pos, head_end - pos);
        for (std::size_t at = 0; at <= head.size();) {
            auto eol = head.find("\r\n", at);
            auto line
                = head.substr(at, eol == std::string_view::npos ? head.size() - at : eol - at);
            auto lowered = lower(line);
            if (lowered.starts_with("content-disposition:")) {
                part.name = quoted_param(line, "name");
                part.filename = quoted_param(line, "filename");
            } else if (lowered.starts_with("content-type:")) {
                auto value = line.substr(13);
                part.content_type = std::string(value.substr(value.find_first_not_of(' ')));
            }
            if (eol == std::string_view::npos) {
                break;
            }
            at = eol + 2;
        }
        part.value = std::string(body.substr(head_end + 4, next - head_end - 4));
        parts.push_back(std::move(part));
        pos = next + 2;
    }
    return parts;
}

} // namespace

std::string_view variant_name(variant v)
{
    return v == variant::all ? "all parameters" : "required parameters only";
}

json::object make_arguments(toolkit_spec const& toolkit, tool_spec const& tool, variant v)
{
    json::object args;
    for (std::size_t i = 0; i < tool.params.size(); ++i) {
        auto const& p = tool.params[i];
        if (wanted(toolkit, tool, p, v)) {
            args[p.name] = value_for(toolkit, tool, p, i, v);
        }
    }
    return args;
}

json::object schema_request_arguments(toolkit_spec const& toolkit, tool_spec const& tool)
{
    json::object args;
    for (std::size_t i = 0; i < tool.params.size(); ++i) {
        auto const& p = tool.params[i];
        if (p.in == param_location::mode) {
            args[p.name] = "get_request_schema";
        } else if (p.required) {
            args[p.name] = value_for(toolkit, tool, p, i, variant::required_only);
        }
    }
    return args;
}

expected_request expect_request(
    toolkit_spec const& toolkit, tool_spec const& tool, json::object const& args)
{
    expected_request e;
    e.method = std::string(tool.http.method);

    // Path: the override's prefix, then the template's path after its base URL, each
    // placeholder replaced by the percent-encoded argument.
    auto const url = tool.http.url;
    auto const base = longest_base(toolkit, url);
    e.path = "/" + std::string(toolkit.name);
    auto rest = url.substr(base.size());
    for (auto open = rest.find('{'); open != std::string_view::npos; open = rest.find('{')) {
        auto const close = rest.find('}', open);
        e.path += rest.substr(0, open);
        auto const wire = rest.substr(open + 1, close - open - 1);
        rest = rest.substr(close + 1);
        auto p = std::find_if(tool.params.begin(), tool.params.end(), [&](param_spec const& s) {
            return s.in == param_location::path && s.wire_name == wire;
        });
        if (p != tool.params.end() && given(args, p->name)) {
            e.path += path_segment(scalar_text(args.at(p->name)));
        } else {
            e.path += "{unbound:" + std::string(wire) + "}";
        }
    }
    e.path += rest;

    std::map<std::string, std::string> headers;
    for (auto const& h : tool.http.headers) {
        headers[lower(h.name)] = std::string(h.value);
    }
    bool marker_given = false;
    bool usemarker_param = false;
    json::object body;
    bool body_given = false;
    json::value const* entire = nullptr;
    bool has_body_params = false;
    std::deque<json::value> platform_values; // what each argument becomes on the wire
    for (auto const& p : tool.params) {
        has_body_params = has_body_params || p.in == param_location::body;
        usemarker_param = usemarker_param
            || (p.in == param_location::query && p.wire_name == "usemarker"
                && !given(args, p.name));
        if (!given(args, p.name)) {
            continue;
        }
        // Kept alive for the whole function: `entire` may point at it.
        auto const& value = platform_values.emplace_back(platform_form(p, args.at(p.name)));
        switch (p.in) {
        case param_location::query:
            marker_given = marker_given || p.wire_name == "marker";
            if (value.is_array()) {
                if (p.array_fmt == toolkits::array_format::comma) {
                    std::string joined;
                    for (auto const& item : value.get_array()) {
                        joined += (joined.empty() ? "" : ",") + scalar_text(item);
                    }
                    e.query.emplace_back(std::string(p.wire_name), joined);
                } else {
                    for (auto const& item : value.get_array()) {
                        e.query.emplace_back(std::string(p.wire_name), scalar_text(item));
                    }
                }
            } else if (is_pre_encoded(toolkit, tool, p)) {
                e.query.emplace_back(std::string(p.wire_name), percent_decode(scalar_text(value)));
            } else {
                e.query.emplace_back(std::string(p.wire_name), scalar_text(value));
            }
            break;
        case param_location::header:
            headers[lower(p.wire_name)] = scalar_text(value);
            break;
        case param_location::body:
            body_given = true;
            if (p.wire_name == "(entire body)") {
                entire = &value;
            } else {
                place(body, p.wire_name, value);
            }
            break;
        case param_location::form:
            if (is_tool(toolkit, tool, "KanbanApi", "AddAttachmentToKanbanCard")
                && p.name == "file_attachment") {
                file_part part { std::string(p.wire_name), {}, {}, scalar_text(value) };
                if (given(args, "attachment_name")) {
                    part.filename = scalar_text(args.at("attachment_name"));
                }
                if (given(args, "attachment_mime_type")) {
                    part.content_type = scalar_text(args.at("attachment_mime_type"));
                }
                e.files.push_back(std::move(part));
            } else if (value.is_array()) {
                for (auto const& item : value.get_array()) {
                    e.form.emplace_back(std::string(p.wire_name), scalar_text(item));
                }
            } else {
                e.form.emplace_back(std::string(p.wire_name), scalar_text(value));
            }
            break;
        case param_location::path:
        case param_location::mode:
        case param_location::request_body:
            break;
        }
    }
    // Box pages by marker only with usemarker=true (docs/decisions.md, wire details).
    if (marker_given && usemarker_param) {
        e.query.emplace_back("usemarker", "true");
    }
    add_credentials(toolkit, tool, headers, e.query);

    if (tool.m_tool) {
        e.body = expected_request::body_kind::json;
        auto const* request_body = args.if_contains("request_body");
        e.json = json::parse(request_body && request_body->is_string()
                ? std::string_view(request_body->get_string())
                : std::string_view("{}"));
        headers["content-type"] = "application/json";
    } else if (!e.files.empty() || tool.http.body_content_type.starts_with("multipart/")) {
        if (!e.files.empty() || !e.form.empty()) {
            e.body = expected_request::body_kind::multipart;
            headers.erase("content-type"); // carries the boundary; checked on its own
        }
    } else if (!e.form.empty()) {
        e.body = expected_request::body_kind::urlencoded;
        headers["content-type"] = "application/x-www-form-urlencoded";
    } else if (body_given) {
        e.body = expected_request::body_kind::json;
        if (entire != nullptr) {
            e.json = *entire;
            if (!body.empty() && e.json.is_object()) {
                for (auto const& [k, v] : body) {
                    e.json.get_object()[k] = v;
                }
            }
        } else {
            e.json = std::move(body);
        }
        headers["content-type"] = "application/json";
    } else if (has_body_params && e.method != "GET" && e.method != "DELETE") {
        // A body operation called without body arguments sends an empty object.
        e.body = expected_request::body_kind::json;
        e.json = json::object {};
        headers["content-type"] = "application/json";
    }

    for (auto& [name, value] : headers) {
        e.headers.emplace_back(name, value);
    }
    for (std::string name : { "authorization", "x-api-key", "proxy-authorization", "cookie" }) {
        if (!headers.contains(name)) {
            e.absent_headers.push_back(name);
        }
    }
    std::sort(e.query.begin(), e.query.end());
    std::sort(e.form.begin(), e.form.end());
    return e;
}

std::string compare(expected_request const& e, test::recorded_request const& seen)
{
    std::string problems;
    auto problem = [&](std::string text) { problems += std::move(text) + "\n"; };

    if (seen.method != e.method) {
        problem("method: expected " + e.method + ", got " + seen.method);
    }
    if (seen.path() != e.path) {
        problem("path: expected " + e.path + ", got " + seen.path());
    }

    auto const raw_query = seen.query();
    if (raw_query.find('+') != std::string::npos) {
        problem("query holds a raw `+` (platforms read it as a space): " + raw_query);
    }
    if (raw_query.find('#') != std::string::npos) {
        problem("query holds a raw `#`: " + raw_query);
    }
    auto query = parse_pairs(raw_query);
    std::sort(query.begin(), query.end());
    if (query != e.query) {
        problem("query: expected " + show(e.query) + "\n       got      " + show(query)
            + "\n       raw      " + raw_query);
    }

    for (auto const& [name, value] : e.headers) {
        std::size_t count = 0;
        std::string got;
        for (auto const& [k, v] : seen.headers) {
            if (same_name(k, name)) {
                ++count;
                got = v;
            }
        }
        if (count == 0) {
            problem("header " + name + ": missing (expected `" + value + "`)");
        } else if (count > 1) {
            problem("header " + name + ": sent " + std::to_string(count) + " times");
        } else if (got != value) {
            problem("header " + name + ": expected `" + value + "`, got `" + got + "`");
        }
    }
    for (auto const& name : e.absent_headers) {
        if (seen.has_header(name)) {
            problem("header " + name + ": must not be sent, got `" + seen.header(name) + "`");
        }
    }
    for (auto const& [k, v] : seen.headers) {
        bool const expected = std::any_of(e.headers.begin(), e.headers.end(),
            [&](auto const& h) { return same_name(h.first, k); });
        if (!expected && v.find("v_") != std::string::npos) {
            problem("header " + k + ": unexpected, carries an argument value `" + v + "`");
        }
    }

    using kind = expected_request::body_kind;
    switch (e.body) {
    case kind::empty:
        if (!seen.body.empty()) {
            problem("body: expected none, got " + seen.body);
        }
        break;
    case kind::json: {
        boost::system::error_code ec;
        auto value = json::parse(seen.body, ec);
        if (ec) {
            problem("body: expected JSON " + json::serialize(e.json) + ", got `" + seen.body + "`");
        } else if (value != e.json) {
            problem("body: expected " + json::serialize(e.json) + "\n      got      " + seen.body);
        }
        break;
    }
    case kind::urlencoded: {
        auto form = parse_pairs(seen.body);
        std::sort(form.begin(), form.end());
        if (form != e.form) {
            problem("form body: expected " + show(e.form) + ", got " + seen.body);
        }
        break;
    }
    case kind::multipart: {
        auto const type = seen.header("content-type");
        constexpr std::string_view prefix = "multipart/form-data; boundary=";
        if (!type.starts_with(prefix)) {
            problem(
                "content-type: expected multipart/form-data with a boundary, got `" + type + "`");
            break;
        }
        auto parts
            = parse_multipart(seen.body, std::string_view(type).substr(prefix.size()), problems);
        string_pairs fields;
        std::size_t files = 0;
        for (auto const& part : parts) {
            auto file = std::find_if(
                e.files.begin(), e.files.end(), [&](auto const& f) { return f.name == part.name; });
            if (file == e.files.end()) {
                fields.emplace_back(part.name, part.value);
                continue;
            }
            ++files;
            if (part.value != file->value) {
                problem("multipart file " + part.name + ": expected `" + file->value + "`, got `"
                    + part.value + "`");
            }
            if (part.filename.empty()
                || (!file->filename.empty() && part.filename != file->filename)) {
                problem("multipart file " + part.name + ": filename `" + part.filename + "`");
            }
            if (!file->content_type.empty() && part.content_type != file->content_type) {
                problem("multipart file " + part.name + ": content type `" + part.content_type
                    + "`, expected `" + file->content_type + "`");
            }
        }
        std::sort(fields.begin(), fields.end());
        if (fields != e.form || files != e.files.size()) {
            problem("multipart fields: expected " + show(e.form) + " and "
                + std::to_string(e.files.size()) + " file(s), got " + show(fields) + " and "
                + std::to_string(files));
        }
        break;
    }
    }
    return problems;
}

std::string percent_encode(std::string_view text)
{
    static constexpr char digits[] = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : text) {
        if (std::isalnum(c) != 0 || c == '-' || c == '.' || c == '_' || c == '~') {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += digits[c >> 4];
            out += digits[c & 15];
        }
    }
    return out;
}

std::string percent_decode(std::string_view text)
{
    auto hex = [](char c) -> int {
        if (c >= '0' && c <= '9')
            return c - '0';
        if (c >= 'a' && c <= 'f')
            return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
            return c - 'A' + 10;
        return -1;
    };
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%' && i + 2 < text.size() && hex(text[i + 1]) >= 0
            && hex(text[i + 2]) >= 0) {
            out += static_cast<char>(hex(text[i + 1]) * 16 + hex(text[i + 2]));
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

string_pairs parse_pairs(std::string_view text)
{
    string_pairs out;
    while (!text.empty()) {
        auto const amp = text.find('&');
        auto const item = text.substr(0, amp);
        auto const eq = item.find('=');
        out.emplace_back(percent_decode(item.substr(0, eq)),
            eq == std::string_view::npos ? "" : percent_decode(item.substr(eq + 1)));
        if (amp == std::string_view::npos) {
            break;
        }
        text = text.substr(amp + 1);
    }
    return out;
}

std::string base64(std::string_view bytes)
{
    static constexpr char alphabet[]
        = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    std::uint32_t buffer = 0;
    int bits = 0;
    for (unsigned char c : bytes) {
        buffer = (buffer << 8) | c;
        bits += 8;
        while (bits >= 6) {
            bits -= 6;
            out += alphabet[(buffer >> bits) & 63];
        }
    }
    if (bits > 0) {
        out += alphabet[(buffer << (6 - bits)) & 63];
    }
    while (out.size() % 4 != 0) {
        out += '=';
    }
    return out;
}

bool leaks_secret(std::string_view text)
{
    if (lower(text).find("s3cr3t") != std::string::npos) {
        return true;
    }
    auto const basic = base64(secret("DESK_API_KEY") + ":");
    return text.find(basic) != std::string_view::npos;
}

} // namespace toolgate::upstream_test
