// The operator's policy (see policy.hpp): the flags, the scope rules and the holder that
// SIGHUP refreshes. The TOML tables are read in policy_file.cpp.
#include "mcp/policy.hpp"

#include "common/ascii.hpp"
#include "common/split_list.hpp"
#include "toolkits/catalogue.hpp"
#include "toolkits/selection.hpp"

#include <CLI/App.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <stdexcept>

namespace toolgate::mcp {
namespace {

/// Checks one toolkit or toolset name; throws naming `where`.
void check_toolset(std::string_view entry, std::string_view where)
{
    auto name = entry;
    if (name.ends_with(toolkits::read_suffix)) {
        name.remove_suffix(toolkits::read_suffix.size());
    }
    if (name == "*" || toolkits::find_toolkit(name) != nullptr) {
        return;
    }
    std::vector<std::string_view> known;
    for (auto const* kit : toolkits::all_toolkits()) {
        known.push_back(kit->name);
    }
    throw std::invalid_argument(fmt::format("{}: `{}` is no toolkit or toolset (toolkits: {}; "
                                            "`Toolkit:read` for its read-only tools, `*` for all)",
        where, entry, fmt::join(known, ", ")));
}

} // namespace

void add_policy_options(CLI::App& app, policy_options& options)
{
    app.add_option("--scope-toolsets", options.scope_toolsets,
        "for OAuth (JWT) clients: the toolsets a scope grants, SCOPE=TOOLSET[,TOOLSET...], "
        "e.g. 'mcp:read=*:read' (repeatable); a client gets what its scopes grant together");
    app.add_flag("--confirm-destructive", options.confirm_destructive,
        "ask a person (through the client) before any call of a destructive tool is sent");
}

bool allows(std::string_view entry, std::string_view toolkit, bool read_only)
{
    bool const reads = entry.ends_with(toolkits::read_suffix);
    if (reads) {
        entry.remove_suffix(toolkits::read_suffix.size());
    }
    return (entry == "*" || entry == toolkit) && (!reads || read_only);
}

std::vector<scope_rule> parse_scope_rules(std::vector<std::string> const& rules)
{
    std::vector<scope_rule> out;
    for (auto const& text : rules) {
        auto const where = fmt::format("--scope-toolsets '{}'", text);
        auto const eq = text.find('=');
        if (eq == std::string::npos
            || common::trim_blanks(std::string_view(text).substr(0, eq)).empty()) {
            throw std::invalid_argument(
                where + ": expected SCOPE=TOOLSET[,TOOLSET...], e.g. mcp:read=*:read");
        }
        scope_rule rule { std::string(common::trim_blanks(std::string_view(text).substr(0, eq))),
            {} };
        for (auto& item : common::split_list(std::string_view(text).substr(eq + 1))) {
            check_toolset(item, where);
            rule.toolsets.push_back(std::move(item));
        }
        if (rule.toolsets.empty()) {
            throw std::invalid_argument(where + ": names no toolset");
        }
        out.push_back(std::move(rule));
    }
    return out;
}

operator_policy::operator_policy(policy_options options)
    : options_(std::move(options))
{
    auto set = std::make_shared<policy_set>();
    set->scopes = parse_scope_rules(options_.scope_toolsets);
    set->confirm_destructive = options_.confirm_destructive;
    if (!options_.config_file.empty()) {
        set->principals = read_policy_tables(options_.config_file);
    }
    for (auto const& [principal, policy] : set->principals) {
        for (auto const& entry : policy.toolkits.value_or(std::vector<std::string>())) {
            check_toolset(entry, fmt::format("[policy.\"{}\"] toolkits", principal));
        }
    }
    set_ = std::move(set);
}

std::string operator_policy::reload()
{
    if (options_.config_file.empty()) {
        return "no --config file: no client tables";
    }
    auto fresh = std::make_shared<policy_set>(*current());
    fresh->principals = read_policy_tables(options_.config_file);
    for (auto const& [principal, policy] : fresh->principals) {
        for (auto const& entry : policy.toolkits.value_or(std::vector<std::string>())) {
            check_toolset(entry, fmt::format("[policy.\"{}\"] toolkits", principal));
        }
    }
    {
        std::lock_guard lock(mutex_);
        set_ = std::move(fresh);
    }
    return summary();
}

std::shared_ptr<policy_set const> operator_policy::current() const
{
    std::lock_guard lock(mutex_);
    return set_;
}

bool operator_policy::any() const
{
    auto const set = current();
    return !set->principals.empty() || !set->scopes.empty();
}

bool operator_policy::confirmation_possible() const
{
    auto const set = current();
    return set->confirm_destructive
        || std::any_of(set->principals.begin(), set->principals.end(),
            [](auto const& entry) { return entry.second.confirm_destructive.value_or(false); });
}

std::string operator_policy::summary() const
{
    auto const set = current();
    return fmt::format("{} client polic{}, {} scope rule{}{}", set->principals.size(),
        set->principals.size() == 1 ? "y" : "ies", set->scopes.size(),
        set->scopes.size() == 1 ? "" : "s",
        set->confirm_destructive ? "; destructive calls need a person's confirmation" : "");
}

effective_policy operator_policy::for_caller(
    std::string_view principal, std::span<const std::string> scopes) const
{
    auto const set = current();
    effective_policy out;
    out.confirm_destructive = set->confirm_destructive;
    if (principal.empty()) {
        return out; // no client authentication: nobody to attach a policy to
    }
    auto it = set->principals.find(principal);
    if (it == set->principals.end()) {
        it = set->principals.find("*");
    }
    if (it != set->principals.end()) {
        auto const& own = it->second;
        if (own.toolkits) {
            out.toolsets.push_back(*own.toolkits);
        }
        out.read_only = own.read_only;
        out.calls_per_minute = own.calls_per_minute;
        out.confirm_destructive = own.confirm_destructive.value_or(set->confirm_destructive);
    }
    // Scope rules are for JWT clients: their scopes grant toolsets, together.
    if (!set->scopes.empty() && principal.starts_with("jwt:")) {
        std::vector<std::string> granted;
        for (auto const& rule : set->scopes) {
            if (std::find(scopes.begin(), scopes.end(), rule.scope) != scopes.end()) {
                granted.insert(granted.end(), rule.toolsets.begin(), rule.toolsets.end());
            }
        }
        out.toolsets.push_back(std::move(granted));
    }
    return out;
}

} // namespace toolgate::mcp
