// Hand-written tool specs for the executor tests: one small toolkit per platform, shaped like
// the catalogue's (same transmission rules, base URLs and binding kinds), so the tests do not
// depend on the generated catalogue.
#pragma once

#include "toolkits/tool_spec.hpp"

#include <span>
#include <string_view>

namespace toolgate::toolkits::fixtures {

using loc = param_location;
using jt = json_type;

constexpr param_spec param(std::string_view name, std::string_view wire, loc in,
    jt type = jt::string, bool required = false, array_format fmt = array_format::none)
{
    param_spec p;
    p.name = name;
    p.wire_name = wire;
    p.in = in;
    p.type = type;
    p.required = required;
    p.array_fmt = fmt;
    return p;
}

constexpr param_spec executing(param_spec p)
{
    p.required_when_executing = true;
    return p;
}

constexpr tool_spec tool(std::string_view name, http_binding http,
    std::span<const param_spec> params = {}, std::span<const std::string_view> secrets = {})
{
    tool_spec t;
    t.name = name;
    t.http = http;
    t.params = params;
    t.secrets = secrets;
    return t;
}

constexpr tool_spec m_tool(tool_spec t, std::string_view request_body_schema)
{
    t.m_tool = true;
    t.request_body_schema = request_body_schema;
    return t;
}

constexpr toolkit_spec toolkit(std::string_view name, std::span<const secret_transmission> auth,
    std::span<const std::string_view> bases, std::span<const tool_spec> tools)
{
    toolkit_spec k;
    k.name = name;
    k.transmission = auth;
    k.base_urls = bases;
    k.tools = tools;
    return k;
}

// --- StoreApi: three hosts, Bearer token ----------------------------------------------------
inline constexpr std::string_view store_secrets[] = { "STORE_ACCESS_TOKEN" };
inline constexpr secret_transmission store_auth[]
    = { { "STORE_ACCESS_TOKEN", "header", "Authorization", "Bearer {}" } };
inline constexpr std::string_view store_bases[] = { "https://api.box.com/2.0",
    "https://upload.box.com/api/2.0", "https://dl.boxcloud.com/2.0" };
inline constexpr header_spec box_version[] = { { "box-version", "2024.0" } };

inline constexpr param_spec get_folder_params[] = {
    param("folder_id", "folder_id", loc::path, jt::string, true),
    param("fields", "fields", loc::query, jt::array, false, array_format::comma),
};
inline constexpr param_spec folder_items_params[] = {
    param("folder_id", "folder_id", loc::path, jt::string, true),
    param("pagination_start_marker", "marker", loc::query),
    param("use_marker_based_pagination", "usemarker", loc::query, jt::boolean),
    param("max_items", "limit", loc::query, jt::integer),
    param("min_score", "score", loc::query, jt::number),
    param("event_types", "event_type", loc::query, jt::array, false, array_format::repeat),
    param("sort_ascending", "asc", loc::query, jt::boolean),
};
inline constexpr param_spec upload_session_params[]
    = { param("upload_session_id", "upload_session_id", loc::path, jt::string, true) };
inline constexpr param_spec zip_params[]
    = { param("zip_download_id", "zip_download_id", loc::path, jt::string, true) };
inline constexpr param_spec thumbnail_params[] = {
    param("file_id", "file_id", loc::path, jt::string, true),
    param("extension", "extension", loc::path, jt::string, true),
};
inline constexpr param_spec update_file_params[] = {
    param("file_id", "file_id", loc::path, jt::string, true),
    param("etag", "if-match", loc::header),
    param("new_name", "name", loc::body),
    param("parent_folder_id", "parent.id", loc::body),
    param("lock_access", "lock.access", loc::body),
    param("tags", "tags", loc::body, jt::array),
};

inline constexpr tool_spec store_tools[] = {
    tool("GetFolder", { "GET", "https://api.box.com/2.0/folders/{folder_id}", box_version, "" },
        get_folder_params, store_secrets),
    tool("RetrieveFolderItems",
        { "GET", "https://api.box.com/2.0/folders/{folder_id}/items", box_version, "" },
        folder_items_params, store_secrets),
    tool("AbortUploadSession",
        { "DELETE", "https://upload.box.com/api/2.0/files/upload_sessions/{upload_session_id}",
            box_version, "" },
        upload_session_params, store_secrets),
    tool("DownloadZipContent",
        { "GET", "https://dl.boxcloud.com/2.0/zip_downloads/{zip_download_id}/content", box_version,
            "" },
        zip_params, store_secrets),
    tool("GetThumbnail",
        { "GET", "https://api.box.com/2.0/files/{file_id}/thumbnail.{extension}", box_version, "" },
        thumbnail_params, store_secrets),
    tool("UpdateFile",
        { "PUT", "https://api.box.com/2.0/files/{file_id}", box_version, "application/json" },
        update_file_params, store_secrets),
};
inline constexpr toolkit_spec store = toolkit("StoreApi", store_auth, store_bases, store_tools);
inline constexpr tool_spec const& get_folder = store_tools[0];
inline constexpr tool_spec const& folder_items = store_tools[1];
inline constexpr tool_spec const& abort_upload = store_tools[2];
inline constexpr tool_spec const& download_zip = store_tools[3];
inline constexpr tool_spec const& thumbnail = store_tools[4];
inline constexpr tool_spec const& update_file = store_tools[5];

// --- CoreEngineApi: Bearer key, two open tools, a caller-supplied Authorization, an M-tool ---
inline constexpr std::string_view engine_secrets[] = { "ENGINE_API_KEY" };
inline constexpr secret_transmission engine_auth[]
    = { { "ENGINE_API_KEY", "header", "Authorization", "Bearer {}" } };
inline constexpr std::string_view engine_bases[] = { "https://api.arcade.dev" };
inline constexpr header_spec json_content[] = { { "Content-Type", "application/json" } };
inline constexpr param_spec projects_params[] = {
    param("bearer_token", "Authorization", loc::header, jt::string, true),
    param("limit", "limit", loc::query, jt::integer),
};
inline constexpr param_spec execute_tool_params[] = {
    executing(param("mode", "", loc::mode, jt::string, true)),
    executing(param("request_body", "", loc::request_body)),
};
inline constexpr tool_spec engine_tools[] = {
    tool("CheckEngineHealth", { "GET", "https://api.arcade.dev/v1/health", {}, "" }),
    tool("ListAccessibleProjects", { "GET", "https://api.arcade.dev/v1/projects", {}, "" },
        projects_params, engine_secrets),
    m_tool(
        tool("ExecuteTool",
            { "POST", "https://api.arcade.dev/v1/tools/execute", json_content, "application/json" },
            execute_tool_params, engine_secrets),
        R"({"type":"object","properties":{"tool_name":{"type":"string"}},"required":["tool_name"]})"),
    tool("ListTools", { "GET", "https://api.arcade.dev/v1/tools", {}, "" }, {}, engine_secrets),
};
inline constexpr toolkit_spec engine
    = toolkit("CoreEngineApi", engine_auth, engine_bases, engine_tools);
inline constexpr tool_spec const& engine_health = engine_tools[0];
inline constexpr tool_spec const& engine_projects = engine_tools[1];
inline constexpr tool_spec const& execute_tool = engine_tools[2];
inline constexpr tool_spec const& list_tools = engine_tools[3];

// --- SearchApi: x-api-key ------------------------------------------------------------------
inline constexpr std::string_view search_secrets[] = { "SEARCH_API_KEY" };
inline constexpr secret_transmission search_auth[]
    = { { "SEARCH_API_KEY", "header", "x-api-key", "{}" } };
inline constexpr std::string_view search_bases[] = { "https://api.exa.ai" };
inline constexpr param_spec webset_params[]
    = { param("webset_id", "id", loc::path, jt::string, true) };
inline constexpr tool_spec search_tools[]
    = { tool("GetWebset", { "GET", "https://api.exa.ai/websets/v0/websets/{id}", {}, "" },
        webset_params, search_secrets) };
inline constexpr toolkit_spec search
    = toolkit("SearchApi", search_auth, search_bases, search_tools);

// --- LedgerApi: Bearer token, tenant header parameter, binary Accept ------------------------
inline constexpr std::string_view ledger_secrets[] = { "LEDGER_ACCESS_TOKEN" };
inline constexpr secret_transmission ledger_auth[]
    = { { "LEDGER_ACCESS_TOKEN", "header", "Authorization", "Bearer {}" } };
inline constexpr std::string_view ledger_bases[] = { "https://api.xero.com/api.xro/2.0" };
inline constexpr header_spec pdf_accept[] = { { "Accept", "application/pdf" } };
inline constexpr param_spec invoice_params[] = {
    param("invoice_id", "InvoiceID", loc::path, jt::string, true),
    param("tenant_id", "xero-tenant-id", loc::header, jt::string, true),
    param("invoice_ids", "IDs", loc::query, jt::array, false, array_format::comma),
};
inline constexpr tool_spec ledger_tools[] = { tool("GetInvoiceAsPdf",
    { "GET", "https://api.xero.com/api.xro/2.0/Invoices/{InvoiceID}", pdf_accept, "" },
    invoice_params, ledger_secrets) };
inline constexpr toolkit_spec ledger
    = toolkit("LedgerApi", ledger_auth, ledger_bases, ledger_tools);

// --- DeskApi: HTTP Basic, the account host from a secret, a pre-encoded filter, a form -----
inline constexpr std::string_view desk_secrets[] = { "DESK_API_KEY", "DESK_SUBDOMAIN" };
inline constexpr secret_transmission desk_auth[]
    = { { "DESK_API_KEY", "basic", "Authorization", "Basic base64({}:)" },
          { "DESK_SUBDOMAIN", "url", "host", "https://{}.freshservice.com/api/v2" } };
inline constexpr std::string_view desk_bases[]
    = { "https://{DESK_SUBDOMAIN}.freshservice.com/api/v2" };
inline constexpr param_spec assets_params[] = {
    param("asset_filter_query", "filter", loc::query),
    param("search_query", "search", loc::query),
    param("entries_per_page", "per_page", loc::query, jt::integer),
};
inline constexpr param_spec form_params[] = {
    param("subject", "subject", loc::form, jt::string, true),
    param("cc_emails", "cc_emails", loc::form, jt::array),
};
inline constexpr tool_spec desk_tools[] = {
    tool("ListAssets", { "GET", "https://{DESK_SUBDOMAIN}.freshservice.com/api/v2/assets", {}, "" },
        assets_params, desk_secrets),
    tool("SubmitForm",
        { "POST", "https://{DESK_SUBDOMAIN}.freshservice.com/api/v2/forms", {},
            "application/x-www-form-urlencoded" },
        form_params, desk_secrets),
};
inline constexpr toolkit_spec desk = toolkit("DeskApi", desk_auth, desk_bases, desk_tools);
inline constexpr tool_spec const& list_assets = desk_tools[0];
inline constexpr tool_spec const& submit_form = desk_tools[1];

// --- KanbanApi: key and token in the query, a multipart attachment ------------------------
inline constexpr std::string_view kanban_secrets[] = { "KANBAN_API_KEY", "KANBAN_TOKEN" };
inline constexpr secret_transmission kanban_auth[]
    = { { "KANBAN_API_KEY", "query", "key", "{}" }, { "KANBAN_TOKEN", "query", "token", "{}" } };
inline constexpr std::string_view kanban_bases[] = { "https://api.trello.com/1" };
inline constexpr param_spec attachment_params[] = {
    param("card_id", "id", loc::path, jt::string, true),
    param("attachment_mime_type", "mimeType", loc::query),
    param("attachment_name", "name", loc::query),
    param("file_attachment", "file", loc::form),
    param("use_as_card_cover", "setCover", loc::query, jt::boolean),
};
inline constexpr param_spec cards_params[]
    = { param("card_ids", "ids", loc::query, jt::array, false, array_format::comma) };
inline constexpr tool_spec kanban_tools[] = {
    tool("AddAttachmentToKanbanCard",
        { "POST", "https://api.trello.com/1/cards/{id}/attachments", {}, "multipart/form-data" },
        attachment_params, kanban_secrets),
    tool("GetCards", { "GET", "https://api.trello.com/1/cards", {}, "" }, cards_params,
        kanban_secrets),
};
inline constexpr toolkit_spec kanban
    = toolkit("KanbanApi", kanban_auth, kanban_bases, kanban_tools);
inline constexpr tool_spec const& add_attachment = kanban_tools[0];
inline constexpr tool_spec const& get_cards = kanban_tools[1];

// --- VectorDbApi: the base URL is a secret, Bearer key, an entire-body array --------------
inline constexpr std::string_view vectordb_secrets[]
    = { "VECTORDB_API_KEY", "VECTORDB_SERVER_URL" };
inline constexpr secret_transmission vectordb_auth[]
    = { { "VECTORDB_API_KEY", "header", "Authorization", "Bearer {}" },
          { "VECTORDB_SERVER_URL", "url", "base", "{}/v1" } };
inline constexpr std::string_view vectordb_bases[] = { "{VECTORDB_SERVER_URL}/v1" };
inline constexpr header_spec consistency[] = { { "consistency", "true" } };
inline constexpr param_spec tenants_params[] = {
    param("class_name", "className", loc::path, jt::string, true),
    param("tenant_names", "(entire body)", loc::body, jt::array, true),
};
inline constexpr tool_spec vectordb_tools[] = {
    tool("DeleteTenants",
        { "DELETE", "{VECTORDB_SERVER_URL}/v1/schema/{className}/tenants", json_content,
            "application/json" },
        tenants_params, vectordb_secrets),
    tool("GetSchema", { "GET", "{VECTORDB_SERVER_URL}/v1/schema", consistency, "" }, {},
        vectordb_secrets),
};
inline constexpr toolkit_spec vectordb
    = toolkit("VectorDbApi", vectordb_auth, vectordb_bases, vectordb_tools);
inline constexpr tool_spec const& delete_tenants = vectordb_tools[0];
inline constexpr tool_spec const& get_schema = vectordb_tools[1];

// --- DeployApi: Bearer token, an M-tool with a path extra --------------------------------
inline constexpr std::string_view deploy_secrets[] = { "DEPLOY_ACCESS_TOKEN" };
inline constexpr secret_transmission deploy_auth[]
    = { { "DEPLOY_ACCESS_TOKEN", "header", "Authorization", "Bearer {}" } };
inline constexpr std::string_view deploy_bases[] = { "https://api.vercel.com" };
inline constexpr param_spec transfer_params[] = {
    executing(param("mode", "", loc::mode, jt::string, true)),
    executing(param("project_transfer_code", "code", loc::path)),
    param("team_identifier", "teamId", loc::query),
    executing(param("request_body", "", loc::request_body)),
};
inline constexpr tool_spec deploy_tools[]
    = { m_tool(tool("AcceptProjectTransfer",
                   { "PUT", "https://api.vercel.com/projects/transfer-request/{code}", json_content,
                       "application/json" },
                   transfer_params, deploy_secrets),
        R"({"type":"object","properties":{"newProjectName":{"type":"string"}}})") };
inline constexpr toolkit_spec deploy
    = toolkit("DeployApi", deploy_auth, deploy_bases, deploy_tools);
inline constexpr tool_spec const& accept_transfer = deploy_tools[0];

} // namespace toolgate::toolkits::fixtures
