// Pure rules of the outbound client: URL splitting, retry timing, redirects, proxy settings.
#include "transport/outbound_policy.hpp"
#include "transport/proxy_config.hpp"

#include <catch2/catch.hpp>

#include <tuple>

using namespace toolgate::transport;
using namespace std::chrono_literals;

TEST_CASE("url target splits host, port, Host header and target", "[upstream]")
{
    auto t = parse_url_target("https://api.example.com/v1/items?limit=5&key=s#frag");
    REQUIRE(t.has_value());
    CHECK(t->tls);
    CHECK(t->host == "api.example.com");
    CHECK_FALSE(t->host_is_ip);
    CHECK(t->port == "443");
    CHECK(t->host_header == "api.example.com");
    CHECK(t->target == "/v1/items?limit=5&key=s");
    CHECK(t->path == "/v1/items");
    CHECK(t->pool_key() == "https://api.example.com:443");

    auto ip = parse_url_target("http://[::1]:8080");
    REQUIRE(ip.has_value());
    CHECK_FALSE(ip->tls);
    CHECK(ip->host == "::1");
    CHECK(ip->host_is_ip);
    CHECK(ip->host_header == "[::1]:8080");
    CHECK(ip->target == "/");
    CHECK(ip->authority() == "[::1]:8080");

    CHECK(parse_url_target("HTTPS://Api.Example.com:8443/x")->pool_key()
        == "https://api.example.com:8443");
}

TEST_CASE("url target refuses other schemes, relative URLs and garbage", "[upstream]")
{
    auto url = GENERATE(
        as<std::string> {}, "ftp://example.com/x", "/relative/path", "not a url", "https://", "");
    CAPTURE(url);
    CHECK_FALSE(parse_url_target(url).has_value());
}

TEST_CASE("idempotent methods are the ones RFC 9110 names", "[upstream]")
{
    for (auto m : { "GET", "HEAD", "PUT", "DELETE", "OPTIONS" }) {
        CHECK(is_idempotent(m));
    }
    for (auto m : { "POST", "PATCH", "CONNECT", "get" }) {
        CHECK_FALSE(is_idempotent(m));
    }
    CHECK(is_retryable_status(429));
    CHECK(is_retryable_status(503));
    CHECK_FALSE(is_retryable_status(500));
    CHECK_FALSE(is_retryable_status(502));
}

TEST_CASE("Retry-After is read as seconds or as an HTTP date", "[upstream]")
{
    // Sun, 06 Nov 1994 08:49:37 GMT
    auto const now = std::chrono::system_clock::time_point { std::chrono::seconds { 784111777 } };
    CHECK(parse_retry_after("1", now) == 1000ms);
    CHECK(parse_retry_after(" 120 ", now) == 120s);
    CHECK(parse_retry_after("0", now) == 0ms);
    CHECK(parse_retry_after("99999999999", now) == 86400s);
    CHECK(parse_retry_after("Sun, 06 Nov 1994 08:49:47 GMT", now) == 10s);
    CHECK(parse_retry_after("Sun, 06 Nov 1994 08:00:00 GMT", now) == 0ms);
    CHECK(parse_retry_after("Mon, 07 Nov 1994 08:49:37 GMT", now) == 86400s);
    CHECK_FALSE(parse_retry_after("soon", now));
    CHECK_FALSE(parse_retry_after("-5", now));
    CHECK_FALSE(parse_retry_after("Sun, 06 Foo 1994 08:49:47 GMT", now));
    CHECK_FALSE(parse_retry_after("", now));
}

TEST_CASE("backoff doubles from 200 ms and is capped", "[upstream]")
{
    CHECK(backoff_delay(1) == 200ms);
    CHECK(backoff_delay(2) == 400ms);
    CHECK(backoff_delay(3) == 800ms);
    CHECK(backoff_delay(50) == 5000ms);
}

namespace {
outbound_request credentialed(std::string url)
{
    outbound_request r;
    r.method = "GET";
    r.url = std::move(url);
    r.headers = { { "Authorization", "Bearer s3cret" }, { "X-Api-Key", "k3y" }, { "Cookie", "a=b" },
        { "Accept", "application/json" } };
    r.secret_headers = { "x-api-key" };
    r.secret_query = { "key", "token" };
    return r;
}

bool has_header(outbound_request const& r, std::string_view name)
{
    for (auto const& h : r.headers) {
        if (h.first == name) {
            return true;
        }
    }
    return false;
}
} // namespace

TEST_CASE("a redirect to the same origin keeps credentials", "[upstream]")
{
    auto next = follow_redirect(credentialed("https://api.example.com/a/b?key=1"), "../c?x=2#f");
    REQUIRE(next.has_value());
    CHECK(next->url == "https://api.example.com/c?x=2");
    CHECK(has_header(*next, "Authorization"));
    CHECK(has_header(*next, "X-Api-Key"));
}

TEST_CASE("a redirect to another origin drops every credential", "[upstream]")
{
    auto location = GENERATE(as<std::string> {}, "https://dl.example.net/f?key=1&token=2&x=3",
        "http://api.example.com/f?key=1&token=2&x=3",
        "https://api.example.com:8443/f?key=1&token=2&x=3");
    CAPTURE(location);
    auto next = follow_redirect(credentialed("https://api.example.com/a?key=1"), location);
    REQUIRE(next.has_value());
    CHECK_FALSE(has_header(*next, "Authorization"));
    CHECK_FALSE(has_header(*next, "X-Api-Key"));
    CHECK_FALSE(has_header(*next, "Cookie"));
    CHECK(has_header(*next, "Accept"));
    CHECK(next->url.ends_with("/f?x=3"));

    // Coming back to the first host does not bring them back.
    auto back = follow_redirect(*next, "https://api.example.com/again");
    REQUIRE(back.has_value());
    CHECK_FALSE(has_header(*back, "Authorization"));
}

TEST_CASE("a redirect to an unusable Location fails", "[upstream]")
{
    CHECK_FALSE(
        follow_redirect(credentialed("https://api.example.com/a"), "ftp://x/y").has_value());
    CHECK_FALSE(
        follow_redirect(credentialed("https://api.example.com/a"), "http://[bad").has_value());
}

TEST_CASE("NO_PROXY entries match hosts, subdomains, addresses and ports", "[upstream]")
{
    using row = std::tuple<std::string, std::string, std::string, bool>;
    auto [list, host, port, direct] = GENERATE(table<std::string, std::string, std::string, bool>({
        row { "", "api.example.com", "443", false },
        row { "*", "api.example.com", "443", true },
        row { "example.com", "api.example.com", "443", true },
        row { ".example.com", "api.example.com", "443", true },
        row { "*.example.com", "api.example.com", "443", true },
        row { "example.com", "example.com", "443", true },
        row { "example.com", "badexample.com", "443", false },
        row { "localhost, 127.0.0.1", "127.0.0.1", "8443", true },
        row { "127.0.0.1", "127.0.0.2", "443", false },
        row { "example.com:8443", "api.example.com", "443", false },
        row { "example.com:8443", "api.example.com", "8443", true },
        row { "::1", "::1", "443", true },
        row { "[::1]:443", "::1", "443", true },
        row { "EXAMPLE.com", "Api.Example.COM", "443", true },
    }));
    CAPTURE(list, host, port);
    CHECK(bypasses_proxy(list, host, port) == direct);
}

TEST_CASE("proxy URLs parse with default port and Basic credentials", "[upstream]")
{
    auto plain = parse_proxy_url("proxy.corp:3128");
    REQUIRE(plain.has_value());
    CHECK(plain->host == "proxy.corp");
    CHECK(plain->port == "3128");
    CHECK(plain->authorization.empty());

    auto with_user = parse_proxy_url("http://user:pa%20ss@10.0.0.1");
    REQUIRE(with_user.has_value());
    CHECK(with_user->host == "10.0.0.1");
    CHECK(with_user->port == "1080");
    CHECK(with_user->authorization == "Basic dXNlcjpwYSBzcw=="); // user:pa ss

    CHECK_FALSE(parse_proxy_url("https://proxy.corp:443").has_value());
    CHECK_FALSE(parse_proxy_url("http://").has_value());
}

TEST_CASE("headers that cannot be sent are refused, naming the header", "[upstream]")
{
    CHECK(check_sendable_headers({ { "Authorization", "Bearer x" }, { "X-Tab", "a\tb" } })
              .has_value());
    auto injected = check_sendable_headers({ { "X-Note", "a\r\nHost: evil" } });
    REQUIRE(injected.has_error());
    CHECK_THAT(injected.error().message, Catch::Contains("`X-Note`"));
    CHECK_THAT(injected.error().message, Catch::Contains("control character"));
    CHECK(check_sendable_headers({ { "Bad Name", "v" } }).has_error());
    CHECK(check_sendable_headers({ { "", "v" } }).has_error());
    auto large = check_sendable_headers({ { "X-Big", std::string(33 * 1024, 'a') } });
    REQUIRE(large.has_error());
    CHECK_THAT(large.error().message, Catch::Contains("too large"));
    // Each value fits, the sum does not (60 KiB in all).
    std::string const half(31 * 1024, 'b');
    CHECK(check_sendable_headers({ { "X-A", half }, { "X-B", half } }).has_error());
}
