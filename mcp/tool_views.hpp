// Tool modes and per-connection views (docs/decisions.md "Discovery", "Per-connection selection"):
// which tools a request's tools/list shows (the catalogue, or the discovery meta-tools and
// pinned tools), which it may call, and the instructions it gets. One view for the server's
// own flags; more for connections that narrow them (query parameters or headers), built on
// first use and kept within bounds.
#pragma once

#include "common/result.hpp"
#include "discovery/discovery.hpp"
#include "protocol/server_identity.hpp"
#include "protocol/tool_pages.hpp"
#include "protocol/tool_view.hpp"

#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace toolgate::mcp {

enum class tool_mode { full, discovery, automatic };

/// "full", "discovery" or "auto"; nullopt for anything else.
std::optional<tool_mode> parse_tool_mode(std::string_view text);
/// The flag's word for `mode`: "full", "discovery" or "auto".
std::string_view tool_mode_name(tool_mode mode);

/// The server's start-up settings that shape views.
struct view_settings {
    tool_mode mode = tool_mode::automatic;
    std::size_t max_listed_tools = 40; ///< auto: full up to this many tools, discovery beyond
    std::vector<std::string> pins; ///< globs of tools listed beside the meta-tools
    bool read_only = false; ///< --read-only
    protocol::tool_naming naming = protocol::tool_naming::wire;
    std::size_t page_size = 0;
    std::string server_toolkits_note; ///< what each toolkit needs (secret names), for instructions
};

/// One connection's choices, and the operator's policy for its client: each narrows the
/// server's (none widens it).
struct view_choice {
    std::vector<std::string> toolkits; ///< toolkits or toolsets (`KanbanApi:read`)
    std::vector<std::string> tools; ///< tool globs
    std::optional<tool_mode> mode;
    bool read_only = false;
    /// The client's policy (mcp/policy.hpp): lists of toolkits or toolsets, each of which
    /// must allow a tool; and whether it may only read.
    std::vector<std::vector<std::string>> policy_toolsets;
    bool policy_read_only = false;

    bool empty() const
    {
        return toolkits.empty() && tools.empty() && !mode && !read_only && policy_toolsets.empty()
            && !policy_read_only;
    }
    bool has_policy() const { return !policy_toolsets.empty() || policy_read_only; }
    std::string key() const;
};

class tool_views {
public:
    /// Views of per-connection choices kept for reuse, least recently used dropped first, and
    /// the bytes of listing pages they may hold together (security review 3, item 5: 192
    /// distinct choices pinned 200 MiB). A dropped view is built again when asked for.
    static constexpr std::size_t max_cached_views = 256;
    static constexpr std::size_t max_cached_listing_bytes = 16 * 1024 * 1024;

    /// `provider` (catalogue tools then meta-tools) must outlive this object.
    tool_views(discovery::discovery_provider const& provider, view_settings settings,
        protocol::server_identity identity);

    /// The view of the server's own settings.
    std::shared_ptr<protocol::tool_view const> const& default_view() const { return default_; }
    /// The view for a connection's choices, or why they cannot be served (an unknown or
    /// unserved toolkit, a pattern matching no served tool, nothing left to serve).
    common::checked<std::shared_ptr<protocol::tool_view const>> view_for(view_choice const& choice);

    /// The mode in force for the server's own settings, and why ("discovery: 1150 tools, more
    /// than --max-listed-tools 40"), for the banner.
    std::string const& mode_summary() const { return summary_; }
    /// Views of per-connection choices kept now.
    std::size_t cached_views() const;

private:
    /// `refusal`: why a tool outside `callable` is refused (empty: the read-only reason when
    /// `read_only`, else none).
    std::shared_ptr<protocol::tool_view const> build(std::vector<bool> callable, tool_mode mode,
        bool read_only, bool per_client, std::string* summary, std::string refusal = {}) const;
    /// Whether the policy part of `choice` lets a caller use `tool`.
    static bool policy_allows(view_choice const& choice, protocol::tool_descriptor const& tool);
    /// A choice's toolkits: served whole, or their read-only tools only (`Toolkit:read`).
    struct toolkit_choice {
        std::set<std::string, std::less<>> whole;
        std::set<std::string, std::less<>> reads;
    };
    common::checked<toolkit_choice> chosen_toolkits(view_choice const& choice) const;
    /// Which served tools `choice` leaves callable, or why it cannot be served.
    common::checked<std::vector<bool>> narrowed(view_choice const& choice) const;
    /// Drops least recently used views past the count or the listing budget (mutex_ held).
    void trim_locked();

    struct name_parts {
        std::string_view toolkit;
        std::string_view tool;
    };
    struct cached_view {
        std::shared_ptr<protocol::tool_view const> view;
        std::list<std::string>::iterator used; ///< its place in `recent_`
    };

    discovery::discovery_provider const& provider_;
    view_settings settings_;
    protocol::server_identity identity_;
    std::vector<name_parts> parts_; ///< each catalogue tool's name, split at its dot
    std::shared_ptr<protocol::tool_view const> default_;
    std::string summary_;
    mutable std::mutex mutex_;
    std::map<std::string, cached_view> cache_;
    std::list<std::string> recent_; ///< keys of cache_, most recently used first
};

} // namespace toolgate::mcp
