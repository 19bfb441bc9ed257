// Text helpers for HTTP field values and names, shared by the inbound and outbound sides and
// by the toolkits' request building.
#pragma once

#include <string>
#include <string_view>

namespace toolgate::transport {

/// `text` without the optional whitespace (spaces and horizontal tabs, RFC 9110 §5.6.3) around
/// it.
constexpr std::string_view trim_ows(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
        text.remove_prefix(1);
    }
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) {
        text.remove_suffix(1);
    }
    return text;
}

/// `text` with ASCII letters in lower case (header names, host names, content codings are
/// case-insensitive ASCII; no locale is consulted).
inline std::string to_lower_ascii(std::string_view text)
{
    std::string out(text);
    for (auto& c : out) {
        if (c >= 'A' && c <= 'Z') {
            c = static_cast<char>(c - 'A' + 'a');
        }
    }
    return out;
}

} // namespace toolgate::transport
