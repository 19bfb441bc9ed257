// MCP protocol revisions toolgate speaks, and what each one allows on the wire.
#pragma once

#include <span>
#include <string_view>

namespace toolgate::protocol {

inline constexpr std::string_view modern_version = "2026-07-28";
inline constexpr std::string_view newest_legacy_version = "2025-11-25";

/// Every revision served, newest first (server/discover and -32022 data list the same).
std::span<const std::string_view> supported_versions();

bool is_modern_version(std::string_view version); ///< stateless revision (2026-07-28)
bool is_legacy_version(std::string_view version); ///< handshake revisions we serve

/// The version `initialize` answers: the client's when we speak it (legacy), else our newest
/// legacy one. Never the stateless revision (it has no handshake).
std::string_view negotiate_initialize(std::string_view requested);

/// 2025-03-26 only: JSON-RPC batches.
bool allows_batches(std::string_view version);
/// 2025-06-18 and later: tool `title`, `structuredContent`.
bool allows_title(std::string_view version);

/// Which `structuredContent` values a revision accepts.
enum class structured_policy { none, objects_only, any_value };
structured_policy structured_content_policy(std::string_view version);

} // namespace toolgate::protocol
