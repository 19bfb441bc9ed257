// W3C Trace Context (https://www.w3.org/TR/trace-context/): the `traceparent` a caller sends
// in `_meta` or as an HTTP header, checked so that only a well-formed value is logged or
// passed on, and the child value toolgate forwards upstream under its own span id.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace toolgate::protocol {

/// A checked `traceparent`: lower-case hex, ids not all zero. Held in place (a fixed array,
/// trivially copied): every tool call carries an optional one.
class trace_parent {
public:
    std::string_view trace_id() const { return view(3, 32); } ///< 32 hex digits
    std::string_view parent_id() const { return view(36, 16); } ///< the caller's span
    std::string_view flags() const { return view(53, 2); } ///< 01: sampled

    /// `00-<trace_id>-<span_id>-<flags>`: the same trace, continued by span `span_id`.
    std::string child(std::string_view span_id) const;

private:
    friend std::optional<trace_parent> parse_traceparent(std::string_view text);
    std::string_view view(std::size_t at, std::size_t n) const { return { text_.data() + at, n }; }
    std::array<char, 55> text_ {}; ///< version-traceid-parentid-flags, as received
};

/// Parses a `traceparent` value. nullopt for anything malformed (the spec says to ignore it
/// then): wrong length, upper case, version ff, all-zero ids. A future version (01–fe) is read
/// by its first four fields, as the spec asks.
std::optional<trace_parent> parse_traceparent(std::string_view text);

/// A `tracestate` value worth passing on with a valid traceparent: at most 512 bytes of
/// printable ASCII (the spec's list syntax is not checked further). nullopt otherwise.
std::optional<std::string> checked_tracestate(std::string_view text);

/// A fresh span id: 16 lower-case hex digits, not all zero (thread-safe).
std::string new_span_id();

} // namespace toolgate::protocol
