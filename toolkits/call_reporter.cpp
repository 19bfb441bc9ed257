// call_reporter: outbound events and a heartbeat turned into log and progress notifications.
#include "toolkits/call_reporter.hpp"

#include "transport/coroutine_root.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/object.hpp>
#include <fmt/format.h>

#include <mutex>
#include <optional>

namespace toolgate::toolkits {
namespace asio = boost::asio;
namespace json = boost::json;
using std::chrono::steady_clock;
using transport::outbound_event;

namespace {

std::string seconds_text(std::chrono::milliseconds d)
{
    if (d.count() % 1000 == 0) {
        return fmt::format("{} s", d.count() / 1000);
    }
    return fmt::format("{:.1f} s", static_cast<double>(d.count()) / 1000.0);
}

log_level level_of_status(unsigned status)
{
    if (status < 400) {
        return log_level::info;
    }
    if (status == 429 || status >= 500) {
        return log_level::warning;
    }
    return log_level::notice; // the platform refused the request: a tool error follows
}

} // namespace

event_line describe(outbound_event const& e)
{
    auto const attempt = e.max_attempts > 1 && e.attempt > 1
        ? fmt::format(" (attempt {} of {})", e.attempt, e.max_attempts)
        : std::string();
    switch (e.what) {
    case outbound_event::kind::sending:
        return { log_level::debug, fmt::format("{} {}: sending{}", e.method, e.where, attempt) };
    case outbound_event::kind::answered:
        return { level_of_status(e.status),
            fmt::format(
                "{} {}: {} in {} ms{}", e.method, e.where, e.status, e.elapsed.count(), attempt) };
    case outbound_event::kind::failed:
        if (e.retrying) {
            // Usually a kept-alive connection the platform had closed: nothing went wrong yet.
            return { log_level::info,
                fmt::format("{} {}: no answer ({}) after {} ms{}; sending again", e.method, e.where,
                    e.failure, e.elapsed.count(), attempt) };
        }
        return { e.failure == "cancelled" ? log_level::info : log_level::error,
            fmt::format("{} {}: no answer ({}) after {} ms{}", e.method, e.where, e.failure,
                e.elapsed.count(), attempt) };
    case outbound_event::kind::retry_wait:
        return { log_level::warning,
            fmt::format("{} {}: waiting {} before attempt {} of {}{}", e.method, e.where,
                seconds_text(e.wait), e.attempt, e.max_attempts,
                e.retry_after ? ", as the platform asked (Retry-After)" : "") };
    case outbound_event::kind::retry_skipped:
        return { log_level::warning,
            fmt::format("{} {}: the platform asked to wait {}{}, longer than the call may "
                        "still take: its answer is returned without a retry",
                e.method, e.where, seconds_text(e.wait), e.retry_after ? " (Retry-After)" : "") };
    case outbound_event::kind::redirected:
        return { log_level::debug,
            fmt::format("{}: redirected ({}) to {}", e.method, e.status, e.where) };
    }
    return { log_level::info, e.method + " " + e.where };
}

void report_refusal(
    call_context& context, toolkit_spec const& toolkit, tool_spec const& tool, std::string_view why)
{
    if (!context.reporting()) {
        return;
    }
    boost::json::object data;
    data["message"] = "not sent: " + std::string(why);
    context.log(log_level::warning, std::string(toolkit.name) + "." + std::string(tool.name),
        std::move(data));
}

struct call_reporter::state {
    state(call_context& c, std::string t)
        : context(&c)
        , tool(std::move(t))
    {
    }

    /// The context while reporting goes on, under the lock; nullptr once stopped.
    std::mutex mutex;
    call_context* context;
    std::string tool;
    steady_clock::time_point started = steady_clock::now();
    std::optional<asio::steady_timer> timer; ///< the heartbeat's, used on its strand only
    std::optional<asio::strand<asio::any_io_executor>> strand;

    std::string target = "the platform"; ///< the host and path awaited (masked)

    /// Seconds since the call started, in tenths: progress values that read well.
    double elapsed_seconds() const
    {
        auto const tenths
            = std::chrono::duration_cast<std::chrono::milliseconds>(steady_clock::now() - started)
                  .count()
            / 100;
        return static_cast<double>(tenths) / 10.0;
    }

    void event(outbound_event const& e)
    {
        auto const line = describe(e);
        std::lock_guard lock(mutex);
        if (!context) {
            return;
        }
        if (e.what == outbound_event::kind::sending) {
            target = e.where;
        }
        json::object data;
        data["message"] = line.message;
        data["method"] = e.method;
        data["target"] = e.where;
        if (e.status != 0) {
            data["status"] = e.status;
        }
        if (e.what == outbound_event::kind::answered || e.what == outbound_event::kind::failed) {
            data["ms"] = e.elapsed.count();
            data["attempt"] = e.attempt;
        }
        if (e.what == outbound_event::kind::retry_wait
            || e.what == outbound_event::kind::retry_skipped) {
            data["wait_ms"] = e.wait.count();
            data["retry_after"] = e.retry_after;
        }
        context->log(line.level, tool, std::move(data));
        if (e.what == outbound_event::kind::retry_wait) {
            // A wait is what makes a call slow: say so at once, not at the next heartbeat.
            context->report_progress(elapsed_seconds(), std::nullopt, line.message);
        }
    }

    void beat()
    {
        std::lock_guard lock(mutex);
        if (!context) {
            return;
        }
        auto const waited = elapsed_seconds();
        context->report_progress(waited, std::nullopt,
            fmt::format("{}: waiting for {} ({:.0f} s so far)", tool, target, waited));
    }
};

namespace {

asio::awaitable<void> heartbeat(std::shared_ptr<call_reporter::state> st,
    std::chrono::milliseconds first, std::chrono::milliseconds every)
{
    auto wait = first;
    for (;;) {
        st->timer->expires_after(wait);
        auto [ec] = co_await st->timer->async_wait(asio::as_tuple(asio::use_awaitable));
        if (ec) {
            co_return; // stopped
        }
        {
            std::lock_guard lock(st->mutex);
            if (!st->context) {
                co_return;
            }
        }
        st->beat();
        wait = every;
    }
}

} // namespace

call_reporter::call_reporter(call_context& context, std::string tool)
    : state_(std::make_shared<state>(context, std::move(tool)))
{
}

call_reporter::~call_reporter()
{
    stop();
}

std::function<void(outbound_event const&)> call_reporter::observer() const
{
    return [st = state_](outbound_event const& e) { st->event(e); };
}

void call_reporter::start_heartbeat(asio::any_io_executor executor, std::chrono::milliseconds first,
    std::chrono::milliseconds every)
{
    state_->strand.emplace(asio::make_strand(executor));
    state_->timer.emplace(*state_->strand);
    asio::co_spawn(*state_->strand, heartbeat(state_, first, every),
        transport::logged { "progress heartbeat" });
}

void call_reporter::stop()
{
    {
        std::lock_guard lock(state_->mutex);
        if (!state_->context) {
            return;
        }
        state_->context = nullptr;
    }
    if (state_->strand) {
        // The timer belongs to the heartbeat's strand: cancel it there.
        asio::post(*state_->strand, [st = state_] { st->timer->cancel(); });
    }
}

} // namespace toolgate::toolkits
