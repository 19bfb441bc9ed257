"""The writers' per-tool decisions that the reference data cannot give, applied by
tools/import-reference on top of the rules in catalogue_rules.py: annotations taken from what an
operation does (an additive PUT, a POST that overwrites), and the values a string parameter takes
where the platform fixes them. Until issue 25 they sat beside the words in descriptions*.json;
catalogue.json carries their result, which is what the build reads.
"""

# (toolkit, tool) -> the annotations that differ from the rule of docs/decisions.md
# ("Annotations"; `hints` in tools/import-reference).
HINTS = {
    ("CoreEngineApi", "ExecuteTool"): {"destructive": True},
    ("CoreEngineApi", "TestWorkerConnection"): {"read_only": True},
    ("DeployApi", "AddNewDomainDeploy"): {"destructive": True},
    ("DeployApi", "AdvanceRolloutStage"): {"destructive": True},
    ("DeployApi", "CreateProjectEnvironmentVariables"): {"destructive": True},
    ("DeployApi", "ForceCompleteRollingRelease"): {"destructive": True},
    ("DeployApi", "InvalidateCacheByTags"): {"destructive": True},
    ("DeployApi", "MoveProjectDomain"): {"destructive": True},
    ("DeployApi", "PauseProject"): {"destructive": True},
    ("DeployApi", "PromoteDeploymentToProduction"): {"destructive": True},
    ("DeployApi", "RequestDeployInvoiceRefund"): {"destructive": True},
    ("DeployApi", "RerequestCheck"): {"destructive": True},
    ("DeployApi", "SetDeploymentAlias"): {"destructive": True},
    ("DeployApi", "SubmitBillingData"): {"destructive": True},
    ("DeployApi", "SubmitPrepaymentBalances"): {"destructive": True},
    ("DeployApi", "TransferDomainToDeploy"): {"destructive": True},
    ("DeployApi", "UnpauseProject"): {"destructive": True},
    ("DeployApi", "UpdateAccessGroup"): {"destructive": True},
    ("DeployApi", "UpdateAttackChallengeMode"): {"destructive": True},
    ("DeployApi", "UpdateEdgeConfigSchema"): {"destructive": True},
    ("DeployApi", "UploadCertificate"): {"destructive": False},
    ("DeskApi", "ArchiveProject"): {"destructive": True},
    ("DeskApi", "RestoreArchivedProject"): {"destructive": True},
    ("KanbanApi", "ArchiveAllCardsInList"): {"destructive": True},
    ("KanbanApi", "CreateMemberAvatar"): {"destructive": True},
    ("KanbanApi", "GenerateBoardCalendarKey"): {"destructive": True},
    ("KanbanApi", "GenerateBoardEmailKey"): {"destructive": True},
    ("KanbanApi", "InviteMemberToKanbanBoard"): {"destructive": False},
    ("KanbanApi", "KanbanMoveAllCardsInList"): {"destructive": True},
    ("KanbanApi", "MarkAllNotificationsRead"): {"destructive": True},
    ("KanbanApi", "MarkKanbanBoardAsViewed"): {"destructive": True},
    ("KanbanApi", "MarkKanbanCardNotificationsRead"): {"destructive": True},
    ("KanbanApi", "SetWorkplaceLogo"): {"destructive": True},
    ("KanbanApi", "UpdateOrganizationMembers"): {"destructive": False},
    ("LedgerApi", "AddContactHistoryRecord"): {"destructive": False},
    ("LedgerApi", "AddExpenseClaimHistory"): {"destructive": False},
    ("LedgerApi", "AddQuoteHistory"): {"destructive": False},
    ("LedgerApi", "CreateBankTransactionHistory"): {"destructive": False},
    ("LedgerApi", "CreateBankTransferHistory"): {"destructive": False},
    ("LedgerApi", "CreateBatchPaymentHistoryRecord"): {"destructive": False},
    ("LedgerApi", "CreateInvoiceHistory"): {"destructive": False},
    ("LedgerApi", "CreateItemHistory"): {"destructive": False},
    ("LedgerApi", "CreateJournalHistoryRecord"): {"destructive": False},
    ("LedgerApi", "CreatePaymentHistoryRecord"): {"destructive": False},
    ("LedgerApi", "CreatePrepaymentHistory"): {"destructive": False},
    ("LedgerApi", "CreatePurchaseOrderHistory"): {"destructive": False},
    ("LedgerApi", "CreateRepeatingInvoiceHistory"): {"destructive": False},
    ("LedgerApi", "FetchCreditNoteHistory"): {"destructive": False},
    ("LedgerApi", "RecordOverpaymentHistory"): {"destructive": False},
    ("LedgerApi", "RecordReceiptHistory"): {"destructive": False},
    ("LedgerApi", "SetupConversionDetails"): {"destructive": True},
    ("SearchApi", "CancelEnrichmentProcess"): {"destructive": True},
    ("SearchApi", "CancelRunningSearch"): {"destructive": True},
    ("SearchApi", "CancelWebsetOperations"): {"destructive": True},
    ("SearchApi", "CreateWebsetSearch"): {"destructive": True},
    ("SearchApi", "UpdateWebsetSearch"): {"destructive": True},
    ("StoreApi", "CancelSignRequest"): {"destructive": True},
    ("VectorDbApi", "ActivateDatabaseUser"): {"destructive": True},
    ("VectorDbApi", "CancelReplication"): {"destructive": True},
    ("VectorDbApi", "DeactivateDatabaseUser"): {"destructive": True},
    ("VectorDbApi", "ForceDeleteReplications"): {"destructive": True},
    ("VectorDbApi", "InitiateClassificationTask"): {"destructive": True},
    ("VectorDbApi", "ReplicateShardReplica"): {"destructive": True},
    ("VectorDbApi", "RestoreBackup"): {"destructive": True},
    ("VectorDbApi", "RotateUserApiKey"): {"destructive": True},
}

# (toolkit, tool, parameter) -> the values the platform accepts, replacing the reference's.
ENUMS = {
    ("DeployApi", "CreateAccessGroupProject", "project_role"):
        ["ADMIN", "PROJECT_DEVELOPER", "PROJECT_VIEWER"],
    ("DeployApi", "CreateCustomEnvironment", "branch_matcher_type"):
        ["equals", "startsWith", "endsWith"],
    ("DeployApi", "CreateDeployDeployment", "force_new_deployment"): ["0", "1"],
    ("DeployApi", "CreateDeployDeployment", "skip_framework_detection_confirmation"): ["0", "1"],
    ("DeployApi", "ExchangeSsoToken", "sso_grant_type"): ["authorization_code"],
    ("DeployApi", "FetchDeploymentLogs", "event_order"): ["forward", "backward"],
    ("DeployApi", "GetDomainConfiguration", "include_only_assigned_nameservers"): ["true", "false"],
    ("DeployApi", "GetDomainPrice", "domain_status_for_pricing"):
        ["new", "renewal", "transfer", "redemption"],
    ("DeployApi", "GetProjectEnvironmentVariables", "decrypt_values"): ["true", "false"],
    ("DeployApi", "GetRollingRelease", "filter_by_release_state"):
        ["ACTIVE", "COMPLETE", "ABORTED"],
    ("DeployApi", "GetTeamMembers", "filter_by_team_role"):
        ["OWNER", "MEMBER", "DEVELOPER", "SECURITY", "BILLING", "VIEWER", "VIEWER_FOR_PLUS",
         "CONTRIBUTOR"],
    ("DeployApi", "RetrieveIntegrationConfigurations", "configuration_view_type"):
        ["account", "project"],
    ("DeployApi", "RetrieveIntegrationConfigurations", "installation_type"):
        ["marketplace", "external"],
    ("DeployApi", "RetrieveProjectDomains", "domains_sort_order"): ["ASC", "DESC"],
    ("DeployApi", "RetrieveProjectDomains", "filter_by_verification_status"): ["true", "false"],
    ("DeployApi", "RetrieveProjectDomains", "filter_production_domains"): ["true", "false"],
    ("DeployApi", "RetrieveProjectDomains", "filter_target_domain"): ["production", "preview"],
    ("DeployApi", "RetrieveProjectDomains", "include_redirect_domains"): ["true", "false"],
    ("DeployApi", "RetrieveProjectsList", "filter_by_elastic_concurrency"): ["0", "1"],
    ("DeployApi", "RetrieveProjectsList", "filter_by_static_ips_enabled"): ["0", "1"],
    ("DeployApi", "RetrieveProjectsList", "require_git_fork_authorization"): ["0", "1"],
    ("DeployApi", "UpdateAccessGroupProject", "project_role"):
        ["ADMIN", "PROJECT_DEVELOPER", "PROJECT_VIEWER"],
    ("DeployApi", "UpdateCustomEnvironment", "branch_matcher_type"):
        ["equals", "startsWith", "endsWith"],
    ("KanbanApi", "CreateEnterpriseAuthToken", "token_expiration"):
        ["1hour", "1day", "30days", "never"],
    ("KanbanApi", "CreateKanbanBoard", "card_aging_type"): ["pirate", "regular"],
    ("KanbanApi", "CreateKanbanBoard", "comment_permission"):
        ["disabled", "members", "observers", "org", "public"],
    ("KanbanApi", "CreateKanbanBoard", "enabled_power_ups"):
        ["all", "calendar", "cardAging", "recap", "voting"],
    ("KanbanApi", "CreateKanbanBoard", "include_original_cards"): ["cards", "none"],
    ("KanbanApi", "CreateKanbanBoard", "invitation_permissions"): ["admins", "members"],
    ("KanbanApi", "CreateKanbanBoard", "voting_permissions"):
        ["disabled", "members", "observers", "org", "public"],
    ("KanbanApi", "GetActionProperty", "action_field"):
        ["id", "idMemberCreator", "data", "type", "date", "limits", "display", "memberCreator"],
    ("KanbanApi", "GetBoardMemberships", "membership_filter"): ["admins", "all", "none", "normal"],
    ("KanbanApi", "GetEnterpriseById", "member_inclusion_type"):
        ["none", "normal", "admins", "owners", "all"],
    ("KanbanApi", "GetEnterpriseById", "organization_inclusion"):
        ["none", "members", "public", "all"],
    ("KanbanApi", "GetFilteredBoardCards", "card_filter"):
        ["all", "closed", "complete", "incomplete", "none", "open", "visible"],
    ("KanbanApi", "GetFilteredBoardLists", "list_filter"): ["all", "closed", "none", "open"],
    ("KanbanApi", "GetKanbanBoardLists", "card_filter"): ["all", "closed", "none", "open"],
    ("KanbanApi", "GetKanbanBoardLists", "list_filter"): ["all", "closed", "none", "open"],
    ("KanbanApi", "GetKanbanCardById", "include_attachments"): ["true", "false", "cover"],
    ("KanbanApi", "GetKanbanCardById", "include_checklists"): ["all", "none"],
    ("KanbanApi", "GetMemberBoardBackgrounds", "board_background_filter"):
        ["all", "custom", "default", "none", "premium"],
    ("KanbanApi", "GetMemberCards", "card_status_filter"):
        ["all", "closed", "complete", "incomplete", "none", "open", "visible"],
    ("KanbanApi", "GetMemberNotifications", "notification_read_status_filter"):
        ["all", "read", "unread"],
    ("KanbanApi", "GetMemberWorkspaces", "workspace_filter"): ["all", "members", "none", "public"],
    ("KanbanApi", "KanbanSearch", "include_card_attachments"): ["true", "false", "cover"],
    ("KanbanApi", "ListUserBoards", "include_lists"): ["all", "closed", "none", "open"],
    ("KanbanApi", "ModifyMemberNotificationsKanban", "notification_channel"): ["email"],
    ("KanbanApi", "RenameKanbanList", "list_field_to_update"): ["name", "pos", "subscribed"],
    ("KanbanApi", "UpdateBoardBackground", "background_brightness"): ["dark", "light", "unknown"],
    ("KanbanApi", "UpdateBoardEmailPosition", "email_position"): ["bottom", "top"],
    ("KanbanApi", "UpdateBoardMembership", "membership_type"): ["admin", "normal", "observer"],
    ("KanbanApi", "UpdateChecklistField", "checklist_field"): ["name", "pos"],
    ("KanbanApi", "UpdateChecklistItemKanban", "completion_state"): ["complete", "incomplete"],
    ("KanbanApi", "UpdateCustomBoardBackground", "background_brightness"):
        ["dark", "light", "unknown"],
    ("KanbanApi", "UpdateKanbanBoard", "card_aging_preference"): ["pirate", "regular"],
    ("KanbanApi", "UpdateKanbanBoard", "comment_permission"):
        ["disabled", "members", "observers", "org", "public"],
    ("KanbanApi", "UpdateKanbanBoard", "voting_permissions"):
        ["disabled", "members", "observers", "org", "public"],
    ("KanbanApi", "UpdateKanbanBoard", "who_can_invite"): ["admins", "members"],
    ("KanbanApi", "UpdateKanbanLabelField", "label_field_to_update"): ["color", "name"],
    ("KanbanApi", "UpdateKanbanMember", "avatar_source"): ["gravatar", "none", "upload"],
    ("KanbanApi", "UpdateKanbanMemberNotificationSettings", "notification_channel"): ["email"],
    ("KanbanApi", "UpdateOrganizationKanban", "private_board_visibility"): ["admin", "none", "org"],
    ("KanbanApi", "UpdateOrganizationKanban", "public_board_visibility_permission"):
        ["admin", "none", "org"],
    ("KanbanApi", "UpdateOrganizationKanban", "workspace_board_visibility_restriction"):
        ["admin", "none", "org"],
    ("KanbanApi", "UpdateOrganizationKanban", "workspace_visibility_permission"):
        ["private", "public"],
    ("KanbanApi", "UpdateOrganizationMembers", "member_role"): ["admin", "normal"],
    ("LedgerApi", "GetBalanceSheetReport", "comparison_timeframe"): ["MONTH", "QUARTER", "YEAR"],
    ("LedgerApi", "GetProfitAndLossReport", "comparison_timeframe"): ["MONTH", "QUARTER", "YEAR"],
    ("LedgerApi", "RetrievePurchaseOrders", "filter_by_status"):
        ["DRAFT", "SUBMITTED", "AUTHORISED", "BILLED", "DELETED"],
    ("SearchApi", "ListWebhookAttempts", "event_type_filter"):
        ["webset.created", "webset.deleted", "webset.paused", "webset.idle",
         "webset.search.created", "webset.search.canceled", "webset.search.completed",
         "webset.search.updated", "import.created", "import.completed", "webset.item.created",
         "webset.item.enriched", "monitor.created", "monitor.updated", "monitor.deleted",
         "monitor.run.created", "monitor.run.completed", "webset.export.created",
         "webset.export.completed"],
    ("StoreApi", "DeleteFolderMetadata", "metadata_template_scope"): ["global", "enterprise"],
    ("StoreApi", "DeleteMetadataTemplate", "metadata_template_scope"): ["global", "enterprise"],
    ("StoreApi", "FetchStoragePolicyAssignments", "target_type_for_assignments"):
        ["user", "enterprise"],
    ("StoreApi", "GetAiAgentDefaultConfig", "filter_mode"):
        ["ask", "text_gen", "extract", "extract_structured"],
    ("StoreApi", "GetEnterpriseDevicePins", "sort_direction"): ["ASC", "DESC"],
    ("StoreApi", "GetEnterpriseRetentionPolicies", "filter_by_retention_policy_type"):
        ["finite", "indefinite"],
    ("StoreApi", "GetEnterpriseStoreHubs", "sort_direction"): ["ASC", "DESC"],
    ("StoreApi", "GetEnterpriseTermsOfService", "terms_of_service_type"): ["external", "managed"],
    ("StoreApi", "GetFileVersionRetentions", "filter_by_disposition_action"):
        ["permanently_delete", "remove_retention"],
    ("StoreApi", "GetRetentionPolicyAssignments", "assignment_type"):
        ["folder", "enterprise", "metadata_template"],
    ("StoreApi", "GetStoreEvents", "event_stream_type"):
        ["all", "changes", "sync", "admin_logs", "admin_logs_streaming"],
    ("StoreApi", "GetStoreHubs", "sort_direction"): ["ASC", "DESC"],
    ("StoreApi", "GetTeamsIntegrationMappings", "mapped_item_type"): ["channel", "team"],
    ("StoreApi", "GetTeamsIntegrationMappings", "store_item_type"): ["folder"],
    ("StoreApi", "ListEnterpriseUsers", "user_type_filter"): ["all", "managed", "external"],
    ("StoreApi", "ListSlackIntegrationMappings", "mapped_item_type"): ["channel"],
    ("StoreApi", "ListSlackIntegrationMappings", "store_item_type"): ["folder"],
    ("StoreApi", "RetrieveFileTemplateMetadata", "metadata_scope"): ["global", "enterprise"],
    ("StoreApi", "RetrieveTrashedItems", "secondary_sort_attribute"): ["name", "date", "size"],
    ("StoreApi", "RetrieveTrashedItems", "sort_direction"): ["ASC", "DESC"],
    ("VectorDbApi", "AddReferenceToObject", "required_consistency_level"): ["ONE", "QUORUM", "ALL"],
    ("VectorDbApi", "AssignRolesToUser", "user_type"): ["db", "oidc"],
    ("VectorDbApi", "BatchCreateReferences", "consistency_level"): ["ONE", "QUORUM", "ALL"],
    ("VectorDbApi", "BatchRegisterObjects", "consistency_level"): ["ONE", "QUORUM", "ALL"],
    ("VectorDbApi", "CancelBackup", "storage_backend_system"): ["filesystem", "gcs", "s3", "azure"],
    ("VectorDbApi", "CheckBackupRestoreStatus", "backend_storage_system"):
        ["filesystem", "gcs", "s3", "azure"],
    ("VectorDbApi", "CheckBackupStatus", "backup_backend_system"):
        ["filesystem", "gcs", "s3", "azure"],
    ("VectorDbApi", "CreateBackup", "backend_storage_system"): ["filesystem", "gcs", "s3", "azure"],
    ("VectorDbApi", "CreateBackup", "compression_level"):
        ["DefaultCompression", "BestSpeed", "BestCompression"],
    ("VectorDbApi", "CreateObjectInVector", "consistency_level_replica_acknowledgement"):
        ["ONE", "QUORUM", "ALL"],
    ("VectorDbApi", "DeleteDataObject", "replica_acknowledgment_level"): ["ONE", "QUORUM", "ALL"],
    ("VectorDbApi", "DeleteMultipleObjects", "replica_acknowledgement_level"):
        ["ONE", "QUORUM", "ALL"],
    ("VectorDbApi", "DeleteReferenceFromObject", "required_consistency_level"):
        ["ONE", "QUORUM", "ALL"],
    ("VectorDbApi", "GetClusterNodeStatus", "output_verbosity"): ["minimal", "verbose"],
    ("VectorDbApi", "GetDataObject", "required_replica_acknowledgment"): ["ONE", "QUORUM", "ALL"],
    ("VectorDbApi", "GetRolesForUser", "user_type"): ["db", "oidc"],
    ("VectorDbApi", "GetShardHostNodesStatus", "output_verbosity"): ["minimal", "verbose"],
    ("VectorDbApi", "ReplaceObjectReferences", "consistency_level"): ["ONE", "QUORUM", "ALL"],
    ("VectorDbApi", "RevokeUserRole", "user_type"): ["db", "oidc"],
    ("VectorDbApi", "UpdateDataObject", "consistency_level"): ["ONE", "QUORUM", "ALL"],
    ("VectorDbApi", "UpdateObjectProperties", "required_replica_acknowledgement"):
        ["ONE", "QUORUM", "ALL"],
}
