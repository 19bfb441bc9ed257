// ASCII-only case rules and whitespace trimming for protocol text.
#include "common/ascii.hpp"

#include <catch2/catch.hpp>

using namespace toolgate::common;

TEST_CASE("letter case is folded for ASCII letters only", "[common]")
{
    CHECK(to_lower_ascii("Content-TYPE: X9_z") == "content-type: x9_z");
    // Bytes of a UTF-8 letter are left alone (no locale, no surprises in header names).
    CHECK(to_lower_ascii("\xc3\x89T\xc3\x89") == "\xc3\x89t\xc3\x89");
    CHECK(to_lower_ascii('@') == '@');
    CHECK(to_lower_ascii('[') == '[');
    CHECK(to_upper_ascii('q') == 'Q');
    CHECK(to_upper_ascii('Q') == 'Q');
    // '{' and '`' sit next to the lower-case letters; they are not letters.
    CHECK(to_upper_ascii('{') == '{');
    CHECK(to_upper_ascii('`') == '`');
    CHECK(to_upper_ascii('\xe9') == '\xe9');
}

TEST_CASE("case-insensitive comparison and prefix", "[common]")
{
    CHECK(iequals_ascii("Authorization", "authorization"));
    CHECK(iequals_ascii("", ""));
    CHECK_FALSE(iequals_ascii("Authorization", "authorisation"));
    CHECK_FALSE(iequals_ascii("cookie", "cookies"));
    // '@' and '`' differ from 'A' and 'a' by the same bit as case: they must not compare equal.
    CHECK_FALSE(iequals_ascii("@", "`"));
    CHECK(istarts_with_ascii("Bearer abc", "bearer "));
    CHECK_FALSE(istarts_with_ascii("Bear", "bearer"));
    CHECK_FALSE(istarts_with_ascii("Basic abc", "bearer"));
}

TEST_CASE("optional whitespace is spaces and tabs only", "[common]")
{
    CHECK(trim_ows(" \t gzip \t") == "gzip");
    CHECK(trim_ows("   ").empty());
    CHECK(trim_ows("a b") == "a b");
    CHECK(trim_ows("\r\nx\r\n") == "\r\nx\r\n");
}

TEST_CASE("blanks around a line of a text file include a carriage return", "[common]")
{
    CHECK(trim_blanks(" \ttoken-one\r") == "token-one");
    CHECK(trim_blanks("\r\n").size() == 1); // a newline is not a blank: lines are split first
    CHECK(trim_blanks("a b") == "a b");
}
