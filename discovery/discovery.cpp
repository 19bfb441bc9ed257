// The discovery meta-tools (see discovery.hpp).
#include "discovery/discovery.hpp"

#include "common/ascii.hpp"
#include "common/result.hpp"
#include "common/split_list.hpp"
#include "common/tool_names.hpp"
#include "protocol/suggest.hpp"
#include "protocol/text.hpp"
#include "protocol/tool_pages.hpp"
#include "toolkits/reserved_arguments.hpp"
#include "toolkits/result_limits.hpp"
#include "toolkits/tool_error.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>

namespace toolgate::discovery {
namespace {

namespace json = boost::json;
using protocol::call_result;
using protocol::tool_descriptor;
using toolkits::limit_result;
using toolkits::reserved_argument;
using toolkits::reserved_arguments;

constexpr std::size_t default_limit = 10;
constexpr std::size_t max_limit = 50;
constexpr std::size_t max_described = 20;
/// Unknown names of one call that get did-you-mean suggestions: each costs a pass over the
/// catalogue, and twenty of them in each of a batch's 64 calls took seconds of CPU (security
/// review 3, item 6). A model fixes its first misspellings and asks again.
constexpr std::size_t max_suggested = 3;
constexpr std::size_t max_query = 500;

tool_descriptor meta_tool(std::string_view name, std::string title, std::string description,
    std::string schema, bool read_only)
{
    tool_descriptor d;
    d.name = std::string(name);
    d.dotted_name = std::string(name);
    // The schema: compact, and checked at start-up.
    d.own_texts(std::move(title), std::move(description), json::serialize(json::parse(schema)));
    d.hints.read_only = read_only;
    d.hints.destructive = !read_only;
    d.hints.idempotent = read_only;
    d.hints.open_world = !read_only;
    return d;
}

std::vector<tool_descriptor> meta_tools()
{
    std::vector<tool_descriptor> out;
    out.push_back(meta_tool(search_tools_name, "Search the tools",
        "Find the tools for a task among everything this server offers, by describing the task "
        "in plain words (e.g. \"archive a card\", \"unpaid invoices of a customer\"). Returns "
        "the best matches first: each tool's name, what it does, its required arguments and "
        "whether it only reads. Then call one with toolgate_call_tool (or by its name), after "
        "toolgate_describe_tools when you need all of its arguments.",
        R"({"type":"object","properties":{
            "query":{"type":"string","minLength":1,"maxLength":500,
                     "description":"What you want to do, in plain words."},
            "toolkit":{"type":"string",
                       "description":"Only tools of this toolkit (e.g. KanbanApi); several may be given, comma-separated."},
            "read_only_only":{"type":"boolean",
                              "description":"Only tools that read and change nothing."},
            "limit":{"type":"integer","minimum":1,"maximum":50,
                     "description":"How many matches to return (default 10)."}},
            "required":["query"],"additionalProperties":false})",
        true));
    out.push_back(meta_tool(describe_tools_name, "Describe tools",
        "The full definitions of tools by name: what each does, every argument with its type, "
        "format and meaning (its inputSchema), and whether it changes data. Use it on tools "
        "found with toolgate_search_tools before calling one whose arguments you do not know.",
        R"({"type":"object","properties":{
            "names":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":20,
                     "description":"Tool names as toolgate_search_tools gives them (either Toolkit_Tool or Toolkit.Tool)."}},
            "required":["names"],"additionalProperties":false})",
        true));
    out.push_back(meta_tool(call_tool_name, "Call a tool by name",
        "Call any tool of this server by its name with its arguments. The answer is exactly "
        "what calling that tool directly gives: its result, or an error saying what was wrong.",
        R"({"type":"object","properties":{
            "name":{"type":"string","minLength":1,
                    "description":"The tool's name, as toolgate_search_tools gives it."},
            "arguments":{"type":"object",
                         "description":"The tool's arguments, as its inputSchema (toolgate_describe_tools) describes them."}},
            "required":["name"],"additionalProperties":false})",
        false));
    // The reserved arguments of every tool, without their underscore.
    auto& call_tool = out.back();
    auto schema = json::parse(call_tool.input_schema);
    auto& properties = schema.as_object()["properties"].as_object();
    for (auto const& reserved : reserved_arguments) {
        properties[reserved.call_tool_name] = json::parse(reserved.schema);
    }
    call_tool.own_texts(
        std::string(call_tool.title), std::string(call_tool.description), json::serialize(schema));
    return out;
}

/// What the model is told about a toolkit whose sign-in its caller lacks.
std::string sign_in_note(std::string_view toolkit)
{
    return fmt::format("The user has not connected a {} account yet: a call to this tool first "
                       "asks them to, through a link their client shows; once they have, the "
                       "call can go through.",
        toolkit);
}

reserved_argument const* reserved_for_call_tool(std::string_view name)
{
    for (auto const& reserved : reserved_arguments) {
        if (reserved.call_tool_name == name) {
            return &reserved;
        }
    }
    return nullptr;
}

/// toolgate_call_tool's arguments checked (`name` present, nothing unknown) and the called
/// tool's own: `arguments` (an object, or JSON text of one), with `fields`, `max_tokens` and
/// `dry_run` as its `_fields`, `_max_tokens` and `_dry_run` (they win over the same given inside
/// `arguments`).
toolkits::tool_result<json::object> call_tool_arguments(json::object const& arguments)
{
    for (auto const& [key, value] : arguments) {
        if (key != "name" && key != "arguments" && reserved_for_call_tool(key) == nullptr) {
            return toolkits::refuse(fmt::format(
                "unknown argument `{}`: toolgate_call_tool takes `name`, `arguments`, `fields`, "
                "`max_tokens` and `dry_run`",
                protocol::clipped(key)));
        }
    }
    auto const* name = arguments.if_contains("name");
    if (!name || !name->is_string() || name->get_string().empty()) {
        return toolkits::refuse("argument `name`: the tool to call is required");
    }
    json::object inner;
    if (auto const* a = arguments.if_contains("arguments"); a && !a->is_null()) {
        boost::system::error_code ec;
        // Some models send the arguments as JSON text; take it when it is an object.
        auto parsed = a->is_string() ? json::parse(a->get_string(), ec) : *a;
        if (ec || !parsed.is_object()) {
            return toolkits::refuse(
                "argument `arguments`: expected an object with the tool's arguments");
        }
        inner = std::move(parsed.get_object());
    }
    for (auto const& [key, value] : arguments) {
        if (auto const* reserved = reserved_for_call_tool(key)) {
            inner[reserved->name] = value;
        }
    }
    return inner;
}

/// A tool's toolkit; empty for the meta-tools (common::toolkit_of).
std::string toolkit_of(tool_descriptor const& tool)
{
    return std::string(common::toolkit_of(tool.dotted_name));
}

/// The description's first sentence (or its first 200 characters): what a search hit shows.
std::string summary_of(std::string_view description)
{
    std::size_t end = description.size();
    for (std::size_t i = 0; i + 1 < description.size(); ++i) {
        if (description[i] == '.' && description[i + 1] == ' ') {
            end = i + 1;
            break;
        }
    }
    if (end > 200) {
        end = 200;
        while (end > 0 && (static_cast<unsigned char>(description[end]) & 0xC0) == 0x80) {
            --end;
        }
        return std::string(description.substr(0, end)) + "\u2026";
    }
    return std::string(description.substr(0, end));
}

std::vector<std::string> required_of(tool_descriptor const& tool)
{
    std::vector<std::string> out;
    auto const schema = json::parse(tool.input_schema);
    if (auto const* r = schema.as_object().if_contains("required")) {
        for (auto const& name : r->as_array()) {
            out.emplace_back(name.as_string());
        }
    }
    return out;
}

call_result json_answer(json::object answer)
{
    auto r = call_result::text(json::serialize(answer));
    r.structured = json::value(std::move(answer));
    return r;
}

/// An unknown name as describe_tools reports it, with close names when `suggest`.
json::object unknown_name(
    std::string_view name, std::span<const std::string_view> candidates, bool suggest)
{
    json::object miss;
    miss["name"] = protocol::clipped(name);
    if (suggest) {
        json::array close;
        for (auto& s : protocol::suggest_names(name, candidates)) {
            close.emplace_back(s);
        }
        if (!close.empty()) {
            miss["did_you_mean"] = std::move(close);
        }
    }
    return miss;
}

std::string shown_name(tool_descriptor const& tool, call_context const& context)
{
    auto const* view = context.view();
    bool const dotted = view && view->naming == protocol::tool_naming::dotted;
    return dotted ? tool.dotted_name : tool.name;
}

/// What toolgate_search_tools was asked.
struct search_request {
    std::string_view query; ///< points into the arguments
    std::size_t limit = default_limit;
    bool read_only = false;
    std::set<std::string> toolkits; ///< served names, as spelled here; empty: all
};

/// The `toolkit` filter: served toolkits named in a comma list (any letter case), or the
/// problem naming one that is not served.
common::checked<std::set<std::string>> wanted_toolkits(
    std::string_view list, std::vector<std::string> const& served)
{
    std::set<std::string> wanted;
    for (auto const& item : common::split_list(list)) {
        auto known = std::find_if(served.begin(), served.end(),
            [&](auto const& k) { return common::iequals_ascii(k, item); });
        if (known == served.end()) {
            return common::problem_of(
                fmt::format("argument `toolkit`: `{}` is not served here; served: {}",
                    protocol::clipped(item), fmt::join(served, ", ")));
        }
        wanted.insert(*known);
    }
    return wanted;
}

/// toolgate_search_tools' arguments, or the problem naming the one that is wrong.
common::checked<search_request> search_request_of(
    json::object const& arguments, std::vector<std::string> const& served)
{
    search_request request;
    auto const* query = arguments.if_contains("query");
    if (!query || !query->is_string() || query->get_string().empty()) {
        return common::problem_of("argument `query`: a non-empty string is required (what you "
                                  "want to do, in plain words)");
    }
    if (query->get_string().size() > max_query) {
        return common::problem_of(
            fmt::format("argument `query`: at most {} characters", max_query));
    }
    request.query = query->get_string();
    if (auto const* l = arguments.if_contains("limit"); l && !l->is_null()) {
        if (!l->is_int64() || l->get_int64() < 1 || l->get_int64() > std::int64_t(max_limit)) {
            return common::problem_of(
                fmt::format("argument `limit`: expected an integer from 1 to {}", max_limit));
        }
        request.limit = static_cast<std::size_t>(l->get_int64());
    }
    if (auto const* r = arguments.if_contains("read_only_only"); r && !r->is_null()) {
        if (!r->is_bool()) {
            return common::problem_of("argument `read_only_only`: expected true or false");
        }
        request.read_only = r->get_bool();
    }
    if (auto const* t = arguments.if_contains("toolkit"); t && !t->is_null()) {
        if (!t->is_string()) {
            return common::problem_of("argument `toolkit`: expected a toolkit name");
        }
        auto kits = wanted_toolkits(t->get_string(), served);
        if (!kits) {
            return kits.error();
        }
        request.toolkits = std::move(*kits);
    }
    return request;
}

/// One search hit as the model reads it: name, summary, required arguments, hints.
json::object listed_hit(tool_descriptor const& tool, call_context const& context)
{
    json::object item;
    item["name"] = shown_name(tool, context);
    item["summary"] = summary_of(tool.description);
    json::array required;
    for (auto& r : required_of(tool)) {
        required.emplace_back(r);
    }
    item["required"] = std::move(required);
    item["read_only"] = tool.hints.read_only;
    item["destructive"] = tool.hints.destructive;
    if (auto const kit = toolkit_of(tool); context.lacks_sign_in(kit)) {
        item["sign_in_needed"] = sign_in_note(kit);
    }
    return item;
}

/// The search's answer: the hits and what to do next, or a hint when nothing matched.
json::object search_answer(std::string_view query, json::array found)
{
    json::object answer;
    answer["query"] = query;
    if (found.empty()) {
        answer["tools"] = json::array();
        answer["hint"]
            = "No tool matched these words. Try fewer or plainer words naming the thing and the "
              "action (\"invoice list\", \"delete card\"), drop the toolkit or read_only_only "
              "filters, or check the spelling.";
    } else {
        answer["tools"] = std::move(found);
        answer["next"] = "Call one with toolgate_call_tool {\"name\": ..., \"arguments\": {...}}; "
                         "toolgate_describe_tools gives a tool's full arguments.";
    }
    return answer;
}

} // namespace

std::vector<search_entry> search_entries(catalogue_provider const& provider)
{
    std::vector<search_entry> out;
    for (auto const& tool : provider.tools()) {
        search_entry e;
        e.title = tool.title;
        e.description = tool.description;
        if (auto ref = provider.spec_of(tool)) {
            e.name = std::string(ref->tool->name);
            for (auto const& p : ref->tool->params) {
                e.params.append(p.name).append(" ").append(p.description).append(" ");
            }
            e.group = std::string(ref->toolkit->name);
            e.platform
                = std::string(ref->toolkit->name) + " " + std::string(ref->toolkit->platform);
        } else {
            e.name = tool.name;
        }
        out.push_back(std::move(e));
    }
    return out;
}

std::vector<search_entry> search_entries(std::span<const tool_descriptor> tools)
{
    std::vector<search_entry> out;
    for (auto const& tool : tools) {
        out.push_back({ tool.name, std::string(tool.title), std::string(tool.description), {},
            toolkit_of(tool), {} });
    }
    return out;
}

discovery_provider::discovery_provider(
    tool_provider& inner, std::vector<search_entry> entries, toolkits::result_options results)
    : discovery_provider(
        inner, [texts = std::move(entries)]() mutable { return std::move(texts); }, results)
{
}

discovery_provider::discovery_provider(
    tool_provider& inner, search_texts texts, toolkits::result_options results)
    : inner_(inner)
    , inner_count_(inner.tools().size())
    , index_(std::make_unique<index_builder>(std::move(texts)))
    , results_(results)
{
    tools_.assign(inner.tools().begin(), inner.tools().end());
    for (auto& meta : meta_tools()) {
        tools_.push_back(std::move(meta));
    }
    std::set<std::string> kits;
    for (std::size_t i = 0; i < tools_.size(); ++i) {
        by_name_.emplace(tools_[i].name, i);
        by_name_.emplace(tools_[i].dotted_name, i);
        if (i < inner_count_) {
            if (auto kit = toolkit_of(tools_[i]); !kit.empty()) {
                kits.insert(kit);
            }
        }
    }
    toolkits_.assign(kits.begin(), kits.end());
}

tool_descriptor const* discovery_provider::find(std::string_view name) const
{
    auto it = by_name_.find(name);
    return it == by_name_.end() ? nullptr : &tools_[it->second];
}

bool discovery_provider::visible(std::size_t position, call_context const& context) const
{
    auto const* view = context.view();
    return view == nullptr || view->allows(position);
}

std::vector<search_index::hit> discovery_provider::search(
    std::string_view query, std::function<bool(std::size_t)> const& keep, std::size_t limit) const
{
    return index_->index().search(query, keep, limit);
}

call_result discovery_provider::search_tools(
    json::object const& arguments, call_context const& context) const
{
    auto request = search_request_of(arguments, toolkits_);
    if (!request) {
        return call_result::error(std::move(request.error().message));
    }
    auto const& wanted_kits = request->toolkits;
    auto const keep = [&](std::size_t position) {
        if (position >= inner_count_ || !visible(position, context)) {
            return false;
        }
        auto const& tool = tools_[position];
        if (request->read_only && !tool.hints.read_only) {
            return false;
        }
        return wanted_kits.empty() || wanted_kits.contains(toolkit_of(tool));
    };
    auto const hits = index_->index().search(request->query, keep, request->limit);
    json::array found;
    for (auto const& h : hits) {
        found.push_back(listed_hit(tools_[h.position], context));
    }
    return json_answer(search_answer(request->query, std::move(found)));
}

call_result discovery_provider::describe_tools(
    json::object const& arguments, call_context const& context) const
{
    auto const* names = arguments.if_contains("names");
    if (names && names->is_string()) {
        // A single name is taken as a list of one: models often do that.
    } else if (!names || !names->is_array() || names->get_array().empty()) {
        return call_result::error("argument `names`: a list of one or more tool names is required");
    }
    std::vector<std::string_view> wanted;
    if (names->is_string()) {
        wanted.push_back(names->get_string());
    } else {
        for (auto const& n : names->get_array()) {
            if (!n.is_string()) {
                return call_result::error("argument `names`: every item must be a tool name");
            }
            wanted.push_back(n.get_string());
        }
    }
    if (wanted.size() > max_described) {
        return call_result::error(
            fmt::format("argument `names`: at most {} tools at a time", max_described));
    }
    auto const variant = protocol::list_variant_for(context.protocol_version());
    auto const naming = context.view() ? context.view()->naming : protocol::tool_naming::wire;
    std::vector<std::string_view> candidates;
    for (std::size_t i = 0; i < inner_count_; ++i) {
        if (visible(i, context)) {
            candidates.push_back(tools_[i].name);
        }
    }
    json::array described;
    json::array unknown;
    json::object sign_ins; // by toolkit: the caller lacks its sign-in
    std::size_t suggested = 0;
    for (auto name : wanted) {
        auto const* tool = find(name);
        auto const position = tool ? static_cast<std::size_t>(tool - tools_.data()) : 0;
        if (tool && position < inner_count_ && visible(position, context)) {
            described.push_back(json::parse(protocol::tool_definition(*tool, naming, variant)));
            if (auto kit = toolkit_of(*tool); context.lacks_sign_in(kit)) {
                sign_ins[kit] = sign_in_note(kit);
            }
            continue;
        }
        unknown.push_back(unknown_name(name, candidates, suggested++ < max_suggested));
    }
    json::object answer;
    answer["tools"] = std::move(described);
    if (!sign_ins.empty()) {
        answer["sign_in_needed"] = std::move(sign_ins);
    }
    if (!unknown.empty()) {
        answer["unknown"] = std::move(unknown);
    }
    if (suggested > max_suggested) {
        answer["note"] = fmt::format("close names are suggested for the first {} unknown names "
                                     "only; find the others with toolgate_search_tools",
            max_suggested);
    }
    return json_answer(std::move(answer));
}

bool discovery_provider::may_ask_client(
    tool_descriptor const& tool, json::object const& arguments) const
{
    auto const position = static_cast<std::size_t>(&tool - tools_.data());
    if (position < inner_count_) {
        return inner_.may_ask_client(inner_.tools()[position], arguments);
    }
    if (tool.name != call_tool_name) {
        return false;
    }
    auto const* name = arguments.if_contains("name");
    auto const* target = name && name->is_string() ? find(name->get_string()) : nullptr;
    if (target == nullptr || static_cast<std::size_t>(target - tools_.data()) >= inner_count_) {
        return false;
    }
    static json::object const none;
    auto const* inner = arguments.if_contains("arguments");
    return inner_.may_ask_client(inner_.tools()[static_cast<std::size_t>(target - tools_.data())],
        inner && inner->is_object() ? inner->get_object() : none);
}

// `tool` and `context` belong to the router for the whole call (see tool_provider.hpp).
boost::asio::awaitable<call_result> discovery_provider::call(
    tool_descriptor const& tool, json::object arguments, call_context& context)
{
    auto const position = static_cast<std::size_t>(&tool - tools_.data());
    if (position < inner_count_) {
        co_return co_await inner_.call(inner_.tools()[position], std::move(arguments), context);
    }
    if (tool.name == search_tools_name) {
        co_return limit_result(search_tools(arguments, context), results_, {});
    }
    if (tool.name == describe_tools_name) {
        co_return limit_result(describe_tools(arguments, context), results_, {});
    }
    // toolgate_call_tool
    auto const* name = arguments.if_contains("name");
    auto inner_arguments = call_tool_arguments(arguments);
    if (!inner_arguments) {
        co_return call_result::error(std::move(inner_arguments.error().message));
    }
    auto const* target = find(name->get_string());
    auto const target_position
        = target ? static_cast<std::size_t>(target - tools_.data()) : tools_.size();
    if (target && target_position >= inner_count_) {
        co_return call_result::error(
            fmt::format("{} is a discovery tool; call it directly, not through toolgate_call_tool",
                target->name));
    }
    if (target && !visible(target_position, context)) {
        if (auto* controls = context.controls()) {
            controls->refused(*target, *inner_arguments, context.principal(), context.trace_id(),
                "not available to this caller");
        }
        auto const* view = context.view();
        co_return call_result::error(view && !view->refusal.empty()
                ? fmt::format("{} is not available here: {}", target->name, view->refusal)
                : fmt::format("Unknown tool: {}", protocol::clipped(name->get_string())));
    }
    if (!target) {
        std::vector<std::string_view> candidates;
        for (std::size_t i = 0; i < inner_count_; ++i) {
            if (visible(i, context)) {
                candidates.push_back(tools_[i].name);
            }
        }
        auto close = protocol::suggest_names(name->get_string(), candidates);
        auto message = fmt::format("Unknown tool: {}", protocol::clipped(name->get_string()));
        if (!close.empty()) {
            message += fmt::format(" (did you mean {}?)", fmt::join(close, ", "));
        } else {
            message += "; find tools with toolgate_search_tools";
        }
        co_return call_result::error(std::move(message));
    }
    co_return co_await inner_.call(
        inner_.tools()[target_position], std::move(*inner_arguments), context);
}

} // namespace toolgate::discovery
