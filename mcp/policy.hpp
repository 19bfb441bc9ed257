// The operator's policy per client (docs/controlling-writes.md): `[policy."<principal>"]`
// tables in the --config file (`toolkits`, `read_only`, `calls_per_minute`,
// `confirm_destructive`), `[policy."*"]` for every authenticated client without a table of its
// own, and --scope-toolsets rules that give JWT clients toolsets by scope. A policy narrows
// what a client sees exactly as its own connection choices do (mcp/tool_views.hpp), and sets
// its quota and whether a person confirms its destructive calls. Without client
// authentication (stdio, or open HTTP) there is no one to attach a policy to: the flags decide.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}

namespace toolgate::mcp {

/// The policy flags (added by add_policy_options); the tables come from the --config file.
struct policy_options {
    std::vector<std::string> scope_toolsets; ///< --scope-toolsets SCOPE=TOOLSET[,TOOLSET…]
    bool confirm_destructive = false; ///< --confirm-destructive: for every caller
    std::string config_file; ///< --config, read for its `policy` tables (set by app/)
};

/// Adds --scope-toolsets and --confirm-destructive to `app`, writing into `options`.
void add_policy_options(CLI::App& app, policy_options& options);

/// One principal's table. Unset members leave the server's setting in force.
struct principal_policy {
    /// Toolkits or toolsets (`KanbanApi`, `KanbanApi:read`, `*`, `*:read`) it may use.
    std::optional<std::vector<std::string>> toolkits;
    bool read_only = false;
    std::optional<std::uint32_t> calls_per_minute;
    std::optional<bool> confirm_destructive;
};

/// A JWT scope and the toolsets it grants (`mcp:read=*:read`).
struct scope_rule {
    std::string scope;
    std::vector<std::string> toolsets;
};

/// Everything the operator set, read once (and again on SIGHUP); immutable after.
struct policy_set {
    std::map<std::string, principal_policy, std::less<>> principals; ///< "*": the default
    std::vector<scope_rule> scopes;
    bool confirm_destructive = false; ///< the server-wide flag
};

/// What applies to one caller.
struct effective_policy {
    /// Lists of toolkits or toolsets, each of which must allow a tool for the caller to use
    /// it (its table's `toolkits`; the toolsets its scopes grant). None: whatever the server
    /// serves. An empty list allows nothing (a JWT client none of whose scopes has a rule).
    std::vector<std::vector<std::string>> toolsets;
    bool read_only = false;
    std::optional<std::uint32_t> calls_per_minute;
    bool confirm_destructive = false;
};

/// Whether `entry` (a policy's toolkit or toolset) allows a tool of `toolkit` that only reads
/// (`read_only`) or not.
bool allows(std::string_view entry, std::string_view toolkit, bool read_only);

/// `SCOPE=TOOLSET[,TOOLSET…]` rules; throws std::invalid_argument naming the rule at fault
/// (no `=`, an empty scope, an unknown toolkit).
std::vector<scope_rule> parse_scope_rules(std::vector<std::string> const& rules);

/// The `policy` tables of the TOML file `path` (none: an empty set); throws
/// std::invalid_argument naming the file, line and key at fault.
std::map<std::string, principal_policy, std::less<>> read_policy_tables(std::string const& path);

/// The policy in force, replaced whole on SIGHUP. Thread-safe.
class operator_policy {
public:
    /// Reads the tables and rules now; throws std::invalid_argument on a mistake.
    explicit operator_policy(policy_options options);

    /// SIGHUP: reads the --config file's tables again. On a mistake the policy in force stays
    /// and std::invalid_argument says what is wrong. Returns a summary for the log.
    std::string reload();
    /// What applies to `principal` ("" : no client authentication: the flags only) holding
    /// `scopes` (a JWT client's; empty for others).
    effective_policy for_caller(
        std::string_view principal, std::span<const std::string> scopes = {}) const;
    /// Whether any table or scope rule exists (without any, views are never narrowed).
    bool any() const;
    /// Whether any caller's calls may need a person's confirmation (the flag, or a table).
    bool confirmation_possible() const;
    /// "N client tables, M scope rules" for the log.
    std::string summary() const;

private:
    std::shared_ptr<policy_set const> current() const;

    policy_options options_;
    mutable std::mutex mutex_;
    std::shared_ptr<policy_set const> set_;
};

} // namespace toolgate::mcp
