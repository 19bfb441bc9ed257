// See text.hpp.
#include "protocol/text.hpp"

#include <fmt/format.h>

namespace toolgate::protocol {

std::string clipped(std::string_view text, std::size_t max)
{
    auto end = std::min(max, text.size());
    while (end > 0 && end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) {
        --end; // never split a UTF-8 sequence
    }
    std::string out;
    out.reserve(end + 24);
    for (char c : text.substr(0, end)) {
        auto const u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7F) {
            out += fmt::format("\\x{:02X}", u);
        } else {
            out += c;
        }
    }
    if (end < text.size()) {
        out += fmt::format("\u2026 ({} bytes in all)", text.size());
    }
    return out;
}

} // namespace toolgate::protocol
