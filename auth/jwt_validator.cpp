// JWK → EVP_PKEY (OSSL_PARAM_BLD + EVP_PKEY_fromdata), JWS verification (EVP_DigestVerify)
// and the RFC 9068 claim checks. libjwt 1.10 has no JWKS parser (docs/decisions.md), so this is
// ours.
#include "auth/jwt_validator.hpp"

#include "common/ascii.hpp"
#include "common/base64.hpp"
#include "common/split_list.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <boost/system/result.hpp>
#include <fmt/format.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace toolgate::auth {
namespace json = boost::json;
using common::base64url_decode;

namespace {

constexpr std::size_t max_token_bytes = 16 * 1024;

struct bn_free {
    void operator()(BIGNUM* b) const { BN_free(b); }
};
struct bld_free {
    void operator()(OSSL_PARAM_BLD* b) const { OSSL_PARAM_BLD_free(b); }
};
struct params_free {
    void operator()(OSSL_PARAM* p) const { OSSL_PARAM_free(p); }
};
struct ctx_free {
    void operator()(EVP_PKEY_CTX* c) const { EVP_PKEY_CTX_free(c); }
};
struct md_ctx_free {
    void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};
struct sig_free {
    void operator()(ECDSA_SIG* s) const { ECDSA_SIG_free(s); }
};
using bn_ptr = std::unique_ptr<BIGNUM, bn_free>;

std::optional<std::string> get_string(json::object const& o, std::string_view key)
{
    auto const* v = o.if_contains(key);
    if (!v || !v->is_string()) {
        return std::nullopt;
    }
    return std::string(v->get_string());
}

std::string required_b64(json::object const& o, std::string_view key, std::string_view what)
{
    auto text = get_string(o, key);
    if (!text || text->empty()) {
        throw std::invalid_argument(fmt::format("{} key lacks \"{}\"", what, key));
    }
    auto bytes = base64url_decode(*text);
    if (!bytes || bytes->empty()) {
        throw std::invalid_argument(fmt::format("{} key: \"{}\" is not base64url", what, key));
    }
    return *bytes;
}

bn_ptr to_bn(std::string const& bytes)
{
    return bn_ptr(BN_bin2bn(reinterpret_cast<unsigned char const*>(bytes.data()),
        static_cast<int>(bytes.size()), nullptr));
}

std::shared_ptr<void> key_from(char const* type, OSSL_PARAM_BLD* bld, std::string_view what)
{
    std::unique_ptr<OSSL_PARAM, params_free> params(OSSL_PARAM_BLD_to_param(bld));
    std::unique_ptr<EVP_PKEY_CTX, ctx_free> ctx(EVP_PKEY_CTX_new_from_name(nullptr, type, nullptr));
    EVP_PKEY* pkey = nullptr;
    if (!params || !ctx || EVP_PKEY_fromdata_init(ctx.get()) != 1
        || EVP_PKEY_fromdata(ctx.get(), &pkey, EVP_PKEY_PUBLIC_KEY, params.get()) != 1 || !pkey) {
        throw std::invalid_argument(fmt::format("{} key is not a valid public key", what));
    }
    std::shared_ptr<void> key(pkey, jwk::key_deleter {});
    // For EC this proves the point lies on the curve (invalid-curve attacks).
    std::unique_ptr<EVP_PKEY_CTX, ctx_free> check(
        EVP_PKEY_CTX_new_from_pkey(nullptr, pkey, nullptr));
    if (!check || EVP_PKEY_public_check(check.get()) != 1) {
        throw std::invalid_argument(fmt::format("{} key fails the public key check", what));
    }
    return key;
}

std::shared_ptr<void> rsa_key(json::object const& o)
{
    auto const n = required_b64(o, "n", "RSA");
    auto const e = required_b64(o, "e", "RSA");
    bn_ptr bn_n = to_bn(n);
    bn_ptr bn_e = to_bn(e);
    if (!bn_n || !bn_e) {
        throw std::bad_alloc();
    }
    if (BN_num_bits(bn_n.get()) < 2048) {
        throw std::invalid_argument(fmt::format(
            "RSA key has {} bits; at least 2048 are required", BN_num_bits(bn_n.get())));
    }
    std::unique_ptr<OSSL_PARAM_BLD, bld_free> bld(OSSL_PARAM_BLD_new());
    if (!bld || OSSL_PARAM_BLD_push_BN(bld.get(), OSSL_PKEY_PARAM_RSA_N, bn_n.get()) != 1
        || OSSL_PARAM_BLD_push_BN(bld.get(), OSSL_PKEY_PARAM_RSA_E, bn_e.get()) != 1) {
        throw std::bad_alloc();
    }
    return key_from("RSA", bld.get(), "RSA");
}

std::shared_ptr<void> ec_key(json::object const& o)
{
    auto const crv = get_string(o, "crv");
    if (crv != "P-256") {
        throw std::invalid_argument("EC key: only crv P-256 (ES256) is supported");
    }
    auto const x = required_b64(o, "x", "EC");
    auto const y = required_b64(o, "y", "EC");
    if (x.size() != 32 || y.size() != 32) {
        throw std::invalid_argument("EC key: x and y must be 32 bytes each for P-256");
    }
    std::string point = "\x04" + x + y; // SEC 1 uncompressed point
    std::unique_ptr<OSSL_PARAM_BLD, bld_free> bld(OSSL_PARAM_BLD_new());
    if (!bld
        || OSSL_PARAM_BLD_push_utf8_string(bld.get(), OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0)
            != 1
        || OSSL_PARAM_BLD_push_octet_string(
               bld.get(), OSSL_PKEY_PARAM_PUB_KEY, point.data(), point.size())
            != 1) {
        throw std::bad_alloc();
    }
    return key_from("EC", bld.get(), "EC");
}

/// JOSE ES256 signatures are r||s (32 bytes each); OpenSSL verifies DER ECDSA-Sig-Value.
std::optional<std::string> es256_to_der(std::string_view raw)
{
    if (raw.size() != 64) {
        return std::nullopt;
    }
    auto const* bytes = reinterpret_cast<unsigned char const*>(raw.data());
    std::unique_ptr<ECDSA_SIG, sig_free> sig(ECDSA_SIG_new());
    BIGNUM* r = BN_bin2bn(bytes, 32, nullptr);
    BIGNUM* s = BN_bin2bn(bytes + 32, 32, nullptr);
    if (!sig || !r || !s || ECDSA_SIG_set0(sig.get(), r, s) != 1) {
        BN_free(r);
        BN_free(s);
        return std::nullopt;
    }
    unsigned char* der = nullptr;
    int const length = i2d_ECDSA_SIG(sig.get(), &der);
    if (length <= 0) {
        return std::nullopt;
    }
    std::string out(reinterpret_cast<char*>(der), static_cast<std::size_t>(length));
    OPENSSL_free(der);
    return out;
}

std::optional<json::object> parse_object(std::string_view text)
{
    boost::system::error_code ec;
    json::parse_options options;
    options.max_depth = 16;
    auto value = json::parse(text, ec, {}, options);
    if (ec || !value.is_object()) {
        return std::nullopt;
    }
    return std::move(value.get_object());
}

/// A NumericDate claim (RFC 7519 §2): a JSON number of seconds.
std::optional<std::int64_t> numeric_date(json::object const& o, std::string_view key, bool& bad)
{
    auto const* v = o.if_contains(key);
    if (!v) {
        return std::nullopt;
    }
    // Bounded so that adding or subtracting the leeway cannot overflow (security review 11):
    // 1e15 seconds is some 30 million years either way.
    constexpr std::int64_t bound = 1'000'000'000'000'000;
    if (v->is_int64() && v->get_int64() > -bound && v->get_int64() < bound) {
        return v->get_int64();
    }
    if (v->is_uint64() && v->get_uint64() < static_cast<std::uint64_t>(bound)) {
        return static_cast<std::int64_t>(v->get_uint64());
    }
    if (v->is_double() && v->get_double() > -1e15 && v->get_double() < 1e15) {
        return static_cast<std::int64_t>(v->get_double());
    }
    bad = true;
    return std::nullopt;
}

bool audience_matches(json::value const* aud, std::string const& expected)
{
    if (!aud) {
        return false;
    }
    if (aud->is_string()) {
        return aud->get_string() == expected;
    }
    if (aud->is_array()) {
        for (auto const& item : aud->get_array()) {
            if (item.is_string() && item.get_string() == expected) {
                return true;
            }
        }
    }
    return false;
}

std::vector<std::string> read_scopes(json::object const& claims)
{
    std::vector<std::string> out;
    if (auto const* scope = claims.if_contains("scope"); scope && scope->is_string()) {
        // Space-separated scope tokens (RFC 6749 §3.3); a scope never holds a space.
        out = common::split_list(scope->get_string(), " ");
    } else if (auto const* scp = claims.if_contains("scp"); scp && scp->is_array()) {
        for (auto const& item : scp->get_array()) {
            if (item.is_string()) {
                out.emplace_back(item.get_string());
            }
        }
    }
    return out;
}

/// A JWS in compact serialisation, decoded, with the header checks passed.
struct decoded_jws {
    json::object header;
    json::object claims;
    std::string signature;
    std::string_view signing_input; ///< points into the token
    std::string alg;
};

/// The token's parts, or why it is not a JWS we verify (size, shape, encoding, alg, crit,
/// typ).
boost::system::result<decoded_jws, std::string> decode_jws(std::string_view token)
{
    if (token.size() > max_token_bytes) {
        return std::string("token too large");
    }
    auto const dot1 = token.find('.');
    auto const dot2 = dot1 == std::string_view::npos ? dot1 : token.find('.', dot1 + 1);
    if (dot2 == std::string_view::npos || token.find('.', dot2 + 1) != std::string_view::npos) {
        return std::string("not a JWS compact serialisation");
    }
    auto header_text = base64url_decode(token.substr(0, dot1));
    auto payload_text = base64url_decode(token.substr(dot1 + 1, dot2 - dot1 - 1));
    auto signature = base64url_decode(token.substr(dot2 + 1));
    if (!header_text || !payload_text || !signature) {
        return std::string("malformed base64url");
    }
    auto header = parse_object(*header_text);
    auto claims = parse_object(*payload_text);
    if (!header || !claims) {
        return std::string("header or payload is not a JSON object");
    }
    // Only the algorithms we verify; "none" and HMAC (key confusion) are refused here.
    auto alg = get_string(*header, "alg").value_or("");
    if (alg != "RS256" && alg != "ES256") {
        return std::string("unsupported alg");
    }
    if (header->contains("crit")) {
        return std::string("unsupported crit header");
    }
    // RFC 9068 §4: an access token says so in `typ`; an ID token (typ "JWT") or another kind
    // of JWT signed by the same issuer must not pass for one. A token without `typ` is taken.
    if (auto const* typ = header->if_contains("typ")) {
        auto const kind
            = typ->is_string() ? common::to_lower_ascii(typ->get_string()) : std::string();
        if (kind != "at+jwt" && kind != "application/at+jwt") {
            return std::string("typ is not at+jwt");
        }
    }
    return decoded_jws { std::move(*header), std::move(*claims), std::move(*signature),
        token.substr(0, dot2), std::move(alg) };
}

/// Why no key verifies the signature ("" when one does).
std::string signature_problem(jwks const& keys, decoded_jws const& jws)
{
    auto const kid = get_string(jws.header, "kid");
    bool candidate = false;
    for (auto const& key : keys.keys()) {
        if (key.alg() != jws.alg || (kid && key.kid() != *kid)) {
            continue;
        }
        candidate = true;
        if (key.verify(jws.signing_input, jws.signature)) {
            return {};
        }
    }
    return candidate ? "bad signature" : "no key matches kid and alg";
}

/// Why the claims do not admit the token now ("" when they do): issuer, audience, dates
/// (with the policy's leeway) and a subject.
std::string claims_problem(
    json::object const& claims, jwt_policy const& policy, std::chrono::system_clock::time_point now)
{
    if (get_string(claims, "iss") != policy.issuer) {
        return "wrong issuer";
    }
    if (!audience_matches(claims.if_contains("aud"), policy.audience)) {
        return "wrong audience";
    }
    bool bad_date = false;
    auto const exp = numeric_date(claims, "exp", bad_date);
    auto const nbf = numeric_date(claims, "nbf", bad_date);
    if (bad_date) {
        return "malformed exp or nbf";
    }
    auto const seconds
        = std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count();
    if (!exp) {
        return "no exp";
    }
    if (*exp + policy.leeway.count() <= seconds) {
        return "expired";
    }
    if (nbf && *nbf - policy.leeway.count() > seconds) {
        return "not yet valid";
    }
    // RFC 9068 §2.2: `sub` is required; sessions are bound to it.
    auto subject = get_string(claims, "sub");
    if (!subject || subject->empty()) {
        return "no sub";
    }
    return {};
}

} // namespace

void jwk::key_deleter::operator()(void* key) const
{
    EVP_PKEY_free(static_cast<EVP_PKEY*>(key));
}

jwk::jwk(std::string kid, std::string alg, std::shared_ptr<void> key)
    : kid_(std::move(kid))
    , alg_(std::move(alg))
    , key_(std::move(key))
{
}

jwk jwk::from_json(std::string_view json_text)
{
    auto o = parse_object(json_text);
    if (!o) {
        throw std::invalid_argument("a JWK must be a JSON object");
    }
    auto const kty = get_string(*o, "kty").value_or("");
    auto const alg = get_string(*o, "alg");
    auto kid = get_string(*o, "kid").value_or("");
    if (kty == "RSA") {
        if (alg && *alg != "RS256") {
            throw std::invalid_argument(
                fmt::format("RSA key alg {} is not supported (RS256)", *alg));
        }
        return jwk(std::move(kid), "RS256", rsa_key(*o));
    }
    if (kty == "EC") {
        if (alg && *alg != "ES256") {
            throw std::invalid_argument(
                fmt::format("EC key alg {} is not supported (ES256)", *alg));
        }
        return jwk(std::move(kid), "ES256", ec_key(*o));
    }
    throw std::invalid_argument(
        fmt::format("key type \"{}\" is not supported (RSA or EC P-256)", kty));
}

bool jwk::verify(std::string_view signing_input, std::string_view signature) const
{
    std::string der;
    if (alg_ == "ES256") {
        auto converted = es256_to_der(signature);
        if (!converted) {
            return false;
        }
        der = std::move(*converted);
        signature = der;
    }
    std::unique_ptr<EVP_MD_CTX, md_ctx_free> md(EVP_MD_CTX_new());
    if (!md
        || EVP_DigestVerifyInit(
               md.get(), nullptr, EVP_sha256(), nullptr, static_cast<EVP_PKEY*>(key_.get()))
            != 1) {
        return false;
    }
    return EVP_DigestVerify(md.get(), reinterpret_cast<unsigned char const*>(signature.data()),
               signature.size(), reinterpret_cast<unsigned char const*>(signing_input.data()),
               signing_input.size())
        == 1;
}

jwks jwks::from_json(std::string_view json_text)
{
    auto doc = parse_object(json_text);
    auto const* keys = doc ? doc->if_contains("keys") : nullptr;
    if (!keys || !keys->is_array()) {
        throw std::invalid_argument("a JWKS must be a JSON object with a \"keys\" array");
    }
    jwks out;
    for (auto const& item : keys->get_array()) {
        if (!item.is_object()) {
            throw std::invalid_argument("every entry of \"keys\" must be an object");
        }
        auto const& o = item.get_object();
        auto const use = get_string(o, "use");
        auto const kty = get_string(o, "kty").value_or("");
        if ((use && *use != "sig") || (kty != "RSA" && kty != "EC")
            || (kty == "EC" && get_string(o, "crv") != "P-256")) {
            ++out.skipped_; // encryption keys and key types we do not verify with
            continue;
        }
        out.keys_.push_back(jwk::from_json(json::serialize(item)));
    }
    if (out.keys_.empty()) {
        throw std::invalid_argument("the JWKS holds no RS256 or ES256 signing key");
    }
    return out;
}

jwks jwks::from_file(std::string const& path)
{
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        throw std::invalid_argument(fmt::format("cannot read {}", path));
    }
    std::ostringstream text;
    text << file.rdbuf();
    try {
        return from_json(text.str());
    } catch (std::invalid_argument const& e) {
        throw std::invalid_argument(fmt::format("{}: {}", path, e.what()));
    }
}

jwt_validator::jwt_validator(jwks keys, jwt_policy policy)
    : keys_(std::move(keys))
    , policy_(std::move(policy))
{
}

std::optional<jwt_claims> jwt_validator::validate(
    std::string_view token, jwt_error& error, std::chrono::system_clock::time_point now) const
{
    auto jws = decode_jws(token);
    if (!jws) {
        error.reason = std::move(jws.error());
        return std::nullopt;
    }
    if (auto problem = signature_problem(keys_, *jws); !problem.empty()) {
        error.reason = std::move(problem);
        return std::nullopt;
    }
    if (auto problem = claims_problem(jws->claims, policy_, now); !problem.empty()) {
        error.reason = std::move(problem);
        return std::nullopt;
    }
    jwt_claims out;
    out.subject = get_string(jws->claims, "sub").value_or("");
    out.scopes = read_scopes(jws->claims);
    return out;
}

} // namespace toolgate::auth
