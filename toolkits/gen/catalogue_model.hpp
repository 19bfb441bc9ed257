// The generator's view of one catalogue.json: checks (catalogue_check.cpp) and the input
// schema builder (input_schema.cpp). Build-time code only; never linked into the server.
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <stdexcept>
#include <string>
#include <string_view>

namespace toolgate::catalogue_gen {

/// A catalogue that must not be compiled. what() reads `Tool X: reason` (or a toolkit reason).
class catalogue_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Throws catalogue_error on duplicate tool or parameter names, unbound or unknown URL
/// placeholders, unknown types, placements, formats or array formats, M-tools without
/// `mode`/`request_body`/schema, or a tool count that does not match the tools.
void check_catalogue(boost::json::object const& catalogue);

/// The tool's `inputSchema`: a JSON Schema 2020-12 object schema built from its params.
boost::json::object build_input_schema(boost::json::object const& tool);

/// Convenience accessors that throw catalogue_error naming `what` when a field is absent.
std::string_view get_string(
    boost::json::object const& o, std::string_view key, std::string_view what);
bool get_bool(boost::json::object const& o, std::string_view key);

} // namespace toolgate::catalogue_gen
