#include "common/masking.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

namespace toolgate::common {

namespace {

/// RFC 3986 percent-encoding of everything but the unreserved characters, upper-case hex.
std::string percent_encoded(std::string_view text)
{
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : text) {
        bool const unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')
            || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~';
        if (unreserved) {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

} // namespace

std::string mask_secrets(std::string text, std::span<const std::string> secrets)
{
    std::vector<std::string> forms;
    for (auto const& secret : secrets) {
        if (secret.empty()) {
            continue;
        }
        forms.push_back(secret);
        if (auto encoded = percent_encoded(secret); encoded != secret) {
            forms.push_back(std::move(encoded));
        }
    }
    std::sort(forms.begin(), forms.end(),
        [](auto const& a, auto const& b) { return a.size() > b.size(); });
    std::string_view const mask = secret_mask;
    for (auto const& form : forms) {
        for (auto at = text.find(form); at != std::string::npos;
             at = text.find(form, at + mask.size())) {
            text.replace(at, form.size(), mask);
        }
    }
    return text;
}

} // namespace toolgate::common
