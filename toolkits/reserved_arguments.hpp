// The reserved arguments: names every catalogue tool takes besides its own parameters, read by
// toolgate and never sent to a platform. This table is the one place that names them: the
// catalogue generator publishes them in every inputSchema and refuses a parameter that would
// clash, and toolgate_call_tool takes each under its name without the underscore.
#pragma once

#include <algorithm>
#include <string_view>

namespace toolgate::toolkits {

struct reserved_argument {
    std::string_view name; ///< on every catalogue tool, e.g. `_fields`
    std::string_view call_tool_name; ///< on toolgate_call_tool, e.g. `fields`
    /// The property published in inputSchema (compact JSON). The descriptions are short on
    /// purpose: they are repeated for every tool of the full listing; the server's
    /// instructions say more.
    std::string_view schema;
};

/// Adding a name: one line here, and its reading in call_options.cpp.
inline constexpr reserved_argument reserved_arguments[] = {
    { "_fields", "fields",
        R"({"type":"array","items":{"type":"string"},"description":"Only these parts of the answer, as paths: items[].id, [].name"})" },
    { "_max_tokens", "max_tokens",
        R"({"type":"integer","minimum":100,"description":"This answer's token budget; longer answers are cut with a note"})" },
    { "_dry_run", "dry_run",
        R"({"type":"boolean","description":"true: show the request, credentials masked, and send nothing"})" },
};

constexpr bool is_reserved_argument(std::string_view name)
{
    return std::any_of(std::begin(reserved_arguments), std::end(reserved_arguments),
        [&](reserved_argument const& r) { return r.name == name; });
}

} // namespace toolgate::toolkits
