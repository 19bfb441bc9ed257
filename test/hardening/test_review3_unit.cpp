// Regression tests for the third security review (issue 24) on server pieces in-process: what
// a token endpoint may answer (the answer comes over loopback HTTPS from the fake platform)
// and how far the token store trusts its files. Each failed on the code before its fix.
#include "credentials/credentials_support.hpp"
#include "credentials/oauth_client.hpp"
#include "credentials/token_store.hpp"
#include "support/fake_platform.hpp"
#include "toolkits/oauth_providers.hpp"
#include "transport/https_client.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <catch2/catch.hpp>

#include <filesystem>
#include <optional>
#include <unistd.h>

using namespace toolgate::credentials;
using namespace toolgate::testing;
using toolgate::test::fake_platform;
using toolgate::test::fake_response;

namespace {

constexpr std::int64_t started = 1'700'000'000;

/// The token endpoint answers `body` to one refresh; returns what the client made of it.
token_grant refresh_answered(std::string const& body)
{
    fake_platform platform;
    fake_response answer;
    answer.body = body;
    platform.push(answer);
    boost::asio::io_context io;
    toolgate::transport::https_options options;
    options.ca_file = fake_platform::ca_file();
    options.system_trust = false;
    options.proxy_from_environment = false;
    toolgate::transport::https_client client(io, options);
    auto const& provider = *toolgate::toolkits::find_oauth_provider("StoreApi");
    oauth_endpoints endpoints { platform.url("/authorize"), platform.url("/token"), "" };
    oauth_client oauth(client, provider, endpoints, [] { return started; });
    token_entry current;
    current.grant = "authorization_code";
    current.access_token = "zqOldAccess-S3CR3T";
    current.refresh_token = "zqOldRefresh-S3CR3T";
    std::optional<token_grant> grant;
    boost::asio::co_spawn(io, oauth.refresh({ "zq-client-id", "zq-client-secret" }, current),
        [&grant](std::exception_ptr e, token_grant g) {
            REQUIRE_FALSE(e);
            grant = std::move(g);
        });
    io.run_for(std::chrono::seconds(10));
    REQUIRE(grant.has_value());
    return *grant;
}

std::string tokens_with(std::string const& access, std::string const& expires_in)
{
    return R"({"access_token":")" + access + R"(","refresh_token":"zqNewRefresh-S3CR3T",)"
        + R"("token_type":"bearer","expires_in":)" + expires_in + "}";
}

} // namespace

TEST_CASE("third review 10: an access token with line breaks, control characters or an "
          "absurd length is not taken",
    "[hardening][review3]")
{
    auto const [access, why] = GENERATE(table<std::string, std::string>({
        { R"(zqAccess-S3CR3T\r\nX-Injected: 1)", "control characters" },
        { R"(zqAccess S3CR3T with spaces)", "spaces" },
        { "zq\\u00e9Access-S3CR3T", "non-ASCII" },
        { "short", "shorter than 8" },
        { std::string(9000, 'a'), "longer than 8192" },
    }));
    INFO(access.substr(0, 40));
    auto const grant = refresh_answered(tokens_with(access, "3600"));
    CHECK(grant.state == token_grant::outcome::failed);
    CHECK_THAT(grant.problem, Catch::Contains("unusable access token") && Catch::Contains(why));
    CHECK(grant.entry.access_token.empty()); // nothing of it is kept, or stored
    CHECK(grant.problem.find("S3CR3T") == std::string::npos);

    auto const refresh = refresh_answered(
        R"({"access_token":"zqAccess-S3CR3T-good","refresh_token":"zq\nRefresh-S3CR3T"})");
    CHECK(refresh.state == token_grant::outcome::failed);
    CHECK_THAT(refresh.problem, Catch::Contains("unusable refresh token"));
}

TEST_CASE("third review 10: expires_in is kept between a minute and a year", "[hardening][review3]")
{
    auto const [expires_in, lifetime] = GENERATE(table<std::string, std::int64_t>({
        { "0", 60 },
        { "-5", 60 },
        { "1", 60 },
        { "1e30", 366LL * 24 * 3600 },
        { "9223372036854775807", 366LL * 24 * 3600 },
        { "-9223372036854775808", 60 },
        { R"("1800")", 1800 },
        { R"("soon")", 3600 }, // not a number: the platform's documented default
        { "null", 3600 },
        { "3600", 3600 },
    }));
    INFO("expires_in " << expires_in);
    auto const grant = refresh_answered(tokens_with("zqAccess-S3CR3T-good", expires_in));
    REQUIRE(grant.state == token_grant::outcome::granted);
    CHECK(grant.entry.obtained_at == started);
    CHECK(grant.entry.expires_at - grant.entry.obtained_at == lifetime);
}

namespace {

std::string message_of(std::function<void()> const& f)
{
    try {
        f();
    } catch (std::exception const& e) {
        return e.what();
    }
    return "(no error)";
}

token_entry some_tokens()
{
    token_entry e;
    e.grant = "authorization_code";
    e.access_token = "zqAccess-S3CR3T-1";
    e.refresh_token = "zqRefresh-S3CR3T-1";
    return e;
}

} // namespace

TEST_CASE("third review 12: the token store's lock files never follow a planted link",
    "[hardening][review3]")
{
    temp_dir dir;
    token_file store(dir.file("tokens.json"));
    write_file(dir.file("victim"), "do not touch\n", 0644);
    SECTION("the store's own lock")
    {
        std::filesystem::create_symlink(dir.file("victim"), dir.file("tokens.json.lock"));
        auto const message = message_of([&] { store.update("StoreApi", some_tokens()); });
        CHECK_THAT(message, Catch::Contains("symbolic link"));
    }
    SECTION("a renewal lock")
    {
        std::filesystem::create_symlink(dir.file("victim"), dir.file("tokens.json.StoreApi.lock"));
        auto const message = message_of([&] { store.try_renewal_lock("", "StoreApi"); });
        CHECK_THAT(message, Catch::Contains("symbolic link"));
    }
    SECTION("a lock link to a file that does not exist yet is not created through")
    {
        std::filesystem::create_symlink(dir.file("planted"), dir.file("tokens.json.lock"));
        CHECK_THAT(message_of([&] { store.update("StoreApi", some_tokens()); }),
            Catch::Contains("symbolic link"));
        CHECK_FALSE(std::filesystem::exists(dir.file("planted")));
    }
    CHECK(read_file(dir.file("victim")) == "do not touch\n");
    CHECK(file_mode(dir.file("victim")) == 0644);
    CHECK_FALSE(std::filesystem::exists(dir.file("tokens.json")));
}

TEST_CASE(
    "third review 12: a token store others could replace or own is refused", "[hardening][review3]")
{
    temp_dir dir;
    token_file store(dir.file("tokens.json"));
    store.update("StoreApi", some_tokens());
    REQUIRE(store.load().at("StoreApi").access_token == "zqAccess-S3CR3T-1");
    SECTION("a directory others can write to")
    {
        ::chmod(dir.path().c_str(), 0777);
        CHECK_THAT(message_of([&] { store.load(); }),
            Catch::Contains("writable by other users") && Catch::Contains("chmod 700"));
        CHECK_THAT(message_of([&] { store.update("StoreApi", some_tokens()); }),
            Catch::Contains("writable by other users"));
        ::chmod(dir.path().c_str(), 0700);
    }
    SECTION("the store itself a link")
    {
        std::filesystem::rename(dir.file("tokens.json"), dir.file("real.json"));
        std::filesystem::create_symlink(dir.file("real.json"), dir.file("tokens.json"));
        CHECK_THAT(message_of([&] { store.load(); }), Catch::Contains("symbolic link"));
    }
    SECTION("a store of another user")
    {
        // Only root can give a file away; anyone else's test run has no other user's file.
        if (::geteuid() == 0) {
            REQUIRE(::chown(dir.file("tokens.json").c_str(), 65534, 65534) == 0);
            CHECK_THAT(message_of([&] { store.load(); }),
                Catch::Contains("belongs to another user") && Catch::Contains("uid 65534"));
        } else {
            WARN("not root: the other-owner case needs a file of another user");
        }
    }
    // Nothing refused ever shows a token.
    CHECK(message_of([&] { store.load(); }).find("S3CR3T") == std::string::npos);
}
