#include "common/base64.hpp"

#include <cstdint>

namespace toolgate::common {

namespace {

constexpr char standard_alphabet[]
    = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr char url_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::string encode(std::string_view bytes, char const* alphabet, bool pad)
{
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::uint32_t buffer = 0;
    int bits = 0;
    for (unsigned char c : bytes) {
        buffer = (buffer << 8) | c;
        bits += 8;
        while (bits >= 6) {
            bits -= 6;
            out += alphabet[(buffer >> bits) & 63];
        }
    }
    if (bits > 0) {
        out += alphabet[(buffer << (6 - bits)) & 63];
    }
    while (pad && out.size() % 4 != 0) {
        out += '=';
    }
    return out;
}

int sextet(char c, bool url)
{
    if (c >= 'A' && c <= 'Z') {
        return c - 'A';
    }
    if (c >= 'a' && c <= 'z') {
        return c - 'a' + 26;
    }
    if (c >= '0' && c <= '9') {
        return c - '0' + 52;
    }
    if (c == (url ? '-' : '+')) {
        return 62;
    }
    if (c == (url ? '_' : '/')) {
        return 63;
    }
    return -1;
}

/// Decodes unpadded text; nullopt on a bad character, an impossible length or stray bits.
std::optional<std::string> decode(std::string_view text, bool url)
{
    if (text.size() % 4 == 1) {
        return std::nullopt;
    }
    std::string out;
    out.reserve(text.size() * 3 / 4);
    std::uint32_t buffer = 0;
    int bits = 0;
    for (char c : text) {
        int const v = sextet(c, url);
        if (v < 0) {
            return std::nullopt;
        }
        buffer = (buffer << 6) | static_cast<std::uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((buffer >> bits) & 0xFF);
        }
    }
    if ((buffer & ((1u << bits) - 1)) != 0) {
        return std::nullopt;
    }
    return out;
}

} // namespace

std::string base64_encode(std::string_view bytes)
{
    return encode(bytes, standard_alphabet, true);
}

std::optional<std::string> base64_decode(std::string_view text)
{
    if (text.size() % 4 != 0) {
        return std::nullopt;
    }
    std::size_t padding = 0;
    while (padding < 2 && padding < text.size() && text[text.size() - 1 - padding] == '=') {
        ++padding;
    }
    return decode(text.substr(0, text.size() - padding), false);
}

std::string base64url_encode(std::string_view bytes)
{
    return encode(bytes, url_alphabet, false);
}

std::optional<std::string> base64url_decode(std::string_view text)
{
    while (!text.empty() && text.back() == '=') {
        text.remove_suffix(1);
    }
    return decode(text, true);
}

} // namespace toolgate::common
