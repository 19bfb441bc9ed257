// The shared state store as /metrics shows it: command durations and failures, counted as the
// store reports them (app wires the state client to record()), and its connection read at
// scrape time. ops/ knows nothing of the store itself.
#pragma once

#include "ops/metrics_registry.hpp"

#include <chrono>
#include <cstdint>

namespace toolgate::ops {

/// The store's state at scrape time.
struct store_gauges {
    bool connected = false;
    std::uint64_t connects = 0; ///< connections made (the first and each reconnection)
};

class store_metrics {
public:
    store_metrics();
    /// A command ended after `duration`; `answered`: the store replied (thread-safe, lock-free).
    void record(std::chrono::nanoseconds duration, bool answered) noexcept;
    void render(metrics::exposition& out, store_gauges const& gauges) const;

private:
    metrics::histogram durations_;
    metrics::counter answered_;
    metrics::counter failed_;
};

} // namespace toolgate::ops
