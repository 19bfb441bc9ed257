// toolgate's metric families and their rendering. Recording is lock-free (metrics_registry);
// rendering reads the counters and asks the listener, pool, sessions and /proc for gauges.
#include "ops/metrics.hpp"

#include "common/tool_names.hpp"
#include "ops/process_stats.hpp"
#include "transport/http_listener.hpp"
#include "transport/https_client.hpp"

#include <algorithm>
#include <array>

namespace toolgate::ops {
namespace {

using metrics::exposition;
using metrics::label;

constexpr std::array<std::string_view, 4> outcome_names
    = { "ok", "tool_error", "protocol_error", "cancelled" };
constexpr std::array<std::string_view, 5> status_classes = { "1xx", "2xx", "3xx", "4xx", "5xx" };
/// outbound_failure values after `none`, in their enum order.
constexpr std::array<std::string_view, 8> failure_reasons
    = { "bad_url", "resolve", "connect", "tls", "timeout", "cancelled", "too_large", "protocol" };

/// Call durations: from a local answer (milliseconds) to the 55 s call timeout.
constexpr std::array<double, 14> duration_bounds
    = { 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60 };

/// A catalogue tool's toolkit; toolgate's own tools (the discovery meta-tools, which
/// common::toolkit_of gives no toolkit) count under "toolgate".
std::string_view toolkit_part(std::string_view dotted)
{
    auto const kit = common::toolkit_of(dotted);
    return kit.empty() ? std::string_view("toolgate") : kit;
}

std::vector<std::string> toolkit_labels(std::span<const protocol::tool_descriptor> tools)
{
    std::vector<std::string> out;
    for (auto const& tool : tools) {
        auto const kit = toolkit_part(tool.dotted_name);
        if (std::find(out.begin(), out.end(), kit) == out.end()) {
            out.emplace_back(kit);
        }
    }
    out.emplace_back("none");
    return out;
}

} // namespace

server_metrics::server_metrics(
    std::span<const protocol::tool_descriptor> tools, std::string version)
    : tools_(tools)
    , version_(std::move(version))
    , toolkits_(toolkit_labels(tools))
    , calls_(tools.size(), outcome_names.size())
    , durations_(toolkits_.size(), std::span<const double>(duration_bounds))
    , upstream_(*this)
{
    toolkit_of_.reserve(tools.size());
    tool_names_.reserve(tools.size());
    for (auto const& tool : tools) {
        toolkit_of_.push_back(
            static_cast<std::uint16_t>(toolkit_row(toolkit_part(tool.dotted_name))));
        tool_names_.push_back(common::tool_part_of(tool.dotted_name));
    }
}

std::size_t server_metrics::toolkit_row(std::string_view toolkit) const noexcept
{
    // A handful of names: a scan costs less than hashing.
    for (std::size_t i = 0; i + 1 < toolkits_.size(); ++i) {
        if (toolkits_[i] == toolkit) {
            return i;
        }
    }
    return toolkits_.size() - 1;
}

std::size_t server_metrics::tool_row(protocol::tool_descriptor const* tool) const noexcept
{
    if (tool < tools_.data() || tool >= tools_.data() + tools_.size()) {
        return tools_.size();
    }
    return static_cast<std::size_t>(tool - tools_.data());
}

void server_metrics::record_call(protocol::tool_descriptor const* tool, call_outcome outcome,
    std::chrono::nanoseconds duration) noexcept
{
    auto const row = tool_row(tool);
    if (row == tools_.size()) {
        return;
    }
    calls_.at(row, static_cast<std::size_t>(outcome)).add();
    durations_.at(toolkit_of_[row]).observe(duration);
}

void server_metrics::record_refused_call(protocol::tool_descriptor const* tool) noexcept
{
    if (auto const row = tool_row(tool); row < tools_.size()) {
        calls_.at(row, static_cast<std::size_t>(call_outcome::protocol_error)).add();
    }
}

void server_metrics::record_listing(bool gzip, std::size_t bytes) noexcept
{
    listings_[gzip ? 1 : 0].add();
    listing_bytes_[gzip ? 1 : 0].add(bytes);
}

server_metrics::upstream_counts::upstream_counts(server_metrics const& o)
    : owner(o)
    , responses(o.toolkits_.size(), status_classes.size())
    , failures(o.toolkits_.size(), failure_reasons.size())
    , retries(o.toolkits_.size(), 1)
    , redirects(o.toolkits_.size(), 1)
    , paced(o.toolkits_.size(), 2)
    , paced_ms(o.toolkits_.size(), 1)
{
}

void server_metrics::upstream_counts::on_response(
    std::string_view toolkit, unsigned status) noexcept
{
    auto const cls = status >= 100 && status < 600 ? status / 100 - 1 : status_classes.size() - 1;
    responses.at(owner.toolkit_row(toolkit), cls).add();
}

void server_metrics::upstream_counts::on_failure(
    std::string_view toolkit, transport::outbound_failure failure) noexcept
{
    auto const index = static_cast<std::size_t>(failure);
    if (index == 0 || index > failure_reasons.size()) {
        return;
    }
    failures.at(owner.toolkit_row(toolkit), index - 1).add();
}

void server_metrics::upstream_counts::on_retry(std::string_view toolkit) noexcept
{
    retries.at(owner.toolkit_row(toolkit), 0).add();
}

void server_metrics::upstream_counts::on_redirect(std::string_view toolkit) noexcept
{
    redirects.at(owner.toolkit_row(toolkit), 0).add();
}

void server_metrics::upstream_counts::on_paced(
    std::string_view toolkit, std::chrono::milliseconds waited, bool refused) noexcept
{
    auto const row = owner.toolkit_row(toolkit);
    paced.at(row, refused ? 1 : 0).add();
    paced_ms.at(row, 0).add(static_cast<std::uint64_t>(waited.count()));
}

std::string server_metrics::render() const
{
    exposition out;
    out.family("toolgate_build_info", exposition::kind::gauge,
        "Always 1; the version label says which toolgate build is running.");
    out.sample("toolgate_build_info", { { "version", version_ } }, 1.0);
    if (sources_.ready) {
        out.family("toolgate_ready", exposition::kind::gauge,
            "1 while /readyz answers 200 (serving, not shutting down), else 0.");
        out.sample("toolgate_ready", std::span<const label>(), sources_.ready->load() ? 1.0 : 0.0);
    }
    render_calls(out);
    render_upstream(out);
    render_pacing(out);
    render_http(out);
    render_sessions(out);
    if (sources_.store) {
        store_.render(out, sources_.store());
    }
    render_process(out);
    return out.take();
}

void server_metrics::render_calls(exposition& out) const
{
    out.family("toolgate_tool_calls_total", exposition::kind::counter,
        "Tool calls by toolkit, tool and outcome (ok, tool_error, protocol_error, "
        "cancelled). Tools never called are left out.");
    for (std::size_t row = 0; row < tools_.size(); ++row) {
        for (std::size_t o = 0; o < outcome_names.size(); ++o) {
            if (auto const n = calls_.at(row, o).value(); n > 0) {
                std::array<label, 3> labels { label { "toolkit", toolkits_[toolkit_of_[row]] },
                    label { "tool", tool_names_[row] }, label { "outcome", outcome_names[o] } };
                out.sample("toolgate_tool_calls_total", labels, n);
            }
        }
    }
    out.family("toolgate_tool_call_duration_seconds", exposition::kind::histogram,
        "Time from a tool call's start to its result, by toolkit.");
    for (std::size_t k = 0; k < toolkits_.size(); ++k) {
        auto const& h = durations_.at(k);
        if (k + 1 == toolkits_.size() && h.read().count == 0) {
            continue; // "none" only when something landed there
        }
        std::array<label, 1> labels { label { "toolkit", toolkits_[k] } };
        out.histogram_samples("toolgate_tool_call_duration_seconds", labels, h);
    }
    if (sources_.calls_in_flight) {
        out.family(
            "toolgate_tool_calls_in_flight", exposition::kind::gauge, "Tool calls running now.");
        out.sample("toolgate_tool_calls_in_flight", std::span<const label>(),
            static_cast<std::uint64_t>(sources_.calls_in_flight()));
    }
    constexpr std::array<std::string_view, 2> encodings = { "identity", "gzip" };
    out.family("toolgate_listings_total", exposition::kind::counter,
        "tools/list answers sent over HTTP, by content encoding.");
    for (std::size_t e = 0; e < 2; ++e) {
        std::array<label, 1> labels { label { "encoding", encodings[e] } };
        out.sample("toolgate_listings_total", labels, listings_[e].value());
    }
    out.family("toolgate_listing_bytes_total", exposition::kind::counter,
        "Bytes of tools/list answers sent over HTTP (as sent: compressed or not).");
    for (std::size_t e = 0; e < 2; ++e) {
        std::array<label, 1> labels { label { "encoding", encodings[e] } };
        out.sample("toolgate_listing_bytes_total", labels, listing_bytes_[e].value());
    }
}

void server_metrics::render_upstream(exposition& out) const
{
    // A toolkit's row is shown when it has tools; "none" only when something landed there.
    auto const shown = [this](metrics::counter_grid const& grid, std::size_t row) {
        if (row + 1 < toolkits_.size()) {
            return true;
        }
        for (std::size_t c = 0; c < grid.columns(); ++c) {
            if (grid.at(row, c).value() > 0) {
                return true;
            }
        }
        return false;
    };
    out.family("toolgate_upstream_requests_total", exposition::kind::counter,
        "Platform responses by toolkit and status class; each retry and redirect hop "
        "counts.");
    for (std::size_t k = 0; k < toolkits_.size(); ++k) {
        if (!shown(upstream_.responses, k)) {
            continue;
        }
        for (std::size_t c = 0; c < status_classes.size(); ++c) {
            std::array<label, 2> labels { label { "toolkit", toolkits_[k] },
                label { "class", status_classes[c] } };
            out.sample(
                "toolgate_upstream_requests_total", labels, upstream_.responses.at(k, c).value());
        }
    }
    out.family("toolgate_upstream_failures_total", exposition::kind::counter,
        "Platform requests that got no response, by toolkit and reason (timeout: the "
        "call's deadline passed; connect includes connect time-outs).");
    for (std::size_t k = 0; k < toolkits_.size(); ++k) {
        if (!shown(upstream_.failures, k)) {
            continue;
        }
        for (std::size_t r = 0; r < failure_reasons.size(); ++r) {
            std::array<label, 2> labels { label { "toolkit", toolkits_[k] },
                label { "reason", failure_reasons[r] } };
            out.sample(
                "toolgate_upstream_failures_total", labels, upstream_.failures.at(k, r).value());
        }
    }
    out.family("toolgate_upstream_retries_total", exposition::kind::counter,
        "Platform requests sent again (429/503 after Retry-After, or a connection that "
        "died before answering), by toolkit.");
    for (std::size_t k = 0; k < toolkits_.size(); ++k) {
        if (shown(upstream_.retries, k)) {
            std::array<label, 1> labels { label { "toolkit", toolkits_[k] } };
            out.sample(
                "toolgate_upstream_retries_total", labels, upstream_.retries.at(k, 0).value());
        }
    }
    out.family("toolgate_upstream_redirects_total", exposition::kind::counter,
        "Redirects followed, by toolkit.");
    for (std::size_t k = 0; k < toolkits_.size(); ++k) {
        if (shown(upstream_.redirects, k)) {
            std::array<label, 1> labels { label { "toolkit", toolkits_[k] } };
            out.sample(
                "toolgate_upstream_redirects_total", labels, upstream_.redirects.at(k, 0).value());
        }
    }
    if (sources_.upstream) {
        auto const pool = sources_.upstream->pool();
        out.family("toolgate_upstream_pool_open_connections", exposition::kind::gauge,
            "Open connections to the platforms, idle and busy.");
        out.sample("toolgate_upstream_pool_open_connections", std::span<const label>(),
            static_cast<std::uint64_t>(pool.open));
        out.family("toolgate_upstream_pool_idle_connections", exposition::kind::gauge,
            "Open connections to the platforms waiting for a call.");
        out.sample("toolgate_upstream_pool_idle_connections", std::span<const label>(),
            static_cast<std::uint64_t>(pool.idle));
        out.family("toolgate_upstream_pool_waiting_calls", exposition::kind::gauge,
            "Calls waiting for a connection (a host's connection limit is reached).");
        out.sample("toolgate_upstream_pool_waiting_calls", std::span<const label>(),
            static_cast<std::uint64_t>(pool.waiting));
    }
}

void server_metrics::render_pacing(exposition& out) const
{
    // Shown for the toolkits that waited at least once: most are never paced.
    auto const waited = [&](std::size_t row) {
        return upstream_.paced.at(row, 0).value() + upstream_.paced.at(row, 1).value() > 0;
    };
    out.family("toolgate_upstream_pacing_waits_total", exposition::kind::counter,
        "Platform requests that waited for their turn under --upstream-rate (outcome "
        "waited), or were refused because it would come past the call's deadline (refused), "
        "by toolkit.");
    for (std::size_t k = 0; k < toolkits_.size(); ++k) {
        if (!waited(k)) {
            continue;
        }
        for (std::size_t c = 0; c < 2; ++c) {
            std::array<label, 2> labels { label { "toolkit", toolkits_[k] },
                label { "outcome", c == 0 ? "waited" : "refused" } };
            out.sample(
                "toolgate_upstream_pacing_waits_total", labels, upstream_.paced.at(k, c).value());
        }
    }
    out.family("toolgate_upstream_pacing_wait_seconds_total", exposition::kind::counter,
        "Time platform requests spent waiting for their turn under --upstream-rate, by "
        "toolkit.");
    for (std::size_t k = 0; k < toolkits_.size(); ++k) {
        if (waited(k)) {
            std::array<label, 1> labels { label { "toolkit", toolkits_[k] } };
            out.sample("toolgate_upstream_pacing_wait_seconds_total", labels,
                static_cast<double>(upstream_.paced_ms.at(k, 0).value()) / 1000.0);
        }
    }
}

void server_metrics::render_http(exposition& out) const
{
    if (!sources_.listener) {
        return;
    }
    auto const stats = sources_.listener->stats();
    out.family("toolgate_http_requests_total", exposition::kind::counter,
        "HTTP responses sent on the MCP port, by status code.");
    for (auto const& [code, n] : stats.responses) {
        auto const text = std::to_string(code);
        std::array<label, 1> labels { label { "code", text } };
        out.sample("toolgate_http_requests_total", labels, n);
    }
    out.family("toolgate_http_requests_in_flight", exposition::kind::gauge,
        "HTTP requests being answered now.");
    out.sample("toolgate_http_requests_in_flight", std::span<const label>(),
        static_cast<std::uint64_t>(stats.active_requests));
    out.family("toolgate_http_connections", exposition::kind::gauge,
        "Open HTTP connections on the MCP port.");
    out.sample("toolgate_http_connections", std::span<const label>(),
        static_cast<std::uint64_t>(stats.open_connections));
    out.family("toolgate_http_connections_accepted_total", exposition::kind::counter,
        "HTTP connections accepted on the MCP port (including those refused at a limit).");
    out.sample(
        "toolgate_http_connections_accepted_total", std::span<const label>(), stats.accepted);
}

void server_metrics::render_sessions(exposition& out) const
{
    if (!sources_.sessions) {
        return;
    }
    auto const counts = sources_.sessions();
    out.family("toolgate_sessions", exposition::kind::gauge,
        "Live MCP sessions (2025 revisions) held by this replica.");
    out.sample(
        "toolgate_sessions", std::span<const label>(), static_cast<std::uint64_t>(counts.live));
    out.family("toolgate_sessions_opened_total", exposition::kind::counter,
        "Sessions opened here: by initialize, or adopted from a signed id another "
        "replica issued.");
    out.sample("toolgate_sessions_opened_total", { { "how", "initialize" } },
        static_cast<double>(counts.opened));
    out.sample("toolgate_sessions_opened_total", { { "how", "adopted" } },
        static_cast<double>(counts.adopted));
    out.family("toolgate_sessions_ended_total", exposition::kind::counter,
        "Sessions ended here: by DELETE, idle or age expiry, or evicted for a client's "
        "newer one (--max-sessions-per-principal).");
    out.sample("toolgate_sessions_ended_total", { { "reason", "deleted" } },
        static_cast<double>(counts.deleted));
    out.sample("toolgate_sessions_ended_total", { { "reason", "expired" } },
        static_cast<double>(counts.expired));
    out.sample("toolgate_sessions_ended_total", { { "reason", "evicted" } },
        static_cast<double>(counts.evicted));
}

void server_metrics::render_process(exposition& out) const
{
    auto const stats = read_process_stats();
    if (!stats) {
        return;
    }
    auto const none = std::span<const label>();
    out.family("process_cpu_seconds_total", exposition::kind::counter,
        "User and system CPU time spent, in seconds.");
    out.sample("process_cpu_seconds_total", none, stats->cpu_seconds);
    out.family(
        "process_resident_memory_bytes", exposition::kind::gauge, "Resident memory size in bytes.");
    out.sample("process_resident_memory_bytes", none, stats->resident_bytes);
    out.family(
        "process_virtual_memory_bytes", exposition::kind::gauge, "Virtual memory size in bytes.");
    out.sample("process_virtual_memory_bytes", none, stats->virtual_bytes);
    out.family("process_open_fds", exposition::kind::gauge, "Open file descriptors.");
    out.sample("process_open_fds", none, stats->open_fds);
    out.family("process_max_fds", exposition::kind::gauge, "Limit on open file descriptors.");
    out.sample("process_max_fds", none, stats->max_fds);
    out.family("process_start_time_seconds", exposition::kind::gauge,
        "Start time of the process since the Unix epoch, in seconds.");
    out.sample("process_start_time_seconds", none, stats->start_time_seconds);
}

} // namespace toolgate::ops
