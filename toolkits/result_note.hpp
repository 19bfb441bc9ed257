// The note that follows a cut or projected answer: in words the model reads (what was cut, how
// to get the rest: the next call's exact arguments, or the narrowing that exists), and the same
// facts for `_meta["io.toolgate/truncated"]`.
#pragma once

#include "toolkits/paging.hpp"
#include "toolkits/result_budget.hpp"
#include "toolkits/result_options.hpp"
#include "toolkits/result_projection.hpp"

#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <vector>

namespace toolgate::toolkits {

inline constexpr std::string_view truncated_meta_key = "io.toolgate/truncated";

struct note_facts {
    call_budget budget;
    std::uint64_t cap = 0; ///< the largest budget a call may ask for (0: none)
    std::size_t answer_bytes = 0; ///< the platform's answer, as text
    std::size_t shown_bytes = 0; ///< what is shown of it
    cut_report const* cut = nullptr; ///< nullptr or nothing cut: the answer is whole
    projection_report const* projection = nullptr; ///< `_fields` was given
    std::optional<page_state> page; ///< where the cut list stands, for list tools
    std::string list_path; ///< the page's list as `_fields` writes it (`entries`, `[]`)
    next_call const* next = nullptr; ///< the call that continues the list, when one is known
    bool text_answer = false; ///< plain text, cut at a character boundary
    std::vector<std::string> members; ///< the answer's top-level members (empty projections)
    std::vector<std::string> own_narrowing; ///< the tool's own field and filter parameters
    std::string fields_example; ///< e.g. ["entries[].id","entries[].name"]
};

/// The note's text; "" when there is nothing to say.
std::string note_text(note_facts const& facts);

/// `_meta["io.toolgate/truncated"]` for a cut answer.
boost::json::object truncated_meta(note_facts const& facts);

/// `n` with thousands separated by commas (8,000).
std::string grouped(std::uint64_t n);

} // namespace toolgate::toolkits
