// Operational logs: spdlog to stderr only (stdout belongs to the protocol in stdio mode), as
// text lines (`time level message key=value…`) or JSON lines (`--log-format json`: one object
// a line with time, level, message and the event's fields as members).
#pragma once

#include <spdlog/common.h>

#include <array>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <variant>

namespace toolgate::ops {

/// Makes a stderr logger the default. Call first thing in main(): spdlog's own default
/// logger writes to stdout, which would corrupt the stdio protocol stream.
void init_logging();
/// Sets the level from its name (trace, debug, info, warn, error, off).
void set_log_level(std::string const& name);
/// "text" (default) or "json". Call once at start-up, before any other thread logs.
void set_log_format(std::string const& name);

/// One field of an event. Strings must already be safe to show (clipped, masked): the JSON
/// form escapes them, the text form prints them as they are. std::monostate: no value.
struct log_field {
    using value_type = std::variant<std::string_view, std::int64_t, bool, std::monostate>;
    std::string_view key;
    value_type value;
};

/// Logs `message` with `fields`: appended as ` key=value` in text, members in JSON. Fields
/// without a value (std::monostate, or an empty string) are left out.
void log_event(
    spdlog::level::level_enum level, std::string_view message, std::span<const log_field> fields);
inline void log_event(spdlog::level::level_enum level, std::string_view message,
    std::initializer_list<log_field> fields)
{
    log_event(level, message, std::span<const log_field>(fields.begin(), fields.size()));
}

/// A request id: 16 hex digits held in place (one is made per call: no allocation).
struct request_id {
    std::array<char, 16> digits {};
    std::string_view view() const { return { digits.data(), digits.size() }; }
};

/// A new request id, unique within the process and unlikely to repeat across replicas (a
/// random per-process prefix and a counter). Thread-safe.
request_id new_request_id();

/// A short stable tag for a value that must not be logged (a session id, a principal):
/// the first 12 hex digits of its SHA-256. The same on every replica. "" for "".
std::string log_tag(std::string_view value);

/// `text` as a JSON string literal (quotes included); invalid UTF-8 becomes U+FFFD.
std::string json_quoted(std::string_view text);

} // namespace toolgate::ops
