"""Our own words for the catalogue: titles and descriptions drafted from facts (the tool's
name, method and path; a parameter's name, type, placement and limits). Nothing here reads
the reference's prose.
"""
import re

WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z]|\d|$)|[A-Z]?[a-z]+|\d+")
ACRONYMS = {"api", "csat", "dns", "id", "ids", "mcp", "oidc", "pdf", "url", "uri", "uuid",
            "html", "ssl", "sso", "ai", "oauth", "http", "cname", "jwt"}

# Tools whose name says less than their binding does; our words replace the template.
OVERRIDES = {
    "RemoveAssetType": "Delete an asset, by its display id, from the IT service desk platform "
                       "(despite the name, this removes the asset, not an asset type).",
}

FORMATS = {
    "date": "Format YYYY-MM-DD.",
    "year": "Format YYYY.",
    "utc_date_time": "Format YYYY-MM-DDTHH:MM:SSZ.",
    "date_time": "An ISO 8601 date or date and time.",
    "http_url": "Must start with http:// or https://.",
    "backup_id": "Lowercase letters, digits, underscore and minus only.",
    "trimmed": "No leading or trailing spaces.",
}


def words(name):
    return WORD.findall(name)


def _word(w):
    return w.upper() if w.lower() in ACRONYMS else w.lower()


def title(name):
    return " ".join(w.upper() if w.lower() in ACRONYMS else w[:1].upper() + w[1:]
                    for w in words(name))


def phrase(name):
    ws = [_word(w) for w in words(name)]
    first = ws[0][:1].upper() + ws[0][1:] if ws else name
    return " ".join([first] + ws[1:])


def tool_description(tool, wraps, path):
    if tool["name"] in OVERRIDES:
        lead = OVERRIDES[tool["name"]]
    else:
        lead = f"{phrase(tool['name'])} on the {wraps}."
    parts = [lead, f"Sends {tool['http']['method']} {path}."]
    if tool["m_tool"]:
        parts.append("Mode-based: call once with mode get_request_schema to get the JSON "
                     "Schema of the request body, then with mode execute and request_body.")
    if tool["hints"]["destructive"]:
        parts.append("Removes or overwrites data.")
    elif tool["hints"]["read_only"]:
        parts.append("Read-only.")
    return " ".join(parts)


def _subject(name):
    ws = name.split("_")
    for suffix in ("identifier", "id", "uuid"):
        if ws[-1] == suffix and len(ws) > 1:
            return "Identifier of the " + " ".join(_word(w) for w in ws[:-1]) + "."
    if ws[0] == "use" and "marker" in ws:
        return "Whether to page with markers instead of offsets."
    if ws[-1] == "marker":
        return "Position marker returned with the previous page (marker-based pagination)."
    if "offset" in ws:
        return "How many items to skip (offset-based pagination)."
    if "etag" in ws:
        return "An etag of the item; the operation then depends on whether it still matches."
    text = " ".join(_word(w) for w in ws)
    return text[:1].upper() + text[1:] + "."


WHERE = {"path": "Goes in the URL path.", "query": "Goes in the query string.",
         "header": "Goes in a request header.", "body": "Goes in the JSON body.",
         "form": "Goes in the multipart form body."}


def param_description(p, tool):
    if p["in"] == "mode":
        return ("get_request_schema returns the request body's schema without contacting the "
                "platform; execute sends the request.")
    if p["in"] == "request_body":
        return ("The request body as JSON text: an object that follows the schema from "
                "get_request_schema. Required when mode is execute.")
    if p["name"] == "history_details":
        parts = ["Text of the history note to add."]
    elif p["type"] == "object":
        parts = ["Settings for this request as a JSON object (see the schema); sent as the "
                 "whole request body."]
    else:
        parts = [_subject(p["name"])]
    if p["type"] == "array":
        parts.append(f"A list of {p['item_type'] or 'value'}s.")
    if p["type"] != "object":
        parts.append(WHERE.get(p["in"], ""))
    if p.get("format"):
        parts.append(FORMATS[p["format"]])
    if p.get("max_length"):
        parts.append(f"At most {p['max_length']} characters.")
    if p.get("minimum") is not None and p.get("maximum") is not None:
        parts.append(f"From {p['minimum']} to {p['maximum']}.")
    elif p.get("maximum") is not None:
        parts.append(f"At most {p['maximum']}.")
    if tool["m_tool"]:
        parts.append("Required when mode is execute; ignored for get_request_schema."
                     if p["required_when_executing"] else "Used only when mode is execute.")
    return " ".join(x for x in parts if x)
