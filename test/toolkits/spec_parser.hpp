// Reads the specification's tool lines (../shared/spec/*.txt) or the checked-in table derived
// from them (test/toolkits/spec_tools.json, written by tools/extract-spec-table). The parsing
// rules mirror tools/toolgate_spec.py; a test checks that both give the same table.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace toolgate::test {

struct spec_param {
    std::string name;
    std::string type; ///< string, integer, number, boolean, array
    bool required = false;
    bool required_when_executing = false;
    friend bool operator==(spec_param const&, spec_param const&) = default;
};

struct spec_tool {
    std::string toolkit;
    std::optional<std::string> name; ///< absent for lines that give only an operation id
    std::optional<std::string> operation_id;
    bool m_tool = false;
    bool no_parameters = false;
    bool complete = true; ///< every item of the line was a typed parameter
    std::vector<spec_param> params;
    friend bool operator==(spec_tool const&, spec_tool const&) = default;
};

struct spec_toolkit {
    std::string name;
    std::string wraps;
    std::string version;
    int tool_count = 0;
    friend bool operator==(spec_toolkit const&, spec_toolkit const&) = default;
};

struct spec_table {
    std::vector<spec_toolkit> toolkits;
    std::vector<spec_tool> tools;
};

/// Parses the specification documents in `dir` (*.txt, in name order).
spec_table parse_spec_dir(std::filesystem::path const& dir);

/// Loads test/toolkits/spec_tools.json.
spec_table load_spec_table(std::filesystem::path const& file);

/// The specification directory when present (`$TOOLGATE_SOURCE_DIR/../shared/spec`, else the
/// same next to the compiled-in source dir), or nullopt.
std::optional<std::filesystem::path> find_spec_dir();

/// The table the tests check: the documents when present, else the checked-in table.
spec_table current_spec_table();

} // namespace toolgate::test
