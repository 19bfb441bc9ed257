// The specification's per-tool rules that no single parameter can express: exclusions,
// forbidden values and conditional requirements. Each entry names the specification line it
// implements and has a test in test/toolkits/test_validate_rules.cpp.
#include "toolkits/validate.hpp"

#include <boost/json/value.hpp>

#include <array>
#include <string>

namespace toolgate::toolkits {
namespace json = boost::json;

namespace {

using result = tool_result<void>;

bool given(json::object const& args, std::string_view name)
{
    auto const* v = args.if_contains(name);
    return v && !v->is_null();
}

bool is_true(json::object const& args, std::string_view name)
{
    auto const* v = args.if_contains(name);
    return v && v->is_bool() && v->as_bool();
}

bool is_root(json::object const& args, std::string_view name)
{
    auto const* v = args.if_contains(name);
    return v && v->is_string() && v->as_string() == "0";
}

std::string arg(std::string_view name)
{
    return "argument `" + std::string(name) + "`";
}

/// Doc 1, RetrieveFolderItems: "only one pagination method active at a time"; marker
/// pagination (conventions 4) and an offset exclude each other on every StoreApi tool that
/// offers both.
result marker_excludes_offset(tool_spec const& tool, json::object const& args)
{
    std::string_view marker, offset;
    for (auto const& p : tool.params) {
        bool marker_on = p.name.ends_with("marker")   ? given(args, p.name)
            : p.name == "use_marker_based_pagination" ? is_true(args, p.name)
                                                      : false;
        if (marker_on && marker.empty()) {
            marker = p.name;
        }
        if (p.name.find("offset") != std::string_view::npos && given(args, p.name)) {
            offset = p.name;
        }
    }
    if (marker.empty() || offset.empty()) {
        return {};
    }
    return refuse(arg(marker) + " and " + arg(offset)
        + " exclude each other: use marker pagination or offset pagination, not both");
}

/// Doc 3, ListDataObjects: query_start_index "cannot be combined with threshold_uuid_after".
result start_index_excludes_after(tool_spec const&, json::object const& args)
{
    if (given(args, "query_start_index") && given(args, "threshold_uuid_after")) {
        return refuse(
            arg("query_start_index") + " cannot be combined with " + arg("threshold_uuid_after"));
    }
    return {};
}

/// Doc 1, RetrieveFolderItems: sorting is "unsupported with marker pagination on the root".
result root_sort_with_marker(tool_spec const&, json::object const& args)
{
    bool marker
        = given(args, "pagination_start_marker") || is_true(args, "use_marker_based_pagination");
    if (is_root(args, "folder_identifier") && marker && given(args, "sort_attribute")) {
        return refuse(arg("sort_attribute")
            + ": sorting is not supported with marker pagination on the root folder `0`");
    }
    return {};
}

/// Doc 1, GetFolderDetails: secondary_sort_attribute is "unsupported for the root folder".
result root_secondary_sort(tool_spec const&, json::object const& args)
{
    if (is_root(args, "folder_unique_identifier") && given(args, "secondary_sort_attribute")) {
        return refuse(arg("secondary_sort_attribute") + ": not supported for the root folder `0`");
    }
    return {};
}

/// Doc 1: "(not the root)" / "(root `0` not allowed)" on these folder parameters.
result not_root_folder(tool_spec const&, json::object const& args)
{
    for (std::string_view name : { "folder_identifier", "target_folder_id" }) {
        if (is_root(args, name)) {
            return refuse(
                arg(name) + ": the root folder `0` is not allowed here; give another folder");
        }
    }
    return {};
}

/// Doc 1, rule 1: AuthorizeUserToolAccess "needs user_id when authorization is by API key",
/// and toolgate always authorises with ENGINE_API_KEY.
result user_id_with_api_key(tool_spec const&, json::object const& args)
{
    if (!given(args, "user_id")) {
        return refuse(
            arg("user_id") + ": required, because toolgate authorizes with the engine's API key");
    }
    return {};
}

/// Doc 1, Limits: thumbnail height at most 256 for png (320 for jpg, in the schema).
result png_thumbnail_height(tool_spec const&, json::object const& args)
{
    auto const* fmt = args.if_contains("thumbnail_file_format");
    if (!fmt || !fmt->is_string() || fmt->as_string() != "png") {
        return {};
    }
    for (std::string_view name : { "minimum_thumbnail_height", "maximum_thumbnail_height" }) {
        auto const* v = args.if_contains(name);
        if (v && v->is_number() && v->to_number<double>() > 256) {
            return refuse(arg(name) + ": at most 256 for png thumbnails");
        }
    }
    return {};
}

/// Doc 2, ListAssets: entries_per_page is "not applicable with search or filter".
result page_size_without_search(tool_spec const&, json::object const& args)
{
    for (std::string_view name : { "search_query", "asset_filter_query" }) {
        if (given(args, "entries_per_page") && given(args, name)) {
            return refuse(arg("entries_per_page") + " cannot be combined with " + arg(name));
        }
    }
    return {};
}

constexpr std::array rules {
    tool_rule { "marker_excludes_offset", "StoreApi", "*", marker_excludes_offset },
    tool_rule { "start_index_excludes_after", "VectorDbApi", "ListDataObjects",
        start_index_excludes_after },
    tool_rule { "root_sort_with_marker", "StoreApi", "RetrieveFolderItems", root_sort_with_marker },
    tool_rule { "root_secondary_sort", "StoreApi", "GetFolderDetails", root_secondary_sort },
    tool_rule { "not_root_folder", "StoreApi", "GetFolderMetadata", not_root_folder },
    tool_rule { "not_root_folder", "StoreApi", "RetrieveFolderMetadata", not_root_folder },
    tool_rule { "not_root_folder", "StoreApi", "GetMetadataCascadePolicies", not_root_folder },
    tool_rule {
        "user_id_with_api_key", "CoreEngineApi", "AuthorizeUserToolAccess", user_id_with_api_key },
    tool_rule { "png_thumbnail_height", "StoreApi", "RetrieveFileThumbnail", png_thumbnail_height },
    tool_rule { "page_size_without_search", "DeskApi", "ListAssets", page_size_without_search },
};

} // namespace

std::span<const tool_rule> tool_rules()
{
    return rules;
}

} // namespace toolgate::toolkits
