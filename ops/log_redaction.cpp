// Argument redaction for logs (issue 6 item 6). What a platform returns is the caller's data
// and is never altered; this only shapes what we write to stderr.
#include "ops/log_redaction.hpp"

#include "toolkits/secret_names.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace toolgate::ops {
namespace json = boost::json;

namespace {

constexpr std::string_view mask = "***";

json::value redact_value(json::value const& v, int depth);

json::object redact_object(json::object const& o, int depth)
{
    json::object out;
    for (auto const& member : o) {
        out[member.key()] = is_secret_name(member.key()) ? json::value(mask)
                                                         : redact_value(member.value(), depth + 1);
    }
    return out;
}

json::value redact_value(json::value const& v, int depth)
{
    if (depth > 32) {
        return json::value(mask); // deeper than any real argument: say nothing
    }
    if (v.is_object()) {
        return redact_object(v.get_object(), depth);
    }
    if (v.is_array()) {
        json::array out;
        for (auto const& item : v.get_array()) {
            out.push_back(redact_value(item, depth + 1));
        }
        return out;
    }
    if (v.is_string()) {
        // JSON inside a string (M-tool `request_body`): redact what it holds, too.
        auto const& s = v.get_string();
        if (!s.empty() && (s.front() == '{' || s.front() == '[')) {
            boost::system::error_code ec;
            auto inner = json::parse(s, ec);
            if (!ec) {
                return json::value(json::serialize(redact_value(inner, depth + 1)));
            }
        }
    }
    return v;
}

} // namespace

bool is_secret_name(std::string_view name)
{
    return toolkits::is_secret_name(name);
}

json::object redact_arguments(json::object const& arguments)
{
    return redact_object(arguments, 0);
}

std::string redacted_arguments_text(json::object const& arguments, std::size_t max_bytes)
{
    auto text = json::serialize(redact_arguments(arguments));
    if (text.size() > max_bytes) {
        text.resize(max_bytes);
        text += "…";
    }
    return text;
}

} // namespace toolgate::ops
