// toolgate's metrics: what every call, upstream request, HTTP request, session and listing
// adds to, and the /metrics page that renders them with the gauges read at scrape time
// (connections, pool, sessions, calls in flight, process). Names and labels: README
// "Operations".
#pragma once

#include "ops/call_observer.hpp"
#include "ops/metrics_registry.hpp"
#include "ops/store_metrics.hpp"
#include "protocol/tool_descriptor.hpp"
#include "transport/outbound_observer.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace toolgate::transport {
class http_listener;
class https_client;
} // namespace toolgate::transport

namespace toolgate::ops {

/// The sessions a replica holds, as the session gauges and counters show them.
struct session_gauges {
    std::size_t live = 0;
    std::uint64_t opened = 0; ///< by initialize on this replica
    std::uint64_t adopted = 0; ///< a signed id issued by another replica (or before a restart)
    std::uint64_t deleted = 0; ///< DELETE
    std::uint64_t expired = 0; ///< idle timeout or maximum age
    std::uint64_t evicted = 0; ///< a client's least recently used idle one, for a new one
};

/// Where the numbers read at scrape time come from; any may be null or empty (not there: not
/// shown). Each must outlive the metrics' last render. The gauges ops/ cannot own (sessions,
/// calls in flight) are callbacks the process wires, so ops/ never knows the MCP layer.
struct metrics_sources {
    transport::http_listener const* listener = nullptr;
    transport::https_client const* upstream = nullptr;
    std::function<session_gauges()> sessions;
    std::function<std::size_t()> calls_in_flight;
    std::atomic<bool> const* ready = nullptr;
    /// The shared state store's connection; empty: no store (--state-store unset).
    std::function<store_gauges()> store;
};

class server_metrics final : public call_observer {
public:
    /// The label sets come from `tools`: each tool's toolkit is its dotted name's first part.
    /// `tools` must outlive the metrics (the provider's descriptors do).
    server_metrics(std::span<const protocol::tool_descriptor> tools, std::string version);
    server_metrics(server_metrics const&) = delete;
    server_metrics& operator=(server_metrics const&) = delete;

    /// A call of `tool` ended (thread-safe, lock-free). `tool` must be one of `tools`;
    /// anything else is not counted.
    void record_call(protocol::tool_descriptor const* tool, call_outcome outcome,
        std::chrono::nanoseconds duration) noexcept override;
    /// A call refused before it ran (limits, shutdown): counted, with no duration.
    void record_refused_call(protocol::tool_descriptor const* tool) noexcept override;
    /// A tools/list answer went out: `bytes` on the wire, compressed or not.
    void record_listing(bool gzip, std::size_t bytes) noexcept override;
    /// The shared state store's command counts (rendered when sources name a store).
    store_metrics& store() noexcept { return store_; }
    /// Counts upstream attempts, failures, retries and redirects by toolkit.
    transport::outbound_observer& upstream_observer() noexcept { return upstream_; }

    void set_sources(metrics_sources sources) { sources_ = std::move(sources); }
    /// The whole exposition (text format 0.0.4). Thread-safe.
    std::string render() const;

private:
    /// Row of a toolkit name; the last row ("none") for anything not in the catalogue.
    std::size_t toolkit_row(std::string_view toolkit) const noexcept;
    std::size_t tool_row(protocol::tool_descriptor const* tool) const noexcept;

    class upstream_counts final : public transport::outbound_observer {
    public:
        explicit upstream_counts(server_metrics const& owner);
        void on_response(std::string_view toolkit, unsigned status) noexcept override;
        void on_failure(
            std::string_view toolkit, transport::outbound_failure failure) noexcept override;
        void on_retry(std::string_view toolkit) noexcept override;
        void on_redirect(std::string_view toolkit) noexcept override;
        void on_paced(std::string_view toolkit, std::chrono::milliseconds waited,
            bool refused) noexcept override;

        server_metrics const& owner;
        metrics::counter_grid responses; ///< toolkit × status class (1xx … 5xx)
        metrics::counter_grid failures; ///< toolkit × reason
        metrics::counter_grid retries; ///< toolkit × 1
        metrics::counter_grid redirects; ///< toolkit × 1
        metrics::counter_grid paced; ///< toolkit × (waited, refused): pacing's turns
        metrics::counter_grid paced_ms; ///< toolkit × 1: milliseconds waited for turns
    };

    void render_calls(metrics::exposition& out) const;
    void render_upstream(metrics::exposition& out) const;
    void render_pacing(metrics::exposition& out) const;
    void render_http(metrics::exposition& out) const;
    void render_sessions(metrics::exposition& out) const;
    void render_process(metrics::exposition& out) const;

    std::span<const protocol::tool_descriptor> tools_;
    std::string version_;
    std::vector<std::string> toolkits_; ///< label values, then "none"
    std::vector<std::uint16_t> toolkit_of_; ///< per tool: its toolkit's row
    std::vector<std::string_view> tool_names_; ///< per tool: the name after "Toolkit."
    metrics::counter_grid calls_; ///< tool × outcome
    metrics::histogram_row durations_; ///< per toolkit row
    metrics::counter listings_[2]; ///< identity, gzip
    metrics::counter listing_bytes_[2];
    upstream_counts upstream_;
    store_metrics store_;
    metrics_sources sources_;
};

} // namespace toolgate::ops
