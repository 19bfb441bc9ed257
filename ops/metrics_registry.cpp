// Counters, histograms and the text exposition format
// (https://prometheus.io/docs/instrumenting/exposition_formats/).
#include "ops/metrics_registry.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace toolgate::ops::metrics {

counter_grid::counter_grid(std::size_t rows, std::size_t columns)
    : rows_(rows)
    , columns_(columns)
    , cells_(std::make_unique<counter[]>(rows * columns))
{
}

histogram::histogram(bucket_bounds bounds)
    : bounds_(bounds)
    , buckets_(std::make_unique<std::atomic<std::uint64_t>[]>(bounds.size() + 1))
{
    bounds_ns_.reserve(bounds.size());
    for (double b : bounds) {
        bounds_ns_.push_back(static_cast<std::int64_t>(std::llround(b * 1e9)));
    }
    for (std::size_t i = 0; i <= bounds.size(); ++i) {
        buckets_[i].store(0, std::memory_order_relaxed);
    }
}

void histogram::observe(std::chrono::nanoseconds duration) noexcept
{
    auto const ns = std::max<std::int64_t>(duration.count(), 0);
    std::size_t i = 0;
    while (i < bounds_ns_.size() && ns > bounds_ns_[i]) {
        ++i; // `le` is inclusive: a value equal to a bound belongs to that bucket
    }
    buckets_[i].fetch_add(1, std::memory_order_relaxed);
    sum_ns_.fetch_add(static_cast<std::uint64_t>(ns), std::memory_order_relaxed);
}

histogram::snapshot histogram::read() const
{
    snapshot out;
    out.cumulative.reserve(bounds_.size() + 1);
    std::uint64_t running = 0;
    for (std::size_t i = 0; i <= bounds_.size(); ++i) {
        running += buckets_[i].load(std::memory_order_relaxed);
        out.cumulative.push_back(running);
    }
    out.count = running;
    out.sum_seconds = static_cast<double>(sum_ns_.load(std::memory_order_relaxed)) / 1e9;
    return out;
}

histogram_row::histogram_row(std::size_t rows, bucket_bounds bounds)
{
    rows_.reserve(rows);
    for (std::size_t i = 0; i < rows; ++i) {
        rows_.push_back(std::make_unique<histogram>(bounds));
    }
}

std::string escape_label_value(std::string_view value)
{
    std::string out;
    out.reserve(value.size());
    for (char c : value) {
        switch (c) {
        case '\\':
            out += "\\\\";
            break;
        case '"':
            out += "\\\"";
            break;
        case '\n':
            out += "\\n";
            break;
        default:
            out += c;
        }
    }
    return out;
}

namespace {

/// A sample value: integers as integers, +Inf/NaN as the format spells them.
std::string number_text(double v)
{
    if (std::isnan(v)) {
        return "NaN";
    }
    if (std::isinf(v)) {
        return v > 0 ? "+Inf" : "-Inf";
    }
    if (v == std::floor(v) && std::fabs(v) < 1e15) {
        return fmt::format("{}", static_cast<std::int64_t>(v));
    }
    return fmt::format("{}", v);
}

char const* kind_name(exposition::kind k)
{
    switch (k) {
    case exposition::kind::counter:
        return "counter";
    case exposition::kind::gauge:
        return "gauge";
    case exposition::kind::histogram:
        return "histogram";
    }
    return "untyped";
}

} // namespace

void exposition::family(std::string_view name, kind type, std::string_view help)
{
    fmt::format_to(std::back_inserter(out_), "# HELP {} {}\n# TYPE {} {}\n", name, help, name,
        kind_name(type));
}

void exposition::labels_text(
    std::span<const label> labels, std::string_view extra_name, std::string_view extra_value)
{
    if (labels.empty() && extra_name.empty()) {
        return;
    }
    out_ += '{';
    bool first = true;
    for (auto const& [name, value] : labels) {
        if (!first) {
            out_ += ',';
        }
        first = false;
        out_.append(name).append("=\"").append(escape_label_value(value)).append("\"");
    }
    if (!extra_name.empty()) {
        if (!first) {
            out_ += ',';
        }
        out_.append(extra_name).append("=\"").append(extra_value).append("\"");
    }
    out_ += '}';
}

void exposition::sample(std::string_view name, std::initializer_list<label> labels, double value)
{
    sample(name, std::span<const label>(labels.begin(), labels.size()), value);
}

void exposition::sample(std::string_view name, std::span<const label> labels, double value)
{
    out_.append(name);
    labels_text(labels);
    out_.append(" ").append(number_text(value)).append("\n");
}

void exposition::sample(std::string_view name, std::span<const label> labels, std::uint64_t value)
{
    out_.append(name);
    labels_text(labels);
    fmt::format_to(std::back_inserter(out_), " {}\n", value);
}

void exposition::histogram_samples(
    std::string_view name, std::span<const label> labels, histogram const& h)
{
    auto const snap = h.read();
    auto const bounds = h.bounds();
    std::string const bucket = std::string(name) + "_bucket";
    for (std::size_t i = 0; i <= bounds.size(); ++i) {
        auto const le = i < bounds.size() ? number_text(bounds[i]) : std::string("+Inf");
        out_.append(bucket);
        labels_text(labels, "le", le);
        fmt::format_to(std::back_inserter(out_), " {}\n", snap.cumulative[i]);
    }
    out_.append(name).append("_sum");
    labels_text(labels);
    out_.append(" ").append(number_text(snap.sum_seconds)).append("\n");
    out_.append(name).append("_count");
    labels_text(labels);
    fmt::format_to(std::back_inserter(out_), " {}\n", snap.count);
}

} // namespace toolgate::ops::metrics
