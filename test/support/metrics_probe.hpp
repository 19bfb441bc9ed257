// Waiting on a running server's own account of itself. A test that needs calls to be running
// before it acts (a cap to be full, a signal to find work in flight) asks /metrics instead of
// sleeping: a sleep is a guess that a loaded machine can beat, and a probe call could take the
// very place it was meant to observe.
#pragma once

#include "http_raw.hpp"

#include <chrono>
#include <cstdint>

namespace toolgate::testing {

/// Polls GET /metrics on 127.0.0.1:port until toolgate_tool_calls_in_flight equals `count`.
/// `headers` carries the Authorization a server with a token file asks for. False when
/// `timeout` passes first.
bool wait_calls_in_flight(std::uint16_t port, int count, header_pairs const& headers = {},
    std::chrono::milliseconds timeout = std::chrono::seconds(10));

} // namespace toolgate::testing
