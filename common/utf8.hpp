// UTF-8 validity: whether bytes can travel as JSON text (a platform's answer, a request body a
// dry run shows) or must be treated as binary. The one home for this check.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace toolgate::common {

/// The length of the well-formed UTF-8 sequence starting at `text[i]` (1 to 4), or 0 when
/// none starts there: an overlong form, a surrogate, past U+10FFFF or truncated.
inline std::size_t utf8_sequence_length(std::string_view text, std::size_t i)
{
    auto const c = static_cast<unsigned char>(text[i]);
    std::size_t length = 0;
    std::uint32_t code = 0;
    if (c < 0x80) {
        return 1;
    }
    if ((c & 0xE0) == 0xC0) {
        length = 2;
        code = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
        length = 3;
        code = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
        length = 4;
        code = c & 0x07;
    } else {
        return 0;
    }
    if (i + length > text.size()) {
        return 0;
    }
    for (std::size_t k = 1; k < length; ++k) {
        auto const next = static_cast<unsigned char>(text[i + k]);
        if ((next & 0xC0) != 0x80) {
            return 0;
        }
        code = (code << 6) | (next & 0x3F);
    }
    static constexpr std::uint32_t smallest[] = { 0, 0, 0x80, 0x800, 0x10000 };
    if (code < smallest[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
        return 0;
    }
    return length;
}

/// Whether `text` is well-formed UTF-8 throughout.
inline bool is_valid_utf8(std::string_view text)
{
    for (std::size_t i = 0; i < text.size();) {
        auto const length = utf8_sequence_length(text, i);
        if (length == 0) {
            return false;
        }
        i += length;
    }
    return true;
}

} // namespace toolgate::common
