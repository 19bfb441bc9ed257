// `_fields`: keeping only the named parts of an answer. A path is dotted member names with `[]`
// for every element of a list (`entries[].created_by.name`, `[].id` for a top-level list) or
// `[N:]` for the elements from position N on (what a continuation note asks for). A path keeps
// what it names and the values that enclose it; list elements keep their places.
#pragma once

#include "toolkits/answer_tree.hpp"
#include "toolkits/tool_error.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace toolgate::toolkits {

struct path_step {
    enum class kind : std::uint8_t {
        member, ///< `name`
        every, ///< `[]`
        from, ///< `[N:]`
    };
    kind type = kind::member;
    std::string name; ///< members only
    std::uint32_t from = 0; ///< `[N:]` only
};

struct field_path {
    std::string text; ///< as the caller wrote it
    std::vector<path_step> steps;
};

/// A path's steps; the error names the path and the mistake (argument `_fields`).
tool_result<field_path> parse_field_path(std::string_view text);

/// The paths as a list; refuses two paths that start the same list at different places.
tool_result<std::vector<field_path>> parse_field_paths(std::span<const std::string> texts);

/// `path` written back (the same text parse_field_path reads).
std::string path_text(std::span<const path_step> steps);

struct projection_report {
    std::vector<std::string> unmatched; ///< paths that named nothing in this answer
    std::vector<std::string> hints; ///< for some of them: why, and what would match
};

/// Hides everything of `tree` that no path names. When nothing matches, an object or list
/// answer becomes empty (`{}`, `[]`); call tree.measure() afterwards.
projection_report project(answer_tree& tree, std::span<const field_path> paths);

} // namespace toolgate::toolkits
