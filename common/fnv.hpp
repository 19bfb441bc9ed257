// FNV-1a, a fast non-cryptographic hash for fingerprints that only need to change when their
// input does (listing cache keys, multipart boundaries). Never for anything an attacker could
// exploit by finding collisions.
#pragma once

#include <cstdint>
#include <string_view>

namespace toolgate::common {

inline constexpr std::uint32_t fnv1a32_basis = 2166136261u;
inline constexpr std::uint64_t fnv1a64_basis = 14695981039346656037ull;

/// `hash` extended by the bytes of `text` (start from fnv1a32_basis).
constexpr std::uint32_t fnv1a32(std::uint32_t hash, std::string_view text)
{
    for (unsigned char c : text) {
        hash = (hash ^ c) * 16777619u;
    }
    return hash;
}

/// `hash` extended by the bytes of `text` (start from fnv1a64_basis).
constexpr std::uint64_t fnv1a64(std::uint64_t hash, std::string_view text)
{
    for (unsigned char c : text) {
        hash = (hash ^ c) * 1099511628211ull;
    }
    return hash;
}

} // namespace toolgate::common
