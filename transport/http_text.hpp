// Text helpers for HTTP field values, shared by the inbound and outbound sides.
#pragma once

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

} // namespace toolgate::transport
