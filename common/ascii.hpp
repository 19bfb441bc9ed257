// ASCII text rules for protocol text: HTTP field names and values, host names, content
// codings, URL schemes. These are case-insensitive in ASCII only, so no locale is consulted
// (std::tolower and std::toupper would consult one). The one home for these helpers; do not
// write them again.
#pragma once

#include <string>
#include <string_view>

namespace toolgate::common {

constexpr char to_lower_ascii(char c)
{
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

constexpr char to_upper_ascii(char c)
{
    return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
}

/// `text` with ASCII letters in lower case.
inline std::string to_lower_ascii(std::string_view text)
{
    std::string out(text);
    for (auto& c : out) {
        c = to_lower_ascii(c);
    }
    return out;
}

/// Whether `a` and `b` are equal ignoring ASCII letter case.
constexpr bool iequals_ascii(std::string_view a, std::string_view b)
{
    if (a.size() != b.size()) {
        return false;
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (to_lower_ascii(a[i]) != to_lower_ascii(b[i])) {
            return false;
        }
    }
    return true;
}

/// Whether `text` starts with `prefix`, ignoring ASCII letter case.
constexpr bool istarts_with_ascii(std::string_view text, std::string_view prefix)
{
    return text.size() >= prefix.size() && iequals_ascii(text.substr(0, prefix.size()), prefix);
}

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

/// `text` without spaces, tabs and carriage returns around it: a line of a text file that may
/// have been written with CRLF endings (token files, secrets files).
constexpr std::string_view trim_blanks(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t' || text.front() == '\r')) {
        text.remove_prefix(1);
    }
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
        text.remove_suffix(1);
    }
    return text;
}

} // namespace toolgate::common
