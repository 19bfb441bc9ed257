// Revision table: which revisions exist here and what each allows.
#include "protocol/versions.hpp"

#include <algorithm>
#include <array>

namespace toolgate::protocol {
namespace {

constexpr std::array<std::string_view, 4> all_versions { modern_version, "2025-11-25", "2025-06-18",
    "2025-03-26" };

} // namespace

std::span<const std::string_view> supported_versions()
{
    return all_versions;
}

bool is_modern_version(std::string_view version)
{
    return version == modern_version;
}

bool is_legacy_version(std::string_view version)
{
    return version != modern_version
        && std::find(all_versions.begin(), all_versions.end(), version) != all_versions.end();
}

std::string_view negotiate_initialize(std::string_view requested)
{
    // MCP lifecycle, version negotiation: echo a version we support, otherwise offer our
    // newest; never the stateless revision (docs/decisions.md, docs/protocol-rules.md L3/L5).
    for (auto v : all_versions) {
        if (v == requested && v != modern_version) {
            return v;
        }
    }
    return newest_legacy_version;
}

bool allows_batches(std::string_view version)
{
    return version == "2025-03-26";
}

bool allows_title(std::string_view version)
{
    return version != "2025-03-26";
}

structured_policy structured_content_policy(std::string_view version)
{
    if (version == "2025-03-26") {
        return structured_policy::none;
    }
    if (version == modern_version) {
        return structured_policy::any_value;
    }
    return structured_policy::objects_only;
}

} // namespace toolgate::protocol
