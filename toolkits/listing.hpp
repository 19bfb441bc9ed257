// What `toolgate --list-toolkits` and `toolgate --list-tools [--toolkit X] [--json]` print.
// Pure functions returning text; app/ wires the flags and writes the result to stdout.
#pragma once

#include "toolkits/selection.hpp"

#include <string>

namespace toolgate::toolkits {

/// One block per toolkit: name, version, tool count, what it wraps, auth, capabilities.
std::string list_toolkits_text();

/// A JSON array with one object per toolkit (name, version, platform, tool_count,
/// capabilities[], auth {kind, scopes[], secrets[]}), compact, newline-terminated.
std::string list_toolkits_json();

/// One line per selected tool: `Toolkit.Tool [METHOD]` then its parameters as `name:type`,
/// `*` marking required ones and `!` the ones required when an M-tool executes.
std::string list_tools_text(selection const& sel = {});

/// A JSON array with one object per selected tool: name, wire_name, title, description,
/// method, m_tool, annotations, params[{name, type, item_type?, required,
/// required_when_executing, in, enum?}], compact, newline-terminated.
std::string list_tools_json(selection const& sel = {});

} // namespace toolgate::toolkits
