// The next call after a cut list (see paging.hpp).
#include "toolkits/paging.hpp"

#include <boost/json/parse.hpp>

#include <charconv>

namespace toolgate::toolkits {
namespace {

namespace json = boost::json;
using index = answer_tree::index;
constexpr auto none = answer_tree::none;

/// The steps of the descriptor's `items` path, as `_fields` steps.
std::vector<path_step> items_steps(paging_spec const& spec)
{
    std::vector<path_step> steps;
    std::string_view rest = spec.items;
    while (!rest.empty()) {
        auto const dot = rest.find('.');
        steps.push_back({ path_step::kind::member, std::string(rest.substr(0, dot)), 0 });
        rest = dot == std::string_view::npos ? std::string_view() : rest.substr(dot + 1);
    }
    return steps;
}

/// The position of the list step right after `items` in `path`, or npos.
std::size_t list_step_of(field_path const& path, std::vector<path_step> const& items)
{
    if (path.steps.size() <= items.size()) {
        return std::string::npos;
    }
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (path.steps[i].type != path_step::kind::member || path.steps[i].name != items[i].name) {
            return std::string::npos;
        }
    }
    return path.steps[items.size()].type == path_step::kind::member ? std::string::npos
                                                                    : items.size();
}

std::size_t slice_start(call_options const& options, std::vector<path_step> const& items)
{
    if (!options.fields) {
        return 0;
    }
    for (auto const& path : *options.fields) {
        auto const at = list_step_of(path, items);
        if (at != std::string::npos && path.steps[at].type == path_step::kind::from) {
            return path.steps[at].from;
        }
    }
    return 0;
}

/// `_fields` that start the list at `from` (0: no slice), from the call's own.
std::optional<json::array> fields_from(
    call_options const& options, std::vector<path_step> const& items, std::size_t from)
{
    json::array out;
    if (!options.fields) {
        if (from == 0) {
            return std::nullopt;
        }
        auto steps = items;
        steps.push_back({ path_step::kind::from, {}, static_cast<std::uint32_t>(from) });
        out.emplace_back(path_text(steps));
        return out;
    }
    for (auto const& path : *options.fields) {
        auto steps = path.steps;
        if (auto const at = list_step_of(path, items); at != std::string::npos) {
            steps[at].type = from == 0 ? path_step::kind::every : path_step::kind::from;
            steps[at].from = static_cast<std::uint32_t>(from);
            if (from == 0 && options.fields->size() == 1 && steps.size() == items.size() + 1) {
                return std::nullopt; // only the list was asked for: the plain call again
            }
        }
        out.emplace_back(path_text(steps));
    }
    return out;
}

param_spec const* param_named(tool_spec const& tool, std::string_view name)
{
    for (auto const& p : tool.params) {
        if (p.name == name) {
            return &p;
        }
    }
    return nullptr;
}

/// A number in the type the parameter takes.
json::value typed_number(tool_spec const& tool, std::string_view name, std::uint64_t n)
{
    auto const* p = param_named(tool, name);
    if (p != nullptr && p->type == json_type::string) {
        return json::value(std::to_string(n));
    }
    return json::value(static_cast<std::int64_t>(n));
}

/// A value from the answer (its JSON text) in the type the parameter takes.
std::optional<json::value> typed_raw(
    tool_spec const& tool, std::string_view name, answer_tree const& tree, index node)
{
    auto const* p = param_named(tool, name);
    bool const wants_string = p == nullptr || p->type == json_type::string;
    if (tree.kind(node) == json_kind::string) {
        auto text = tree.string_value(node);
        if (wants_string) {
            return json::value(text);
        }
        double number = 0;
        auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
        if (ec != std::errc() || end != text.data() + text.size()) {
            return std::nullopt;
        }
        return json::parse(text);
    }
    if (tree.kind(node) == json_kind::number) {
        return wants_string ? json::value(std::string(tree.raw(node)))
                            : json::parse(tree.raw(node));
    }
    return std::nullopt;
}

std::optional<std::uint64_t> integer_argument(json::object const& args, std::string_view name)
{
    auto const* v = args.if_contains(name);
    if (v == nullptr) {
        return std::nullopt;
    }
    if (v->is_int64() && v->get_int64() >= 0) {
        return static_cast<std::uint64_t>(v->get_int64());
    }
    if (v->is_uint64()) {
        return v->get_uint64();
    }
    if (v->is_double() && v->get_double() >= 0) {
        return static_cast<std::uint64_t>(v->get_double());
    }
    if (v->is_string()) {
        std::uint64_t n = 0;
        auto const& s = v->get_string();
        auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
        if (ec == std::errc() && end == s.data() + s.size()) {
            return n;
        }
    }
    return std::nullopt;
}

bool uses(json::object const& args, paging_style const& style)
{
    if (auto const* v = args.if_contains(style.param); v && !v->is_null()) {
        return true;
    }
    if (style.with_param.empty()) {
        return false;
    }
    auto const* w = args.if_contains(style.with_param);
    return w && json::parse(style.with_value) == *w;
}

paging_style const& style_for(paging_spec const& spec, json::object const& args)
{
    for (auto const& style : spec.styles) {
        if (uses(args, style)) {
            return style;
        }
    }
    return spec.styles.front();
}

/// What one call of the list covers: its page size as asked or by default (0: unknown).
std::uint64_t page_size(paging_spec const& spec, json::object const& args)
{
    if (!spec.size_param.empty()) {
        if (auto asked = integer_argument(args, spec.size_param)) {
            return *asked;
        }
    }
    return spec.default_size;
}

struct planner {
    tool_spec const& tool;
    paging_spec const& spec;
    paging_style const& style;
    call_options const& options;
    answer_tree const& tree;
    page_state const& page;
    std::vector<path_step> items;
    next_call out;

    void set(std::string_view name, json::value value)
    {
        if (!name.empty()) {
            out.arguments[name] = std::move(value);
        }
    }

    /// The call again with the list starting at `from` (0: the whole list).
    void with_fields(std::size_t from)
    {
        out.arguments.erase("_fields");
        if (auto fields = fields_from(options, items, from)) {
            out.arguments["_fields"] = std::move(*fields);
        }
    }

    /// The same page from `from` on: opaque cursors and pages of fixed size.
    void same_page_from(std::size_t from)
    {
        with_fields(from);
        if (style.kind == paging_kind::cursor && !spec.size_param.empty()) {
            // A smaller page from the same cursor is a prefix of this one: it ends where the
            // next window ends, and its own cursor then points right after it.
            set(spec.size_param, typed_number(tool, spec.size_param, from + page.shown));
        }
    }

    bool key_after(index element)
    {
        auto const field = tree.member(element, style.answer);
        if (field == none) {
            return false;
        }
        auto value = typed_raw(tool, style.param, tree, field);
        if (!value) {
            return false;
        }
        set(style.param, std::move(*value));
        return true;
    }

    index element_at(std::size_t position) const
    {
        std::size_t i = 0;
        for (auto c = tree.first_child(page.list); c != none; c = tree.next_sibling(c), ++i) {
            if (i == position) {
                return c;
            }
        }
        return none;
    }

    void within_page();
    void after_page();
};

void planner::within_page()
{
    auto const seen = page.start + page.shown; // the first element not shown
    auto const window = std::max<std::size_t>(1, page.shown);
    switch (style.kind) {
    case paging_kind::offset: {
        auto const offset = integer_argument(out.arguments, style.param).value_or(style.first);
        set(style.param, typed_number(tool, style.param, offset + seen));
        set(spec.size_param, typed_number(tool, spec.size_param, window));
        with_fields(0);
        return;
    }
    case paging_kind::key:
        if (key_after(element_at(seen - 1))) {
            set(spec.size_param, typed_number(tool, spec.size_param, window));
            with_fields(0);
            return;
        }
        same_page_from(seen); // no key in the element: the page again from there
        return;
    case paging_kind::page: {
        auto const size = page_size(spec, out.arguments);
        if (spec.size_param.empty() || size == 0) {
            same_page_from(seen);
            return;
        }
        // The next page must start exactly at the first element not shown: a page size that
        // divides its position. With the window as size, showing `keep` <= window elements
        // makes the position a multiple of it.
        auto const number = integer_argument(out.arguments, style.param)
                                .value_or(static_cast<std::uint64_t>(style.first));
        auto const base = (number - static_cast<std::uint64_t>(style.first)) * size + page.start;
        auto const d = spec.max_size ? std::min<std::uint64_t>(window, spec.max_size) : window;
        auto const keep = d - base % d;
        out.keep = static_cast<std::size_t>(keep);
        set(style.param,
            typed_number(
                tool, style.param, (base + keep) / d + static_cast<std::uint64_t>(style.first)));
        set(spec.size_param, typed_number(tool, spec.size_param, d));
        with_fields(0);
        return;
    }
    case paging_kind::cursor:
        same_page_from(seen);
        return;
    }
}

void planner::after_page()
{
    auto const size = page_size(spec, out.arguments);
    bool const short_page = size != 0 && page.length < size;
    with_fields(0);
    switch (style.kind) {
    case paging_kind::offset: {
        auto const offset = integer_argument(out.arguments, style.param).value_or(style.first);
        set(style.param, typed_number(tool, style.param, offset + page.length));
        break;
    }
    case paging_kind::page: {
        auto const number = integer_argument(out.arguments, style.param)
                                .value_or(static_cast<std::uint64_t>(style.first));
        set(style.param, typed_number(tool, style.param, number + 1));
        break;
    }
    case paging_kind::key:
        if (page.length == 0 || !key_after(element_at(page.length - 1))) {
            out.outcome = next_call::kind::end;
        }
        break;
    case paging_kind::cursor: {
        auto const next = find_member_path(tree, style.answer);
        auto value = next == none ? std::nullopt : typed_raw(tool, style.param, tree, next);
        if (!value || (value->is_string() && value->get_string().empty())) {
            out.outcome = next_call::kind::end;
            return;
        }
        set(style.param, std::move(*value));
        if (!style.with_param.empty()) {
            set(style.with_param, json::parse(style.with_value));
        }
        set(spec.size_param,
            typed_number(tool, spec.size_param, std::max<std::size_t>(1, page.shown)));
        return;
    }
    }
    if (short_page) {
        out.outcome = next_call::kind::end;
    }
}

std::optional<std::uint64_t> total_of(answer_tree const& tree, paging_spec const& spec)
{
    if (spec.total.empty()) {
        return std::nullopt;
    }
    auto const n = find_member_path(tree, spec.total);
    if (n == none || tree.kind(n) != json_kind::number) {
        return std::nullopt;
    }
    std::uint64_t total = 0;
    auto const raw = tree.raw(n);
    auto [end, ec] = std::from_chars(raw.data(), raw.data() + raw.size(), total);
    return ec == std::errc() && end == raw.data() + raw.size() ? std::optional(total)
                                                               : std::nullopt;
}

} // namespace

answer_tree::index find_member_path(answer_tree const& tree, std::string_view dotted)
{
    index n = answer_tree::root;
    while (!dotted.empty() && n != none) {
        auto const dot = dotted.find('.');
        n = tree.member(n, dotted.substr(0, dot));
        dotted = dot == std::string_view::npos ? std::string_view() : dotted.substr(dot + 1);
    }
    return n;
}

std::optional<page_state> page_of(
    answer_tree const& tree, paging_spec const& spec, call_options const& options)
{
    auto const list = find_member_path(tree, spec.items);
    if (list == none || tree.kind(list) != json_kind::array || !tree.shown(list)) {
        return std::nullopt;
    }
    page_state page;
    page.list = list;
    page.length = tree.child_count(list);
    page.start = std::min(slice_start(options, items_steps(spec)), page.length);
    for (auto c = tree.first_child(list); c != none; c = tree.next_sibling(c)) {
        page.shown += tree.shown(c) ? 1 : 0;
    }
    return page;
}

next_call plan_next_call(tool_spec const& tool, paging_spec const& spec,
    json::object const& arguments, call_options const& options, answer_tree const& tree,
    page_state const& page)
{
    planner p { tool, spec, style_for(spec, arguments), options, tree, page, items_steps(spec),
        {} };
    p.out.arguments = arguments;
    for (auto const& [name, value] : options.given) {
        p.out.arguments[name] = value;
    }
    p.out.total = total_of(tree, spec);
    p.out.keep = page.shown;
    if (page.shown == 0 && page.start < page.length) {
        p.out.outcome = next_call::kind::stuck;
        return std::move(p.out);
    }
    if (page.start + page.shown < page.length) {
        p.within_page();
    } else {
        p.after_page();
    }
    return std::move(p.out);
}

} // namespace toolgate::toolkits
