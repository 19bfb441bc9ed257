// Secret masking (see masking.hpp).
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

/// A letter, digit, '-' or '_': what words, identifiers and host labels are made of.
bool is_word_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'
        || c == '_';
}

/// Whether `text[at, at + size)` stands alone: no word character right before or after it.
bool stands_alone(std::string_view text, std::size_t at, std::size_t size)
{
    bool const before = at > 0 && is_word_char(text[at - 1]);
    bool const after = at + size < text.size() && is_word_char(text[at + size]);
    return !before && !after;
}

struct form {
    std::string text;
    bool whole_words_only = false;
};

} // namespace

std::string mask_secrets(std::string text, std::span<const std::string> secrets)
{
    std::vector<form> forms;
    for (auto const& secret : secrets) {
        if (secret.empty()) {
            continue;
        }
        bool const short_one = secret.size() < min_masked_length;
        forms.push_back({ secret, short_one });
        if (auto encoded = percent_encoded(secret); encoded != secret) {
            forms.push_back({ std::move(encoded), short_one });
        }
    }
    std::sort(forms.begin(), forms.end(),
        [](auto const& a, auto const& b) { return a.text.size() > b.text.size(); });
    std::string_view const mask = secret_mask;
    for (auto const& f : forms) {
        for (auto at = text.find(f.text); at != std::string::npos;) {
            if (f.whole_words_only && !stands_alone(text, at, f.text.size())) {
                at = text.find(f.text, at + 1);
                continue;
            }
            text.replace(at, f.text.size(), mask);
            at = text.find(f.text, at + mask.size());
        }
    }
    return text;
}

} // namespace toolgate::common
