// Secret-looking argument names, shared by the request logs and the server's argument logs.
#include "toolkits/secret_names.hpp"

#include "common/ascii.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace toolgate::toolkits {
namespace json = boost::json;

namespace {

void collect(json::value const& v, bool secret, std::vector<std::string>& out, int depth)
{
    if (depth > 32) {
        return;
    }
    if (v.is_string()) {
        if (secret && !v.get_string().empty()) {
            out.emplace_back(v.get_string());
        }
    } else if (v.is_array()) {
        for (auto const& item : v.get_array()) {
            collect(item, secret, out, depth + 1);
        }
    } else if (v.is_object()) {
        for (auto const& member : v.get_object()) {
            collect(member.value(), secret || is_secret_name(member.key()), out, depth + 1);
        }
    }
}

} // namespace

bool is_secret_name(std::string_view name)
{
    auto const lower = common::to_lower_ascii(name);
    static constexpr std::array<std::string_view, 9> words = { "secret", "token", "password",
        "passwd", "authorization", "cookie", "credential", "signature", "private" };
    for (auto w : words) {
        if (lower.find(w) != std::string::npos) {
            return true;
        }
    }
    return lower.find("key") != std::string::npos && lower.find("keyword") == std::string::npos;
}

std::vector<std::string> secret_argument_values(json::object const& arguments)
{
    std::vector<std::string> out;
    collect(json::value(arguments), false, out, 0);
    return out;
}

} // namespace toolgate::toolkits
