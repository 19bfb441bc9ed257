// Generic argument checks: each check has a case that fails when the check is removed.
#include "validate_helpers.hpp"

using namespace toolgate::toolkits;
using Catch::Contains;
using toolgate::test::check;

TEST_CASE("valid arguments pass", "[toolkits][validate]")
{
    CHECK_FALSE(
        check("StoreApi.DeleteFolder", R"({"folder_identifier":"12","delete_recursively":true})"));
    CHECK_FALSE(check("CoreEngineApi.CheckEngineHealth", "{}"));
}

TEST_CASE("a missing required argument is named", "[toolkits][validate]")
{
    auto e = check("StoreApi.DeleteFolder", "{}");
    REQUIRE(e);
    CHECK_THAT(*e, Contains("missing required argument `folder_identifier` (string)"));
    CHECK(check("StoreApi.DeleteFolder", R"({"folder_identifier":null})"));
}

TEST_CASE("null counts as an absent optional argument", "[toolkits][validate]")
{
    CHECK_FALSE(
        check("StoreApi.DeleteFolder", R"({"folder_identifier":"1","delete_recursively":null})"));
}

TEST_CASE("a wrong JSON type names the expected and the given type", "[toolkits][validate]")
{
    auto e = check("StoreApi.DeleteFolder", R"({"folder_identifier":12})");
    REQUIRE(e);
    CHECK_THAT(*e, Contains("argument `folder_identifier`: expected string, got integer"));
    CHECK_THAT(
        *check("StoreApi.DeleteFolder", R"({"folder_identifier":"1","delete_recursively":"yes"})"),
        Contains("expected boolean, got string"));
}

TEST_CASE("integers accept integral numbers only", "[toolkits][validate]")
{
    CHECK_FALSE(check(
        "CoreEngineApi.CheckAuthStatus", R"({"authorization_id":"a","timeout_in_seconds":3.0})"));
    CHECK_THAT(*check("CoreEngineApi.CheckAuthStatus",
                   R"({"authorization_id":"a","timeout_in_seconds":3.5})"),
        Contains("expected integer, got number"));
}

TEST_CASE("array items are type-checked", "[toolkits][validate]")
{
    CHECK_FALSE(check(
        "StoreApi.CheckUserInviteStatus", R"({"invite_id":"1","included_attributes":["a"]})"));
    CHECK_THAT(
        *check("StoreApi.CheckUserInviteStatus", R"({"invite_id":"1","included_attributes":[1]})"),
        Contains("argument `included_attributes`: item 0: expected string, got integer"));
}

TEST_CASE("a value outside the enum lists the allowed values", "[toolkits][validate]")
{
    CHECK_FALSE(check("StoreApi.RetrieveFileThumbnail",
        R"({"file_identifier":"1","thumbnail_file_format":"jpg"})"));
    CHECK_THAT(*check("StoreApi.RetrieveFileThumbnail",
                   R"({"file_identifier":"1","thumbnail_file_format":"gif"})"),
        Contains("argument `thumbnail_file_format`: expected one of png, jpg, got `gif`"));
}

TEST_CASE("numeric limits of the specification are enforced", "[toolkits][validate]")
{
    SECTION("timeout_in_seconds at most 59")
    {
        CHECK_FALSE(check("CoreEngineApi.CheckAuthStatus",
            R"({"authorization_id":"a","timeout_in_seconds":59})"));
        CHECK_THAT(*check("CoreEngineApi.CheckAuthStatus",
                       R"({"authorization_id":"a","timeout_in_seconds":60})"),
            Contains("between 0 and 59, got 60"));
    }
    SECTION("StoreApi offsets at most 10000")
    {
        CHECK_FALSE(check("StoreApi.GetFolderDetails",
            R"({"folder_unique_identifier":"1","response_offset":10000})"));
        CHECK(check("StoreApi.GetFolderDetails",
            R"({"folder_unique_identifier":"1","response_offset":10001})"));
        CHECK(check("StoreApi.GetGroupCollaborations", R"({"group_id":"1","response_offset":-1})"));
    }
    SECTION("number_of_items at most 100")
    {
        CHECK_FALSE(
            check("CoreEngineApi.FetchToolsPage", R"({"worker_id":"w","number_of_items":100})"));
        CHECK(check("CoreEngineApi.FetchToolsPage", R"({"worker_id":"w","number_of_items":101})"));
    }
    SECTION("sticker positions from -60 to 100")
    {
        auto args = [](int left, int top) {
            return R"({"card_id":"c","sticker_identifier":"s","sticker_z_index":1,"sticker_left_position":)"
                + std::to_string(left) + R"(,"sticker_top_position":)" + std::to_string(top) + "}";
        };
        CHECK_FALSE(check("KanbanApi.AddStickerToKanbanCard", args(-60, 100)));
        CHECK_THAT(*check("KanbanApi.AddStickerToKanbanCard", args(-61, 0)),
            Contains("sticker_left_position"));
        CHECK_THAT(*check("KanbanApi.AddStickerToKanbanCard", args(0, 101)),
            Contains("sticker_top_position"));
    }
}

TEST_CASE("string lengths of the specification are enforced", "[toolkits][validate]")
{
    auto key = [](std::size_t n) {
        return R"({"invoice_id":"i","tenant_identifier":"t","idempotency_key":")"
            + std::string(n, 'k') + "\"}";
    };
    CHECK_FALSE(check("LedgerApi.CreateInvoiceHistory", key(128)));
    CHECK_THAT(*check("LedgerApi.CreateInvoiceHistory", key(129)),
        Contains("argument `idempotency_key`: at most 128 characters, got 129"));
    auto number = [](std::size_t n) {
        return R"({"ledger_tenant_identifier":"t","contact_number":")" + std::string(n, '7')
            + "\"}";
    };
    CHECK_FALSE(check("LedgerApi.GetLedgerContactByNumber", number(50)));
    CHECK(check("LedgerApi.GetLedgerContactByNumber", number(51)));
    // Characters, not bytes: 50 two-byte characters fit.
    std::string wide;
    for (int i = 0; i < 50; ++i) {
        wide += "\xC3\xA9";
    }
    CHECK_FALSE(check("LedgerApi.GetLedgerContactByNumber",
        R"({"ledger_tenant_identifier":"t","contact_number":")" + wide + "\"}"));
}

TEST_CASE("named formats are checked", "[toolkits][validate]")
{
    SECTION("dates YYYY-MM-DD")
    {
        CHECK_FALSE(check("LedgerApi.GetTrialBalanceReport",
            R"({"tenant_identifier":"t","report_date":"2024-01-31"})"));
        CHECK_THAT(*check("LedgerApi.GetTrialBalanceReport",
                       R"({"tenant_identifier":"t","report_date":"31/01/2024"})"),
            Contains("expected a date YYYY-MM-DD"));
    }
    SECTION("URLs starting with http:// or https://")
    {
        CHECK_FALSE(check("KanbanApi.AddAttachmentToKanbanCard",
            R"({"card_id":"c","attachment_url":"https://x.test/a"})"));
        CHECK_THAT(*check("KanbanApi.AddAttachmentToKanbanCard",
                       R"({"card_id":"c","attachment_url":"ftp://x.test/a"})"),
            Contains("http:// or https://"));
    }
    SECTION("backup ids of lowercase letters, digits, _ and -")
    {
        CHECK_FALSE(check("VectorDbApi.RestoreBackup",
            R"({"mode":"execute","request_body":"{}","backup_backend_storage":"s3","backup_identifier":"nightly_2024-01"})"));
        CHECK(check("VectorDbApi.RestoreBackup",
            R"({"mode":"execute","request_body":"{}","backup_backend_storage":"s3","backup_identifier":"Nightly"})"));
    }
    SECTION("a full name without leading or trailing space, at least one character")
    {
        auto args = [](std::string name) {
            return R"({"board_id":"b","member_email_address":"a@b.test","user_full_name":")" + name
                + "\"}";
        };
        CHECK_FALSE(check("KanbanApi.InviteMemberToKanbanBoard", args("Ann Lee")));
        CHECK_THAT(*check("KanbanApi.InviteMemberToKanbanBoard", args(" Ann")),
            Contains("no leading or trailing spaces"));
        CHECK_THAT(*check("KanbanApi.InviteMemberToKanbanBoard", args("")),
            Contains("at least 1 characters"));
    }
    SECTION("years, UTC times and ISO 8601 times")
    {
        CHECK(has_format(value_format::year, "2024"));
        CHECK_FALSE(has_format(value_format::year, "24"));
        CHECK(has_format(value_format::utc_date_time, "2024-01-31T10:00:00Z"));
        CHECK_FALSE(has_format(value_format::utc_date_time, "2024-01-31 10:00:00"));
        CHECK(has_format(value_format::date_time, "2024-01-31T10:00:00+02:00"));
        CHECK_FALSE(has_format(value_format::date_time, "yesterday"));
        CHECK(check("DeskApi.ListDeskTickets", R"({"updated_since":"last week"})"));
    }
}

TEST_CASE("an unknown argument is named with a close suggestion", "[toolkits][validate]")
{
    auto e = check("StoreApi.DeleteFolder", R"({"folder_identifer":"1"})");
    REQUIRE(e);
    CHECK_THAT(
        *e, Contains("unknown argument `folder_identifer`; did you mean `folder_identifier`?"));
    CHECK_THAT(
        *check("CoreEngineApi.CheckEngineHealth", R"({"x":1})"), Contains("takes no arguments"));
}

TEST_CASE("M-tools need a valid mode and, to execute, a request body and their extras",
    "[toolkits][validate]")
{
    CHECK_THAT(
        *check("DeskApi.CreateTicketTask", "{}"), Contains("missing required argument `mode`"));
    CHECK_THAT(*check("DeskApi.CreateTicketTask", R"({"mode":"run"})"),
        Contains("expected one of get_request_schema, execute"));
    CHECK_FALSE(check("DeskApi.CreateTicketTask", R"({"mode":"get_request_schema"})"));
    CHECK_THAT(
        *check("DeskApi.CreateTicketTask", R"({"mode":"execute","ticket_id_for_task_creation":5})"),
        Contains("missing argument `request_body`: required when mode is execute"));
    CHECK_THAT(*check("DeskApi.CreateTicketTask", R"({"mode":"execute","request_body":"{}"})"),
        Contains("missing argument `ticket_id_for_task_creation`: required when mode is execute"));
    CHECK_FALSE(check("DeskApi.CreateTicketTask",
        R"({"mode":"execute","request_body":"{}","ticket_id_for_task_creation":5})"));
}

TEST_CASE(
    "a whole-number double for an integer parameter is sent as an integer", "[toolkits][validate]")
{
    auto ref = find_tool("CoreEngineApi.CheckAuthStatus");
    REQUIRE(ref);
    auto args
        = boost::json::parse(R"({"authorization_id":"a","timeout_in_seconds":3.0})").as_object();
    normalise_integers(*ref->tool, args);
    CHECK(args.at("timeout_in_seconds").is_int64());
    CHECK(args.at("timeout_in_seconds").as_int64() == 3);
    CHECK(args.at("authorization_id").is_string());
}
