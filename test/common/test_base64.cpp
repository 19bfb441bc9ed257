// base64 in both alphabets: RFC 4648 §10 vectors, round trips and strict decoding.
#include "common/base64.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace toolgate::common;

TEST_CASE("standard base64 matches the RFC 4648 test vectors", "[common]")
{
    CHECK(base64_encode("") == "");
    CHECK(base64_encode("f") == "Zg==");
    CHECK(base64_encode("fo") == "Zm8=");
    CHECK(base64_encode("foo") == "Zm9v");
    CHECK(base64_encode("foob") == "Zm9vYg==");
    CHECK(base64_encode("fooba") == "Zm9vYmE=");
    CHECK(base64_encode("foobar") == "Zm9vYmFy");
    CHECK(base64_encode("\xfb\xff") == "+/8=");
    CHECK(base64_decode("Zm9vYg==") == std::string("foob"));
    CHECK(base64_decode("Zm9vYmE=") == std::string("fooba"));
    CHECK(base64_decode("") == std::string());
}

TEST_CASE("standard base64 round-trips every byte value", "[common]")
{
    std::string all;
    for (int i = 0; i < 256; ++i) {
        all += static_cast<char>(i);
    }
    for (std::size_t n = 0; n < 6; ++n) {
        auto const text = all.substr(n);
        CHECK(base64_decode(base64_encode(text)) == text);
    }
}

TEST_CASE("standard base64 decoding is strict", "[common]")
{
    CHECK_FALSE(base64_decode("Zm9vYg").has_value()); // padding missing
    CHECK_FALSE(base64_decode("Zm9vY===").has_value()); // too much padding
    CHECK_FALSE(base64_decode("Zm=vYg==").has_value()); // padding inside
    CHECK_FALSE(base64_decode("-_8=").has_value()); // URL-safe alphabet
    CHECK_FALSE(base64_decode("Zm9v YQ=").has_value());
    CHECK_FALSE(base64_decode("Zm9vYh==").has_value()); // non-zero unused bits
}

TEST_CASE("base64url decodes what it encodes and refuses other alphabets", "[common]")
{
    for (std::string text :
        { "", "f", "fo", "foo", "foob", "fooba", "foobar", "\xff\xfe\x00\x01" }) {
        CHECK(base64url_decode(base64url_encode(text)) == text);
    }
    CHECK(base64url_encode("\xfb\xff") == "-_8");
    CHECK(base64url_decode("-_8") == std::string("\xfb\xff"));
    CHECK(base64url_decode("Zm9vYg==") == std::string("foob"));
    CHECK_FALSE(base64url_decode("+/8").has_value());
    CHECK_FALSE(base64url_decode("Zm9v YQ").has_value());
    CHECK_FALSE(base64url_decode("A").has_value());
    // "Zm9vYh" has non-zero leftover bits: a second spelling of "foob" must not decode.
    CHECK_FALSE(base64url_decode("Zm9vYh").has_value());
}
