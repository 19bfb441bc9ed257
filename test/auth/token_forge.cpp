// Key generation, JWK export and JWS signing for the auth tests.
#include "token_forge.hpp"

#include "auth/jwt_validator.hpp"
#include "common/base64.hpp"

#include <fmt/format.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <unistd.h>

namespace toolgate::testing {
namespace {

void free_key(void* key)
{
    EVP_PKEY_free(static_cast<EVP_PKEY*>(key));
}

std::string bn_param(EVP_PKEY* key, char const* name, int pad = 0)
{
    BIGNUM* bn = nullptr;
    if (EVP_PKEY_get_bn_param(key, name, &bn) != 1) {
        throw std::runtime_error(fmt::format("cannot read key parameter {}", name));
    }
    int const size = pad > 0 ? pad : BN_num_bytes(bn);
    std::string out(static_cast<std::size_t>(size), '\0');
    BN_bn2binpad(bn, reinterpret_cast<unsigned char*>(out.data()), size);
    BN_free(bn);
    return common::base64url_encode(out);
}

} // namespace

test_key test_key::rsa(std::string kid, int bits)
{
    test_key k;
    k.kid_ = std::move(kid);
    k.alg_ = "RS256";
    k.key_.reset(
        EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", static_cast<std::size_t>(bits)), free_key);
    if (!k.key_) {
        throw std::runtime_error("RSA key generation failed");
    }
    return k;
}

test_key test_key::ec(std::string kid)
{
    test_key k;
    k.kid_ = std::move(kid);
    k.alg_ = "ES256";
    k.key_.reset(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256"), free_key);
    if (!k.key_) {
        throw std::runtime_error("EC key generation failed");
    }
    return k;
}

std::string test_key::jwk_json() const
{
    auto* key = static_cast<EVP_PKEY*>(key_.get());
    if (alg_ == "RS256") {
        return fmt::format(
            R"({{"kty":"RSA","kid":"{}","alg":"RS256","use":"sig","n":"{}","e":"{}"}})", kid_,
            bn_param(key, OSSL_PKEY_PARAM_RSA_N), bn_param(key, OSSL_PKEY_PARAM_RSA_E));
    }
    return fmt::format(
        R"({{"kty":"EC","kid":"{}","alg":"ES256","use":"sig","crv":"P-256","x":"{}","y":"{}"}})",
        kid_, bn_param(key, OSSL_PKEY_PARAM_EC_PUB_X, 32),
        bn_param(key, OSSL_PKEY_PARAM_EC_PUB_Y, 32));
}

std::string test_key::sign(std::string const& header_json, std::string const& payload_json) const
{
    auto input
        = common::base64url_encode(header_json) + "." + common::base64url_encode(payload_json);
    EVP_MD_CTX* md = EVP_MD_CTX_new();
    std::size_t size = 0;
    EVP_DigestSignInit(md, nullptr, EVP_sha256(), nullptr, static_cast<EVP_PKEY*>(key_.get()));
    EVP_DigestSign(
        md, nullptr, &size, reinterpret_cast<unsigned char const*>(input.data()), input.size());
    std::string sig(size, '\0');
    if (EVP_DigestSign(md, reinterpret_cast<unsigned char*>(sig.data()), &size,
            reinterpret_cast<unsigned char const*>(input.data()), input.size())
        != 1) {
        EVP_MD_CTX_free(md);
        throw std::runtime_error("signing failed");
    }
    EVP_MD_CTX_free(md);
    sig.resize(size);
    if (alg_ == "ES256") {
        // DER ECDSA-Sig-Value → JOSE r||s.
        auto const* p = reinterpret_cast<unsigned char const*>(sig.data());
        ECDSA_SIG* ecdsa = d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(sig.size()));
        std::string raw(64, '\0');
        BN_bn2binpad(ECDSA_SIG_get0_r(ecdsa), reinterpret_cast<unsigned char*>(raw.data()), 32);
        BN_bn2binpad(
            ECDSA_SIG_get0_s(ecdsa), reinterpret_cast<unsigned char*>(raw.data()) + 32, 32);
        ECDSA_SIG_free(ecdsa);
        sig = raw;
    }
    return input + "." + common::base64url_encode(sig);
}

std::string test_key::token(std::string const& payload_json) const
{
    return sign(
        fmt::format(R"({{"alg":"{}","typ":"at+jwt","kid":"{}"}})", alg_, kid_), payload_json);
}

std::string make_jwks(std::vector<test_key const*> const& keys)
{
    std::string out = R"({"keys":[)";
    for (std::size_t i = 0; i < keys.size(); ++i) {
        if (i > 0) {
            out += ',';
        }
        out += keys[i]->jwk_json();
    }
    return out + "]}";
}

long long epoch_seconds(std::chrono::seconds offset)
{
    return std::chrono::duration_cast<std::chrono::seconds>(
        (std::chrono::system_clock::now() + offset).time_since_epoch())
        .count();
}

temp_file::temp_file(std::string const& text, std::string const& suffix)
{
    static std::atomic<int> counter { 0 };
    path_ = (std::filesystem::temp_directory_path()
        / fmt::format("toolgate-auth-{}-{}{}", ::getpid(), counter++, suffix))
                .string();
    std::ofstream(path_, std::ios::binary) << text;
}

temp_file::~temp_file()
{
    std::error_code ec;
    std::filesystem::remove(path_, ec);
}

} // namespace toolgate::testing
