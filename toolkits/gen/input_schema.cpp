// Builds a tool's `inputSchema` (JSON Schema 2020-12) from its catalogue parameters, once, at
// build time; the server publishes the serialised result as is.
#include "toolkits/gen/catalogue_model.hpp"
#include "toolkits/reserved_arguments.hpp"

#include <boost/json/array.hpp>
#include <boost/json/parse.hpp>

namespace toolgate::catalogue_gen {
namespace json = boost::json;

namespace {

/// Patterns for the named formats, so that clients can check before calling. The server
/// checks the same formats itself (toolkits/validate.cpp); keep the two in step.
void add_format(json::object& prop, std::string_view format)
{
    if (format == "date") {
        prop["format"] = "date";
        prop["pattern"] = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$";
    } else if (format == "year") {
        prop["pattern"] = "^[0-9]{4}$";
    } else if (format == "utc_date_time") {
        prop["pattern"] = "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$";
    } else if (format == "date_time") {
        prop["pattern"] = "^[0-9]{4}-[0-9]{2}-[0-9]{2}";
    } else if (format == "http_url") {
        prop["format"] = "uri";
        prop["pattern"] = "^https?://";
    } else if (format == "backup_id") {
        prop["pattern"] = "^[a-z0-9_-]+$";
    } else if (format == "trimmed") {
        prop["pattern"] = "^\\S(.*\\S)?$";
    }
}

void copy_number(
    json::object const& p, json::object& prop, std::string_view from, std::string_view to)
{
    if (auto const* v = p.if_contains(from); v && v->is_number()) {
        prop[to] = *v;
    }
}

/// `node` without toolgate's own `x-toolgate-wire` markers (they tell the request builder how
/// to turn a published form back into the platform's; clients have no use for them).
json::value without_markers(json::value const& node)
{
    if (auto const* o = node.if_object()) {
        json::object out;
        for (auto const& [key, value] : *o) {
            if (key != "x-toolgate-wire") {
                out[key] = without_markers(value);
            }
        }
        return out;
    }
    if (auto const* a = node.if_array()) {
        json::array out;
        for (auto const& value : *a) {
            out.push_back(without_markers(value));
        }
        return out;
    }
    return node;
}

json::object property(json::object const& p)
{
    json::object prop;
    auto type = get_string(p, "type", "parameter");
    if (auto const* schema = p.if_contains("schema"); schema && schema->is_object()) {
        // A structured parameter carries its own (already published) schema.
        prop = without_markers(*schema).as_object();
        prop["type"] = type;
    } else {
        prop["type"] = type;
    }
    if (auto const* d = p.if_contains("description"); d && d->is_string()) {
        prop["description"] = *d;
    }
    if (auto const* e = p.if_contains("enum"); e && e->is_array() && !e->as_array().empty()) {
        prop["enum"] = *e;
    }
    if (type == "array" && !prop.contains("items")) {
        prop["items"] = json::object { { "type", get_string(p, "item_type", "parameter") } };
    }
    copy_number(p, prop, "minimum", "minimum");
    copy_number(p, prop, "maximum", "maximum");
    copy_number(p, prop, "min_length", "minLength");
    copy_number(p, prop, "max_length", "maxLength");
    if (auto const* f = p.if_contains("format"); f && f->is_string()) {
        add_format(prop, f->as_string());
    }
    return prop;
}

} // namespace

json::object build_input_schema(json::object const& tool)
{
    json::object properties;
    json::array required;
    for (auto const& pv : tool.at("params").as_array()) {
        auto const& p = pv.as_object();
        auto name = get_string(p, "name", "parameter");
        properties[name] = property(p);
        if (get_bool(p, "required")) {
            required.emplace_back(name);
        }
    }
    // toolgate's own arguments (shaping the answer), after the platform's.
    for (auto const& reserved : toolkits::reserved_arguments) {
        properties[reserved.name] = json::parse(reserved.schema);
    }
    json::object schema;
    schema["type"] = "object";
    schema["properties"] = std::move(properties);
    if (!required.empty()) {
        schema["required"] = std::move(required);
    }
    schema["additionalProperties"] = false;
    return schema;
}

} // namespace toolgate::catalogue_gen
