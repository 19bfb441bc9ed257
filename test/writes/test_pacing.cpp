// Pacing toward the platforms (docs/controlling-writes.md "Pacing"): under --upstream-rate
// KanbanApi=100/10, 150 calls at once never put more than 100 requests in any 10 s window at
// the fake platform; a call whose turn would come past its deadline is refused with the wait
// and sends nothing; /metrics shows the waits and the refusals.
#include "writes_support.hpp"

#include <boost/json/parse.hpp>

#include <mutex>

using namespace toolgate::testing;
using namespace toolgate::testing::writes;

namespace {

std::string const read_args = R"({"board_id":"b","organization_id_or_name":"o"})";

/// When each request reached the fake (its handler runs as a request arrives).
struct arrivals {
    void record()
    {
        std::lock_guard lock(mutex);
        times.push_back(std::chrono::steady_clock::now());
    }
    std::vector<std::chrono::steady_clock::time_point> sorted()
    {
        std::lock_guard lock(mutex);
        auto out = times;
        std::sort(out.begin(), out.end());
        return out;
    }
    std::mutex mutex;
    std::vector<std::chrono::steady_clock::time_point> times;
};

/// The value of a /metrics series, or -1 when it is not there.
double sample(std::string const& text, std::string const& series)
{
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (line.starts_with(series + " ")) {
            return std::stod(line.substr(series.size() + 1));
        }
    }
    return -1;
}

} // namespace

TEST_CASE("stdio: 150 calls under KanbanApi=100/10 never put more than 100 requests in any 10 s "
          "window at the platform",
    "[writes][pacing][stdio]")
{
    fake_platform platform;
    arrivals seen;
    platform.set_handler([&seen](toolgate::test::recorded_request const&) {
        seen.record();
        return toolgate::test::fake_response {};
    });
    stdio_server server(with(platform_args(platform, { "KanbanApi" }),
                            { "--upstream-rate", "KanbanApi=100/10", "--max-inflight-per-session",
                                "200", "--max-inflight", "400" }),
        toolgate_bin, secret_env());
    server.initialize();
    for (int id = 1; id <= 150; ++id) {
        server.send(
            call_request(std::to_string(id), "KanbanApi_CheckBoardBillableGuests", read_args));
    }
    // Answers come in any order: read them all.
    std::size_t answered = 0;
    auto const deadline = std::chrono::steady_clock::now() + 40s;
    while (answered < 150 && std::chrono::steady_clock::now() < deadline) {
        auto const message = server.next(15s);
        REQUIRE(message.has_value());
        INFO(json::serialize(*message));
        REQUIRE(message->as_object().contains("result"));
        CHECK_FALSE(is_error(message->at("result")));
        ++answered;
    }
    REQUIRE(answered == 150);
    auto const times = seen.sorted();
    REQUIRE(times.size() == 150);
    // Any 101 consecutive arrivals span at least the window: no window holds 101.
    for (std::size_t i = 0; i + 100 < times.size(); ++i) {
        INFO("requests " << i + 1 << " to " << i + 101);
        CHECK(times[i + 100] - times[i] >= std::chrono::seconds(10));
    }
    // And the first hundred were not held back.
    CHECK(times[99] - times[0] < std::chrono::seconds(5));
}

TEST_CASE("HTTP: a call whose turn would come past its deadline is refused with the wait and "
          "sends nothing, in both eras, and /metrics shows waits and refusals",
    "[writes][pacing][http]")
{
    fake_platform platform;
    http_server_process server(toolgate_bin,
        with(platform_args(platform),
            { "--upstream-rate", "KanbanApi=1/1", "--upstream-rate", "DeployApi=1/60",
                "--call-timeout", "5" }),
        secret_env());
    auto const port = server.port();

    // A short wait: the second call's turn comes a second after the first's answer.
    CHECK_FALSE(is_error(
        modern_call(port, 1, "KanbanApi_CheckBoardBillableGuests", read_args).at("result")));
    auto const before = std::chrono::steady_clock::now();
    CHECK_FALSE(is_error(
        modern_call(port, 2, "KanbanApi_CheckBoardBillableGuests", read_args).at("result")));
    CHECK(std::chrono::steady_clock::now() - before >= std::chrono::milliseconds(900));

    // A wait past the 5 s deadline: refused at once.
    std::string const domain
        = R"({"project_identifier_or_name":"p","project_domain_name":"d.example.test"})";
    auto const session = open_session(port);
    CHECK_FALSE(is_error(
        session_call(port, session, 3, "DeployApi_AddProjectDomain", domain).at("result")));
    auto const asked = std::chrono::steady_clock::now();
    auto const refused = session_call(port, session, 4, "DeployApi_AddProjectDomain", domain);
    CHECK(std::chrono::steady_clock::now() - asked < std::chrono::seconds(3));
    auto const& result = refused.at("result");
    CHECK(is_error(result));
    CHECK_THAT(
        text_of(result), Catch::Contains("--upstream-rate") && Catch::Contains("try again in"));
    auto const wait = json::parse(text_of(result)).at("retry_after_seconds").as_int64();
    CHECK(wait >= 55);
    CHECK(wait <= 60);
    auto const modern = modern_call(port, 5, "DeployApi_AddProjectDomain", domain);
    CHECK(is_error(modern.at("result")));
    CHECK(platform.request_count() == 3);

    auto const metrics = http_request(port, "GET", "/metrics").body;
    INFO(metrics);
    CHECK(sample(metrics,
              R"(toolgate_upstream_pacing_waits_total{toolkit="KanbanApi",outcome="waited"})")
        == 1);
    CHECK(sample(metrics,
              R"(toolgate_upstream_pacing_waits_total{toolkit="DeployApi",outcome="refused"})")
        == 2);
    CHECK(sample(metrics, R"(toolgate_upstream_pacing_wait_seconds_total{toolkit="KanbanApi"})")
        >= 0.9);
    CHECK_FALSE(leaks_secret(server.process().stderr_text()));
}
