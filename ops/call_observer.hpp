// What the MCP layer reports about tool calls and listings, for metrics: a small interface, so
// that the router records events without knowing who counts them (ops/metrics implements it,
// as transport/outbound_observer.hpp is implemented for the HTTPS client).
#pragma once

#include "protocol/tool_descriptor.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace toolgate::ops {

/// How a tool call ended, as `toolgate_tool_calls_total{outcome}` says it.
enum class call_outcome : std::uint8_t { ok, tool_error, protocol_error, cancelled };

/// Called from any thread, once per event, on the call's hot path: implementations must be
/// thread-safe and cheap (atomics; no lock, no allocation).
class call_observer {
public:
    virtual ~call_observer() = default;
    /// A call of `tool` ended after `duration`.
    virtual void record_call(protocol::tool_descriptor const* tool, call_outcome outcome,
        std::chrono::nanoseconds duration) noexcept = 0;
    /// A call refused before it ran (limits, shutdown).
    virtual void record_refused_call(protocol::tool_descriptor const* tool) noexcept = 0;
    /// A tools/list answer went out over HTTP: `bytes` on the wire, compressed or not.
    virtual void record_listing(bool gzip, std::size_t bytes) noexcept = 0;
};

} // namespace toolgate::ops
