// The budget cut: an answer over its budget is made to fit with its shape kept. The largest
// lists lose elements from their ends (whole elements, at least one kept), then the longest
// strings are shortened with a visible marker, then, only if still needed, lists may go empty.
// Keys, numbers, literals and id-like strings are never changed. Deterministic: the same
// answer and budget give the same cut.
#pragma once

#include "toolkits/answer_tree.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace toolgate::toolkits {

struct cut_list {
    answer_tree::index node = answer_tree::none;
    std::string path; ///< e.g. `entries`, `entries[0].tags`; "" for a top-level list
    std::size_t shown = 0; ///< elements left
    std::size_t of = 0; ///< elements shown before the cut
};

struct cut_report {
    std::vector<cut_list> lists; ///< shortened lists, outermost first
    std::size_t strings = 0; ///< strings shortened
    /// False when even the bare structure (keys, numbers, empty lists) is over the target:
    /// the caller then cuts the text itself.
    bool fits = true;

    bool cut() const { return !lists.empty() || strings > 0; }
};

/// Cuts what `tree` shows until serialize() is at most `target_bytes` long. The tree's sizes
/// must be current (fresh from parse(), or measure() after a projection).
cut_report fit_to_budget(answer_tree& tree, std::size_t target_bytes);

/// Where `n` is: `entries`, `item_collection.entries`, `[0].labels`; "" for the answer itself.
std::string value_path(answer_tree const& tree, answer_tree::index n);

/// Whether a string is never shortened: ids, links, cursors and the like, by their member
/// name (or the name of the list holding them).
bool is_protected_string(answer_tree const& tree, answer_tree::index n);

} // namespace toolgate::toolkits
