// How a step that can fail says so, in every layer (docs/decisions.md: errors): it returns
// `boost::system::result<T, E>`, a value or the error `E` of its layer. The layers' errors:
//
// - protocol::rpc_error (protocol::rpc_result<T>): an answer with a JSON-RPC code;
// - common::problem (common::checked<T>): anything a client, a user or a flag gave that cannot
//   be used, as one sentence naming what was wrong. The toolkits call it tool_error
//   (tool_result<T>): a refused tool call, told to the model.
//
// std::optional means "maybe absent", never "failed"; exceptions are for start-up (the server
// prints the message and exits with code 2) and for programming errors.
#pragma once

#include <boost/assert/source_location.hpp>
#include <boost/system/result.hpp>

#include <stdexcept>
#include <string>
#include <utility>

namespace toolgate::common {

/// What was wrong, naming it (never a secret's value). Made with problem_of(); it has no
/// constructor from a string, so that a `checked<std::string>` can tell a value from an error.
struct problem {
    problem() = default;
    std::string message;
};

inline problem problem_of(std::string message)
{
    problem p;
    p.message = std::move(message);
    return p;
}

/// A `T`, or the problem that kept it from being made.
template <class T = void> using checked = boost::system::result<T, problem>;

/// Lets `checked<T>::value()` throw when called on an error: at start-up, the server prints
/// the message and exits with code 2; anywhere else it is a programming error.
[[noreturn]] inline void throw_exception_from_error(
    problem const& error, boost::source_location const&)
{
    throw std::invalid_argument(error.message);
}

} // namespace toolgate::common
