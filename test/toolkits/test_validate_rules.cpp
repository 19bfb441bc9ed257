// The named per-tool rules (toolkits/validate_rules.cpp): one case per rule.
#include "validate_helpers.hpp"

#include <set>

using namespace toolgate::toolkits;
using Catch::Contains;
using toolgate::test::check;

TEST_CASE("the rule table names existing tools and only the rules tested here", "[toolkits][rules]")
{
    std::set<std::string_view> const tested { "marker_excludes_offset",
        "start_index_excludes_after", "root_sort_with_marker", "root_secondary_sort",
        "not_root_folder", "user_id_with_api_key", "png_thumbnail_height",
        "page_size_without_search" };
    for (auto const& rule : tool_rules()) {
        INFO(rule.name);
        CHECK(tested.contains(rule.name));
        auto const* kit = find_toolkit(rule.toolkit);
        REQUIRE(kit);
        CHECK((rule.tool == "*" || find_tool(*kit, rule.tool)));
    }
}

TEST_CASE(
    "marker_excludes_offset: marker and offset pagination exclude each other", "[toolkits][rules]")
{
    CHECK_FALSE(check("StoreApi.RetrieveFolderItems",
        R"({"folder_identifier":"5","pagination_start_marker":"m"})"));
    CHECK_FALSE(check(
        "StoreApi.RetrieveFolderItems", R"({"folder_identifier":"5","starting_item_offset":10})"));
    CHECK_THAT(
        *check("StoreApi.RetrieveFolderItems",
            R"({"folder_identifier":"5","pagination_start_marker":"m","starting_item_offset":10})"),
        Contains("exclude each other"));
    CHECK(check("StoreApi.RetrieveFolderItems",
        R"({"folder_identifier":"5","use_marker_based_pagination":true,"starting_item_offset":10})"));
    CHECK_FALSE(check("StoreApi.RetrieveFolderItems",
        R"({"folder_identifier":"5","use_marker_based_pagination":false,"starting_item_offset":10})"));
    CHECK(check("StoreApi.GetMetadataCascadePolicies",
        R"({"target_folder_id":"5","pagination_marker":"m","response_offset":1})"));
}

TEST_CASE(
    "start_index_excludes_after: query_start_index and threshold_uuid_after exclude each other",
    "[toolkits][rules]")
{
    CHECK_FALSE(check("VectorDbApi.ListDataObjects", R"({"query_start_index":5})"));
    CHECK_THAT(*check("VectorDbApi.ListDataObjects",
                   R"({"query_start_index":5,"threshold_uuid_after":"u"})"),
        Contains("cannot be combined with argument `threshold_uuid_after`"));
}

TEST_CASE("root_sort_with_marker: no sorting with marker pagination on the root folder",
    "[toolkits][rules]")
{
    CHECK_THAT(
        *check("StoreApi.RetrieveFolderItems",
            R"({"folder_identifier":"0","sort_attribute":"name","use_marker_based_pagination":true})"),
        Contains("root folder"));
    CHECK_FALSE(check("StoreApi.RetrieveFolderItems",
        R"({"folder_identifier":"7","sort_attribute":"name","use_marker_based_pagination":true})"));
    CHECK_FALSE(check(
        "StoreApi.RetrieveFolderItems", R"({"folder_identifier":"0","sort_attribute":"name"})"));
}

TEST_CASE("root_secondary_sort: no secondary sort for the root folder", "[toolkits][rules]")
{
    CHECK_THAT(*check("StoreApi.GetFolderDetails",
                   R"({"folder_unique_identifier":"0","secondary_sort_attribute":"id"})"),
        Contains("argument `secondary_sort_attribute`: not supported for the root folder"));
    CHECK_FALSE(check("StoreApi.GetFolderDetails",
        R"({"folder_unique_identifier":"3","secondary_sort_attribute":"id"})"));
}

TEST_CASE("not_root_folder: the root folder 0 is refused where the specification excludes it",
    "[toolkits][rules]")
{
    CHECK_THAT(
        *check("StoreApi.GetFolderMetadata",
            R"({"folder_identifier":"0","metadata_scope":"global","metadata_template_name":"t"})"),
        Contains("argument `folder_identifier`: the root folder `0` is not allowed"));
    CHECK(check("StoreApi.RetrieveFolderMetadata", R"({"folder_identifier":"0"})"));
    CHECK(check("StoreApi.GetMetadataCascadePolicies", R"({"target_folder_id":"0"})"));
    CHECK_FALSE(check("StoreApi.GetMetadataCascadePolicies", R"({"target_folder_id":"9"})"));
    CHECK_FALSE(check("StoreApi.RetrieveFolderItems", R"({"folder_identifier":"0"})"));
}

TEST_CASE("user_id_with_api_key: AuthorizeUserToolAccess needs user_id", "[toolkits][rules]")
{
    CHECK_THAT(
        *check("CoreEngineApi.AuthorizeUserToolAccess", R"({"tool_name_for_authorization":"t"})"),
        Contains("argument `user_id`: required"));
    CHECK_FALSE(check("CoreEngineApi.AuthorizeUserToolAccess",
        R"({"tool_name_for_authorization":"t","user_id":"u"})"));
}

TEST_CASE("png_thumbnail_height: png thumbnails are at most 256 high", "[toolkits][rules]")
{
    CHECK_THAT(
        *check("StoreApi.RetrieveFileThumbnail",
            R"({"file_identifier":"f","thumbnail_file_format":"png","maximum_thumbnail_height":320})"),
        Contains("at most 256 for png"));
    CHECK_FALSE(check("StoreApi.RetrieveFileThumbnail",
        R"({"file_identifier":"f","thumbnail_file_format":"png","maximum_thumbnail_height":256})"));
    CHECK_FALSE(check("StoreApi.RetrieveFileThumbnail",
        R"({"file_identifier":"f","thumbnail_file_format":"jpg","maximum_thumbnail_height":320})"));
}

TEST_CASE("page_size_without_search: entries_per_page does not combine with search or filter",
    "[toolkits][rules]")
{
    CHECK_FALSE(check("DeskApi.ListAssets", R"({"entries_per_page":30})"));
    CHECK(check("DeskApi.ListAssets", R"({"entries_per_page":30,"search_query":"name:'x'"})"));
    CHECK_THAT(*check("DeskApi.ListAssets", R"({"entries_per_page":30,"asset_filter_query":"a"})"),
        Contains("cannot be combined with argument `asset_filter_query`"));
}
