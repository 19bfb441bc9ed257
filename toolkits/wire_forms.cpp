// See wire_forms.hpp.
#include "toolkits/wire_forms.hpp"

#include "toolkits/schema_check.hpp"

#include <boost/json/parse.hpp>

namespace toolgate::toolkits {
namespace {

namespace json = boost::json;

constexpr std::string_view marker = "x-toolgate-wire";

std::string_view kind_of(json::object const& schema)
{
    auto const* m = schema.if_contains(marker);
    return m && m->is_string() ? std::string_view(m->get_string()) : std::string_view {};
}

/// Walks `value` beside `schema`, converting marked parts. `where` is a JSON pointer for errors.
tool_result<json::value> convert(std::string_view argument, json::value const& schema,
    json::value const& value, std::string const& where)
{
    auto const* s = schema.if_object();
    if (!s) {
        return value;
    }
    auto const kind = kind_of(*s);
    if (kind == "json" && value.is_string()) {
        boost::system::error_code ec;
        auto parsed = json::parse(value.get_string(), ec);
        if (ec) {
            return refuse("argument `" + std::string(argument) + "` at " + where
                + ": expected JSON text (" + ec.message() + ")");
        }
        return parsed;
    }
    if (kind == "map" && value.is_array()) {
        json::object out;
        auto const* items = s->if_contains("items");
        json::value const* value_schema = nullptr;
        if (items && items->is_object()) {
            if (auto const* props = items->get_object().if_contains("properties")) {
                value_schema = props->get_object().if_contains("value");
            }
        }
        std::size_t i = 0;
        for (auto const& pair : value.get_array()) {
            auto const* o = pair.if_object();
            auto const* key = o ? o->if_contains("key") : nullptr;
            auto const* v = o ? o->if_contains("value") : nullptr;
            if (!key || !key->is_string() || !v) {
                return refuse("argument `" + std::string(argument) + "` at " + where + "/"
                    + std::to_string(i) + ": expected an object with `key` and `value`");
            }
            auto converted = value_schema
                ? convert(argument, *value_schema, *v, where + "/" + std::to_string(i) + "/value")
                : tool_result<json::value>(*v);
            if (!converted) {
                return converted.error();
            }
            out[key->get_string()] = std::move(*converted);
            ++i;
        }
        return json::value(std::move(out));
    }
    if (auto const* props = s->if_contains("properties"); props && value.is_object()) {
        json::object out = value.get_object();
        for (auto& [name, member] : out) {
            if (auto const* sub = props->get_object().if_contains(name)) {
                auto converted = convert(argument, *sub, member, where + "/" + std::string(name));
                if (!converted) {
                    return converted.error();
                }
                member = std::move(*converted);
            }
        }
        return json::value(std::move(out));
    }
    if (auto const* items = s->if_contains("items"); items && value.is_array()) {
        json::array out;
        std::size_t i = 0;
        for (auto const& item : value.get_array()) {
            auto converted = convert(argument, *items, item, where + "/" + std::to_string(i++));
            if (!converted) {
                return converted.error();
            }
            out.push_back(std::move(*converted));
        }
        return json::value(std::move(out));
    }
    return value;
}

} // namespace

bool has_wire_forms(std::string_view schema)
{
    return schema.find(marker) != std::string_view::npos;
}

tool_result<json::value> to_wire_form(
    std::string_view argument, std::string_view schema, json::value const& value)
{
    return convert(argument, parsed_schema(schema), value, "");
}

} // namespace toolgate::toolkits
