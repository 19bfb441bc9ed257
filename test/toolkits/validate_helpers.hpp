// Helpers for the validation tests: run a catalogue tool's checks on JSON text.
#pragma once

#include "toolkits/catalogue.hpp"
#include "toolkits/validate.hpp"

#include <boost/json/parse.hpp>
#include <catch2/catch.hpp>

#include <optional>
#include <string>

namespace toolgate::test {

/// The validation message for `args_json` given to `tool` (`Toolkit.Tool`), or nullopt.
inline std::optional<std::string> check(std::string_view tool, std::string_view args_json)
{
    auto ref = toolkits::find_tool(tool);
    REQUIRE(ref);
    auto valid = toolkits::validate_arguments(
        *ref->toolkit, *ref->tool, boost::json::parse(args_json).as_object());
    if (valid) {
        return std::nullopt;
    }
    return valid.error().message;
}

} // namespace toolgate::test
