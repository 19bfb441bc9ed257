// Fuzz target: argument validation over every catalogue tool (chosen by the first two bytes).
// Validation must not crash on any arguments, and a refusal is a non-empty message.
#include "catalogue_pick.hpp"
#include "fuzz_target.hpp"
#include "toolkits/validate.hpp"

TOOLGATE_FUZZ_TARGET(validate)
{
    toolgate::fuzzing::picked p;
    if (!toolgate::fuzzing::pick(data, size, p)) {
        return 0;
    }
    auto const valid
        = toolgate::toolkits::validate_arguments(*p.ref.toolkit, *p.ref.tool, p.arguments);
    TOOLGATE_FUZZ_CHECK(valid || !valid.error().message.empty());
    return 0;
}
