// Result shaping: a platform's answer (or the reason none came) becomes a tool result. JSON
// stays JSON (text plus a structured value), text stays text, binary becomes base64 image or
// resource content, and HTTP errors and transport failures become clear, redacted tool errors.
#pragma once

#include "protocol/tool_descriptor.hpp"
#include "toolkits/request_builder.hpp"
#include "toolkits/tool_spec.hpp"
#include "transport/outbound.hpp"

#include <cstddef>
#include <span>
#include <string>

namespace toolgate::toolkits {

struct shaping_options {
    /// How much of a platform's error body an error result quotes (bytes, cut on a UTF-8
    /// character boundary; the result says when it was cut).
    std::size_t error_body_limit = 2048;
    /// Answers larger than this (bytes) are returned as text only, as they came, without a
    /// parsed `structured` value: parsing multiplies an answer's memory many times over, and
    /// no model reads a structure that large (security review 9). The budget step
    /// (result_limits.hpp) cuts them, or minifies them when they pass whole.
    std::size_t structured_limit = 1024 * 1024;
};

/// Maps `result` to a tool result:
/// - 2xx JSON: one text item with the compact JSON, `structured` = the parsed value (the
///   protocol layer decides per revision whether it goes on the wire);
/// - 204 or an empty body: a text saying the platform answered with no content;
/// - 304: not an error, a text saying the item is unchanged;
/// - text: text; image/*: image content; other binary: a resource
///   `toolgate://<toolkit>/<tool>/response`, base64, with its MIME type;
/// - 3xx (not followed), 4xx, 5xx and transport failures: is_error with the tool, status and
///   reason or failure phase, a hint where one helps, and the platform's body cut to the
///   limit. Every value in `sent.redactions` is masked in error texts, and every value in
///   `sent.credential_values` in successful answers too.
protocol::call_result shape_result(toolkit_spec const& toolkit, tool_spec const& tool,
    prepared_request const& sent, transport::outbound_result result,
    shaping_options const& options = {});

/// `text` with every secret masked (common/masking.hpp; raw and percent-encoded forms).
std::string redact(std::string text, std::span<const std::string> secrets);

} // namespace toolgate::toolkits
