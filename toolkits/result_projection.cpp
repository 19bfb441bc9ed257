// Projection (see result_projection.hpp): the path grammar, and a walk that shows what each
// path reaches.
#include "toolkits/result_projection.hpp"

#include <fmt/format.h>

#include <charconv>

namespace toolgate::toolkits {
namespace {

using index = answer_tree::index;
constexpr auto none = answer_tree::none;

tool_error malformed(std::string_view path, std::string_view why)
{
    return refuse(fmt::format("argument `_fields`: the path `{}` is malformed: {} (paths are "
                              "member names joined by dots, with [] for every element of a "
                              "list, e.g. entries[].id or [].name)",
        path, why));
}

/// Reads `[]` or `[N:]` at `at` (which holds '['); advances `at` past it.
tool_result<path_step> bracket(std::string_view text, std::size_t& at)
{
    auto const close = text.find(']', at);
    if (close == std::string_view::npos) {
        return malformed(text, "a `[` is not closed by `]`");
    }
    auto const inside = text.substr(at + 1, close - at - 1);
    at = close + 1;
    path_step step;
    if (inside.empty()) {
        step.type = path_step::kind::every;
        return step;
    }
    std::uint32_t from = 0;
    auto const colon = inside.find(':');
    auto const digits = inside.substr(0, colon);
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), from);
    if (colon != inside.size() - 1 || digits.empty() || ec != std::errc()
        || end != digits.data() + digits.size()) {
        return malformed(text,
            fmt::format("`[{}]` is not `[]` (every element) or `[N:]` (the elements from "
                        "position N on); single positions cannot be chosen",
                inside));
    }
    step.type = path_step::kind::from;
    step.from = from;
    return step;
}

/// Whether the walk matched; shows what it reached. `hint` gets the first reason a step found
/// nothing.
bool walk(
    answer_tree& tree, index n, std::span<const path_step> steps, std::size_t i, std::string& hint)
{
    if (i == steps.size()) {
        tree.show_subtree(n, true);
        return true;
    }
    auto const& step = steps[i];
    bool matched = false;
    auto const kind = tree.kind(n);
    if (step.type == path_step::kind::member) {
        if (kind == json_kind::object) {
            for (auto c = tree.first_child(n); c != none; c = tree.next_sibling(c)) {
                if (tree.raw_key(c) == step.name || tree.key(c) == step.name) {
                    matched = walk(tree, c, steps, i + 1, hint) || matched;
                }
            }
        } else if (hint.empty() && kind == json_kind::array) {
            auto const before = path_text(steps.subspan(0, i));
            hint = fmt::format("{} is a list: write `{}[].{}`",
                before.empty() ? "the answer" : "`" + before + "`", before,
                path_text(steps.subspan(i)));
        }
    } else if (kind == json_kind::array) {
        auto const from = step.type == path_step::kind::from ? step.from : 0;
        std::uint32_t position = 0;
        for (auto c = tree.first_child(n); c != none; c = tree.next_sibling(c), ++position) {
            if (position >= from) {
                matched = walk(tree, c, steps, i + 1, hint) || matched;
            }
        }
        if (matched) {
            // Every element from the start keeps its place, as `{}` when nothing in it matched.
            position = 0;
            for (auto c = tree.first_child(n); c != none; c = tree.next_sibling(c), ++position) {
                bool const container
                    = tree.kind(c) == json_kind::object || tree.kind(c) == json_kind::array;
                if (position >= from && !tree.shown(c)) {
                    container ? tree.show_node(c) : tree.show_subtree(c, true);
                }
            }
        }
    } else if (hint.empty()) {
        auto const before = path_text(steps.subspan(0, i));
        hint = fmt::format("{} is not a list", before.empty() ? "the answer" : "`" + before + "`");
    }
    if (matched) {
        tree.show_node(n);
    }
    return matched;
}

} // namespace

tool_result<field_path> parse_field_path(std::string_view text)
{
    field_path path;
    path.text = std::string(text);
    if (text.empty()) {
        return malformed(text, "it is empty");
    }
    std::size_t at = 0;
    bool need_name = text.front() != '[';
    while (at < text.size()) {
        if (text[at] == '[') {
            auto step = bracket(text, at);
            if (!step) {
                return step.error();
            }
            path.steps.push_back(std::move(*step));
            if (at < text.size() && text[at] != '.' && text[at] != '[') {
                return malformed(text, "a `]` must be followed by `.`, `[` or the end");
            }
            if (at < text.size() && text[at] == '.') {
                ++at;
                need_name = true;
                if (at == text.size()) {
                    return malformed(text, "it ends with a dot");
                }
            }
            continue;
        }
        auto const end = text.find_first_of(".[]", at);
        auto const name = text.substr(at, end == std::string_view::npos ? end : end - at);
        if (name.empty() || !need_name) {
            return malformed(text, "a member name is empty (two dots, or a leading dot)");
        }
        if (end != std::string_view::npos && text[end] == ']') {
            return malformed(text, "a `]` has no `[`");
        }
        path.steps.push_back({ path_step::kind::member, std::string(name), 0 });
        at = end == std::string_view::npos ? text.size() : end;
        need_name = false;
        if (at < text.size() && text[at] == '.') {
            ++at;
            need_name = true;
            if (at == text.size()) {
                return malformed(text, "it ends with a dot");
            }
        }
    }
    return path;
}

tool_result<std::vector<field_path>> parse_field_paths(std::span<const std::string> texts)
{
    std::vector<field_path> paths;
    for (auto const& text : texts) {
        auto path = parse_field_path(text);
        if (!path) {
            return path.error();
        }
        paths.push_back(std::move(*path));
    }
    // Two starts for one list would make its positions ambiguous.
    for (std::size_t a = 0; a < paths.size(); ++a) {
        for (std::size_t b = a + 1; b < paths.size(); ++b) {
            auto const& x = paths[a].steps;
            auto const& y = paths[b].steps;
            for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
                bool const x_list = x[i].type != path_step::kind::member;
                bool const y_list = y[i].type != path_step::kind::member;
                if (x_list != y_list || (!x_list && x[i].name != y[i].name)) {
                    break;
                }
                auto const x_from = x[i].type == path_step::kind::from ? x[i].from : 0;
                auto const y_from = y[i].type == path_step::kind::from ? y[i].from : 0;
                if (x_list && x_from != y_from) {
                    return refuse(fmt::format("argument `_fields`: `{}` and `{}` start the "
                                              "same list at different positions",
                        paths[a].text, paths[b].text));
                }
            }
        }
    }
    return paths;
}

std::string path_text(std::span<const path_step> steps)
{
    std::string out;
    for (auto const& s : steps) {
        switch (s.type) {
        case path_step::kind::member:
            if (!out.empty()) {
                out += '.';
            }
            out += s.name;
            break;
        case path_step::kind::every:
            out += "[]";
            break;
        case path_step::kind::from:
            out += fmt::format("[{}:]", s.from);
            break;
        }
    }
    return out;
}

projection_report project(answer_tree& tree, std::span<const field_path> paths)
{
    projection_report report;
    tree.show_subtree(answer_tree::root, false);
    for (auto const& path : paths) {
        std::string hint;
        if (!walk(tree, answer_tree::root, path.steps, 0, hint)) {
            report.unmatched.push_back(path.text);
            if (!hint.empty()) {
                report.hints.push_back(std::move(hint));
            }
        }
    }
    auto const root_kind = tree.kind(answer_tree::root);
    if (!tree.shown(answer_tree::root)) {
        if (root_kind == json_kind::object || root_kind == json_kind::array) {
            tree.show_node(answer_tree::root); // `{}` or `[]`
        } else {
            tree.show_subtree(answer_tree::root, true); // a lone value has no parts to choose
        }
    }
    return report;
}

} // namespace toolgate::toolkits
