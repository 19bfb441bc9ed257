// Client-chosen text (tool names, argument names, request ids) echoed into error messages and
// logs: cut to a readable length, with bytes a terminal or a JSON reader would trip over shown
// as escapes. One place, so every echo follows the same rule (security review 13).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace toolgate::protocol {

/// At most `max` bytes of `text` (cut on a UTF-8 boundary), followed by "… (N bytes in all)"
/// when it was longer. Control characters become `\xNN`.
std::string clipped(std::string_view text, std::size_t max = 80);

} // namespace toolgate::protocol
