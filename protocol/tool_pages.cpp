// Serialising tools/list pages once, and the cursor scheme that addresses them.
#include "protocol/tool_pages.hpp"

#include "common/fnv.hpp"
#include "protocol/names.hpp"
#include "protocol/versions.hpp"

#include <boost/json/serialize.hpp>
#include <boost/json/string.hpp>
#include <fmt/format.h>

#include <charconv>

namespace toolgate::protocol {
namespace json = boost::json;

namespace {

// Long cache lifetime: the catalogue cannot change while the process runs.
constexpr std::uint64_t list_ttl_ms = 3'600'000;

/// Page identities are handed out once: a page built after another was freed never gets its
/// identity, wherever its text lands in memory (security review 3, item 9).
std::atomic<std::uint64_t> next_page_id { 1 };

void append_string(std::string& out, std::string_view text)
{
    out += json::serialize(json::string(text));
}

void append_tool(
    std::string& out, tool_descriptor const& tool, tool_naming naming, list_variant variant)
{
    out += R"({"name":)";
    append_string(out, naming == tool_naming::wire ? tool.name : tool.dotted_name);
    if (variant != list_variant::legacy_no_title && !tool.title.empty()) {
        out += R"(,"title":)";
        append_string(out, tool.title);
    }
    out += R"(,"description":)";
    append_string(out, tool.description);
    out += R"(,"inputSchema":)";
    out += tool.input_schema;
    auto flag = [](bool b) { return b ? "true" : "false"; };
    out += fmt::format(R"(,"annotations":{{"readOnlyHint":{},"destructiveHint":{},)"
                       R"("idempotentHint":{},"openWorldHint":{}}}}})",
        flag(tool.hints.read_only), flag(tool.hints.destructive), flag(tool.hints.idempotent),
        flag(tool.hints.open_world));
}

} // namespace

std::string tool_definition(tool_descriptor const& tool, tool_naming naming, list_variant variant)
{
    std::string out;
    out.reserve(tool.input_schema.size() + tool.description.size() + 200);
    append_tool(out, tool, naming, variant);
    return out;
}

list_variant list_variant_for(std::string_view version)
{
    if (is_modern_version(version)) {
        return list_variant::modern;
    }
    return allows_title(version) ? list_variant::legacy : list_variant::legacy_no_title;
}

namespace {

std::vector<tool_descriptor const*> pointers_to(std::span<const tool_descriptor> tools)
{
    std::vector<tool_descriptor const*> out;
    out.reserve(tools.size());
    for (auto const& tool : tools) {
        out.push_back(&tool);
    }
    return out;
}

} // namespace

tool_pages::tool_pages(std::span<const tool_descriptor> tools, tool_naming naming,
    std::size_t page_size, server_identity identity)
    : tool_pages(pointers_to(tools), naming, page_size, std::move(identity))
{
}

tool_pages::tool_pages(std::vector<tool_descriptor const*> tools, tool_naming naming,
    std::size_t page_size, server_identity identity, cache_scope scope)
    : tools_(std::move(tools))
    , naming_(naming)
    , scope_(scope)
    , page_size_(page_size)
    , identity_(std::move(identity))
{
    // The fingerprint ties cursors to this exact listing: a cursor from another selection,
    // page size or build is refused rather than silently misread.
    std::uint32_t hash = common::fnv1a32_basis;
    hash
        = common::fnv1a32(hash, fmt::format("{}:{}:{}", page_size, int(naming), identity_.version));
    for (auto const* tool : tools_) {
        hash = common::fnv1a32(hash, tool->name);
    }
    fingerprint_ = hash;
}

std::size_t tool_pages::page_count() const
{
    if (page_size_ == 0 || tools_.empty()) {
        return 1;
    }
    return (tools_.size() + page_size_ - 1) / page_size_;
}

std::string tool_pages::cursor_for(std::size_t page) const
{
    return fmt::format("tg1.{:08x}.{}", fingerprint_, page);
}

void tool_pages::build(list_variant variant) const
{
    auto& pages = pages_[static_cast<std::size_t>(variant)];
    std::size_t const count = page_count();
    std::size_t const per_page = page_size_ == 0 ? tools_.size() : page_size_;
    pages.reserve(count);
    for (std::size_t p = 0; p < count; ++p) {
        std::string out;
        out.reserve(per_page * 900);
        out += R"({"tools":[)";
        std::size_t const begin = p * per_page;
        std::size_t const end = std::min(tools_.size(), begin + per_page);
        for (std::size_t i = begin; i < end; ++i) {
            if (i != begin) {
                out += ',';
            }
            append_tool(out, *tools_[i], naming_, variant);
        }
        out += ']';
        if (p + 1 < count) {
            out += R"(,"nextCursor":)";
            append_string(out, cursor_for(p + 1));
        }
        if (variant == list_variant::modern) {
            // MCP 2026-07-28 server/utilities/caching: ttlMs and cacheScope on list results.
            json::object meta;
            meta[names::meta_server_info] = identity_.info_object();
            out += fmt::format(R"(,"resultType":"complete","ttlMs":{},"cacheScope":"{}",)"
                               R"("_meta":{})",
                list_ttl_ms, scope_ == cache_scope::shared ? "public" : "private",
                json::serialize(meta));
        }
        out += '}';
        built_bytes_ += out.size();
        ids_[static_cast<std::size_t>(variant)].push_back(next_page_id++);
        pages.push_back(std::move(out));
    }
}

rpc_result<std::string_view> tool_pages::page(std::string_view cursor, list_variant variant) const
{
    auto found = page_of(cursor, variant);
    if (!found) {
        return found.error();
    }
    return found->text;
}

rpc_result<listed_page> tool_pages::page_of(std::string_view cursor, list_variant variant) const
{
    auto const index = static_cast<std::size_t>(variant);
    std::call_once(built_[index], [this, variant] { build(variant); });
    auto const& pages = pages_[index];
    auto const& ids = ids_[index];
    if (cursor.empty()) {
        return listed_page { pages.front(), ids.front() };
    }
    auto const prefix = fmt::format("tg1.{:08x}.", fingerprint_);
    std::size_t page = 0;
    bool ok = cursor.starts_with(prefix);
    if (ok) {
        auto digits = cursor.substr(prefix.size());
        auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), page);
        ok = ec == std::errc() && ptr == digits.data() + digits.size() && page > 0
            && page < pages.size();
    }
    if (!ok) {
        return rpc_error { error_code::invalid_params,
            "Invalid params: cursor is not one this server issued for this listing; "
            "start again without a cursor",
            std::nullopt };
    }
    return listed_page { pages[page], ids[page] };
}

} // namespace toolgate::protocol
