// Fast scans inside JSON strings, sixteen bytes at a time with SSE2 (every x86-64 has it), else
// eight with plain integer arithmetic: most bytes of a large answer are string content that
// needs no attention, and a byte-at-a-time loop over them was the largest cost of shaping a
// 1 MB answer (bench/README.md, "Results a model can read").
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace toolgate::common {

namespace detail {

constexpr std::uint64_t ones = 0x0101010101010101ULL;
constexpr std::uint64_t highs = 0x8080808080808080ULL;

/// Non-zero when some byte of `v` is zero.
constexpr std::uint64_t has_zero_byte(std::uint64_t v)
{
    return (v - ones) & ~v & highs;
}

/// Non-zero when some byte of `v` equals `c`.
constexpr std::uint64_t has_byte(std::uint64_t v, unsigned char c)
{
    return has_zero_byte(v ^ (ones * c));
}

/// The address of the first flagged byte of the word at `p`: the lowest set bit of each mask
/// above is exact (only bits past the first flagged byte can be false), and on a little-endian
/// machine the lowest byte comes first.
inline char const* first_flagged(char const* p, std::uint64_t mask)
{
    if constexpr (std::endian::native == std::endian::little) {
        return p + (std::countr_zero(mask) >> 3);
    }
    return p; // the byte loop after the word finds it
}

} // namespace detail

/// The first of [p, end) that is a quote or a backslash, or `end`.
inline char const* find_quote_or_backslash(char const* p, char const* end)
{
#if defined(__SSE2__)
    auto const quote = _mm_set1_epi8('"');
    auto const backslash = _mm_set1_epi8('\\');
    while (end - p >= 16) {
        auto const v = _mm_loadu_si128(reinterpret_cast<__m128i const*>(p));
        auto const hits = _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash));
        if (auto const mask = static_cast<unsigned>(_mm_movemask_epi8(hits))) {
            return p + std::countr_zero(mask);
        }
        p += 16;
    }
#endif
    while (end - p >= 8) {
        std::uint64_t v = 0;
        std::memcpy(&v, p, 8);
        if (auto const mask = detail::has_byte(v, '"') | detail::has_byte(v, '\\')) {
            p = detail::first_flagged(p, mask);
            break;
        }
        p += 8;
    }
    while (p < end && *p != '"' && *p != '\\') {
        ++p;
    }
    return p;
}

/// The first of [p, end) that is not plain string content: a quote, a backslash, a control
/// character or a byte of a multi-byte UTF-8 sequence; or `end`.
inline char const* find_string_special(char const* p, char const* end)
{
#if defined(__SSE2__)
    // As signed bytes, both the control characters and the bytes of multi-byte sequences
    // (0x80 and up) are less than 0x20: one comparison finds both.
    auto const space = _mm_set1_epi8(0x20);
    auto const quote = _mm_set1_epi8('"');
    auto const backslash = _mm_set1_epi8('\\');
    while (end - p >= 16) {
        auto const v = _mm_loadu_si128(reinterpret_cast<__m128i const*>(p));
        auto const hits = _mm_or_si128(_mm_cmplt_epi8(v, space),
            _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));
        if (auto const mask = static_cast<unsigned>(_mm_movemask_epi8(hits))) {
            return p + std::countr_zero(mask);
        }
        p += 16;
    }
#endif
    while (end - p >= 8) {
        std::uint64_t v = 0;
        std::memcpy(&v, p, 8);
        auto const control = (v - detail::ones * 0x20) & ~v & detail::highs;
        if (auto const mask = (v & detail::highs) | control | detail::has_byte(v, '"')
                | detail::has_byte(v, '\\')) {
            p = detail::first_flagged(p, mask);
            break;
        }
        p += 8;
    }
    while (p < end) {
        auto const b = static_cast<unsigned char>(*p);
        if (b < 0x20 || b >= 0x80 || b == '"' || b == '\\') {
            break;
        }
        ++p;
    }
    return p;
}

/// `json_text` without the white space between tokens (strings kept as they are). Most
/// platforms send compact JSON: the text is then only scanned and copied once.
std::string minify_json(std::string_view json_text);

} // namespace toolgate::common
