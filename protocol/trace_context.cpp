// traceparent parsing and span ids (W3C Trace Context level 1, §3.2).
#include "protocol/trace_context.hpp"

#include <array>
#include <cstdint>
#include <random>

namespace toolgate::protocol {
namespace {

bool is_lower_hex(std::string_view s)
{
    for (char c : s) {
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
            return false;
        }
    }
    return !s.empty();
}

bool all_zero(std::string_view s)
{
    return s.find_first_not_of('0') == std::string_view::npos;
}

} // namespace

std::string trace_parent::child(std::string_view span_id) const
{
    std::string out = "00-";
    out.append(trace_id()).append("-").append(span_id).append("-").append(flags());
    return out;
}

std::optional<trace_parent> parse_traceparent(std::string_view text)
{
    // version "-" trace-id "-" parent-id "-" trace-flags: 2+1+32+1+16+1+2 = 55 characters.
    constexpr std::size_t size = 55;
    if (text.size() < size || text[2] != '-' || text[35] != '-' || text[52] != '-') {
        return std::nullopt;
    }
    auto const version = text.substr(0, 2);
    if (!is_lower_hex(version) || version == "ff") {
        return std::nullopt;
    }
    // Version 00 has exactly these fields; a later version may append "-..." (§3.2.4).
    if (text.size() > size && (version == "00" || text[size] != '-')) {
        return std::nullopt;
    }
    trace_parent out;
    text.copy(out.text_.data(), size);
    if (!is_lower_hex(out.trace_id()) || !is_lower_hex(out.parent_id())
        || !is_lower_hex(out.flags()) || all_zero(out.trace_id()) || all_zero(out.parent_id())) {
        return std::nullopt;
    }
    return out;
}

std::optional<std::string> checked_tracestate(std::string_view text)
{
    if (text.empty() || text.size() > 512) {
        return std::nullopt;
    }
    for (char c : text) {
        if (c < 0x20 || c > 0x7e) {
            return std::nullopt;
        }
    }
    return std::string(text);
}

std::string new_span_id()
{
    // Span ids need to be unique, not secret: a per-thread generator seeded once.
    thread_local std::mt19937_64 generator { std::random_device {}() };
    static constexpr char digits[] = "0123456789abcdef";
    std::uint64_t v = 0;
    while (v == 0) {
        v = generator();
    }
    std::string out(16, '0');
    for (int i = 15; i >= 0; --i, v >>= 4) {
        out[static_cast<std::size_t>(i)] = digits[v & 0xf];
    }
    return out;
}

} // namespace toolgate::protocol
