// A failure the caller can act on: it becomes a tool result with isError set, never a
// protocol error. The executor's steps (build, authenticate) return it as a value, in the
// project's one error idiom (common/result.hpp).
#pragma once

#include "common/result.hpp"

#include <string>
#include <utility>

namespace toolgate::toolkits {

/// A message for the model: names the argument or secret at fault, never a secret's value.
using tool_error = common::problem;

/// The error for a refused call.
inline tool_error refuse(std::string message)
{
    return common::problem_of(std::move(message));
}

/// The outcome of a step that either produces a `T` or refuses the call.
template <class T> using tool_result = common::checked<T>;

} // namespace toolgate::toolkits
