// The one loopback rule (common/loopback.hpp).
#include "common/loopback.hpp"

#include <catch2/catch.hpp>

#include <string>

using toolgate::common::is_loopback_host;

TEST_CASE("loopback: localhost, 127.0.0.0/8 and ::1 are loopback", "[common]")
{
    auto const host = GENERATE(as<std::string> {}, "localhost", "LocalHost", "127.0.0.1",
        "127.0.0.2", "127.1.2.3", "127.255.255.255", "::1", "[::1]", "0:0:0:0:0:0:0:1");
    CAPTURE(host);
    CHECK(is_loopback_host(host));
}

TEST_CASE(
    "loopback: other hosts, names that look like addresses, and authorities are not", "[common]")
{
    auto const host = GENERATE(as<std::string> {}, "", "example.com", "127.example.com",
        "127.0.0.1.example.com", "localhost.example.com", "128.0.0.1", "126.255.255.255", "0.0.0.0",
        "::", "::2", "[::1", "localhost:80", "127.0.0.1:8080", "localhost:80@evil.example", "127.1",
        "0x7f.0.0.1");
    CAPTURE(host);
    CHECK_FALSE(is_loopback_host(host));
}
