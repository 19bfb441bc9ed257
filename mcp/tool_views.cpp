// Tool modes and per-connection views (see tool_views.hpp).
#include "mcp/tool_views.hpp"

#include "common/tool_names.hpp"
#include "mcp/policy.hpp"
#include "protocol/text.hpp"
#include "toolkits/catalogue.hpp"
#include "toolkits/selection.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <optional>
#include <set>
#include <span>

namespace toolgate::mcp {
namespace {

/// A tool's toolkit; empty for the meta-tools (common::toolkit_of).
std::string toolkit_of(protocol::tool_descriptor const& tool)
{
    return std::string(common::toolkit_of(tool.dotted_name));
}

std::string_view tool_part(protocol::tool_descriptor const& tool)
{
    return common::tool_part_of(tool.dotted_name);
}

/// `StoreApi_Get*` -> `StoreApi.Get*`; `StoreApi` -> `StoreApi.*` (as --tools reads them).
std::string normalised_glob(std::string pattern)
{
    std::replace(pattern.begin(), pattern.end(), '_', '.');
    if (pattern.find('.') == std::string::npos) {
        pattern += ".*";
    }
    return pattern;
}

bool glob_matches(std::string const& pattern, protocol::tool_descriptor const& tool)
{
    auto const dot = pattern.find('.');
    return toolkits::glob_match(std::string_view(pattern).substr(0, dot), toolkit_of(tool))
        && toolkits::glob_match(std::string_view(pattern).substr(dot + 1), tool_part(tool));
}

char const* mode_name(tool_mode mode)
{
    switch (mode) {
    case tool_mode::full:
        return "full";
    case tool_mode::discovery:
        return "discovery";
    case tool_mode::automatic:
        return "auto";
    }
    return "auto";
}

/// The guide a model gets in initialize and server/discover (issue 11 item 5, issue 12).
std::string instructions_for(std::vector<std::string> const& kits, std::size_t served,
    bool discovery, bool read_only, std::string const& needs, protocol::tool_naming naming)
{
    std::string out = "toolgate serves tools for these platforms:";
    for (std::size_t i = 0; i < kits.size(); ++i) {
        auto const* spec = toolkits::find_toolkit(kits[i]);
        out += i == 0 ? " " : "; ";
        out += kits[i];
        if (spec != nullptr) {
            out += fmt::format(" ({})", spec->platform);
        }
    }
    out += ". ";
    auto const sep = naming == protocol::tool_naming::dotted ? "." : "_";
    if (discovery) {
        out += fmt::format(
            "The {} tools are not all listed: describe what you want to do to "
            "toolgate_search_tools, read a tool's arguments with toolgate_describe_tools, and "
            "call it with toolgate_call_tool (or by its name, Toolkit{}Tool). ",
            served, sep);
    } else {
        out += fmt::format("All {} tools are listed, named Toolkit{}Tool. ", served, sep);
    }
    out += "Identifiers flow between tools: list and search tools return the ids that other "
           "tools take, and each tool's description says where its ids come from. A tool with "
           "a `mode` argument takes its request body in two steps: mode get_request_schema "
           "returns the body's JSON Schema, then mode execute sends `request_body` (JSON text). "
           "Results are the platform's own JSON; errors say what to change. A result too long "
           "for its token budget is cut, keeping its JSON shape, and a note after it gives the "
           "exact arguments of the call that continues; every tool takes `_fields` (paths such "
           "as `entries[].id` or `[].name`, keeping only those parts) and `_max_tokens` (a "
           "larger budget for one call)";
    out += discovery ? ", which toolgate_call_tool takes as `fields` and `max_tokens`." : ".";
    if (read_only) {
        out += " This connection is read-only: only tools that read are available.";
    }
    if (!needs.empty()) {
        out += " " + needs;
    }
    return out;
}

/// Why a tool outside a policy's narrowing is refused: what the client may use instead.
std::string policy_refusal(view_choice const& choice)
{
    std::string allowed;
    for (auto const& list : choice.policy_toolsets) {
        allowed += allowed.empty() ? "" : " and also within ";
        allowed += list.empty() ? std::string("nothing") : fmt::format("{}", fmt::join(list, ", "));
    }
    return fmt::format("the operator's policy for this client allows only {}; ask the server's "
                       "operator if this client needs more",
        allowed.empty() ? std::string("tools that only read")
                        : allowed + (choice.policy_read_only ? ", read-only" : ""));
}

} // namespace

bool tool_views::policy_allows(view_choice const& choice, protocol::tool_descriptor const& tool)
{
    bool const reads = tool.hints.read_only;
    if (choice.policy_read_only && !reads) {
        return false;
    }
    auto const kit = toolkit_of(tool);
    return std::all_of(choice.policy_toolsets.begin(), choice.policy_toolsets.end(),
        [&](std::vector<std::string> const& list) {
            return std::any_of(list.begin(), list.end(),
                [&](std::string const& entry) { return allows(entry, kit, reads); });
        });
}

std::optional<tool_mode> parse_tool_mode(std::string_view text)
{
    if (text == "full") {
        return tool_mode::full;
    }
    if (text == "discovery") {
        return tool_mode::discovery;
    }
    if (text == "auto") {
        return tool_mode::automatic;
    }
    return std::nullopt;
}

std::string_view tool_mode_name(tool_mode mode)
{
    switch (mode) {
    case tool_mode::full:
        return "full";
    case tool_mode::discovery:
        return "discovery";
    case tool_mode::automatic:
        break;
    }
    return "auto";
}

std::string view_choice::key() const
{
    auto sorted = [](std::vector<std::string> v) {
        std::sort(v.begin(), v.end());
        v.erase(std::unique(v.begin(), v.end()), v.end());
        return fmt::format("{}", fmt::join(v, ","));
    };
    std::string policy;
    for (auto const& list : policy_toolsets) {
        policy += '[';
        policy += sorted(list);
        policy += ']';
    }
    return fmt::format("toolkits={};tools={};mode={};read_only={};policy={};policy_read_only={}",
        sorted(toolkits), sorted(tools), mode ? mode_name(*mode) : "-", read_only ? 1 : 0, policy,
        policy_read_only ? 1 : 0);
}

tool_views::tool_views(discovery::discovery_provider const& provider, view_settings settings,
    protocol::server_identity identity)
    : provider_(provider)
    , settings_(std::move(settings))
    , identity_(std::move(identity))
{
    for (std::size_t i = 0; i < provider_.catalogue_size(); ++i) {
        std::string_view dotted = provider_.tools()[i].dotted_name;
        parts_.push_back({ common::toolkit_of(dotted), common::tool_part_of(dotted) });
    }
    std::vector<bool> callable(provider_.tools().size(), true);
    if (settings_.read_only) {
        for (std::size_t i = 0; i < provider_.catalogue_size(); ++i) {
            callable[i] = provider_.tools()[i].hints.read_only;
        }
    }
    default_ = build(std::move(callable), settings_.mode, settings_.read_only, false, &summary_);
}

std::shared_ptr<protocol::tool_view const> tool_views::build(std::vector<bool> callable,
    tool_mode mode, bool read_only, bool per_client, std::string* summary,
    std::string refusal) const
{
    auto const tools = provider_.tools();
    auto const catalogue = provider_.catalogue_size();
    std::vector<protocol::tool_descriptor const*> served;
    std::set<std::string> kits;
    for (std::size_t i = 0; i < catalogue; ++i) {
        if (callable[i]) {
            served.push_back(&tools[i]);
            kits.insert(toolkit_of(tools[i]));
        }
    }
    bool const discovery = mode == tool_mode::discovery
        || (mode == tool_mode::automatic && served.size() > settings_.max_listed_tools);
    if (summary != nullptr) {
        *summary = mode == tool_mode::automatic
            ? fmt::format("tool mode {} (auto: {} tools served, {} --max-listed-tools "
                          "{})",
                discovery ? "discovery" : "full", served.size(),
                discovery ? "more than" : "at most", settings_.max_listed_tools)
            : fmt::format("tool mode {} (--tool-mode)", mode_name(mode));
    }
    std::vector<protocol::tool_descriptor const*> listed;
    if (discovery) {
        for (std::size_t i = catalogue; i < tools.size(); ++i) {
            listed.push_back(&tools[i]);
        }
        for (auto const* tool : served) {
            bool const pinned = std::any_of(
                settings_.pins.begin(), settings_.pins.end(), [&](std::string const& glob) {
                    return glob_matches(normalised_glob(glob), *tool);
                });
            if (pinned) {
                listed.push_back(tool);
            }
        }
    } else {
        listed = served;
    }
    auto view = std::make_shared<protocol::tool_view>();
    view->pages = std::make_shared<protocol::tool_pages>(std::move(listed), settings_.naming,
        settings_.page_size, identity_,
        per_client ? protocol::cache_scope::per_client : protocol::cache_scope::shared);
    view->callable = std::move(callable);
    view->naming = settings_.naming;
    view->per_client = per_client;
    if (!refusal.empty()) {
        view->refusal = std::move(refusal);
    } else if (read_only) {
        view->refusal = "this connection is read-only (--read-only, or read_only in the "
                        "connection's URL or Toolgate-Read-Only header), so only tools that "
                        "only read are available; connect without it to use this tool";
    }
    view->instructions = instructions_for(std::vector<std::string>(kits.begin(), kits.end()),
        served.size(), discovery, read_only, settings_.server_toolkits_note, settings_.naming);
    return view;
}

common::checked<tool_views::toolkit_choice> tool_views::chosen_toolkits(
    view_choice const& choice) const
{
    std::set<std::string_view> served_kits;
    for (auto const& part : parts_) {
        served_kits.insert(part.toolkit);
    }
    // Toolkits and toolsets: each must be served here.
    toolkit_choice out;
    for (auto const& entry : choice.toolkits) {
        std::string name = entry;
        bool const read = name.ends_with(toolkits::read_suffix);
        if (read) {
            name.resize(name.size() - toolkits::read_suffix.size());
        }
        if (!served_kits.contains(name)) {
            return common::problem_of(fmt::format("toolkit `{}` is not served here (served: {})",
                protocol::clipped(name), fmt::join(served_kits, ", ")));
        }
        (read ? out.reads : out.whole).insert(name);
    }
    return out;
}

common::checked<std::vector<bool>> tool_views::narrowed(view_choice const& choice) const
{
    auto const tools = provider_.tools();
    auto const catalogue = provider_.catalogue_size();
    auto kits = chosen_toolkits(choice);
    if (!kits) {
        return kits.error();
    }
    auto const& whole = kits->whole;
    auto const& reads = kits->reads;
    // Each glob is split once; every tool is matched against every glob in one pass, on names
    // split at start-up (no allocation per pair).
    std::vector<std::pair<std::string, std::string>> globs;
    for (auto const& t : choice.tools) {
        auto const g = normalised_glob(t);
        auto const dot = g.find('.');
        globs.emplace_back(g.substr(0, dot), g.substr(dot + 1));
    }
    std::vector<bool> used(globs.size(), false);
    bool const read_only = settings_.read_only || choice.read_only;
    std::vector<bool> callable(tools.size(), true);
    std::size_t left = 0;
    std::size_t allowed_by_policy = 0;
    for (std::size_t i = 0; i < catalogue; ++i) {
        auto const& part = parts_[i];
        bool matched = globs.empty();
        for (std::size_t g = 0; g < globs.size(); ++g) {
            if (toolkits::glob_match(globs[g].first, part.toolkit)
                && toolkits::glob_match(globs[g].second, part.tool)) {
                used[g] = true;
                matched = true;
            }
        }
        bool ok = matched && (!read_only || tools[i].hints.read_only);
        if (ok && (!whole.empty() || !reads.empty())) {
            ok = whole.contains(part.toolkit)
                || (reads.contains(part.toolkit) && tools[i].hints.read_only);
        }
        bool const permitted = policy_allows(choice, tools[i]);
        allowed_by_policy += permitted ? 1 : 0;
        ok = ok && permitted;
        callable[i] = ok;
        left += ok ? 1 : 0;
    }
    for (std::size_t g = 0; g < globs.size(); ++g) {
        if (!used[g]) {
            return common::problem_of(
                fmt::format("tool pattern `{}.{}` matches no tool served here",
                    protocol::clipped(globs[g].first), protocol::clipped(globs[g].second)));
        }
    }
    // A policy that leaves nothing is served as such (an empty listing; every call refused
    // with the policy's reason); a connection's own choices that leave nothing are a mistake.
    if (left == 0 && (!choice.has_policy() || allowed_by_policy > 0)) {
        return common::problem_of(choice.has_policy()
                ? fmt::format("these choices leave no tool to serve ({})", policy_refusal(choice))
                : std::string("these choices leave no tool to serve"));
    }
    return callable;
}

common::checked<std::shared_ptr<protocol::tool_view const>> tool_views::view_for(
    view_choice const& choice)
{
    if (choice.empty()) {
        return default_;
    }
    auto const key = choice.key();
    {
        std::lock_guard lock(mutex_);
        if (auto it = cache_.find(key); it != cache_.end()) {
            recent_.splice(recent_.begin(), recent_, it->second.used);
            return it->second.view;
        }
    }
    auto callable = narrowed(choice);
    if (!callable) {
        return callable.error();
    }
    bool const read_only = settings_.read_only || choice.read_only || choice.policy_read_only;
    auto view = build(std::move(*callable), choice.mode.value_or(settings_.mode), read_only, true,
        nullptr, choice.has_policy() ? policy_refusal(choice) : std::string());
    std::lock_guard lock(mutex_);
    if (!cache_.contains(key)) {
        recent_.push_front(key);
        cache_.emplace(key, cached_view { view, recent_.begin() });
    }
    trim_locked();
    return view;
}

void tool_views::trim_locked()
{
    // Listing pages are built after a view is handed out (on its first tools/list), so they
    // are counted here, at the next lookup: the cache's pages stay within the budget but for
    // the views requests are using right now (security review 3, item 5).
    std::size_t bytes = 0;
    for (auto const& [key, entry] : cache_) {
        bytes += entry.view->pages->built_bytes();
    }
    while (cache_.size() > 1
        && (cache_.size() > max_cached_views || bytes > max_cached_listing_bytes)) {
        auto const oldest = cache_.find(recent_.back());
        bytes -= oldest->second.view->pages->built_bytes();
        cache_.erase(oldest);
        recent_.pop_back();
    }
}

std::size_t tool_views::cached_views() const
{
    std::lock_guard lock(mutex_);
    return cache_.size();
}

} // namespace toolgate::mcp
