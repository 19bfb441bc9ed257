// State store metrics (see store_metrics.hpp).
#include "ops/store_metrics.hpp"

#include <array>
#include <span>

namespace toolgate::ops {
namespace {

/// From a loopback round trip to the command deadline (1.5 s) and past it.
constexpr std::array<double, 10> store_bounds
    = { 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 2 };

} // namespace

store_metrics::store_metrics()
    : durations_(std::span<const double>(store_bounds))
{
}

void store_metrics::record(std::chrono::nanoseconds duration, bool answered) noexcept
{
    durations_.observe(duration);
    (answered ? answered_ : failed_).add();
}

void store_metrics::render(metrics::exposition& out, store_gauges const& gauges) const
{
    using metrics::exposition;
    using metrics::label;
    auto const none = std::span<const label>();
    out.family("toolgate_state_store_up", exposition::kind::gauge,
        "1 while the shared state store (--state-store) is connected, else 0.");
    out.sample("toolgate_state_store_up", none, gauges.connected ? 1.0 : 0.0);
    out.family("toolgate_state_store_connects_total", exposition::kind::counter,
        "Connections made to the state store: the first, then each reconnection.");
    out.sample("toolgate_state_store_connects_total", none, gauges.connects);
    out.family("toolgate_state_store_commands_total", exposition::kind::counter,
        "State store commands, by outcome: answered, or failed (down, timed out, dropped).");
    out.sample("toolgate_state_store_commands_total", { { "outcome", "answered" } },
        static_cast<double>(answered_.value()));
    out.sample("toolgate_state_store_commands_total", { { "outcome", "failed" } },
        static_cast<double>(failed_.value()));
    out.family("toolgate_state_store_command_duration_seconds", exposition::kind::histogram,
        "Time from sending a state store command to its answer or failure.");
    out.histogram_samples("toolgate_state_store_command_duration_seconds", none, durations_);
}

} // namespace toolgate::ops
