"""Paging descriptors of the list tools, and the paging parameters the bindings lacked.

A descriptor (`"paging"` in catalogue.json, compiled into the tool spec) tells the server how
a list tool moves through its list, so that an answer cut to its token budget can end with the
exact arguments of the call that starts at the first element not shown (toolkits/paging.hpp).
Format:
    {"items": "entries",                  # where the elements are ("" : the answer is the list)
     "total": "total_count",              # the total count, where the answer has one
     "size": {"param": ..., "default": 100, "max": 1000},   # the page-size argument
     "styles": [                          # the first is used when a call names none of them
        {"kind": "offset", "param": ..., "first": 0},        # position of the first element
        {"kind": "page", "param": ..., "first": 1},          # page number
        {"kind": "cursor", "param": ..., "next": "next_marker", "with": {arg: value}},
        {"kind": "key", "param": ..., "field": "id"}]}       # a field of the last element
A tool with paging-like parameters that does not page says why: {"none": "..."}.

Facts come from the platforms' public API documentation (answer shapes, parameter meaning,
sizes); tools/import-reference applies this file, and tools/apply-paging re-applies it to the
committed catalogue files without the reference data.
"""
import re
import sys

# Wire names that move through a list or size it: a read tool with one of these needs a
# descriptor or a "none" (test/toolkits/test_paging_catalogue.cpp checks the compiled result).
PAGING_WIRE = re.compile(r"^(offset|page|per_page|pageSize|limit|marker|cursor|next|before|"
                         r"until|since|after|from|startIndex|count|stream_position|cards_page|"
                         r"cards_limit)$")


def _param(name, kind, wire, **extra):
    p = {"name": name, "wire_name": wire, "in": "query", "type": kind, "item_type": "",
         "required": False, "required_when_executing": False, "enum": [], "array_format": "",
         "minimum": None, "maximum": None, "min_length": None, "max_length": None, "format": ""}
    p.update(extra)
    return p


# --- paging parameters the bindings lacked (toolkits/README.md, "Repairs") --------------------
# Freshservice: its API reference pages every list with `page` (from 1) and `per_page` (30 by
# default, at most 100), with examples for these very lists (a ticket's conversations, an
# asset's contracts and requests; the pagination section uses the ticket list).
_DESK_PAGE = [_param("page_number", "integer", "page", minimum=1),
              _param("entries_per_page", "integer", "per_page", minimum=1, maximum=100)]
# Trello: action lists take `limit` (50 by default, at most 1000) and `before` (an action id;
# newest first), as its board-actions reference documents and independent clients send for
# card, list and member actions (TrelloDotNet's GetActionsOptions: Limit, Before, Since, Page).
_KANBAN_ACTIONS = [_param("actions_limit", "integer", "limit", minimum=1, maximum=1000),
                   _param("before_action_id", "string", "before")]
ADDED_PARAMS = {
    ("DeskApi", "ListDeskTickets"): _DESK_PAGE,
    ("DeskApi", "GetTicketConversations"): _DESK_PAGE,
    ("DeskApi", "GetAssetContracts"): _DESK_PAGE,
    ("DeskApi", "GetAssetRequests"): _DESK_PAGE,
    ("KanbanApi", "GetCardActions"): _KANBAN_ACTIONS,
    ("KanbanApi", "ListMemberActions"): _KANBAN_ACTIONS,
    ("KanbanApi", "GetKanbanListActions"): _KANBAN_ACTIONS,
    ("KanbanApi", "ListWorkspaceActions"): _KANBAN_ACTIONS,
}


def add_params(toolkit, tool, log):
    """Appends the missing paging parameters (each a repair listed in toolkits/README.md)."""
    added = ADDED_PARAMS.get((toolkit, tool["name"]), [])
    names = {p["name"] for p in tool["params"]}
    for param in added:
        if param["name"] not in names:
            tool["params"].append(dict(param))
    if added:
        log.append(f"{toolkit}.{tool['name']}: new optional paging parameters "
                   + ", ".join(f"{p['name']} ({p['wire_name']})" for p in added))


# --- descriptors -------------------------------------------------------------------------------

def _by_wire(tool):
    return {p["wire_name"]: p["name"] for p in tool["params"] if p["in"] == "query"}


def _size(wires, wire, default, largest):
    if wire not in wires:
        return None
    return {"param": wires[wire], "default": default, "max": largest}


def _descriptor(items, styles, size=None, total=""):
    out = {"items": items, "total": total}
    if size:
        out["size"] = size
    out["styles"] = styles
    return out


def _store(tool, w):
    """Box: offset lists answer {entries, total_count, offset, limit}; marker lists
    {entries, limit, next_marker}. Lists with `usemarker` default to offsets."""
    size = _size(w, "limit", 100, 1000)
    name = tool["name"]
    if name == "GetStoreEvents":
        return _descriptor("entries", [{"kind": "cursor", "param": w["stream_position"],
                                        "next": "next_stream_position"}],
                           _size(w, "limit", 100, 500))
    if name == "GetFolderDetails":
        return _descriptor("item_collection.entries",
                           [{"kind": "offset", "param": w["offset"], "first": 0}],
                           size, "item_collection.total_count")
    offset = {"kind": "offset", "param": w["offset"], "first": 0} if "offset" in w else None
    marker = {"kind": "cursor", "param": w["marker"], "next": "next_marker"} \
        if "marker" in w else None
    if marker and "usemarker" in w:
        marker["with"] = {w["usemarker"]: True}
    if offset and marker:
        styles = [offset, marker] if "usemarker" in w else [marker, offset]
    else:
        styles = [offset or marker] if (offset or marker) else []
    if not styles:
        return None
    return _descriptor("entries", styles, size, "total_count" if offset else "")


def _engine(tool, w):
    """Arcade Engine: {items, limit, offset, page_count, total_count}."""
    if "offset" not in w:
        return None
    return _descriptor("items", [{"kind": "offset", "param": w["offset"], "first": 0}],
                       _size(w, "limit", 25, 100), "total_count")


def _search(tool, w):
    """Exa websets and research: {data, hasMore, nextCursor}."""
    if "cursor" not in w:
        return None
    return _descriptor("data", [{"kind": "cursor", "param": w["cursor"], "next": "nextCursor"}],
                       _size(w, "limit", 25, 100))


def _vector(tool, w):
    """Weaviate objects: {objects, totalResults}; `after` takes the last object's id."""
    if tool["name"] != "ListDataObjects":
        return None
    return _descriptor("objects", [{"kind": "offset", "param": w["offset"], "first": 0},
                                   {"kind": "key", "param": w["after"], "field": "id"}],
                       _size(w, "limit", 25, 10000), "totalResults")


# Xero: {Id, Status, ..., "<Resource>": [...]}; 100 a page unless `pageSize` (at most 1000),
# which also adds {"pagination": {page, pageSize, pageCount, itemCount}}.
_LEDGER_ITEMS = {
    "FetchAllLedgerContacts": "Contacts", "FetchInvoicePayments": "Payments",
    "GetCreditNotes": "CreditNotes", "RetrieveBankTransactions": "BankTransactions",
    "RetrieveInvoices": "Invoices", "RetrieveManualJournals": "ManualJournals",
    "RetrieveOverpayments": "Overpayments", "RetrievePrepayments": "Prepayments",
    "RetrievePurchaseOrders": "PurchaseOrders", "RetrieveSalesQuotes": "Quotes",
    "RetrieveLinkedTransactions": "LinkedTransactions",
}


def _ledger(tool, w):
    name = tool["name"]
    if name == "GetFinancialJournals":
        # Journals come 100 at a time, numbered; `offset` returns those numbered after it.
        return _descriptor("Journals", [{"kind": "key", "param": w["offset"],
                                         "field": "JournalNumber"}], None)
    if name not in _LEDGER_ITEMS:
        return None
    # Without `pageSize` a page holds a fixed 100 (a size without a parameter).
    size = _size(w, "pageSize", 100, 1000) or {"default": 100, "max": 100}
    return _descriptor(_LEDGER_ITEMS[name], [{"kind": "page", "param": w["page"], "first": 1}],
                       size, "pagination.itemCount" if "param" in size else "")


# Freshservice: {"<resource>": [...]}, named after the path's last segment except these.
_DESK_ITEMS = {"/service_catalog/items": "service_items"}


def _desk(tool, w):
    if "page" not in w:
        return None
    path = tool["http"]["url"].split("/api/v2", 1)[1]
    items = next((v for k, v in _DESK_ITEMS.items() if path.endswith(k)),
                 path.rstrip("/").split("/")[-1])
    return _descriptor(items, [{"kind": "page", "param": w["page"], "first": 1}],
                       _size(w, "per_page", 30, 100))


# Trello answers are bare lists unless named here; pages count from 0.
def _kanban(tool, w):
    name = tool["name"]
    actions = {"GetCardActions", "ListMemberActions", "GetKanbanListActions",
               "ListWorkspaceActions"}
    if name in actions:
        # GetCardActions also keeps its page number (50 actions a page, from 0).
        styles = [{"kind": "key", "param": w["before"], "field": "id"}]
        if "page" in w:
            styles.append({"kind": "page", "param": w["page"], "first": 0})
        return _descriptor("", styles, _size(w, "limit", 50, 1000))
    if name == "GetMemberNotifications":
        return _descriptor("", [{"kind": "key", "param": w["before"], "field": "id"},
                                {"kind": "page", "param": w["page"], "first": 0}],
                           _size(w, "limit", 50, 1000))
    if name == "KanbanSearch":
        return _descriptor("cards", [{"kind": "page", "param": w["cards_page"], "first": 0}],
                           _size(w, "cards_limit", 10, 1000))
    if name == "GetEnterpriseOrganizations":
        return _descriptor("", [{"kind": "offset", "param": w["startIndex"], "first": 1}],
                           _size(w, "count", 100, 100))
    if name == "GetEnterpriseMembers":
        return _descriptor("", [{"kind": "offset", "param": w["startIndex"], "first": 0}])
    return None


# Vercel: {"<resource>": [...], "pagination": {count, next, prev}}. Timestamp lists are newest
# first and continue with `until` = the last element's creation time (what pagination.next
# holds); access-group lists and Edge Config backups continue with an opaque `next`.
_DEPLOY_UNTIL = {
    "ListDeployDeployments": ("deployments", "created"),
    "ListAliases": ("aliases", "createdAt"),
    "GetDnsRecords": ("records", "createdAt"),
    "GetRegisteredDomains": ("domains", "createdAt"),
    "GetTeamMembers": ("members", "createdAt"),
    "GetUserTeams": ("teams", "createdAt"),
    "ListProjectMembers": ("members", "createdAt"),
    "ListUserEvents": ("events", "createdAt"),
    "RetrieveProjectDomains": ("domains", "createdAt"),
    "GetLastPromoteAliasesStatus": ("aliases", "createdAt"),
}
_DEPLOY_NEXT = {
    "ListAccessGroups": "accessGroups", "ListAccessGroupMembers": "members",
    "ListAccessGroupProjects": "projects", "GetEdgeConfigBackups": "backups",
}


def _deploy(tool, w):
    name = tool["name"]
    size = _size(w, "limit", 20, 100)
    if name in _DEPLOY_UNTIL:
        items, field = _DEPLOY_UNTIL[name]
        return _descriptor(items, [{"kind": "key", "param": w["until"], "field": field}], size)
    if name in _DEPLOY_NEXT:
        return _descriptor(_DEPLOY_NEXT[name], [{"kind": "cursor", "param": w["next"],
                                                 "next": "pagination.next"}], size)
    if name == "RetrieveProjectsList":
        # Projects come most recently updated first; `from` continues after pagination.next,
        # the last project's update time.
        return _descriptor("projects", [{"kind": "key", "param": w["from"],
                                         "field": "updatedAt"}], size)
    if name == "FetchDeploymentLogs":
        # Build events come oldest first; `since` continues after the last one's time.
        return _descriptor("", [{"kind": "key", "param": w["since"], "field": "created"}], size)
    return None


RULES = {"StoreApi": _store, "CoreEngineApi": _engine, "SearchApi": _search,
         "LedgerApi": _ledger, "DeskApi": _desk, "KanbanApi": _kanban,
         "VectorDbApi": _vector, "DeployApi": _deploy}

# Read tools with paging-like parameters that do not page a list, and why.
NOT_PAGED = {
    ("DeployApi", "GetActiveAttackStatus"): "since counts days of attack data, not a position",
    ("DeployApi", "RetrieveDeployAlias"): "one alias; since and until only qualify it",
    ("DeployApi", "RetrieveProjectBypassRules"):
        "offset takes a rule id whose answer shape the platform's reference does not show",
    ("KanbanApi", "SearchKanbanMembers"): "limit caps one search (at most 20); nothing pages",
    ("KanbanApi", "GetEnterpriseUsers"):
        "the cursor's place in the answer is not documented; it is passed through as given",
    ("KanbanApi", "GetClaimableWorkspaces"):
        "the cursor's place in the answer is not documented; it is passed through as given",
}


def describe(toolkit, tool):
    """The tool's descriptor, {"none": why}, or None (no paging-like parameter)."""
    if not (tool["http"]["method"] == "GET" or tool["hints"].get("read_only")):
        return None
    if (toolkit, tool["name"]) in NOT_PAGED:
        return {"none": NOT_PAGED[(toolkit, tool["name"])]}
    w = _by_wire(tool)
    found = RULES[toolkit](tool, w)
    if found:
        return found
    if any(PAGING_WIRE.match(wire) for wire in w):
        return {"none": "its paging-like parameters filter or size one answer; nothing pages"}
    return None


def apply(toolkit, tool):
    """Sets or removes the tool's `paging` key (placed after `hints`, before `params`)."""
    tool.pop("paging", None)
    desc = describe(toolkit, tool)
    if desc is None:
        return
    ordered = {}
    for key, value in tool.items():
        ordered[key] = value
        if key == "hints":
            ordered["paging"] = desc
    tool.clear()
    tool.update(ordered)


def check(catalogues):
    """Fails on a descriptor naming a parameter its tool lacks (the generator checks too)."""
    for cat in catalogues:
        for tool in cat["tools"]:
            desc = tool.get("paging")
            if not desc or "none" in desc:
                continue
            names = {p["name"] for p in tool["params"]}
            for style in desc["styles"]:
                if style["param"] not in names:
                    sys.exit(f"{cat['toolkit']}.{tool['name']}: paging names {style['param']}")
