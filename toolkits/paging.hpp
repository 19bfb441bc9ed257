// The call after a cut list: from a list tool's paging descriptor (tool_spec.hpp), the call's
// arguments and what the cut answer shows, the arguments of the call that starts with the
// first element not shown. Per style:
// - offset: the offset moves past what was shown, and the page size becomes what fitted;
// - page with a size argument: page size and number are chosen so that a page starts exactly
//   at the first element not shown (the shown part may end a little earlier to allow it);
// - key (before/after/until/since): the last shown element's key, and the size that fitted;
// - cursor, or a page of fixed size: the same page again, with `_fields` starting the list at
//   the first element not shown (`entries[37:]`), and for cursors a page that ends where the
//   next window ends; once a page is seen to its end, the platform's own next cursor or page.
#pragma once

#include "toolkits/answer_tree.hpp"
#include "toolkits/call_options.hpp"
#include "toolkits/tool_spec.hpp"

#include <boost/json/object.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace toolgate::toolkits {

/// Where a cut answer stands in its page.
struct page_state {
    answer_tree::index list = answer_tree::none; ///< the page's element list
    std::size_t length = 0; ///< elements the platform sent on this page
    std::size_t start = 0; ///< the first element asked for (`_fields` with `[N:]`)
    std::size_t shown = 0; ///< elements shown from `start` on
};

/// The page's list as the tree now shows it; nullopt when the answer has no list where the
/// descriptor says, or when `_fields` left it out.
std::optional<page_state> page_of(
    answer_tree const& tree, paging_spec const& spec, call_options const& options);

struct next_call {
    enum class kind : std::uint8_t {
        more, ///< `arguments` continue the list
        end, ///< every element of the list has been shown
        stuck, ///< not one element fits: narrow the answer or raise the budget
    };
    kind outcome = kind::more;
    /// The next call's complete arguments (the call's own, paging moved, `_fields` and
    /// `_max_tokens` as needed).
    boost::json::object arguments;
    /// Elements of the page to show (from `start`): may be fewer than fitted, so that the next
    /// page starts exactly after them.
    std::size_t keep = 0;
    std::optional<std::uint64_t> total; ///< the list's total, where the answer gives it
};

/// What to call next. `arguments` are the call's validated arguments without the reserved
/// ones; `options` its reserved ones. Call only when the list was cut or started past 0.
next_call plan_next_call(tool_spec const& tool, paging_spec const& spec,
    boost::json::object const& arguments, call_options const& options, answer_tree const& tree,
    page_state const& page);

/// The value at a dotted member path (`pagination.next`), or none.
answer_tree::index find_member_path(answer_tree const& tree, std::string_view dotted);

} // namespace toolgate::toolkits
