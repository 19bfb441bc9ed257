// The process lifecycle in process: signals raised at the test process itself, a served mode
// that records each step. SIGHUP reloads; a stop signal drains, or cancels after the grace
// period; a second stop signal cancels at once; readiness flips at the first stop signal.
#include "app/lifecycle.hpp"
#include "transport/activity.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <csignal>
#include <string>
#include <thread>
#include <vector>

namespace asio = boost::asio;
using namespace std::chrono_literals;
using toolgate::app::lifecycle_options;
using toolgate::app::run_lifecycle;

namespace {

/// Records the lifecycle's steps; its calls are an activity the test enters and leaves. A
/// cancellation gives every call back, as cancelled calls unwinding do.
class recording_mode final : public toolgate::app::served_mode {
public:
    std::vector<std::string> steps;
    toolgate::transport::activity calls;
    std::chrono::steady_clock::time_point stopped_accepting;

    void reload() override { steps.emplace_back("reload"); }
    void stop_accepting() override
    {
        steps.emplace_back("stop accepting");
        stopped_accepting = std::chrono::steady_clock::now();
    }
    asio::awaitable<void> drained() override { co_await calls.until_idle(); }
    void cancel_in_flight() override
    {
        steps.emplace_back("cancel");
        while (calls.count() > 0) {
            calls.leave();
        }
    }
    std::size_t in_flight() const override { return calls.count(); }
};

/// Runs the lifecycle to its end, raising `signals` one by one `gap` apart (the first after
/// `gap`); returns the seconds it took.
double live(recording_mode& mode, lifecycle_options options, std::vector<int> const& raised,
    std::chrono::milliseconds gap)
{
    asio::io_context ioc;
    asio::signal_set signals(ioc, SIGINT, SIGTERM, SIGHUP);
    bool done = false;
    auto const started = std::chrono::steady_clock::now();
    asio::co_spawn(ioc, run_lifecycle(signals, mode, options), [&](std::exception_ptr e) {
        REQUIRE_FALSE(e);
        done = true;
    });
    std::vector<std::unique_ptr<asio::steady_timer>> timers;
    for (std::size_t i = 0; i < raised.size(); ++i) {
        auto& t = timers.emplace_back(std::make_unique<asio::steady_timer>(ioc, gap * (i + 1)));
        t->async_wait([sig = raised[i]](boost::system::error_code) { std::raise(sig); });
    }
    ioc.run_for(10s);
    REQUIRE(done);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

} // namespace

TEST_CASE("lifecycle: SIGHUP reloads, then a stop signal with nothing in flight ends at once",
    "[app][lifecycle]")
{
    recording_mode mode;
    std::atomic<bool> ready { true };
    auto const took = live(mode, { 0s, 10s, &ready }, { SIGHUP, SIGTERM }, 50ms);
    CHECK(mode.steps == std::vector<std::string> { "reload", "stop accepting" });
    CHECK_FALSE(ready);
    CHECK(took < 2.0);
}

TEST_CASE("lifecycle: calls in flight are awaited through their count, without cancelling",
    "[app][lifecycle]")
{
    recording_mode mode;
    mode.calls.enter();
    // The call ends 300 ms after it started, from another thread.
    std::thread ending([&mode] {
        std::this_thread::sleep_for(300ms);
        mode.calls.leave();
    });
    auto const took = live(mode, { 0s, 10s, nullptr }, { SIGINT }, 50ms);
    ending.join();
    CHECK(mode.steps == std::vector<std::string> { "stop accepting" });
    // Not ended at the signal (50 ms): the ending thread's 300 ms began before `live` took its
    // start time, so the bound leaves room for a stall between the two.
    CHECK(took >= 0.15);
    CHECK(took < 2.0);
}

TEST_CASE("lifecycle: the grace period ends in a cancellation that a second signal brings "
          "forward",
    "[app][lifecycle]")
{
    SECTION("grace over")
    {
        recording_mode mode;
        mode.calls.enter();
        auto const took = live(mode, { 0s, 1s, nullptr }, { SIGTERM }, 50ms);
        CHECK(mode.steps == std::vector<std::string> { "stop accepting", "cancel" });
        CHECK(took >= 1.0);
        CHECK(took < 3.0);
    }
    SECTION("second signal")
    {
        recording_mode mode;
        mode.calls.enter();
        auto const took = live(mode, { 0s, 30s, nullptr }, { SIGTERM, SIGTERM }, 100ms);
        CHECK(mode.steps == std::vector<std::string> { "stop accepting", "cancel" });
        CHECK(took < 3.0);
    }
}

TEST_CASE("lifecycle: --drain-delay keeps serving, not ready, before it stops accepting",
    "[app][lifecycle]")
{
    recording_mode mode;
    std::atomic<bool> ready { true };
    auto const started = std::chrono::steady_clock::now();
    live(mode, { 1s, 10s, &ready }, { SIGTERM }, 50ms);
    CHECK_FALSE(ready);
    CHECK(mode.steps == std::vector<std::string> { "stop accepting" });
    // The signal came after 50 ms; accepting stopped a second later.
    CHECK(std::chrono::duration<double>(mode.stopped_accepting - started).count() >= 1.0);
}
