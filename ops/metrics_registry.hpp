// The building blocks of toolgate's metrics: counters and fixed-bucket histograms updated with
// relaxed atomics (no lock, no allocation when recording), and a writer for the Prometheus
// text exposition format (version 0.0.4). Label sets are fixed when a metric is made, so they
// stay bounded: values come from the catalogue, status codes or a fixed list, never from
// arguments, ids or principals.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toolgate::ops::metrics {

/// A monotonic count. Recording is one relaxed atomic add.
class counter {
public:
    void add(std::uint64_t n = 1) noexcept { value_.fetch_add(n, std::memory_order_relaxed); }
    std::uint64_t value() const noexcept { return value_.load(std::memory_order_relaxed); }

private:
    std::atomic<std::uint64_t> value_ { 0 };
};

/// Counters in a fixed grid of rows × columns (e.g. tool × outcome), allocated once.
class counter_grid {
public:
    counter_grid(std::size_t rows, std::size_t columns);
    counter& at(std::size_t row, std::size_t column) noexcept
    {
        return cells_[row * columns_ + column];
    }
    counter const& at(std::size_t row, std::size_t column) const noexcept
    {
        return cells_[row * columns_ + column];
    }
    std::size_t rows() const noexcept { return rows_; }
    std::size_t columns() const noexcept { return columns_; }

private:
    std::size_t rows_;
    std::size_t columns_;
    std::unique_ptr<counter[]> cells_;
};

/// Bucket bounds in seconds, ascending; +Inf is implied.
using bucket_bounds = std::span<const double>;

/// A histogram of durations with fixed buckets. Recording is a short scan of the bounds and
/// three relaxed atomic adds; the sum is kept in nanoseconds (exact, no floating-point CAS).
class histogram {
public:
    explicit histogram(bucket_bounds bounds);
    void observe(std::chrono::nanoseconds duration) noexcept;

    struct snapshot {
        std::vector<std::uint64_t> cumulative; ///< per bound, then +Inf (== count)
        double sum_seconds = 0;
        std::uint64_t count = 0;
    };
    snapshot read() const;
    bucket_bounds bounds() const noexcept { return bounds_; }

private:
    bucket_bounds bounds_;
    std::vector<std::int64_t> bounds_ns_;
    std::unique_ptr<std::atomic<std::uint64_t>[]> buckets_; ///< per bound, then +Inf
    std::atomic<std::uint64_t> sum_ns_ { 0 };
};

/// Histograms of the same bounds, one per row (e.g. per toolkit).
class histogram_row {
public:
    histogram_row(std::size_t rows, bucket_bounds bounds);
    histogram& at(std::size_t row) noexcept { return *rows_[row]; }
    histogram const& at(std::size_t row) const noexcept { return *rows_[row]; }
    std::size_t size() const noexcept { return rows_.size(); }

private:
    std::vector<std::unique_ptr<histogram>> rows_;
};

using label = std::pair<std::string_view, std::string_view>;

/// Writes the text exposition format. Each family starts with family(); its samples follow.
/// Names are the caller's constants; label values are escaped here.
class exposition {
public:
    enum class kind { counter, gauge, histogram };

    void family(std::string_view name, kind type, std::string_view help);
    void sample(std::string_view name, std::initializer_list<label> labels, double value);
    void sample(std::string_view name, std::span<const label> labels, double value);
    void sample(std::string_view name, std::span<const label> labels, std::uint64_t value);
    /// The `_bucket`, `_sum` and `_count` samples of one labelled histogram.
    void histogram_samples(
        std::string_view name, std::span<const label> labels, histogram const& h);

    std::string const& text() const noexcept { return out_; }
    std::string take() noexcept { return std::move(out_); }

private:
    void labels_text(std::span<const label> labels, std::string_view extra_name = {},
        std::string_view extra_value = {});
    std::string out_;
};

/// The exposition's media type.
inline constexpr std::string_view content_type = "text/plain; version=0.0.4; charset=utf-8";

/// A label value as the format wants it: backslash, double quote and newline escaped.
std::string escape_label_value(std::string_view value);

} // namespace toolgate::ops::metrics
