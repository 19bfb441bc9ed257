// The outbound HTTPS client's retries (DECISIONS: 429/503 with Retry-After, resets before any
// byte), redirects without credentials across hosts, and HTTPS_PROXY tunnelling.
#include "https_client_fixture.hpp"
#include "support/fake_connect_proxy.hpp"

using namespace toolgate::transport;
using namespace toolgate::test;
using namespace std::chrono_literals;

namespace {
fake_response status_only(unsigned status, header_pairs headers = {})
{
    return fake_response{.status = status, .headers = std::move(headers), .body = "{}"};
}
} // namespace

TEST_CASE("429 with Retry-After: 1 is retried after a second and then succeeds", "[upstream]")
{
    fake_platform fake;
    fake.push(status_only(429, {{"Retry-After", "1"}}));
    client_fixture f;
    auto const started = std::chrono::steady_clock::now();

    auto result = f.call(get(fake.url("/limited")));

    REQUIRE(result.failure == outbound_failure::none);
    CHECK(result.response.status == 200);
    CHECK(fake.request_count() == 2);
    CHECK(std::chrono::steady_clock::now() - started >= 900ms);
    CHECK(fake.connections_accepted() == 1); // the 429 left the connection warm
}

TEST_CASE("503 without Retry-After is retried with backoff up to the attempt bound", "[upstream]")
{
    fake_platform fake;
    fake.set_handler([](recorded_request const&) { return status_only(503); });
    client_fixture f;

    auto result = f.call(get(fake.url("/down")));

    REQUIRE(result.failure == outbound_failure::none);
    CHECK(result.response.status == 503);
    CHECK(fake.request_count() == 3);
}

TEST_CASE("a Retry-After beyond the deadline returns the 429 at once", "[upstream]")
{
    fake_platform fake;
    fake.push(status_only(429, {{"Retry-After", "30"}}));
    https_options options = test_options();
    options.deadline = 3s;
    client_fixture f(options);
    auto const started = std::chrono::steady_clock::now();

    auto result = f.call(get(fake.url("/limited")));

    REQUIRE(result.failure == outbound_failure::none);
    CHECK(result.response.status == 429);
    CHECK(result.response.header("Retry-After") == "30");
    CHECK(fake.request_count() == 1);
    CHECK(std::chrono::steady_clock::now() - started < 1s);
}

TEST_CASE("a POST answered 429 is retried too: the platform did not act on it", "[upstream]")
{
    fake_platform fake;
    fake.push(status_only(429, {{"Retry-After", "0"}}));
    client_fixture f;
    auto result = f.call(post(fake.url("/items"), "{}"));
    REQUIRE(result.failure == outbound_failure::none);
    CHECK(result.response.status == 200);
    CHECK(fake.request_count() == 2);
}

TEST_CASE("a reset before any response byte is retried for GET", "[upstream]")
{
    fake_platform fake;
    fake.push({.action = fake_action::reset});
    client_fixture f;

    auto result = f.call(get(fake.url("/flaky")));

    REQUIRE(result.failure == outbound_failure::none);
    CHECK(result.response.status == 200);
    CHECK(fake.request_count() == 2);
    CHECK(fake.connections_accepted() == 2);
}

TEST_CASE("a reset before any response byte is not retried for a fresh POST", "[upstream]")
{
    fake_platform fake;
    fake.push({.action = fake_action::reset});
    client_fixture f;

    auto result = f.call(post(fake.url("/items"), R"({"a":1})"));

    CHECK(result.failure == outbound_failure::protocol);
    CHECK_THAT(result.detail, Catch::Contains("before any response byte") && Catch::Contains("/items"));
    CHECK(fake.request_count() == 1);
}

TEST_CASE("a reused connection that died before any byte is retried even for POST", "[upstream]")
{
    fake_platform fake;
    client_fixture f;
    REQUIRE(f.call(get(fake.url("/warm"))).failure == outbound_failure::none);
    fake.push({.action = fake_action::close}); // the server drops the kept-alive connection

    auto result = f.call(post(fake.url("/items"), "{}"));

    REQUIRE(result.failure == outbound_failure::none);
    CHECK(fake.request_count() == 3);
    CHECK(fake.connections_accepted() == 2);
}

TEST_CASE("resets on every attempt stop at the attempt bound", "[upstream]")
{
    fake_platform fake;
    fake.set_handler([](recorded_request const&) { return fake_response{.action = fake_action::reset}; });
    client_fixture f;
    auto result = f.call(get(fake.url("/broken")));
    CHECK(result.failure == outbound_failure::protocol);
    CHECK(fake.request_count() == 3);
}

TEST_CASE("a GET redirect to another host is followed without credentials", "[upstream]")
{
    fake_platform download;
    fake_platform api;
    // 127.0.0.1 and localhost are different origins, even on one machine.
    api.push(status_only(302, {{"Location", download.url("/blob/1?key=s3cret&sig=abc", "localhost")}}));
    client_fixture f;
    outbound_request request = get(api.url("/files/1/content?key=s3cret"));
    request.headers = {{"Authorization", "Bearer s3cret"}, {"X-Api-Key", "s3cret"}, {"Accept", "*/*"}};
    request.secret_headers = {"x-api-key"};
    request.secret_query = {"key"};

    auto result = f.call(request);

    REQUIRE(result.failure == outbound_failure::none);
    CHECK(result.response.status == 200);
    REQUIRE(api.request_count() == 1);
    CHECK(api.requests()[0].header("Authorization") == "Bearer s3cret");
    auto const seen = download.requests();
    REQUIRE(seen.size() == 1);
    CHECK(seen[0].target == "/blob/1?sig=abc");
    CHECK_FALSE(seen[0].has_header("Authorization"));
    CHECK_FALSE(seen[0].has_header("X-Api-Key"));
    CHECK(seen[0].header("Accept") == "*/*");
}

TEST_CASE("a redirect on the same host keeps credentials", "[upstream]")
{
    fake_platform api;
    api.push(status_only(301, {{"Location", "/v2/moved"}}));
    client_fixture f;
    outbound_request request = get(api.url("/v1/old"));
    request.headers = {{"Authorization", "Bearer t"}};

    auto result = f.call(request);

    REQUIRE(result.failure == outbound_failure::none);
    auto const seen = api.requests();
    REQUIRE(seen.size() == 2);
    CHECK(seen[1].target == "/v2/moved");
    CHECK(seen[1].header("Authorization") == "Bearer t");
}

TEST_CASE("redirects stop after five hops", "[upstream]")
{
    fake_platform api;
    api.set_handler([](recorded_request const&) { return status_only(302, {{"Location", "/again"}}); });
    client_fixture f;
    auto result = f.call(get(api.url("/start")));
    CHECK(result.failure == outbound_failure::protocol);
    CHECK_THAT(result.detail, Catch::Contains("more than 5 redirects"));
    CHECK(api.request_count() == 6);
}

TEST_CASE("a redirect answer to POST is returned, not followed", "[upstream]")
{
    fake_platform api;
    api.push(status_only(303, {{"Location", "/elsewhere"}}));
    client_fixture f;
    auto result = f.call(post(api.url("/items"), "{}"));
    REQUIRE(result.failure == outbound_failure::none);
    CHECK(result.response.status == 303);
    CHECK(api.request_count() == 1);
}

TEST_CASE("HTTPS requests go through the CONNECT proxy with its credentials", "[upstream]")
{
    fake_platform fake;
    fake_connect_proxy proxy;
    https_options options = test_options();
    options.https_proxy = "http://user:pa%20ss@127.0.0.1:" + std::to_string(proxy.port());
    client_fixture f(options);

    auto result = f.call(get(fake.url("/via-proxy", "localhost")));

    REQUIRE(result.failure == outbound_failure::none);
    CHECK(fake.requests().at(0).target == "/via-proxy");
    auto const targets = proxy.connect_targets();
    REQUIRE(targets.size() == 1);
    CHECK(targets[0] == "localhost:" + std::to_string(fake.port()));
    CHECK(proxy.authorizations().at(0) == "Basic dXNlcjpwYSBzcw==");
    // The tunnel is pooled like any connection.
    REQUIRE(f.call(get(fake.url("/again", "localhost"))).failure == outbound_failure::none);
    CHECK(proxy.connect_targets().size() == 1);
}

TEST_CASE("NO_PROXY hosts are reached directly", "[upstream]")
{
    fake_platform fake;
    fake_connect_proxy proxy;
    https_options options = test_options();
    options.https_proxy = proxy.url();
    options.no_proxy = "example.com,127.0.0.1";
    client_fixture f(options);

    REQUIRE(f.call(get(fake.url("/direct"))).failure == outbound_failure::none);
    CHECK(proxy.connect_targets().empty());
}

TEST_CASE("a proxy refusing CONNECT fails the call in the connect phase", "[upstream]")
{
    fake_platform fake;
    fake_connect_proxy proxy(true);
    https_options options = test_options();
    options.https_proxy = proxy.url();
    client_fixture f(options);

    auto result = f.call(get(fake.url("/x")));

    CHECK(result.failure == outbound_failure::connect);
    CHECK_THAT(result.detail, Catch::Contains("proxy 127.0.0.1") && Catch::Contains("407"));
    CHECK(fake.request_count() == 0);
}

TEST_CASE("proxy settings are read from the environment once, at construction", "[upstream]")
{
    ::setenv("https_proxy", "", 1);
    ::setenv("HTTPS_PROXY", "http://proxy.corp:3128", 1);
    ::setenv("NO_PROXY", "internal.corp", 1);
    https_options options = test_options();
    options.proxy_from_environment = true;
    boost::asio::io_context ioc;
    https_client client(ioc, options);
    ::unsetenv("HTTPS_PROXY");
    ::unsetenv("NO_PROXY");
    ::unsetenv("https_proxy");
    CHECK(client.options().https_proxy == "http://proxy.corp:3128");
    CHECK(client.options().no_proxy == "internal.corp");
}
