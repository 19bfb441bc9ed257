// The outbound HTTPS client's retries (docs/decisions.md: 429/503 with Retry-After, resets before
// any byte), redirects without credentials across hosts, and HTTPS_PROXY tunnelling.
#include "https_client_fixture.hpp"
#include "support/fake_connect_proxy.hpp"

#include <thread>

using namespace toolgate::transport;
using namespace toolgate::test;
using namespace std::chrono_literals;

namespace {
fake_response status_only(unsigned status, header_pairs headers = {})
{
    return fake_response { .status = status, .headers = std::move(headers), .body = "{}" };
}
} // namespace

TEST_CASE("429 with Retry-After: 1 is retried after a second and then succeeds", "[upstream]")
{
    fake_platform fake;
    fake.push(status_only(429, { { "Retry-After", "1" } }));
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
    fake.push(status_only(429, { { "Retry-After", "30" } }));
    https_options options = test_options();
    options.deadline = 3s;
    client_fixture f(options);
    auto const started = std::chrono::steady_clock::now();

    auto result = f.call(get(fake.url("/limited")));

    REQUIRE(result.failure == outbound_failure::none);
    CHECK(result.response.status == 429);
    CHECK(result.response.header("Retry-After") == "30");
    CHECK(fake.request_count() == 1);
    CHECK(std::chrono::steady_clock::now() - started < 2500ms); // not waiting out the 30 s
}

TEST_CASE("a POST answered 429 is retried too: the platform did not act on it", "[upstream]")
{
    fake_platform fake;
    fake.push(status_only(429, { { "Retry-After", "0" } }));
    client_fixture f;
    auto result = f.call(post(fake.url("/items"), "{}"));
    REQUIRE(result.failure == outbound_failure::none);
    CHECK(result.response.status == 200);
    CHECK(fake.request_count() == 2);
}

TEST_CASE("a reset before any response byte is retried for GET", "[upstream]")
{
    fake_platform fake;
    fake.push({ .action = fake_action::reset });
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
    fake.push({ .action = fake_action::reset });
    client_fixture f;

    auto result = f.call(post(fake.url("/items"), R"({"a":1})"));

    CHECK(result.failure == outbound_failure::protocol);
    CHECK_THAT(
        result.detail, Catch::Contains("before any response byte") && Catch::Contains("/items"));
    CHECK(fake.request_count() == 1);
}

TEST_CASE("a POST written on a reused connection that then broke is not sent twice", "[upstream]")
{
    // Security review finding 16: the platform may have acted on the POST before the
    // connection broke, so repeating it could create a second item.
    fake_platform fake;
    client_fixture f;
    REQUIRE(f.call(get(fake.url("/warm"))).failure == outbound_failure::none);
    fake.push({ .action = fake_action::close }); // received, then the connection is dropped

    auto result = f.call(post(fake.url("/items"), "{}"));

    CHECK(result.failure == outbound_failure::protocol);
    CHECK_THAT(result.detail, Catch::Contains("before any response byte"));
    CHECK(fake.request_count() == 2);
}

TEST_CASE(
    "a POST with an Idempotency-Key is re-sent after a broken reused connection", "[upstream]")
{
    fake_platform fake;
    client_fixture f;
    REQUIRE(f.call(get(fake.url("/warm"))).failure == outbound_failure::none);
    fake.push({ .action = fake_action::close });
    auto request = post(fake.url("/items"), "{}");
    request.headers.emplace_back("Idempotency-Key", "k-1");

    auto result = f.call(request);

    REQUIRE(result.failure == outbound_failure::none);
    CHECK(fake.request_count() == 3);
    CHECK(fake.requests()[2].header("Idempotency-Key") == "k-1");
}

TEST_CASE("a POST does not use a pooled connection the server closed while idle", "[upstream]")
{
    fake_platform fake;
    client_fixture f;
    fake.push({ .close_idle_after = 50ms }); // the server's idle timeout, after the answer
    REQUIRE(f.call(get(fake.url("/warm"))).failure == outbound_failure::none);
    REQUIRE(
        fake.wait_until([](fake_platform const& p) { return p.connections_closed() == 1; }, 5s));
    std::this_thread::sleep_for(20ms); // the FIN has reached the client's socket

    auto result = f.call(post(fake.url("/items"), "{}"));

    REQUIRE(result.failure == outbound_failure::none);
    CHECK(result.response.status == 200);
    CHECK(fake.request_count() == 2); // sent once, on a fresh connection
    CHECK(fake.connections_accepted() == 2);
}

TEST_CASE("resets on every attempt stop at the attempt bound", "[upstream]")
{
    fake_platform fake;
    fake.set_handler(
        [](recorded_request const&) { return fake_response { .action = fake_action::reset }; });
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
    api.push(status_only(
        302, { { "Location", download.url("/blob/1?key=s3cret&sig=abc", "localhost") } }));
    client_fixture f;
    outbound_request request = get(api.url("/files/1/content?key=s3cret"));
    request.headers
        = { { "Authorization", "Bearer s3cret" }, { "X-Api-Key", "s3cret" }, { "Accept", "*/*" } };
    request.secret_headers = { "x-api-key" };
    request.secret_query = { "key" };
    // A host the operator configured (as a base-URL override does): loopback is fine there.
    request.trusted_origins = { "https://localhost:" + std::to_string(download.port()) };

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
    api.push(status_only(301, { { "Location", "/v2/moved" } }));
    client_fixture f;
    outbound_request request = get(api.url("/v1/old"));
    request.headers = { { "Authorization", "Bearer t" } };

    auto result = f.call(request);

    REQUIRE(result.failure == outbound_failure::none);
    auto const seen = api.requests();
    REQUIRE(seen.size() == 2);
    CHECK(seen[1].target == "/v2/moved");
    CHECK(seen[1].header("Authorization") == "Bearer t");
}

TEST_CASE("a redirect to an origin nobody allowed is returned, not followed", "[upstream]")
{
    // Security review finding 5: a platform answering 302 to an internal service must not
    // get toolgate to fetch it for the caller.
    fake_platform api;
    fake_platform internal({ .tls = false });
    api.push(status_only(302,
        { { "Location",
            "http://127.0.0.1:" + std::to_string(internal.port()) + "/latest/meta-data" } }));
    client_fixture f;
    auto result = f.call(get(api.url("/files/1/content")));
    REQUIRE(result.failure == outbound_failure::none);
    CHECK(result.response.status == 302);
    CHECK(internal.request_count() == 0);
}

TEST_CASE("a listed redirect origin is followed only over https to a public address", "[upstream]")
{
    fake_platform api;
    fake_platform download;
    fake_platform plain({ .tls = false });
    client_fixture f;
    auto const listed_https = "https://localhost:" + std::to_string(download.port());
    auto const listed_http = "http://localhost:" + std::to_string(plain.port());

    // Listed, https, but the name resolves to loopback: refused when connecting.
    api.push(status_only(302, { { "Location", download.url("/blob", "localhost") } }));
    auto request = get(api.url("/files/1/content"));
    request.redirect_origins = { listed_https, listed_http };
    auto resolved = f.call(request);
    CHECK(resolved.failure == outbound_failure::connect);
    CHECK_THAT(resolved.detail, Catch::Contains("private") && Catch::Contains("not followed"));
    CHECK(download.request_count() == 0);

    // Listed, but plain http: the 302 comes back as it is.
    api.push(status_only(302, { { "Location", listed_http + "/blob" } }));
    auto downgrade = f.call(request);
    REQUIRE(downgrade.failure == outbound_failure::none);
    CHECK(downgrade.response.status == 302);
    CHECK(plain.request_count() == 0);

    // A loopback literal, even listed: returned too.
    api.push(status_only(302, { { "Location", download.url("/blob") } }));
    request.redirect_origins.push_back("https://127.0.0.1:" + std::to_string(download.port()));
    auto literal = f.call(request);
    REQUIRE(literal.failure == outbound_failure::none);
    CHECK(literal.response.status == 302);
    CHECK(download.request_count() == 0);
}

TEST_CASE("redirects stop after five hops", "[upstream]")
{
    fake_platform api;
    api.set_handler([](recorded_request const&) {
        return status_only(302, { { "Location", "/again" } });
    });
    client_fixture f;
    auto result = f.call(get(api.url("/start")));
    CHECK(result.failure == outbound_failure::protocol);
    CHECK_THAT(result.detail, Catch::Contains("more than 5 redirects"));
    CHECK(api.request_count() == 6);
}

TEST_CASE("a redirect answer to POST is returned, not followed", "[upstream]")
{
    fake_platform api;
    api.push(status_only(303, { { "Location", "/elsewhere" } }));
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
