"""Facts the importer adds on top of the reference: limits, formats and enums the specification
states, annotations, secrets, and the repairs of the bindings (issue 4, section 6;
docs/decisions.md).

Each entry names the specification line it comes from, so that a reviewer can check it.
"""
import re
import sys

# Keywords removed from request-body schemas: vendor prose and OpenAPI-only keywords.
SCHEMA_DROP = {"description", "example", "examples", "title", "nullable", "discriminator",
               "has_circular_reference", "externalDocs", "xml", "$comment"}

# (toolkit, tool or "*", parameter) -> constraints. Spec documents 1-3, "Endpoints" and "Limits".
LIMITS = {
    # Doc 1, conventions 4 and Limits: offsets at most 10000 (StoreApi only: docs/decisions.md).
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

# POST operations that only read (docs/decisions.md, "Annotations": search, query, preview).
READ_ONLY_POSTS = {
    "FindSimilarLinks", "GenerateAnswerSummary", "GetContentDetails", "PerformSearch",
    "PreviewSearchQueryAnalysis", "CheckDomainAvailabilityBulk", "QueryArtifactsInfo",
    "CheckRolePermission", "ValidateDataObjectStructure", "ExecuteGraphqlBatchQueries",
}
# Operations that remove or overwrite, besides every DELETE.
DESTRUCTIVE_VERBS = {"Delete", "Remove", "Revoke", "Replace", "Purge", "Permanently", "Abort"}
DESTRUCTIVE_TOOLS = {"BatchRegisterObjects"}  # doc 3: an existing UUID is overwritten

OAUTH_SECRETS = {"StoreApi": "STORE_ACCESS_TOKEN", "LedgerApi": "LEDGER_ACCESS_TOKEN"}
# Security review 3, item 20: the two CoreEngineApi project tools authenticate with a user's
# JWT. The server supplies it from this secret, so no model has to hold a credential; a
# caller may still pass one as the (now optional) Authorization argument.
ENGINE_USER_TOKEN = "ENGINE_USER_TOKEN"
ENGINE_USER_TOOLS = {"GetProjectDetails": "authorization_token",
                     "ListAccessibleProjects": "bearer_token"}


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
    if toolkit == "CoreEngineApi":
        secrets.append(ENGINE_USER_TOKEN)
        transmission.append({"secret": ENGINE_USER_TOKEN, "in": "header",
                             "name": "Authorization", "format": "Bearer {}"})
    return {"kind": ref_auth["kind"], "scopes": list(ref_auth["scopes"]), "secrets": secrets,
            "transmission": transmission}


def tool_secrets(toolkit, ref_tool):
    if toolkit == "CoreEngineApi" and ref_tool["name"] in ENGINE_USER_TOOLS:
        return [ENGINE_USER_TOKEN]
    if toolkit in OAUTH_SECRETS:
        return [OAUTH_SECRETS[toolkit]] if ref_tool.get("requires_oauth") else []
    return sorted(ref_tool.get("secrets") or [])


def _param(name, kind, where, wire, required=False, rwe=False, **extra):
    p = {"name": name, "wire_name": wire, "in": where, "type": kind, "item_type": "",
         "required": required, "required_when_executing": rwe, "enum": [], "array_format": "",
         "minimum": None, "maximum": None, "min_length": None, "max_length": None, "format": ""}
    p.update(extra)
    return p


# --- DeskApi bindings checked against the platform's documentation (issue 4, item 6) ---------
# The reference marks 30 DeskApi tools `doubtful`. Each was checked against Freshservice's public
# API v2 reference and independent clients; the verdict for all 30 is in toolkits/README.md
# ("DeskApi bindings checked against the platform's documentation"). This table holds the
# corrections only; a tool not listed here keeps the reference binding. Facts carried over:
# paths, methods, field names and types. Keys of an entry:
#   url: (old, new) substring replacement in the URL template
#   wire: {parameter name: new wire name}
#   add_params: new optional parameters (name, type, placement, wire name[, item type]);
#               a "required" one is marked so
#   body_content_type / headers: set when body parameters are added
#   request_body_schema: replaces an M-tool's body schema (the documented fields, no prose)
#   source: the evidence
FS_DOCS = "Freshservice API v2 reference (https://api.freshservice.com/)"
FS_DOCS_COPY = ("read in the copy of that page kept in ktj709/API-scraping-freshservice, "
                "data/raw_freshservice_docs.json (changelog up to July 2025)")
FS_PS = "flycastpartnersinc/FreshservicePS (PowerShell module, FreshservicePS/Public/...)"

_PM = ("/api/v2/projects", "/api/v2/pm/projects")
_PM_SOURCE = (f"{FS_DOCS}: the /projects routes are its 'Projects (legacy)' section, for "
              "accounts not yet moved to the new project management; the current ('new-gen') "
              f"routes are the same under /pm/projects; {FS_PS} uses /pm/projects only; "
              f"{FS_DOCS_COPY}")

_PROJECT_FIELDS = {
    "name": {"type": "string", "maxLength": 255},
    "description": {"type": "string"},
    "key": {"type": "string", "maxLength": 10},
    "status_id": {"type": "integer"},
    "priority_id": {"type": "integer"},
    "manager_id": {"type": "integer"},
    "start_date": {"type": "string", "format": "date"},
    "end_date": {"type": "string", "format": "date"},
    "visibility": {"type": "integer", "enum": [0, 1]},
    "sprint_duration": {"type": "integer"},
    "custom_fields": {"type": "object"},
}
_PROJECT_CREATE = dict(
    {k: v for k, v in _PROJECT_FIELDS.items() if k != "status_id"},
    project_type={"type": "integer", "enum": [0, 1]},
    project_template_id={"type": "integer"})
_TASK_FIELDS = {
    "title": {"type": "string"},
    "description": {"type": "string"},
    "type_id": {"type": "integer"},
    "reporter_id": {"type": "integer"},
    "assignee_id": {"type": "integer"},
    "planned_start_date": {"type": "string", "format": "date-time"},
    "planned_end_date": {"type": "string", "format": "date-time"},
    "planned_effort": {"type": "string"},
    "status_id": {"type": "integer"},
    "priority_id": {"type": "integer"},
    "parent_id": {"type": "integer"},
    "story_points": {"type": "number"},
    "sprint_id": {"type": "integer"},
    "version_id": {"type": "integer"},
    "custom_fields": {"type": "object"},
}
_TASK_UPDATE = dict({k: v for k, v in _TASK_FIELDS.items() if k not in ("type_id", "reporter_id")},
                    planned_duration={"type": "string"})

_CANNED_SOURCE = (f"{FS_DOCS}: canned responses and their folders are resources at "
                  "/api/v2/canned_responses/[id] and /api/v2/canned_response_folders/[folder_id] "
                  "(list, view, create); the reference documents no singular "
                  "/canned_response/ or /canned_response_folder/ route, and the same vendor's "
                  "helpdesk API updates these resources at their plural paths "
                  "(PUT /api/v2/canned_responses/[id]); " + FS_DOCS_COPY)

DESK_DOC_CORRECTIONS = {
    # Security review 3, item 21: the singular paths addressed no documented resource.
    "UpdateCannedResponseFolder": {
        "url": ("/canned_response_folder/", "/canned_response_folders/"),
        "source": _CANNED_SOURCE,
    },
    "DeleteCannedResponseFolder": {
        "url": ("/canned_response_folder/", "/canned_response_folders/"),
        "source": _CANNED_SOURCE,
    },
    "UpdateCannedResponse": {
        "url": ("/canned_response/", "/canned_responses/"),
        "source": _CANNED_SOURCE,
    },
    "DeleteCannedResponse": {
        "url": ("/canned_response/", "/canned_responses/"),
        "source": _CANNED_SOURCE,
    },
    "FetchOnboardingTickets": {
        "url": ("/onboarding_requests/id/", "/onboarding_requests/{id}/"),
        "add_params": [("onboarding_request_id", "integer", "path", "id", "", "required")],
        "source": f"{FS_DOCS}, 'View Onboarding Tickets': GET /api/v2/onboarding_requests/id/"
                  "tickets, where the page writes the request's id as the bare word id (as on "
                  "'View an Onboarding Request'); " + FS_PS + " (Get-FreshServiceOnboardingRequest "
                  "-tickets) requests /onboarding_requests/<id>/tickets; " + FS_DOCS_COPY,
    },
    "AddAssetComponent": {
        "add_params": [("component_type", "string", "body", "component_type"),
                       ("component_data", "array", "body", "component_data", "object")],
        "body_content_type": "application/json",
        "headers": {"Content-Type": "application/json"},
        "source": f"{FS_DOCS}, 'Create a Component' (added December 2024): POST "
                  "/api/v2/assets/[display_id]/components with a JSON body holding "
                  "component_type and a component_data array of objects; " + FS_DOCS_COPY,
    },
    "UpdateAssetComponent": {
        "add_params": [("component_data", "array", "body", "component_data", "object")],
        "body_content_type": "application/json",
        "headers": {"Content-Type": "application/json"},
        "source": f"{FS_DOCS}, 'Update a Component' (added December 2024): PUT "
                  "/api/v2/assets/[display_id]/components/[component_id] with a JSON body "
                  "holding a component_data array of objects; " + FS_DOCS_COPY,
    },
    "ListDeskProjects": {
        "url": _PM,
        "wire": {"filter_project_status": "filter"},
        "source": _PM_SOURCE + "; new-gen 'List All Projects' selects by the query parameter "
                  "filter (open, in_progress, completed, incomplete, archived) with page and "
                  "per_page",
    },
    "CreateDeskProject": {
        "url": _PM,
        "request_body_schema": {"type": "object", "properties": _PROJECT_CREATE,
                                "required": ["name", "project_type"]},
        "source": _PM_SOURCE + "; body fields of new-gen 'Create a Project' (name and "
                  "project_type mandatory)",
    },
    "GetProjectDetails": {"url": _PM, "source": _PM_SOURCE + " ('View a Project')"},
    "UpdateProject": {
        "url": _PM,
        "request_body_schema": {"type": "object", "properties": _PROJECT_FIELDS},
        "source": _PM_SOURCE + "; body fields of new-gen 'Update a Project'",
    },
    "DeleteDeskProject": {"url": _PM, "source": _PM_SOURCE + " ('Delete a Project')"},
    "ArchiveProject": {"url": _PM, "source": _PM_SOURCE + " ('Archive a Project', POST)"},
    "RestoreArchivedProject": {"url": _PM,
                               "source": _PM_SOURCE + " ('Restore a Project', POST)"},
    "GetProjectTasks": {"url": _PM, "source": _PM_SOURCE + " ('List All Project Tasks')"},
    "CreateProjectTask": {
        "url": _PM,
        "request_body_schema": {"type": "object", "properties": _TASK_FIELDS,
                                "required": ["title", "type_id"]},
        "source": _PM_SOURCE + "; body fields of new-gen 'Create a Project Task' (title and "
                  "type_id mandatory)",
    },
    "ViewProjectTaskDetails": {"url": _PM,
                               "source": _PM_SOURCE + " ('View a Project Task')"},
    "UpdateProjectTask": {
        "url": ("/api/v2/projects/{project_id}/tasks/{id}",
                "/api/v2/pm/projects/{project_id}/task/{id}"),
        "request_body_schema": {"type": "object", "properties": _TASK_UPDATE},
        "source": _PM_SOURCE + "; 'Update a Project Task' is documented with a singular task "
                  "segment (PUT .../projects/[project_id]/task/[id]) in both the legacy and the "
                  "new-gen section, and milliamp/freshservice_mcp "
                  "(src/freshservice_mcp/tools/projects.py) switched to that form; "
                  "FreshservicePS (Set-FreshServiceProjectTask) writes tasks/<id> instead",
    },
    "DeleteProjectTask": {"url": _PM, "source": _PM_SOURCE + " ('Delete a Project Task')"},
}


def apply_desk_doc_correction(tool, fix, log):
    full = f"DeskApi.{tool['name']}"
    if "url" in fix:
        old, new = fix["url"]
        if old not in tool["http"]["url"]:
            sys.exit(f"{full}: correction expects '{old}' in {tool['http']['url']}")
        tool["http"]["url"] = tool["http"]["url"].replace(old, new, 1)
        log.append(f"{full}: URL now {tool['http']['url']}")
    for pname, wire in fix.get("wire", {}).items():
        param = next(p for p in tool["params"] if p["name"] == pname)
        log.append(f"{full}: {pname} sent as '{wire}' (was '{param['wire_name']}')")
        param["wire_name"] = wire
    for entry in fix.get("add_params", []):
        pname, kind, where, wire = entry[:4]
        item = entry[4] if len(entry) > 4 else ""
        required = "required" in entry[5:]
        param = _param(pname, kind, where, wire, required=required, item_type=item)
        if where == "path":
            tool["params"].insert(0, param)
        else:
            tool["params"].append(param)
        log.append(f"{full}: new {'required' if required else 'optional'} parameter {pname} "
                   f"({where} '{wire}')")
    if "body_content_type" in fix:
        tool["http"]["body_content_type"] = fix["body_content_type"]
    if "headers" in fix:
        tool["http"]["headers"] = dict(sorted({**tool["http"]["headers"],
                                               **fix["headers"]}.items()))
    if "request_body_schema" in fix:
        tool["request_body_schema"] = fix["request_body_schema"]
        log.append(f"{full}: request-body schema replaced by the documented fields")


def repair_tool(toolkit, tool, ref_tool, clean_schema, log):
    """Repairs of the bindings (issue 4 section 6, docs/decisions.md); each is listed in
    toolkits/README.md."""
    name = tool["name"]
    full = f"{toolkit}.{name}"
    if full == "KanbanApi.UpdateKanbanCardCustomFields":
        # docs/decisions.md: the new parameter is required (the card cannot be addressed
        # without it).
        tool["params"].append(_param("card_id", "string", "path", "idCard", required=True,
                                     rwe=True))
        log.append(f"{full}: new required parameter card_id binds {{idCard}}")
    elif full == "DeployApi.GetTeamMembers":
        tool["params"].insert(0, _param("team_id", "string", "path", "teamId", required=True))
        log.append(f"{full}: new required parameter team_id binds {{teamId}}")
    elif full == "KanbanApi.UpdateKanbanCardCustomFields" and tool.get("request_body_schema"):
        # The vendor schema asks for 32 hex digits where the platform's object ids have 24
        # (its own ids everywhere else, and UpdateKanbanCardCustomField's pattern): with the
        # body checked before sending, every real id would be refused.
        item = tool["request_body_schema"]["properties"]["customFieldItems"]["items"]
        for field in ("idCustomField", "idValue"):
            item["properties"][field] = {"type": "string", "pattern": "^[0-9a-fA-F]{24}$"}
        log.append(f"{full}: id patterns of 24 hex digits (the schema said 32)")
    elif full == "LedgerApi.RetrieveBudgets":
        # The binding sent the end date as DateFrom and the start date as DateTo: a model that
        # fills the parameters by their names would ask for an empty or inverted period.
        for p in tool["params"]:
            if p["name"] == "filter_by_end_date":
                p["wire_name"] = "DateTo"
            elif p["name"] == "filter_start_date":
                p["wire_name"] = "DateFrom"
        log.append(f"{full}: filter_by_end_date sent as DateTo, filter_start_date as DateFrom "
                   "(were swapped)")
    elif full == "DeployApi.UpdateEdgeConfig":
        # The vendor's query `slug` is optional, as on every other team-scoped tool; the
        # upstream tool made it required by mixing it up with the body's `slug`.
        for p in tool["params"]:
            if p["name"] == "team_slug":
                p["required"] = False
        log.append(f"{full}: team_slug optional, as the platform has it")
    elif full == "DeployApi.UpdateEdgeConfigSchema":
        # The platform takes `definition` as a JSON Schema object; the parameter is a string,
        # so it is published as JSON text and sent as the JSON it holds (wire_forms.cpp).
        for p in tool["params"]:
            if p["name"] == "edge_config_schema_definition":
                p["schema"] = {"type": "string", "x-toolgate-wire": "json"}
        log.append(f"{full}: edge_config_schema_definition sent as the JSON it holds")
    elif full == "KanbanApi.AddDropdownOptionCustomField":
        # The binding sent only the field's id, so the platform got an option with no text.
        # The option object the platform returns (and independent clients send, e.g. trelloR's
        # add_field_option) is {"value": {"text": ...}, "color": ..., "pos": ...}. Optional in
        # the schema, as every parameter beyond the specification's list (test_spec_match).
        tool["params"] += [
            _param("option_text", "string", "body", "value.text", min_length=1),
            _param("option_color", "string", "body", "color"),
            _param("option_position", "string", "body", "pos"),
        ]
        tool["http"]["body_content_type"] = "application/json"
        log.append(f"{full}: new parameters option_text (sent as value.text), "
                   "option_color and option_position, in a JSON body")
    elif full == "KanbanApi.AddAttachmentToKanbanCard":
        for p in tool["params"]:
            if p["name"] == "file_attachment":
                p["in"] = "form"
        tool["http"]["body_content_type"] = "multipart/form-data"
        log.append(f"{full}: file_attachment sent as multipart form data")
    if toolkit == "CoreEngineApi" and name in ENGINE_USER_TOOLS:
        for p in tool["params"]:
            if p["name"] == ENGINE_USER_TOOLS[name]:
                p["required"] = False
        log.append(f"{full}: {ENGINE_USER_TOOLS[name]} optional; the server sends "
                   f"{ENGINE_USER_TOKEN} when it is left out")
    if toolkit == "DeskApi" and name in DESK_DOC_CORRECTIONS:
        apply_desk_doc_correction(tool, DESK_DOC_CORRECTIONS[name], log)
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
            continue  # docs/decisions.md: the one documented exception
        params = {p["name"]: p for p in tool["params"]}
        for sp in s["params"]:
            p = params.get(sp["name"])
            if p is None or p["type"] != sp["type"] or p["required"] != sp["required"]:
                sys.exit(f"{cat['toolkit']}.{tool['name']}: parameter {sp['name']} differs "
                         f"from the specification")
