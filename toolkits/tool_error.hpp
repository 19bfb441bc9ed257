// A failure the caller can act on: it becomes a tool result with isError set, never a
// protocol error. The executor's steps (build, authenticate) return it as a value.
#pragma once

#include <boost/assert/source_location.hpp>
#include <boost/system/result.hpp>

#include <stdexcept>
#include <string>
#include <utility>

namespace toolgate::toolkits {

/// A message for the model: names the argument or secret at fault, never a secret's value.
/// Made with refuse(); it has no constructor from a string, so that a `tool_result<std::string>`
/// can tell a value from an error.
struct tool_error {
    tool_error() = default;
    std::string message;
};

/// The error for a refused call.
inline tool_error refuse(std::string message)
{
    tool_error error;
    error.message = std::move(message);
    return error;
}

/// The outcome of a step that either produces a `T` or refuses the call.
template <class T> using tool_result = boost::system::result<T, tool_error>;

/// Lets `tool_result<T>::value()` throw when called on an error (a programming error).
[[noreturn]] inline void throw_exception_from_error(
    tool_error const& error, boost::source_location const&)
{
    throw std::logic_error("unchecked tool_result: " + error.message);
}

} // namespace toolgate::toolkits
