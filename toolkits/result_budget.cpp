// The budget cut (see result_budget.hpp). Lists are shortened by water-filling: the largest
// list gives up its last elements until it is no longer the largest, so several large lists
// end up cut alike, and one huge list is cut in one sweep without a heap operation per element.
#include "toolkits/result_budget.hpp"

#include "common/ascii.hpp"

#include <algorithm>
#include <map>
#include <queue>
#include <set>

namespace toolgate::toolkits {
namespace {

using index = answer_tree::index;
constexpr auto none = answer_tree::none;
/// Strings this short are never shortened; a shortened one keeps at least min_kept bytes.
constexpr std::size_t min_cut_string = 256;
constexpr std::size_t min_kept = 128;

struct list_state {
    std::vector<index> elements; ///< the shown elements before any cut, in order
    std::size_t shown = 0; ///< how many of them are still shown (a prefix)
};

using queue = std::priority_queue<std::pair<std::uint64_t, index>>;

list_state& state_of(answer_tree const& tree, index list, std::map<index, list_state>& states)
{
    auto [it, added] = states.try_emplace(list);
    if (added) {
        for (auto c = tree.first_child(list); c != none; c = tree.next_sibling(c)) {
            if (tree.shown(c)) {
                it->second.elements.push_back(c);
            }
        }
        it->second.shown = it->second.elements.size();
    }
    return it->second;
}

std::size_t shown_children(answer_tree const& tree, index n)
{
    std::size_t count = 0;
    for (auto c = tree.first_child(n); c != none; c = tree.next_sibling(c)) {
        count += tree.shown(c) ? 1 : 0;
    }
    return count;
}

/// Shortens lists, largest first, to no fewer than `keep` elements each.
void cut_lists(
    answer_tree& tree, std::size_t target, std::size_t keep, std::map<index, list_state>& states)
{
    queue largest;
    for (index n = 0; n < tree.size(); ++n) {
        if (tree.kind(n) == json_kind::array && tree.shown(n) && shown_children(tree, n) > keep) {
            largest.emplace(tree.bytes(n), n);
        }
    }
    while (tree.bytes(answer_tree::root) > target && !largest.empty()) {
        auto const [size, list] = largest.top();
        largest.pop();
        if (!tree.shown(list)) {
            continue; // inside an element already dropped
        }
        if (size != tree.bytes(list)) {
            largest.emplace(tree.bytes(list), list); // smaller since it was queued
            continue;
        }
        auto& state = state_of(tree, list, states);
        auto const next = largest.empty() ? 0 : largest.top().first;
        auto const total = tree.bytes(answer_tree::root);
        std::uint64_t dropped = 0;
        while (state.shown > keep && total - dropped > target && size - dropped >= next) {
            auto const element = state.elements[state.shown - 1];
            dropped += tree.bytes(element) + (state.shown > 1 ? 1 : 0); // and its comma
            tree.show_subtree(element, false);
            --state.shown;
        }
        tree.adjust(list, dropped);
        if (state.shown > keep) {
            largest.emplace(tree.bytes(list), list);
        }
    }
}

/// Shortens the longest strings, each to no less than min_kept bytes.
std::size_t cut_strings(answer_tree& tree, std::size_t target)
{
    queue longest;
    for (index n = 0; n < tree.size(); ++n) {
        if (tree.kind(n) == json_kind::string && tree.shown(n)
            && tree.string_content_bytes(n) > min_cut_string && !is_protected_string(tree, n)) {
            longest.emplace(tree.kept_string_bytes(n), n);
        }
    }
    std::set<index> cut;
    while (tree.bytes(answer_tree::root) > target && !longest.empty()) {
        auto const [length, s] = longest.top();
        longest.pop();
        if (!tree.shown(s) || length != tree.kept_string_bytes(s)) {
            continue;
        }
        auto const excess = tree.bytes(answer_tree::root) - target;
        auto const marker = tree.cut_marker(s, 0).size();
        auto const wanted = length > excess + marker ? length - excess - marker : 0;
        auto const next = longest.empty() ? 0 : longest.top().first;
        // Down to the next longest string first (so long strings are cut alike), but never
        // below min_kept, and by at least enough to pay for the marker.
        auto goal = std::max<std::uint64_t>({ min_kept, wanted, next });
        if (goal + marker >= length) {
            goal = std::max<std::uint64_t>(min_kept, wanted);
        }
        auto const at = tree.string_cut_point(s, goal);
        auto const before = tree.bytes(s);
        auto const after = 2 + at + tree.cut_marker(s, at).size();
        if (after >= before) {
            continue;
        }
        tree.cut_string(s, at);
        tree.adjust(s, before - after);
        cut.insert(s);
        if (at > min_kept) {
            longest.emplace(at, s);
        }
    }
    return cut.size();
}

bool ends_with_any(std::string_view text, std::initializer_list<std::string_view> endings)
{
    return std::any_of(
        endings.begin(), endings.end(), [&](std::string_view e) { return text.ends_with(e); });
}

} // namespace

bool is_protected_string(answer_tree const& tree, index n)
{
    auto named = n;
    if (!tree.is_member(n)) {
        auto const p = tree.parent(n);
        if (p == none || !tree.is_member(p)) {
            return false;
        }
        named = p;
    }
    auto const key = tree.raw_key(named);
    auto const lower = common::to_lower_ascii(key);
    return lower == "id" || ends_with_any(lower, { "_id", "_ids", "uuid", "url", "uri", "href" })
        || ends_with_any(key, { "Id", "ID", "Ids", "IDs" })
        || ends_with_any(lower, { "etag", "marker", "cursor", "next", "token", "sha" });
}

std::string value_path(answer_tree const& tree, index n)
{
    std::vector<index> chain;
    for (auto a = n; a != answer_tree::root && a != none; a = tree.parent(a)) {
        chain.push_back(a);
    }
    std::string out;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        auto const p = tree.parent(*it);
        if (tree.kind(p) == json_kind::object) {
            if (!out.empty()) {
                out += '.';
            }
            out += tree.key(*it);
            continue;
        }
        std::size_t position = 0;
        for (auto c = tree.first_child(p); c != *it; c = tree.next_sibling(c)) {
            ++position;
        }
        // Appended piece by piece: g++ 12 warns falsely (-Wrestrict) on "literal" + temporary.
        out += '[';
        out += std::to_string(position);
        out += ']';
    }
    return out;
}

cut_report fit_to_budget(answer_tree& tree, std::size_t target_bytes)
{
    cut_report report;
    if (tree.bytes(answer_tree::root) <= target_bytes) {
        return report;
    }
    std::map<index, list_state> states;
    cut_lists(tree, target_bytes, 1, states);
    if (tree.bytes(answer_tree::root) > target_bytes) {
        report.strings = cut_strings(tree, target_bytes);
    }
    if (tree.bytes(answer_tree::root) > target_bytes) {
        cut_lists(tree, target_bytes, 0, states);
    }
    report.fits = tree.bytes(answer_tree::root) <= target_bytes;
    for (auto const& [list, state] : states) {
        if (state.shown < state.elements.size() && tree.shown(list)) {
            report.lists.push_back(
                { list, value_path(tree, list), state.shown, state.elements.size() });
        }
    }
    return report;
}

} // namespace toolgate::toolkits
