// Published forms back to the platform's: a structured parameter may be published in a form
// every client converts intact (tools/schema_forms.py): a map as a list of {key, value}
// objects, free-form JSON as JSON text. Its schema marks those parts with `x-toolgate-wire`;
// before sending, the argument is turned back into what the platform expects.
#pragma once

#include "toolkits/tool_error.hpp"

#include <boost/json/value.hpp>

#include <string_view>

namespace toolgate::toolkits {

/// Whether `schema` (a param_spec::schema) marks any part as published in another form.
bool has_wire_forms(std::string_view schema);

/// `value`, an argument that passed validation against `schema`, in the platform's form:
/// lists of {key, value} marked `map` become objects; strings marked `json` become the JSON
/// they hold (refused, naming the argument and where, when that text is not JSON).
tool_result<boost::json::value> to_wire_form(
    std::string_view argument, std::string_view schema, boost::json::value const& value);

} // namespace toolgate::toolkits
