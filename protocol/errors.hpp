// JSON-RPC and MCP error codes, and the error value protocol functions return.
#pragma once

#include <boost/assert/source_location.hpp>
#include <boost/json/value.hpp>
#include <boost/system/result.hpp>

#include <optional>
#include <stdexcept>
#include <string>

namespace toolgate::protocol {

namespace error_code {
inline constexpr int parse_error = -32700;
inline constexpr int invalid_request = -32600;
inline constexpr int method_not_found = -32601;
inline constexpr int invalid_params = -32602;
inline constexpr int internal_error = -32603;
inline constexpr int header_mismatch = -32020; // 2026-07-28
inline constexpr int missing_client_capability = -32021; // 2026-07-28
inline constexpr int unsupported_protocol_version = -32022; // 2026-07-28
/// URLElicitationRequiredError (2025-11-25 only; 2026-07-28 traffic must never carry it).
inline constexpr int url_elicitation_required = -32042;
} // namespace error_code

/// A JSON-RPC error object: code, a message naming what was wrong, optional data.
struct rpc_error {
    int code = error_code::internal_error;
    std::string message;
    std::optional<boost::json::value> data;
};

/// A `T`, or the error to answer with (common/result.hpp: one error idiom).
template <class T> using rpc_result = boost::system::result<T, rpc_error>;

/// Lets `rpc_result<T>::value()` throw when called on an error (a programming error).
[[noreturn]] inline void throw_exception_from_error(
    rpc_error const& error, boost::source_location const&)
{
    throw std::logic_error("unchecked rpc_result: " + error.message);
}

} // namespace toolgate::protocol
