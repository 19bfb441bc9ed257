// Reading a call's reserved arguments (toolkits/reserved_arguments.hpp): they are taken out of
// the arguments before validation, so nothing of them reaches the platform, and checked here,
// so that a malformed one is refused before anything is sent.
#pragma once

#include "toolkits/result_projection.hpp"
#include "toolkits/tool_error.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace toolgate::toolkits {

struct call_options {
    std::optional<std::vector<field_path>> fields; ///< `_fields`: what to keep of the answer
    std::optional<std::uint64_t> max_tokens; ///< `_max_tokens`: this call's budget, as asked
    bool dry_run = false; ///< `_dry_run`: show the request, send nothing (toolkits/dry_run.hpp)
    /// The reserved arguments as the caller gave them (a note's next call repeats them).
    boost::json::object given;
};

/// The most paths `_fields` takes, and the longest path.
inline constexpr std::size_t max_field_paths = 100;
inline constexpr std::size_t max_field_path_length = 300;
/// The smallest `_max_tokens`: below it not even a short list and its note fit.
inline constexpr std::uint64_t min_max_tokens = 100;

/// Removes every reserved argument from `arguments` and reads it (`null` counts as absent). An
/// error names the argument and what is wrong with it.
tool_result<call_options> take_call_options(boost::json::object& arguments);

} // namespace toolgate::toolkits
