// base64 (RFC 4648): the standard alphabet with padding (HTTP Basic credentials, binary tool
// results, `=?base64?…?=` header values) and the URL-safe alphabet without padding (JOSE, PKCE).
// The one home for both; decoding is strict, so one byte string has one accepted encoding.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace toolgate::common {

/// Standard alphabet, `=` padding (RFC 4648 §4).
std::string base64_encode(std::string_view bytes);
/// Standard alphabet; the length must be a multiple of 4 with correct padding. nullopt for
/// anything else: a character outside the alphabet, misplaced `=`, or non-zero unused bits.
std::optional<std::string> base64_decode(std::string_view text);

/// URL-safe alphabet, no padding (RFC 4648 §5, as JOSE writes it).
std::string base64url_encode(std::string_view bytes);
/// URL-safe alphabet; trailing `=` padding is tolerated. nullopt when malformed or not
/// canonical (non-zero unused bits: two strings must not decode to the same signature).
std::optional<std::string> base64url_decode(std::string_view text);

} // namespace toolgate::common
