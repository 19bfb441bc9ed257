// HMAC and AES-256-GCM over OpenSSL's EVP interface (see keyed_seal.hpp).
#include "transport/keyed_seal.hpp"

#include "common/base64.hpp"
#include "common/random.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <array>
#include <memory>
#include <stdexcept>

namespace toolgate::transport {
namespace {

constexpr std::size_t nonce_bytes = 12; // the GCM nonce size NIST SP 800-38D recommends
constexpr std::size_t tag_bytes = 16;

using cipher_context = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

unsigned char const* bytes(std::string_view s)
{
    return reinterpret_cast<unsigned char const*>(s.data());
}

unsigned char* bytes(std::string& s)
{
    return reinterpret_cast<unsigned char*>(s.data());
}

} // namespace

std::string sha256(std::string_view data)
{
    std::string out(32, '\0');
    unsigned int length = 0;
    EVP_Digest(data.data(), data.size(), bytes(out), &length, EVP_sha256(), nullptr);
    return out;
}

std::string hmac_sha256(std::string_view key, std::string_view data)
{
    std::array<unsigned char, EVP_MAX_MD_SIZE> mac {};
    unsigned int length = 0;
    HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), bytes(data), data.size(),
        mac.data(), &length);
    return std::string(reinterpret_cast<char const*>(mac.data()), length);
}

bool same_bytes(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::string derive_key(std::string_view secret, std::string_view purpose)
{
    return hmac_sha256(secret, purpose);
}

std::string key_for(std::string const& shared_secret, std::string_view purpose)
{
    return shared_secret.empty() ? common::random_bytes(32) : derive_key(shared_secret, purpose);
}

std::string seal(std::string_view key, std::string_view plaintext, std::string_view context)
{
    if (key.size() != 32) {
        throw std::logic_error("seal: the key must be 32 bytes");
    }
    auto out = common::random_bytes(nonce_bytes);
    out.resize(nonce_bytes + plaintext.size() + tag_bytes);
    cipher_context ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
    int n = 0;
    bool ok = ctx
        && EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, bytes(key),
               bytes(std::string_view(out).substr(0, nonce_bytes)))
            == 1;
    ok = ok
        && EVP_EncryptUpdate(
               ctx.get(), nullptr, &n, bytes(context), static_cast<int>(context.size()))
            == 1;
    ok = ok
        && EVP_EncryptUpdate(ctx.get(), bytes(out) + nonce_bytes, &n, bytes(plaintext),
               static_cast<int>(plaintext.size()))
            == 1;
    ok = ok && EVP_EncryptFinal_ex(ctx.get(), bytes(out) + nonce_bytes + n, &n) == 1;
    ok = ok
        && EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, static_cast<int>(tag_bytes),
               bytes(out) + nonce_bytes + plaintext.size())
            == 1;
    if (!ok) {
        throw std::runtime_error("seal: OpenSSL AES-256-GCM failed");
    }
    return common::base64url_encode(out);
}

std::optional<std::string> unseal(
    std::string_view key, std::string_view token, std::string_view context, std::size_t max_bytes)
{
    if (key.size() != 32 || token.size() > (max_bytes + nonce_bytes + tag_bytes) * 4 / 3 + 4) {
        return std::nullopt;
    }
    auto raw = common::base64url_decode(token);
    if (!raw || raw->size() < nonce_bytes + tag_bytes) {
        return std::nullopt;
    }
    auto const size = raw->size() - nonce_bytes - tag_bytes;
    std::string plain(size, '\0');
    std::string tag = raw->substr(nonce_bytes + size);
    cipher_context ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
    int n = 0;
    bool ok = ctx
        && EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, bytes(key),
               bytes(std::string_view(*raw).substr(0, nonce_bytes)))
            == 1;
    ok = ok
        && EVP_DecryptUpdate(
               ctx.get(), nullptr, &n, bytes(context), static_cast<int>(context.size()))
            == 1;
    ok = ok
        && EVP_DecryptUpdate(ctx.get(), bytes(plain), &n,
               bytes(std::string_view(*raw).substr(nonce_bytes, size)), static_cast<int>(size))
            == 1;
    ok = ok
        && EVP_CIPHER_CTX_ctrl(
               ctx.get(), EVP_CTRL_GCM_SET_TAG, static_cast<int>(tag_bytes), bytes(tag))
            == 1;
    // The tag is checked here: a token altered anywhere, or sealed under another key or
    // context, fails.
    ok = ok && EVP_DecryptFinal_ex(ctx.get(), bytes(plain) + n, &n) == 1;
    if (!ok) {
        return std::nullopt;
    }
    return plain;
}

} // namespace toolgate::transport
