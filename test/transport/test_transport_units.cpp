// Example-based unit tests for the small transport pieces that the process tests only reach
// from outside: the stdio line framer, the signed legacy session ids and the Origin/Host policy.
#include "transport/line_framer.hpp"
#include "transport/origin_policy.hpp"
#include "transport/session_token.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <vector>

using namespace toolgate::transport;

namespace {

std::vector<std::string> texts(std::vector<frame> const& frames)
{
    std::vector<std::string> out;
    for (auto const& f : frames) {
        out.push_back(f.oversize ? std::string("<oversize>") : f.text);
    }
    return out;
}

} // namespace

TEST_CASE("line framer: complete lines come out, a partial one waits for its newline",
    "[transport][stdio]")
{
    line_framer framer(100);
    CHECK(texts(framer.feed("one\ntwo\nthr")) == std::vector<std::string> { "one", "two" });
    CHECK(framer.has_partial());
    CHECK(texts(framer.feed("ee\n")) == std::vector<std::string> { "three" });
    CHECK_FALSE(framer.has_partial());
}

TEST_CASE("line framer: CRLF endings lose the CR, blank lines yield nothing", "[transport][stdio]")
{
    line_framer framer(100);
    CHECK(texts(framer.feed("a\r\n\n \t\n\r\nb\n")) == std::vector<std::string> { "a", "b" });
    // A CR inside a line stays: only the one before the newline goes.
    CHECK(texts(framer.feed("x\ry\n")) == std::vector<std::string> { "x\ry" });
}

TEST_CASE("line framer: an over-long line is one oversize frame and the stream carries on",
    "[transport][stdio]")
{
    line_framer framer(5);
    CHECK(texts(framer.feed("12345\n")) == std::vector<std::string> { "12345" }); // at the limit
    CHECK(texts(framer.feed("123456\nok\n")) == std::vector<std::string> { "<oversize>", "ok" });
    // Split over reads: reported once, as soon as it passes the limit, the rest skipped.
    CHECK(texts(framer.feed("abcd")).empty());
    CHECK(texts(framer.feed("efgh")) == std::vector<std::string> { "<oversize>" });
    CHECK(framer.has_partial()); // still skipping until the newline
    CHECK(texts(framer.feed("ijkl")).empty());
    CHECK(texts(framer.feed("mn\nnext\n")) == std::vector<std::string> { "next" });
    CHECK_FALSE(framer.has_partial());
}

TEST_CASE("session ids: issued ids verify with their claims, under the same key only",
    "[transport][session]")
{
    session_signer signer("a shared key of the replicas");
    auto const now = std::chrono::system_clock::now();
    auto const id = signer.issue("2025-06-18", now);
    for (char c : id) {
        CHECK((c >= 0x21 && c <= 0x7e)); // visible ASCII, as MCP requires of session ids
    }
    auto claims = signer.verify(id);
    REQUIRE(claims);
    CHECK(claims->version == "2025-06-18");
    CHECK(std::chrono::abs(claims->issued - now) < std::chrono::seconds(2));

    session_signer replica("a shared key of the replicas");
    CHECK(replica.verify(id));
    session_signer other("another key");
    CHECK_FALSE(other.verify(id));
    // Two ids issued at the same moment differ (the random part).
    CHECK(signer.issue("2025-06-18", now) != id);
}

TEST_CASE("session ids: a tampered, truncated or foreign id is refused", "[transport][session]")
{
    session_signer signer("k");
    auto const id = signer.issue("2025-03-26");
    REQUIRE(signer.verify(id));
    for (std::size_t at : { std::size_t(0), id.size() / 2, id.size() - 1 }) {
        auto changed = id;
        changed[at] = changed[at] == 'A' ? 'B' : 'A';
        INFO("changed at " << at);
        CHECK_FALSE(signer.verify(changed));
    }
    CHECK_FALSE(signer.verify(id.substr(0, id.size() - 1)));
    CHECK_FALSE(signer.verify(""));
    CHECK_FALSE(signer.verify("."));
    CHECK_FALSE(signer.verify("no-dot-at-all"));
    CHECK_FALSE(signer.verify(id + "\x01"));
}

TEST_CASE("session ids: bound to a principal, an id verifies for that principal only",
    "[transport][session]")
{
    session_signer signer("k");
    auto const id = signer.issue("2025-11-25", std::chrono::system_clock::now(), "alice");
    CHECK(signer.verify(id, "alice"));
    CHECK_FALSE(signer.verify(id, "bob"));
    CHECK_FALSE(signer.verify(id)); // unauthenticated use of an authenticated session
}

TEST_CASE("session ids: a random key verifies only in its own process", "[transport][session]")
{
    session_signer first("");
    session_signer second("");
    CHECK(first.has_random_key());
    auto const id = first.issue("2025-06-18");
    CHECK(first.verify(id));
    CHECK_FALSE(second.verify(id));
}

TEST_CASE(
    "origin policy: loopback origins on any port pass, others are refused", "[transport][http]")
{
    origin_policy const policy;
    auto allows = [&](std::string origin) { return policy.allows_origin(&origin); };
    CHECK(policy.allows_origin(nullptr)); // no Origin: not a browser
    CHECK(allows("http://localhost"));
    CHECK(allows("http://localhost:6274"));
    CHECK(allows("https://127.0.0.1:8443"));
    CHECK(allows("http://[::1]:3000"));
    CHECK_FALSE(allows("http://example.com"));
    CHECK_FALSE(allows("http://127.0.0.1.example.com"));
    CHECK_FALSE(allows("http://localhost.example.com:80"));
    CHECK_FALSE(allows("http://localhost@example.com"));
    // Security review 18: the host is what follows the userinfo, not what precedes a ':'.
    CHECK_FALSE(allows("http://localhost:80@evil.example"));
    CHECK_FALSE(allows("http://127.0.0.1:8080@evil.example:8080"));
    CHECK_FALSE(allows("http://user@localhost"));
    CHECK_FALSE(allows("http://[::1"));
    CHECK_FALSE(allows("http://localhost/path"));
    CHECK_FALSE(allows("file://localhost"));
    CHECK_FALSE(allows("null"));
    CHECK_FALSE(allows(""));
}

TEST_CASE("origin policy: configured origins pass exactly as written", "[transport][http]")
{
    origin_policy const policy({ "https://agents.example.com" });
    auto allows = [&](std::string origin) { return policy.allows_origin(&origin); };
    CHECK(allows("https://agents.example.com"));
    CHECK_FALSE(allows("http://agents.example.com"));
    CHECK_FALSE(allows("https://agents.example.com:444"));
    CHECK_FALSE(allows("https://evil-agents.example.com"));
    CHECK(allows("http://localhost:1")); // loopback stays allowed
}

TEST_CASE("origin policy: Host names a loopback host, in any letter case", "[transport][http]")
{
    CHECK(origin_policy::is_loopback_host("127.0.0.1:8080"));
    CHECK(origin_policy::is_loopback_host("localhost"));
    CHECK(origin_policy::is_loopback_host("[::1]:8080"));
    CHECK(origin_policy::is_loopback_host("LocalHost:8080")); // host names ignore case
    CHECK_FALSE(origin_policy::is_loopback_host("attacker.example:8080"));
    CHECK_FALSE(origin_policy::is_loopback_host("localhost:80@evil.example")); // review 18
    // The one loopback rule (common/loopback.hpp): all of 127.0.0.0/8.
    CHECK(origin_policy::is_loopback_host("127.0.0.2"));
    CHECK_FALSE(origin_policy::is_loopback_host("127.example:8080"));
    CHECK_FALSE(origin_policy::is_loopback_host(""));
}
