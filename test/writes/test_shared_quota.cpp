// Quotas shared by replicas (docs/controlling-writes.md "Policy per client"): two servers on one
// redis-server of the test's own (--state-store) count a client's calls together, so that its
// calls_per_minute holds for the client, not for each replica; one in a 2025 session, the
// other stateless 2026-07-28.
#include "credentials/credentials_support.hpp"
#include "redis_server.hpp"
#include "writes_support.hpp"

#include <boost/json/parse.hpp>

using namespace toolgate::testing;
using namespace toolgate::testing::writes;

namespace {

/// Any 64 hex digits: the shared store needs a key, though quotas hold no secret.
constexpr char const* store_key
    = "5c0ffee5c0ffee5c0ffee5c0ffee5c0ffee5c0ffee5c0ffee5c0ffee5c0ffee5";

header_pairs const carol { { "Authorization", "Bearer carol-client-token-3" } };

/// A replica with carol as a static-token client allowed 4 calls a minute; `more` are flags.
struct replica {
    replica(fake_platform const& platform, std::vector<std::string> more)
    {
        write_file(dir.file("tokens"), "carol carol-client-token-3\n");
        write_file(dir.file("toolgate.toml"), R"(
[policy."static:carol"]
toolkits = ["KanbanApi"]
calls_per_minute = 4
)");
        auto args = with(platform_args(platform),
            { "--auth-token-file", dir.file("tokens"), "--config", dir.file("toolgate.toml") });
        server = std::make_unique<http_server_process>(toolgate_bin, with(args, more),
            secret_env({ std::string("TOOLGATE_STORE_KEY=") + store_key }));
    }
    std::uint16_t port() const { return server->port(); }

    temp_dir dir;
    std::unique_ptr<http_server_process> server;
};

std::string const guests_args = R"({"board_id":"b","organization_id_or_name":"o"})";
std::string const tool = "KanbanApi_CheckBoardBillableGuests";

} // namespace

TEST_CASE("HTTP: with --state-store two replicas share one quota per client, in both eras",
    "[writes][policy][quota][http][redis]")
{
    fake_platform platform;
    redis_server redis;
    replica first(platform, { "--state-store", redis.url() });
    replica second(platform, { "--state-store", redis.url() });
    auto const session = open_session(first.port(), carol);
    // Four calls, two on each replica: all go through.
    for (int i = 0; i < 4; ++i) {
        auto const answer = i % 2 == 0
            ? session_call(first.port(), session, i, tool, guests_args, carol)
            : modern_call(second.port(), i, tool, guests_args, carol);
        INFO("call " << i + 1 << ": " << json::serialize(answer));
        REQUIRE_FALSE(is_error(answer.at("result")));
    }
    CHECK(platform.request_count() == 4);
    // The fifth is refused on either replica, though each has seen only two.
    std::vector<json::value> const refused { modern_call(
                                                 second.port(), 5, tool, guests_args, carol),
        session_call(first.port(), session, 6, tool, guests_args, carol) };
    for (auto const& answer : refused) {
        auto const& result = answer.at("result");
        INFO(json::serialize(answer));
        REQUIRE(is_error(result));
        CHECK_THAT(text_of(result), Catch::Contains("4 calls a minute"));
        auto const wait = json::parse(text_of(result)).at("retry_after_seconds").as_int64();
        CHECK(wait >= 1);
        CHECK(wait <= 60);
    }
    CHECK(platform.request_count() == 4);
}

TEST_CASE("HTTP: with --state-store a quota that cannot be counted refuses the call and sends "
          "nothing",
    "[writes][policy][quota][http][redis]")
{
    fake_platform platform;
    redis_server redis;
    replica server(platform, { "--state-store", redis.url() });
    REQUIRE_FALSE(is_error(modern_call(server.port(), 1, tool, guests_args, carol).at("result")));
    redis.kill();
    auto const answer = modern_call(server.port(), 2, tool, guests_args, carol);
    auto const& result = answer.at("result");
    INFO(json::serialize(answer));
    CHECK(is_error(result));
    CHECK_THAT(text_of(result), Catch::Contains("quota could not be checked"));
    CHECK(platform.request_count() == 1);
}
