// Secret masking: one rule for results, logs and events.
#include "common/masking.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using toolgate::common::mask_secrets;

TEST_CASE("every non-empty secret is masked, longest first", "[common]")
{
    std::vector<std::string> const secrets { "ab", "abcd", "" };
    CHECK(mask_secrets("xabcdx ab", secrets) == "x***x ***");
    CHECK(mask_secrets("nothing here", secrets) == "nothing here");
    CHECK(mask_secrets("abab", secrets) == "******");
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
