// HMAC-SHA256 session ids (OpenSSL). Comparison is constant-time.
#include "transport/session_token.hpp"

#include "common/random.hpp"

#include <fmt/format.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <array>
#include <charconv>

namespace toolgate::transport {
namespace {

std::string hex(unsigned char const* data, std::size_t size)
{
    static constexpr char digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(size * 2);
    for (std::size_t i = 0; i < size; ++i) {
        out += digits[data[i] >> 4];
        out += digits[data[i] & 15];
    }
    return out;
}

std::string mac_of(std::string const& key, std::string_view payload, std::string_view binding)
{
    std::array<unsigned char, EVP_MAX_MD_SIZE> mac {};
    unsigned int length = 0;
    std::string input(payload);
    if (!binding.empty()) {
        input.append(1, '\0').append(binding); // the payload never holds a NUL
    }
    HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
        reinterpret_cast<unsigned char const*>(input.data()), input.size(), mac.data(), &length);
    return hex(mac.data(), length);
}

} // namespace

session_signer::session_signer(std::string key)
    : key_(std::move(key))
{
    if (key_.empty()) {
        key_ = common::random_bytes(32);
        random_key_ = true;
    }
}

std::string session_signer::issue(std::string_view version,
    std::chrono::system_clock::time_point now, std::string_view binding) const
{
    std::array<unsigned char, 16> nonce {};
    common::fill_random(nonce);
    auto const seconds
        = std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count();
    auto payload = fmt::format("v1-{}-{}-{}", version, seconds, hex(nonce.data(), nonce.size()));
    auto mac = mac_of(key_, payload, binding);
    return payload + "." + mac;
}

std::optional<session_claims> session_signer::verify(
    std::string_view id, std::string_view binding) const
{
    auto const dot = id.rfind('.');
    if (dot == std::string_view::npos || id.size() > 256) {
        return std::nullopt;
    }
    auto const payload = id.substr(0, dot);
    auto const mac = id.substr(dot + 1);
    auto const expected = mac_of(key_, payload, binding);
    if (mac.size() != expected.size()
        || CRYPTO_memcmp(mac.data(), expected.data(), expected.size()) != 0) {
        return std::nullopt;
    }
    // v1-<version>-<seconds>-<nonce>; the version itself contains dashes (YYYY-MM-DD).
    if (!payload.starts_with("v1-") || payload.size() < 3 + 10 + 2) {
        return std::nullopt;
    }
    session_claims claims;
    claims.version = std::string(payload.substr(3, 10));
    auto rest = payload.substr(3 + 10 + 1);
    auto const dash = rest.find('-');
    long long seconds = 0;
    auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + dash, seconds);
    if (dash == std::string_view::npos || ec != std::errc() || ptr != rest.data() + dash) {
        return std::nullopt;
    }
    claims.issued = std::chrono::system_clock::time_point(std::chrono::seconds(seconds));
    return claims;
}

} // namespace toolgate::transport
