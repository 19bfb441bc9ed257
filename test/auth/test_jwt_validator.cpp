// JWT access-token validation: JWK → key, RS256/ES256 signatures, and the claim checks.
#include "auth/jwt_validator.hpp"
#include "common/base64.hpp"
#include "token_forge.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

using namespace toolgate::auth;
using namespace toolgate::testing;
using toolgate::common::base64url_encode;

namespace {

constexpr char const* issuer = "https://auth.example.test";
constexpr char const* audience = "http://127.0.0.1:8080/mcp";

test_key const& rsa_key()
{
    static test_key const k = test_key::rsa("rsa-1");
    return k;
}

test_key const& ec_key()
{
    static test_key const k = test_key::ec("ec-1");
    return k;
}

jwt_validator make_validator()
{
    return jwt_validator(jwks::from_json(make_jwks({ &rsa_key(), &ec_key() })),
        { issuer, audience, std::chrono::seconds(60) });
}

std::string claims(std::string extra = {}, std::string aud = fmt::format("\"{}\"", audience),
    long long exp = epoch_seconds(std::chrono::seconds(300)))
{
    return fmt::format(
        R"({{"iss":"{}","aud":{},"sub":"alice","exp":{},"scope":"mcp:read mcp:call"{}}})", issuer,
        aud, exp, extra);
}

std::string reason_of(jwt_validator const& v, std::string const& token)
{
    jwt_error error;
    auto ok = v.validate(token, error);
    return ok ? "ok" : error.reason;
}

} // namespace

TEST_CASE("a JWK becomes a key: RSA n/e and EC P-256 x/y", "[auth]")
{
    auto const r = jwk::from_json(rsa_key().jwk_json());
    CHECK(r.kid() == "rsa-1");
    CHECK(r.alg() == "RS256");
    auto const e = jwk::from_json(ec_key().jwk_json());
    CHECK(e.alg() == "ES256");

    SECTION("an EC point off the curve is refused")
    {
        std::string const zeros = base64url_encode(std::string(32, '\x01'));
        CHECK_THROWS_AS(jwk::from_json(fmt::format(
                            R"({{"kty":"EC","crv":"P-256","x":"{}","y":"{}"}})", zeros, zeros)),
            std::invalid_argument);
    }
    SECTION("small RSA keys, other curves and missing members are refused")
    {
        auto const small = test_key::rsa("small", 1024);
        CHECK_THROWS_WITH(jwk::from_json(small.jwk_json()), Catch::Contains("2048"));
        CHECK_THROWS_AS(jwk::from_json(R"({"kty":"EC","crv":"P-384","x":"AA","y":"AA"})"),
            std::invalid_argument);
        CHECK_THROWS_AS(jwk::from_json(R"({"kty":"RSA","e":"AQAB"})"), std::invalid_argument);
        CHECK_THROWS_AS(jwk::from_json(R"({"kty":"oct","k":"c2VjcmV0"})"), std::invalid_argument);
    }
    SECTION("a JWKS skips encryption keys and unknown types but needs one signing key")
    {
        auto const set = jwks::from_json(fmt::format(
            R"({{"keys":[{{"kty":"oct","k":"AA"}},{{"kty":"RSA","use":"enc","n":"AA","e":"AQAB"}},{}]}})",
            ec_key().jwk_json()));
        CHECK(set.keys().size() == 1);
        CHECK(set.skipped() == 2);
        CHECK_THROWS_AS(jwks::from_json(R"({"keys":[]})"), std::invalid_argument);
        CHECK_THROWS_AS(jwks::from_json(R"([1])"), std::invalid_argument);
    }
}

TEST_CASE("RS256 and ES256 tokens with good signatures pass", "[auth]")
{
    auto const v = make_validator();
    for (auto const* key : { &rsa_key(), &ec_key() }) {
        jwt_error error;
        auto ok = v.validate(key->token(claims()), error);
        REQUIRE(ok);
        CHECK(ok->subject == "alice");
        CHECK(ok->scopes == std::vector<std::string> { "mcp:read", "mcp:call" });
    }
    SECTION("aud may be an array; scp may replace scope; no kid tries every key")
    {
        auto const token = rsa_key().token(
            claims({}, fmt::format(R"(["https://other.example","{}"])", audience)));
        CHECK(reason_of(v, token) == "ok");
        auto const nokid = ec_key().sign(R"({"alg":"ES256"})", claims());
        CHECK(reason_of(v, nokid) == "ok");
        jwt_error error;
        auto scp = v.validate(
            rsa_key().token(
                fmt::format(R"({{"iss":"{}","aud":"{}","exp":{},"scp":["a","b"],"sub":"c1"}})",
                    issuer, audience, epoch_seconds(std::chrono::seconds(60)))),
            error);
        REQUIRE(scp);
        CHECK(scp->scopes == std::vector<std::string> { "a", "b" });
        CHECK(scp->subject == "c1");
    }
}

TEST_CASE("tokens with bad signatures or algorithms are refused", "[auth]")
{
    auto const v = make_validator();
    auto const stranger_rsa = test_key::rsa("rsa-1"); // same kid, other key
    auto const stranger_ec = test_key::ec("ec-1");
    CHECK(reason_of(v, stranger_rsa.token(claims())) == "bad signature");
    CHECK(reason_of(v, stranger_ec.token(claims())) == "bad signature");

    SECTION("a tampered payload")
    {
        auto token = rsa_key().token(claims());
        auto const dot1 = token.find('.');
        auto const dot2 = token.find('.', dot1 + 1);
        auto forged = token.substr(0, dot1 + 1) + base64url_encode(claims(R"(,"admin":true)"))
            + token.substr(dot2);
        CHECK(reason_of(v, forged) == "bad signature");
        auto es = ec_key().token(claims());
        es.back() = es.back() == 'A' ? 'B' : 'A'; // changes data or only the padding bits:
        CHECK(reason_of(v, es) != "ok"); // either way it must not verify
    }
    SECTION("alg none, HS256 and alg/key mismatches")
    {
        auto const payload = base64url_encode(claims());
        CHECK(reason_of(v, base64url_encode(R"({"alg":"none"})") + "." + payload + ".")
            == "unsupported alg");
        CHECK(reason_of(
                  v, base64url_encode(R"({"alg":"HS256","kid":"rsa-1"})") + "." + payload + ".AAAA")
            == "unsupported alg");
        // An RSA signature claimed as ES256 for the RSA kid: no key of that alg has that kid.
        CHECK(reason_of(v, rsa_key().sign(R"({"alg":"ES256","kid":"rsa-1"})", claims()))
            == "no key matches kid and alg");
        CHECK(reason_of(v, rsa_key().sign(R"({"alg":"RS256","kid":"unknown"})", claims()))
            == "no key matches kid and alg");
    }
    SECTION("malformed tokens")
    {
        CHECK(reason_of(v, "") != "ok");
        CHECK(reason_of(v, "a.b") == "not a JWS compact serialisation");
        CHECK(reason_of(v, "a.b.c.d") == "not a JWS compact serialisation");
        CHECK(reason_of(v, "!!.??.**") == "malformed base64url");
        CHECK(reason_of(v, std::string(20000, 'a')) == "token too large");
    }
}

TEST_CASE("issuer, audience, expiry and not-before are checked", "[auth]")
{
    auto const v = make_validator();
    auto const& k = rsa_key();
    auto const exp = epoch_seconds(std::chrono::seconds(300));
    CHECK(reason_of(v,
              k.token(fmt::format(
                  R"({{"iss":"https://evil.test","aud":"{}","exp":{}}})", audience, exp)))
        == "wrong issuer");
    CHECK(reason_of(v, k.token(fmt::format(R"({{"aud":"{}","exp":{}}})", audience, exp)))
        == "wrong issuer");
    CHECK(reason_of(v, k.token(claims({}, R"("https://other.example/mcp")"))) == "wrong audience");
    CHECK(
        reason_of(v, k.token(claims({}, R"(["https://other.example/mcp"])"))) == "wrong audience");
    CHECK(reason_of(v, k.token(fmt::format(R"({{"iss":"{}","exp":{}}})", issuer, exp)))
        == "wrong audience");
    CHECK(reason_of(v,
              k.token(claims(
                  {}, fmt::format("\"{}\"", audience), epoch_seconds(std::chrono::seconds(-120)))))
        == "expired");
    // Within the 60 s leeway.
    CHECK(reason_of(v,
              k.token(claims(
                  {}, fmt::format("\"{}\"", audience), epoch_seconds(std::chrono::seconds(-30)))))
        == "ok");
    CHECK(reason_of(v, k.token(fmt::format(R"({{"iss":"{}","aud":"{}"}})", issuer, audience)))
        == "no exp");
    CHECK(reason_of(v, k.token(claims(R"(,"exp2":1)", fmt::format("\"{}\"", audience)))) == "ok");
    CHECK(
        reason_of(v,
            k.token(claims(fmt::format(R"(,"nbf":{})", epoch_seconds(std::chrono::seconds(600))))))
        == "not yet valid");
    CHECK(reason_of(v,
              k.token(claims(fmt::format(R"(,"nbf":{})", epoch_seconds(std::chrono::seconds(30))))))
        == "ok");
    CHECK(reason_of(v, k.token(claims(R"(,"nbf":"soon")"))) == "malformed exp or nbf");
}

TEST_CASE("typ, sub and far-off dates: the RFC 9068 checks of the security review", "[auth]")
{
    auto const v = make_validator();
    auto const& k = rsa_key();
    SECTION("a typ other than at+jwt is refused; none at all is taken")
    {
        CHECK(reason_of(v, k.sign(R"({"alg":"RS256","kid":"rsa-1","typ":"JWT"})", claims()))
            == "typ is not at+jwt");
        CHECK(reason_of(v, k.sign(R"({"alg":"RS256","kid":"rsa-1","typ":7})", claims()))
            == "typ is not at+jwt");
        CHECK(reason_of(v,
                  k.sign(R"({"alg":"RS256","kid":"rsa-1","typ":"application/AT+JWT"})", claims()))
            == "ok");
        CHECK(reason_of(v, k.sign(R"({"alg":"RS256","kid":"rsa-1"})", claims())) == "ok");
    }
    SECTION("a token without sub is refused")
    {
        auto const exp = epoch_seconds(std::chrono::seconds(300));
        CHECK(reason_of(v,
                  k.token(fmt::format(R"({{"iss":"{}","aud":"{}","exp":{},"client_id":"c1"}})",
                      issuer, audience, exp)))
            == "no sub");
        CHECK(reason_of(v,
                  k.token(fmt::format(
                      R"({{"iss":"{}","aud":"{}","exp":{},"sub":""}})", issuer, audience, exp)))
            == "no sub");
    }
    SECTION("exp and nbf at the edges of int64 are malformed, not overflowed")
    {
        for (auto edge : { "9223372036854775807", "-9223372036854775808", "1e300" }) {
            INFO("exp = " << edge);
            CHECK(reason_of(v,
                      k.token(fmt::format(R"({{"iss":"{}","aud":"{}","exp":{},"sub":"a"}})", issuer,
                          audience, edge)))
                == "malformed exp or nbf");
            CHECK(reason_of(v, k.token(claims(fmt::format(R"(,"nbf":{})", edge))))
                == "malformed exp or nbf");
        }
    }
}
