"""Facts the importer adds on top of the reference: limits, formats and enums the specification
states, annotations, secrets, and the repairs of the bindings (issue 4, section 6; DECISIONS).

Each entry names the specification line it comes from, so that a reviewer can check it.
"""
import re
import sys

# Keywords removed from request-body schemas: vendor prose and OpenAPI-only keywords.
SCHEMA_DROP = {"description", "example", "examples", "title", "nullable", "discriminator",
               "has_circular_reference", "externalDocs", "xml", "$comment"}

# (toolkit, tool or "*", parameter) -> constraints. Spec documents 1-3, "Endpoints" and "Limits".
LIMITS = {
    # Doc 1, conventions 4 and Limits: offsets at most 10000 (StoreApi, per DECISIONS).
    ("StoreApi", "*", "*offset*"): {"minimum": 0, "maximum": 10000},
    ("CoreEngineApi", "CheckAuthStatus", "timeout_in_seconds"): {"minimum": 0, "maximum": 59},
    ("CoreEngineApi", "FetchToolsPage", "number_of_items"): {"minimum": 1, "maximum": 100},
    ("CoreEngineApi", "FetchToolsPage", "start_offset"): {"minimum": 0},
    # Doc 1: thumbnails are at most 320 px high (jpg; png 256 is a validation rule).
    ("StoreApi", "RetrieveFileThumbnail", "minimum_thumbnail_height"): {"minimum": 0, "maximum": 320},
    ("StoreApi", "RetrieveFileThumbnail", "maximum_thumbnail_height"): {"minimum": 0, "maximum": 320},
    ("StoreApi", "GetFolderDetails", "secondary_sort_attribute"): {"enum": ["id", "name", "date", "size"]},
    ("StoreApi", "GetFolderDetails", "sort_direction"): {"enum": ["ASC", "DESC"]},
    ("StoreApi", "RetrieveFolderItems", "sort_attribute"): {"enum": ["id", "name", "date", "size"]},
    ("StoreApi", "RetrieveFolderItems", "sort_direction"): {"enum": ["ASC", "DESC"]},
    ("StoreApi", "RetrieveFileThumbnail", "thumbnail_file_format"): {"enum": ["png", "jpg"]},
    ("StoreApi", "DeleteFileMetadata", "metadata_scope"): {"enum": ["global", "enterprise"]},
    ("StoreApi", "GetFolderMetadata", "metadata_scope"): {"enum": ["global", "enterprise"]},
    ("StoreApi", "RetrieveMetadataTemplate", "metadata_template_scope"): {"enum": ["global", "enterprise"]},
    ("StoreApi", "GetLegalHoldPolicyAssignments", "filter_by_assignment_type"): {
        "enum": ["file", "file_version", "folder", "user", "ownership", "interactions"]},
    ("StoreApi", "GetManualStartWorkflows", "trigger_type_filter"): {"enum": ["WORKFLOW_MANUAL_START"]},
    ("StoreApi", "GetPendingCollaborationInvites", "collaboration_status"): {"enum": ["pending"]},
    # Doc 2, Limits and Endpoints.
    ("LedgerApi", "*", "idempotency_key"): {"max_length": 128},
    ("LedgerApi", "GetLedgerContactByNumber", "contact_number"): {"max_length": 50},
    ("LedgerApi", "GetTrialBalanceReport", "report_date"): {"format": "date"},
    ("LedgerApi", "RetrieveSalesQuotes", "expiry_date_after"): {"format": "date"},
    ("LedgerApi", "RetrieveSalesQuotes", "filter_date_to"): {"format": "date"},
    ("LedgerApi", "RetrieveSalesQuotes", "filter_expiry_date_before"): {"format": "date"},
    ("LedgerApi", "RetrieveSalesQuotes", "filter_start_date"): {"format": "date"},
    ("LedgerApi", "Retrieve1099Reports", "report_year"): {"format": "year"},
    ("LedgerApi", "RetrieveLedgerUsers", "modified_since_timestamp"): {"format": "date_time"},
    ("DeskApi", "AddNoteToProblem", "note_updated_datetime"): {"format": "utc_date_time"},
    ("DeskApi", "ListDeskTickets", "updated_since"): {"format": "date_time"},
    ("DeskApi", "ListDeskTickets", "ticket_filter"): {
        "enum": ["new_and_my_open", "watching", "spam", "deleted"]},
    ("DeskApi", "ListDeskTickets", "ticket_sort_order"): {"enum": ["asc", "desc"]},
    ("DeskApi", "ListDeskAgents", "agent_employment_status"): {"enum": ["fulltime", "occasional"]},
    ("DeskApi", "ListDeskProjects", "filter_project_status"): {
        "enum": ["all", "open", "in_progress", "completed"]},
    # Doc 3, Endpoints and Limits.
    ("KanbanApi", "AddAttachmentToKanbanCard", "attachment_url"): {"format": "http_url"},
    ("KanbanApi", "AddAttachmentToKanbanCard", "attachment_name"): {"max_length": 256},
    ("KanbanApi", "AddAttachmentToKanbanCard", "attachment_mime_type"): {"max_length": 256},
    ("KanbanApi", "AddKanbanWebhook", "webhook_description"): {"max_length": 16384},
    ("KanbanApi", "AddStickerToKanbanCard", "sticker_left_position"): {"minimum": -60, "maximum": 100},
    ("KanbanApi", "AddStickerToKanbanCard", "sticker_top_position"): {"minimum": -60, "maximum": 100},
    ("KanbanApi", "InviteMemberToKanbanBoard", "user_full_name"): {"min_length": 1, "format": "trimmed"},
    ("KanbanApi", "GetClaimableWorkspaces", "active_since_date"): {"format": "date"},
    ("KanbanApi", "GetClaimableWorkspaces", "inactive_since_date"): {"format": "date"},
    ("KanbanApi", "AddMemberToBoard", "member_role_type"): {"enum": ["admin", "normal", "observer"]},
    ("KanbanApi", "AddOrUpdateWorkspaceMember", "member_role_type"): {"enum": ["admin", "normal"]},
    ("KanbanApi", "ArchiveOrUnarchiveKanbanList", "archive_list"): {"enum": ["true", "false"]},
    ("KanbanApi", "GetBoardStars", "board_star_filter"): {"enum": ["mine", "none"]},
    ("KanbanApi", "GetCardChecklists", "include_all_checklists"): {"enum": ["all", "none"]},
    ("KanbanApi", "GetCardChecklists", "include_check_items"): {"enum": ["all", "none"]},
    ("KanbanApi", "GetChecklistById", "include_cards"): {
        "enum": ["all", "closed", "none", "open", "visible"]},
    ("KanbanApi", "GetChecklistById", "return_check_items"): {"enum": ["all", "none"]},
    ("KanbanApi", "GetChecklistCheckitems", "list_checkitems_filter"): {"enum": ["all", "none"]},
    ("KanbanApi", "GetChecklistField", "checklist_field_to_retrieve"): {"enum": ["name", "pos"]},
    ("KanbanApi", "GetKanbanMemberInfo", "board_backgrounds_option"): {
        "enum": ["all", "custom", "default", "none", "premium"]},
    ("KanbanApi", "GetKanbanMemberInfo", "include_custom_board_backgrounds"): {"enum": ["all", "none"]},
    ("KanbanApi", "GetKanbanMemberInfo", "include_custom_emoji"): {"enum": ["all", "none"]},
    ("KanbanApi", "GetKanbanMemberInfo", "include_custom_stickers"): {"enum": ["all", "none"]},
    ("KanbanApi", "GetKanbanMemberInfo", "include_invited_organizations"): {
        "enum": ["all", "members", "none", "public"]},
    ("KanbanApi", "GetKanbanMemberInfo", "include_tokens"): {"enum": ["all", "none"]},
    ("KanbanApi", "GetKanbanMemberInfo", "organization_visibility"): {
        "enum": ["all", "members", "none", "public"]},
    ("KanbanApi", "GetKanbanMemberNotificationSettings", "notification_channel"): {"enum": ["email"]},
    ("KanbanApi", "GetKanbanNotificationProperty", "notification_property_field"): {
        "enum": ["id", "unread", "type", "date", "dateRead", "data", "card", "board",
                 "idMemberCreator", "idAction", "reactions"]},
    ("KanbanApi", "GetWebhookField", "webhook_field_to_retrieve"): {
        "enum": ["active", "callbackURL", "description", "idModel"]},
    ("KanbanApi", "InviteMemberToKanbanBoard", "member_access_type"): {
        "enum": ["admin", "normal", "observer"]},
    ("KanbanApi", "ListBoardPowerUps", "power_up_filter"): {"enum": ["enabled", "available"]},
    ("KanbanApi", "ListCardAttachments", "restrict_to_cover_attachment"): {"enum": ["cover"]},
    ("VectorDbApi", "ListBackups", "backend_storage_system"): {"enum": ["filesystem", "gcs", "s3", "azure"]},
    ("VectorDbApi", "RestoreBackup", "backup_backend_storage"): {"enum": ["filesystem", "gcs", "s3", "azure"]},
    ("VectorDbApi", "RestoreBackup", "backup_identifier"): {"format": "backup_id"},
    ("VectorDbApi", "ListDataObjects", "include_additional_information"): {
        "enum": ["classification", "vector", "interpretation"]},
    ("VectorDbApi", "ReplicateShardReplica", "replication_operation_type"): {"enum": ["COPY", "MOVE"]},
    ("VectorDbApi", "RetrieveGroupNames", "group_type"): {"enum": ["oidc", "db"]},
    ("DeployApi", "DownloadCacheArtifact", "interactive_shell_client"): {"minimum": 0, "maximum": 1},
}

# POST operations that only read (DECISIONS "Annotations": search, query, preview).
READ_ONLY_POSTS = {
    "FindSimilarLinks", "GenerateAnswerSummary", "GetContentDetails", "PerformSearch",
    "PreviewSearchQueryAnalysis", "CheckDomainAvailabilityBulk", "QueryArtifactsInfo",
    "CheckRolePermission", "ValidateDataObjectStructure", "ExecuteGraphqlBatchQueries",
}
# Operations that remove or overwrite, besides every DELETE.
DESTRUCTIVE_VERBS = {"Delete", "Remove", "Revoke", "Replace", "Purge", "Permanently", "Abort"}
DESTRUCTIVE_TOOLS = {"BatchRegisterObjects"}  # doc 3: an existing UUID is overwritten

OAUTH_SECRETS = {"StoreApi": "STORE_ACCESS_TOKEN", "LedgerApi": "LEDGER_ACCESS_TOKEN"}


def _matches(pattern, name):
    return re.fullmatch(pattern.replace("*", ".*"), name) is not None


def apply_limits(toolkit, tool, param):
    for (kit, tool_pat, param_pat), limits in LIMITS.items():
        if kit == toolkit and tool_pat in ("*", tool) and _matches(param_pat, param["name"]):
            if param["type"] not in ("integer", "number") and ("minimum" in limits):
                continue
            for key, value in limits.items():
                if key == "enum" and param["enum"] and sorted(param["enum"]) != sorted(value):
                    print(f"note: {toolkit}.{tool}.{param['name']}: enum {param['enum']} "
                          f"replaced by the specification's {value}", file=sys.stderr)
                param[key] = value


def capabilities(spec_kit):
    """Capabilities as the specification words them, without its trailing remarks."""
    caps = [c for c in spec_kit["capabilities"] if not c[:1].isupper()]
    if spec_kit["name"] == "LedgerApi" and caps:
        caps[0] = "read and modify accounting records: " + caps[0]
    return caps


def toolkit_auth(toolkit, ref_auth):
    secrets = list(ref_auth["secrets"])
    transmission = []
    for t in ref_auth["transmission"]:
        secret = t["secret"]
        if secret.startswith("(OAuth2"):
            secret = OAUTH_SECRETS[toolkit]
        elif secret.startswith("("):
            continue  # LedgerApi's tenant id is a tool parameter (in: header), not a secret
        transmission.append({"secret": secret, "in": t["in"], "name": t["name"],
                             "format": t["format"]})
    if toolkit in OAUTH_SECRETS:
        secrets = [OAUTH_SECRETS[toolkit]]
    return {"kind": ref_auth["kind"], "scopes": list(ref_auth["scopes"]), "secrets": secrets,
            "transmission": transmission}


def tool_secrets(toolkit, ref_tool):
    if toolkit in OAUTH_SECRETS:
        return [OAUTH_SECRETS[toolkit]] if ref_tool.get("requires_oauth") else []
    return sorted(ref_tool.get("secrets") or [])


def _param(name, kind, where, wire, required=False, rwe=False, **extra):
    p = {"name": name, "wire_name": wire, "in": where, "type": kind, "item_type": "",
         "required": required, "required_when_executing": rwe, "enum": [], "array_format": "",
         "minimum": None, "maximum": None, "min_length": None, "max_length": None, "format": ""}
    p.update(extra)
    return p


def repair_tool(toolkit, tool, ref_tool, clean_schema, log):
    """Repairs of the bindings (issue 4 section 6, DECISIONS); each is listed in the README."""
    name = tool["name"]
    full = f"{toolkit}.{name}"
    if full == "KanbanApi.UpdateKanbanCardCustomFields":
        # DECISIONS: the new parameter is required (the card cannot be addressed without it).
        tool["params"].append(_param("card_id", "string", "path", "idCard", required=True,
                                     rwe=True))
        log.append(f"{full}: new required parameter card_id binds {{idCard}}")
    elif full == "DeployApi.GetTeamMembers":
        tool["params"].insert(0, _param("team_id", "string", "path", "teamId", required=True))
        log.append(f"{full}: new required parameter team_id binds {{teamId}}")
    elif full == "DeskApi.FetchOnboardingTickets":
        tool["http"]["url"] = tool["http"]["url"].replace("/onboarding_requests/id/",
                                                          "/onboarding_requests/{id}/")
        tool["params"].insert(0, _param("onboarding_request_id", "integer", "path", "id",
                                        required=True))
        log.append(f"{full}: literal 'id' path segment bound to new onboarding_request_id")
    elif full == "KanbanApi.AddAttachmentToKanbanCard":
        for p in tool["params"]:
            if p["name"] == "file_attachment":
                p["in"] = "form"
        tool["http"]["body_content_type"] = "multipart/form-data"
        log.append(f"{full}: file_attachment sent as multipart form data")
    if toolkit == "SearchApi" and ref_tool.get("dropped_upstream_parameters"):
        for dropped in ref_tool["dropped_upstream_parameters"]:
            tool["params"].append(_param(dropped["upstream_name"], "object", "body",
                                         dropped["wire_name"],
                                         schema=clean_schema(dropped["schema"])))
            log.append(f"{full}: optional object parameter {dropped['upstream_name']} "
                       f"sends the request body")
    if toolkit == "LedgerApi" and ref_tool.get("repair_hint") and "HistoryRecords" in \
            ref_tool["repair_hint"]:
        tool["params"].append(_param("history_details", "string", "body",
                                     "HistoryRecords[].Details"))
        tool["http"]["body_content_type"] = "application/json"
        log.append(f"{full}: optional history_details sent as HistoryRecords[0].Details")


def check_against_spec(cat, spec_tools):
    """Fails the import when a tool the specification lists is missing or differs."""
    by_name = {t["name"]: t for t in cat["tools"]}
    by_op = {t["operation_id"]: t for t in cat["tools"] if t["operation_id"]}
    for s in spec_tools:
        tool = by_name.get(s["name"]) if s["name"] else by_op.get(s["operation_id"])
        if tool is None:
            sys.exit(f"{cat['toolkit']}: the specification's {s['name'] or s['operation_id']} "
                     f"is missing")
        if s["name"] == "GetRolesForUser":
            continue  # DECISIONS: the one documented exception
        params = {p["name"]: p for p in tool["params"]}
        for sp in s["params"]:
            p = params.get(sp["name"])
            if p is None or p["type"] != sp["type"] or p["required"] != sp["required"]:
                sys.exit(f"{cat['toolkit']}.{tool['name']}: parameter {sp['name']} differs "
                         f"from the specification")
