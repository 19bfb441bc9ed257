// A strict gzip decoder for tests: zlib's own, with the trailer's CRC and length checked.
#pragma once

#include <optional>
#include <string>

namespace toolgate::testing {

/// The content of one gzip member, or nullopt when it is not exactly one valid member (bad
/// data, a CRC or length mismatch, a truncated stream, or bytes after the trailer).
std::optional<std::string> gunzip(std::string const& member);

} // namespace toolgate::testing
