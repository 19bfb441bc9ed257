// Secret masking: one rule for results, logs and events.
#include "common/masking.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using toolgate::common::mask_secrets;

TEST_CASE("every non-empty secret is masked, longest first", "[common]")
{
    std::vector<std::string> const secrets { "abcdefgh", "abcdefghij", "" };
    CHECK(mask_secrets("xabcdefghijx abcdefgh", secrets) == "x***x ***");
    CHECK(mask_secrets("nothing here", secrets) == "nothing here");
    CHECK(mask_secrets("abcdefghabcdefgh", secrets) == "******");
}

TEST_CASE("a value too short to mask safely is masked only as a word of its own (third review "
          "19)",
    "[common]")
{
    // A one-character secret must not eat the letters of ordinary words.
    std::vector<std::string> const t { "t" };
    CHECK(mask_secrets(R"({"type":"text","t":"t"})", t) == R"({"type":"text","***":"***"})");
    // A short host label: masked in a host name, not inside other words.
    std::vector<std::string> const label { "acme" };
    CHECK(mask_secrets("acme.example.test:443: no such host", label)
        == "***.example.test:443: no such host");
    CHECK(mask_secrets("acmeCorp and my-acme and acme_1", label)
        == "acmeCorp and my-acme and acme_1");
    // From eight characters on, a secret is masked wherever it occurs.
    std::vector<std::string> const long_one { "tok12345" };
    CHECK(mask_secrets("xtok12345x", long_one) == "x***x");
}

TEST_CASE("a secret is masked in its percent-encoded form too", "[common]")
{
    std::vector<std::string> const secrets { "s3cr+t/key=" };
    CHECK(mask_secrets("GET /v1?token=s3cr%2Bt%2Fkey%3D&x=1", secrets) == "GET /v1?token=***&x=1");
    CHECK(mask_secrets("raw s3cr+t/key= here", secrets) == "raw *** here");
}

TEST_CASE("a mask never reveals part of a secret that overlaps another", "[common]")
{
    std::vector<std::string> const secrets { "token-123", "123-more" };
    auto const masked = mask_secrets("token-123-more", secrets);
    CHECK(masked.find("123") == std::string::npos);
    CHECK(masked.find("token") == std::string::npos);
}
