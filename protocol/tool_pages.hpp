// The `tools/list` answer, serialised once per protocol variant and cut into pages with
// opaque cursors. The catalogue is fixed while the process runs, so requests only copy text.
#pragma once

#include "protocol/errors.hpp"
#include "protocol/server_identity.hpp"
#include "protocol/tool_descriptor.hpp"

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace toolgate::protocol {

enum class tool_naming { wire, dotted };

/// What differs between revisions in a listing: 2025-03-26 has no `title`; 2026-07-28 adds
/// `resultType`, `ttlMs`, `cacheScope` and the server info.
enum class list_variant : std::uint8_t { legacy_no_title, legacy, modern };

list_variant list_variant_for(std::string_view version);

/// Whether a listing may be cached by anyone (the server's own) or only by the client that
/// asked (a listing shaped by per-connection choices): 2026-07-28 `cacheScope`.
enum class cache_scope : std::uint8_t { shared, per_client };

/// One tool as tools/list and the discovery meta-tools publish it (compact JSON).
std::string tool_definition(tool_descriptor const& tool, tool_naming naming, list_variant variant);

/// One page of a listing, and an identity no other page text of this process ever has (not
/// even one built later at the same address): caches of derived forms key on it.
struct listed_page {
    std::string_view text;
    std::uint64_t id = 0;
};

class tool_pages {
public:
    /// `page_size` 0 puts every tool on one page (many clients read only the first page).
    /// `tools` must outlive this object.
    tool_pages(std::span<const tool_descriptor> tools, tool_naming naming, std::size_t page_size,
        server_identity identity);
    /// A listing of some of the served tools, in this order. The descriptors must outlive this
    /// object.
    tool_pages(std::vector<tool_descriptor const*> tools, tool_naming naming, std::size_t page_size,
        server_identity identity, cache_scope scope = cache_scope::shared);

    /// The serialised ListToolsResult for `cursor` ("" or absent: the first page). A cursor
    /// that this server did not issue for this listing is -32602.
    rpc_result<std::string_view> page(std::string_view cursor, list_variant variant) const;
    /// page() with the page's identity.
    rpc_result<listed_page> page_of(std::string_view cursor, list_variant variant) const;
    bool has_cursor_pagination() const { return page_size_ != 0; }
    std::size_t page_count() const;
    /// Bytes of page text built so far (pages are built on first use, per variant).
    std::size_t built_bytes() const { return built_bytes_; }

private:
    void build(list_variant variant) const;
    std::string cursor_for(std::size_t page) const;

    std::vector<tool_descriptor const*> tools_;
    tool_naming naming_;
    cache_scope scope_ = cache_scope::shared;
    std::size_t page_size_;
    server_identity identity_;
    std::uint32_t fingerprint_;
    // Built on first use per variant: a cold start pays only for what its clients ask.
    mutable std::array<std::once_flag, 3> built_;
    mutable std::array<std::vector<std::string>, 3> pages_;
    mutable std::array<std::vector<std::uint64_t>, 3> ids_;
    mutable std::atomic<std::size_t> built_bytes_ { 0 };
};

} // namespace toolgate::protocol
