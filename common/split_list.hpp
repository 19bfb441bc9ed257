// Splitting a list written as text (`a, b,c`): the one rule for flags, environment variables,
// URL query values and header values that carry several items. Do not write it again.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace toolgate::common {

/// The items of `text`, cut at every character of `separators` (a comma by default), each
/// without the spaces, tabs and carriage returns around it (common::trim_blanks), empty items
/// left out: `" a, ,b,"` gives `a`, `b`. Order and repeats are kept.
std::vector<std::string> split_list(std::string_view text, std::string_view separators = ",");

} // namespace toolgate::common
