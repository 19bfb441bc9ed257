// Fault injection for the fake platform process (`fake_platform --faults RATE`), used by the
// soak: at random, a request is answered with a reset, a clean close, a stall, a slow answer,
// 5xx, 429 with Retry-After, an oversized body or a malformed one. Deterministic per seed.
#pragma once

#include "fake_platform.hpp"

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <random>
#include <string>
#include <string_view>

namespace toolgate::test {

enum class fault : std::uint8_t {
    none,
    reset,
    close,
    stall,
    slow,
    server_error,
    unavailable,
    too_many,
    oversized,
    malformed,
    count
};

std::string_view fault_name(fault f);

struct fault_options {
    double rate = 0.0; ///< share of requests that get a fault
    std::uint32_t seed = 1;
    std::size_t oversized_bytes = 2 * 1024 * 1024;
    std::chrono::milliseconds slow { 1500 }; ///< the slow answer's delay (up to this)
};

/// Thread-safe: picks a fault for each request and counts what it picked.
class fault_injector {
public:
    explicit fault_injector(fault_options options);
    /// The answer to one request: `normal` or a fault in its place.
    fake_response answer(fake_response const& normal);
    /// `name=count` pairs of every fault injected so far, space separated.
    std::string summary() const;

private:
    fault_options options_;
    std::mutex mutex_;
    std::mt19937 random_;
    std::array<std::atomic<std::size_t>, std::size_t(fault::count)> counts_ {};
    std::string oversized_body_;
};

} // namespace toolgate::test
