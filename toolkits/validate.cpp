// Generic argument checks driven by param_spec; the per-tool rules live in validate_rules.cpp.
#include "toolkits/validate.hpp"

#include "common/ascii.hpp"
#include "protocol/suggest.hpp"
#include "protocol/text.hpp"
#include "toolkits/schema_check.hpp"

#include <boost/json/value.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <vector>

namespace toolgate::toolkits {
namespace json = boost::json;

namespace {

using result = tool_result<void>;
using protocol::suggest_names;

std::string_view type_name(json_type t)
{
    switch (t) {
    case json_type::string:
        return "string";
    case json_type::integer:
        return "integer";
    case json_type::number:
        return "number";
    case json_type::boolean:
        return "boolean";
    case json_type::array:
        return "array";
    case json_type::object:
        return "object";
    }
    return "value";
}

std::string_view kind_of(json::value const& v)
{
    switch (v.kind()) {
    case json::kind::null:
        return "null";
    case json::kind::bool_:
        return "boolean";
    case json::kind::int64:
    case json::kind::uint64:
        return "integer";
    case json::kind::double_:
        return "number";
    case json::kind::string:
        return "string";
    case json::kind::array:
        return "array";
    case json::kind::object:
        return "object";
    }
    return "value";
}

bool has_type(json::value const& v, json_type t)
{
    switch (t) {
    case json_type::string:
        return v.is_string();
    case json_type::integer:
        // 3.0 is an integer to JSON Schema; 3.5 is not.
        return v.is_int64() || v.is_uint64()
            || (v.is_double() && std::isfinite(v.as_double())
                && std::trunc(v.as_double()) == v.as_double());
    case json_type::number:
        return v.is_number();
    case json_type::boolean:
        return v.is_bool();
    case json_type::array:
        return v.is_array();
    case json_type::object:
        return v.is_object();
    }
    return false;
}

std::string arg(std::string_view name)
{
    return "argument `" + protocol::clipped(name) + "`";
}

/// Characters, not bytes: JSON Schema's maxLength counts code points.
std::size_t code_points(std::string_view s)
{
    std::size_t n = 0;
    for (unsigned char c : s) {
        n += (c & 0xC0) != 0x80;
    }
    return n;
}

std::string format_text(double d)
{
    std::string s = std::to_string(d);
    s.erase(s.find_last_not_of('0') + 1);
    if (!s.empty() && s.back() == '.') {
        s.pop_back();
    }
    return s;
}

result check_string(param_spec const& p, std::string_view s)
{
    if (!p.enum_values.empty()) {
        bool ok = false;
        std::string allowed;
        for (auto e : p.enum_values) {
            ok = ok || e == s;
            allowed += (allowed.empty() ? "" : ", ") + std::string(e);
        }
        if (!ok) {
            return refuse(
                arg(p.name) + ": expected one of " + allowed + ", got `" + std::string(s) + "`");
        }
    }
    auto n = code_points(s);
    if (p.max_length && n > p.max_length) {
        return refuse(arg(p.name) + ": at most " + std::to_string(p.max_length)
            + " characters, got " + std::to_string(n));
    }
    if (p.min_length && n < p.min_length) {
        return refuse(arg(p.name) + ": at least " + std::to_string(p.min_length) + " characters");
    }
    if (!has_format(p.format, s)) {
        static constexpr std::string_view expected[]
            = { "", "a date YYYY-MM-DD", "a URL starting with http:// or https://",
                  "lowercase letters, digits, `_` and `-` only", "no leading or trailing spaces",
                  "a year YYYY", "a time YYYY-MM-DDTHH:MM:SSZ", "an ISO 8601 date or date-time" };
        return refuse(arg(p.name) + ": expected "
            + std::string(expected[static_cast<std::size_t>(p.format)]));
    }
    return {};
}

result check_value(param_spec const& p, json::value const& v)
{
    if (!has_type(v, p.type)) {
        return refuse(arg(p.name) + ": expected " + std::string(type_name(p.type)) + ", got "
            + std::string(kind_of(v)));
    }
    if (v.is_string()) {
        return check_string(p, v.as_string());
    }
    if (p.type == json_type::integer || p.type == json_type::number) {
        double d = v.to_number<double>();
        if ((p.has_minimum && d < p.minimum) || (p.has_maximum && d > p.maximum)) {
            std::string range = p.has_minimum && p.has_maximum
                ? "between " + format_text(p.minimum) + " and " + format_text(p.maximum)
                : p.has_minimum ? "at least " + format_text(p.minimum)
                                : "at most " + format_text(p.maximum);
            return refuse(arg(p.name) + ": expected a value " + range + ", got " + format_text(d));
        }
    }
    if (v.is_array()) {
        std::size_t i = 0;
        for (auto const& item : v.as_array()) {
            if (!has_type(item, p.item_type)) {
                return refuse(arg(p.name) + ": item " + std::to_string(i) + ": expected "
                    + std::string(type_name(p.item_type)) + ", got " + std::string(kind_of(item)));
            }
            ++i;
        }
    }
    return {};
}

result unknown_argument(tool_spec const& tool, std::string_view name)
{
    std::vector<std::string_view> names;
    for (auto const& p : tool.params) {
        names.push_back(p.name);
    }
    std::string msg = "unknown " + arg(name);
    auto close = suggest_names(name, names);
    if (!close.empty()) {
        msg += "; did you mean `" + close.front() + "`?";
    } else if (names.empty()) {
        msg += "; this tool takes no arguments";
    }
    return refuse(msg);
}

bool executing(json::object const& args)
{
    auto const* mode = args.if_contains("mode");
    return mode && mode->is_string() && mode->as_string() == "execute";
}

} // namespace

bool has_format(value_format format, std::string_view s)
{
    auto digits = [&](std::size_t from, std::size_t count) {
        for (std::size_t i = from; i < from + count; ++i) {
            if (i >= s.size() || s[i] < '0' || s[i] > '9') {
                return false;
            }
        }
        return true;
    };
    auto is_date = [&] {
        return s.size() >= 10 && digits(0, 4) && s[4] == '-' && digits(5, 2) && s[7] == '-'
            && digits(8, 2);
    };
    switch (format) {
    case value_format::none:
        return true;
    case value_format::date:
        return s.size() == 10 && is_date();
    case value_format::year:
        return s.size() == 4 && digits(0, 4);
    case value_format::utc_date_time:
        return s.size() == 20 && is_date() && s[10] == 'T' && digits(11, 2) && s[13] == ':'
            && digits(14, 2) && s[16] == ':' && digits(17, 2) && s[19] == 'Z';
    case value_format::date_time:
        return is_date() && (s.size() == 10 || s[10] == 'T');
    case value_format::http_url:
        return (s.starts_with("http://") && s.size() > 7)
            || (s.starts_with("https://") && s.size() > 8);
    case value_format::backup_id:
        return !s.empty()
            && s.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_-")
            == std::string_view::npos;
    case value_format::trimmed: {
        auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
        return !s.empty() && !space(s.front()) && !space(s.back());
    }
    }
    return true;
}

bool is_credential_header(
    toolkit_spec const& toolkit, tool_spec const& tool, param_spec const& param)
{
    if (param.in != param_location::header) {
        return false;
    }
    auto const same
        = [](std::string_view a, std::string_view b) { return common::iequals_ascii(a, b); };
    for (auto const& rule : toolkit.transmission) {
        bool const listed = std::find(tool.secrets.begin(), tool.secrets.end(), rule.secret)
            != tool.secrets.end();
        if (listed && (rule.in == "header" || rule.in == "basic")
            && same(rule.name, param.wire_name)) {
            return true;
        }
    }
    return false;
}

tool_result<void> validate_arguments(
    toolkit_spec const& toolkit, tool_spec const& tool, json::object const& arguments)
{
    for (auto const& [name, value] : arguments) {
        bool known = false;
        for (auto const& p : tool.params) {
            known = known || p.name == name;
        }
        if (!known) {
            return unknown_argument(tool, name);
        }
    }
    bool execute = tool.m_tool && executing(arguments);
    for (auto const& p : tool.params) {
        auto const* v = arguments.if_contains(p.name);
        bool absent = !v || v->is_null();
        if (absent) {
            if (p.required && !is_credential_header(toolkit, tool, p)) {
                return refuse("missing required " + arg(p.name) + " ("
                    + std::string(type_name(p.type)) + ")");
            }
            if (execute && p.required_when_executing) {
                return refuse("missing " + arg(p.name) + ": required when mode is execute");
            }
            continue;
        }
        if (auto checked = check_value(p, *v); !checked) {
            return checked;
        }
        if (!p.schema.empty()) {
            if (auto checked = check_against_schema(p.name, p.schema, *v); !checked) {
                return checked;
            }
        }
    }
    for (auto const& rule : tool_rules()) {
        if (rule.toolkit == toolkit.name && (rule.tool == "*" || rule.tool == tool.name)) {
            if (auto checked = rule.check(tool, arguments); !checked) {
                return checked;
            }
        }
    }
    return {};
}

namespace {

void integer_in_place(json::value& v)
{
    if (v.is_double()) {
        v = static_cast<std::int64_t>(v.get_double()); // validated: finite and whole
    }
}

} // namespace

void normalise_integers(tool_spec const& tool, json::object& arguments)
{
    for (auto const& p : tool.params) {
        auto* v = arguments.if_contains(p.name);
        if (!v) {
            continue;
        }
        if (p.type == json_type::integer) {
            integer_in_place(*v);
        } else if (p.type == json_type::array && p.item_type == json_type::integer
            && v->is_array()) {
            for (auto& item : v->get_array()) {
                integer_in_place(item);
            }
        }
    }
}

} // namespace toolgate::toolkits
