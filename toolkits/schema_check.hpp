// JSON Schema checks of structured arguments: an M-tool's `request_body` against its body
// schema, and object parameters against theirs, before anything is sent (security review 17).
// valijson does the checking (draft 7, which covers every keyword our catalogue's schemas use).
#pragma once

#include "toolkits/tool_error.hpp"

#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace toolgate::toolkits {

/// Checks `value` against the serialised JSON Schema `schema` (text with static storage: a
/// catalogue entry; its compiled form is cached by address). Returns nothing when it conforms,
/// otherwise what is wrong, naming where ("at /gitSource/type: ..."), for the argument named
/// `argument`. A schema that cannot be compiled is not checked (the catalogue test makes sure
/// every one can).
tool_result<void> check_against_schema(
    std::string_view argument, std::string_view schema, boost::json::value const& value);

/// The schema text parsed (cached by address, like the compiled form); null when it does not
/// parse.
boost::json::value const& parsed_schema(std::string_view schema);

/// Whether the schema's top-level type is "array" (a body that is a list, not an object).
bool schema_wants_array(std::string_view schema);

} // namespace toolgate::toolkits
