// Result shaping for the model (see result_limits.hpp): which path an answer takes (untouched,
// JSON outline, plain text, binary), and the loop that leaves room for the note.
#include "toolkits/result_limits.hpp"

#include "common/ascii.hpp"
#include "common/json_scan.hpp"
#include "toolkits/answer_tree.hpp"
#include "toolkits/paging.hpp"
#include "toolkits/result_budget.hpp"
#include "toolkits/result_note.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/parse_options.hpp>
#include <boost/json/serialize.hpp>
#include <fmt/format.h>

namespace toolgate::toolkits {
namespace {

namespace json = boost::json;
using protocol::call_result;
using protocol::content_block;
using index = answer_tree::index;
constexpr auto none = answer_tree::none;

/// Room kept for the note when cutting; the loop below cuts further if the note needs more.
std::size_t note_room(std::uint64_t budget_bytes)
{
    return static_cast<std::size_t>(std::min<std::uint64_t>(budget_bytes / 4, 1024));
}

std::optional<json::value> parse_value(std::string_view text)
{
    json::parse_options options;
    options.max_depth = answer_tree::max_depth;
    boost::system::error_code ec;
    auto value = json::parse(text, ec, {}, options);
    if (ec) {
        return std::nullopt;
    }
    return value;
}

/// The cap that applies to a call's `_max_tokens` (0: none).
std::uint64_t cap_of(result_options const& settings)
{
    return settings.max_result_tokens_cap == 0
        ? 0
        : std::max(settings.max_result_tokens_cap, settings.max_result_tokens);
}

std::string url_of(shaped_call const& call)
{
    return call.tool == nullptr
        ? std::string()
        : fmt::format(" ({} {})", call.tool->http.method, call.tool->http.url);
}

/// A binary block over the budget becomes a text naming its type and size and how to get it.
content_block binary_notice(content_block const& block, call_budget const& budget,
    std::uint64_t cap, shaped_call const& call)
{
    auto const bytes = block.text.size() / 4 * 3;
    auto const needed = (block.text.size() + bytes_per_token - 1) / bytes_per_token;
    auto text = fmt::format("[toolgate] The platform answered with {} data of about {} bytes "
                            "(about {} tokens as base64), over this call's budget of {} tokens, "
                            "so it is not included.",
        block.mime_type, grouped(bytes), grouped(needed), grouped(budget.tokens));
    if (cap == 0 || needed <= cap) {
        text += fmt::format(" To receive it, call again with `_max_tokens` {}.", needed);
    } else {
        text += fmt::format(" It is larger than this server returns (at most {} tokens): fetch it "
                            "from the platform directly{}.",
            grouped(cap), url_of(call));
    }
    return { content_block::kind::text, std::move(text), {}, {} };
}

/// `text` cut to at most `limit` bytes, at a UTF-8 character boundary.
std::string cut_text(std::string_view text, std::size_t limit)
{
    auto end = std::min(limit, text.size());
    while (end > 0 && end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) {
        --end;
    }
    return std::string(text.substr(0, end));
}

bool has_any(std::string_view text, std::initializer_list<std::string_view> parts)
{
    auto const lower = common::to_lower_ascii(text);
    return std::any_of(parts.begin(), parts.end(),
        [&](std::string_view p) { return lower.find(p) != std::string::npos; });
}

/// The tool's own parameters that narrow an answer (fields, filters, queries).
std::vector<std::string> own_narrowing(tool_spec const* tool)
{
    std::vector<std::string> out;
    if (tool == nullptr) {
        return out;
    }
    for (auto const& p : tool->params) {
        if (p.in == param_location::query && out.size() < 4
            && has_any(p.wire_name, { "field", "filter", "query", "search", "where", "select" })) {
            out.emplace_back(p.name);
        }
    }
    return out;
}

/// Two paths worth keeping: an id and a name of the list's first element, or the answer's first
/// two members.
std::string fields_example(answer_tree const& tree, index list, std::string const& list_path)
{
    std::vector<std::string> keys;
    auto const sample = list == none ? answer_tree::root : tree.first_child(list);
    if (sample == none || tree.kind(sample) != json_kind::object) {
        return "";
    }
    auto pick = [&](auto&& wanted) {
        for (auto c = tree.first_child(sample); c != none && keys.size() < 2;
             c = tree.next_sibling(c)) {
            auto key = tree.key(c);
            if (wanted(key) && std::find(keys.begin(), keys.end(), key) == keys.end()) {
                keys.push_back(std::move(key));
            }
        }
    };
    pick([](std::string const& k) {
        return k == "id" || k == "ID" || k == "Id" || k.ends_with("ID");
    });
    pick([](std::string const& k) {
        return k == "name" || k == "title" || k == "subject" || k == "Name"
            || k.ends_with("Number");
    });
    pick([](std::string const&) { return true; });
    json::array paths;
    for (auto const& k : keys) {
        std::string path = list == none ? std::string() : list_path + "[].";
        path += k;
        paths.emplace_back(path);
    }
    return json::serialize(paths);
}

std::vector<std::string> members_of(answer_tree const& tree)
{
    std::vector<std::string> out;
    if (tree.kind(answer_tree::root) != json_kind::object) {
        return out;
    }
    for (auto c = tree.first_child(answer_tree::root); c != none && out.size() < 12;
         c = tree.next_sibling(c)) {
        out.push_back(tree.key(c));
    }
    return out;
}

/// A `_fields` example from the paged list, else the outermost list that was cut, else the
/// answer's members.
std::string example_for(answer_tree const& tree, note_facts const& facts, cut_report const& cut)
{
    auto list = facts.page ? facts.page->list : none;
    auto path = facts.list_path;
    for (auto const& c : cut.lists) {
        if (list == none && c.path.find('[') == std::string::npos) {
            list = c.node;
            path = c.path;
        }
    }
    return fields_example(tree, list, path);
}

/// Hides the page's shown elements past `keep` (the next page starts right after them).
void keep_first(answer_tree& tree, page_state const& page, std::size_t keep)
{
    std::size_t shown = 0;
    for (auto c = tree.first_child(page.list); c != none; c = tree.next_sibling(c)) {
        if (tree.shown(c) && ++shown > keep) {
            tree.show_subtree(c, false);
        }
    }
    tree.measure();
}

std::string list_path_of(paging_spec const* spec)
{
    return spec == nullptr ? std::string() : std::string(spec->items);
}

call_result finish_json(
    call_result result, std::string shown, std::string note, std::optional<json::object> meta)
{
    result.structured.reset();
    if (shown.size() <= structured_parse_limit) {
        result.structured = parse_value(shown);
    }
    result.content.front().text = std::move(shown);
    if (!note.empty()) {
        result.content.push_back({ content_block::kind::text, std::move(note), {}, {} });
    }
    if (meta) {
        if (!result.meta) {
            result.meta.emplace();
        }
        (*result.meta)[truncated_meta_key] = std::move(*meta);
    }
    return result;
}

call_result limit_json(
    call_result result, answer_tree& tree, note_facts& facts, shaped_call const& call)
{
    auto const* spec = call.tool != nullptr ? call.tool->paging : nullptr;
    call_options const no_options;
    auto const& options = call.options != nullptr ? *call.options : no_options;
    projection_report projection;
    if (options.fields) {
        projection = project(tree, *options.fields);
        tree.measure();
        facts.projection = &projection;
        facts.members
            = projection.unmatched.empty() ? std::vector<std::string>() : members_of(tree);
    }
    facts.list_path = list_path_of(spec);
    auto const budget = facts.budget.bytes();
    auto target = budget == 0 ? std::numeric_limits<std::size_t>::max()
                              : static_cast<std::size_t>(budget) - note_room(budget);
    cut_report cut;
    std::optional<next_call> next;
    std::string shown;
    std::string note;
    for (int attempt = 0; attempt < 4; ++attempt) {
        cut = fit_to_budget(tree, target);
        facts.cut = &cut;
        facts.page.reset();
        facts.next = nullptr;
        next.reset();
        if (auto page = spec ? page_of(tree, *spec, options) : std::nullopt;
            page && (page->start > 0 || page->start + page->shown < page->length)) {
            next = plan_next_call(*call.tool, *spec, *call.arguments, options, tree, *page);
            if (next->keep < page->shown && next->outcome == next_call::kind::more) {
                keep_first(tree, *page, next->keep);
            }
            facts.page = page;
            facts.next = &*next;
        }
        if (facts.fields_example.empty()) {
            facts.fields_example = example_for(tree, facts, cut);
        }
        shown = cut.fits ? tree.serialize() : cut_text(tree.serialize(), target);
        facts.shown_bytes = shown.size();
        note = note_text(facts);
        if (budget == 0 || shown.size() + note.size() <= budget || target < 64) {
            break;
        }
        target -= std::min(target, shown.size() + note.size() - budget);
    }
    std::optional<json::object> meta;
    if (cut.cut() || !cut.fits) {
        meta = truncated_meta(facts);
    }
    if (!cut.fits) {
        // Not complete JSON any more: text, without a structured value.
        result.json_answer = false;
        result.content.front().type = content_block::kind::text;
        auto out
            = finish_json(std::move(result), std::move(shown), std::move(note), std::move(meta));
        out.structured.reset();
        return out;
    }
    return finish_json(std::move(result), std::move(shown), std::move(note), std::move(meta));
}

call_result limit_text(call_result result, note_facts& facts)
{
    auto const& text = result.content.front().text;
    facts.text_answer = true;
    auto const budget = static_cast<std::size_t>(facts.budget.bytes());
    facts.shown_bytes = std::min(text.size(), budget);
    std::string note;
    std::string shown;
    for (int attempt = 0; attempt < 3; ++attempt) {
        note = note_text(facts);
        shown = cut_text(text, budget > note.size() ? budget - note.size() : 0);
        if (shown.size() == facts.shown_bytes) {
            break;
        }
        facts.shown_bytes = shown.size();
    }
    auto meta = truncated_meta(facts);
    result.content.front().text = std::move(shown);
    result.content.push_back({ content_block::kind::text, std::move(note), {}, {} });
    result.meta.emplace();
    (*result.meta)[truncated_meta_key] = std::move(meta);
    return result;
}

} // namespace

call_budget budget_for(result_options const& options, std::optional<std::uint64_t> asked)
{
    call_budget budget;
    budget.tokens = options.max_result_tokens;
    if (!asked) {
        return budget;
    }
    budget.asked = *asked;
    budget.tokens = *asked;
    auto const cap = options.max_result_tokens_cap == 0
        ? 0
        : std::max(options.max_result_tokens_cap, options.max_result_tokens);
    if (cap != 0 && *asked > cap) {
        budget.tokens = cap;
        budget.capped = true;
    }
    return budget;
}

call_result limit_result(
    call_result result, result_options const& settings, shaped_call const& call)
{
    if (result.is_error) {
        return result;
    }
    auto const* options = call.options;
    auto const budget = budget_for(settings, options ? options->max_tokens : std::nullopt);
    bool const projected = options != nullptr && options->fields.has_value();
    for (auto& block : result.content) {
        if (block.type != content_block::kind::text && budget.tokens != 0
            && block.text.size() > budget.bytes()) {
            block = binary_notice(block, budget, cap_of(settings), call);
        }
    }
    if (result.content.size() != 1 || result.content.front().type != content_block::kind::text) {
        return result;
    }
    auto const& text = result.content.front().text;
    bool const over = budget.tokens != 0 && text.size() > budget.bytes();
    bool const json_text = result.json_answer || result.structured.has_value();
    if (!over && !projected) {
        // Untouched. A JSON answer the shaper left as it came (larger than the server's budget)
        // is minified, and parsed when small enough, once this call's budget lets it through.
        if (result.json_answer && !result.structured) {
            auto& block = result.content.front().text;
            block = common::minify_json(block);
            if (block.size() <= structured_parse_limit) {
                result.structured = parse_value(block);
            }
        }
        return result;
    }
    note_facts facts;
    facts.budget = budget;
    facts.cap = cap_of(settings);
    facts.answer_bytes = text.size();
    facts.own_narrowing = own_narrowing(call.tool);
    std::optional<answer_tree> tree;
    if (json_text) {
        tree = answer_tree::parse(text);
    }
    if (tree) {
        return limit_json(std::move(result), *tree, facts, call);
    }
    if (!over) {
        // `_fields` chooses parts of JSON; a text answer is returned as it is.
        result.content.push_back({ content_block::kind::text,
            "[toolgate] `_fields` applies to JSON answers; this one is plain text, shown whole.",
            {}, {} });
        return result;
    }
    return limit_text(std::move(result), facts);
}

} // namespace toolgate::toolkits
