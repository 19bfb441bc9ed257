"""The written text of the catalogue: reading `toolkits/<Toolkit>/descriptions.json`, walking
M-tool body schemas by field path, and the checks every text must pass.

Used by tools/check-descriptions (to check a toolkit's text while it is being written) and by
tools/show-tool-facts. The build reads the same files: toolkits/gen/catalogue_gen checks them
against catalogue.json (toolkits/gen/text_check.cpp) and merges them into the generated data.

Format of descriptions.json (one object per tool, keyed by tool name; see toolkits/README.md),
words only; the facts (annotations, enums, bindings) are in catalogue.json:
    {"toolkit": "StoreApi",
     "tools": {"GetFolderDetails": {
         "title": "Get folder details",
         "description": "one to three sentences for a model",
         "params": {"folder_unique_identifier": "meaning, format, unit, default, rules"},
         "body": {"name": "...", "gitSource.type": "...", "env[].key": "..."}}}}

The words every M-tool shares (the note after its description, the texts of its `mode` and
`request_body` parameters) are written once, in toolkits/m_tool_descriptions.json.

Body field paths: property names joined by '.', '[]' after a segment for the items of an
array, '*' for the values of a map (additionalProperties); oneOf/anyOf/allOf branches share
their paths.
"""
import copy
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from toolkit_names import toolkit_names  # noqa: E402

TOOL_MAX = 400
PARAM_MAX = 200
BODY_MAX = 200
TITLE_MAX = 60

# What a tool's entry may hold: words. Anything else is a fact, and facts live in catalogue.json.
TEXT_KEYS = {"title", "description", "params", "body"}

# Parameters whose text every M-tool shares (toolkits/m_tool_descriptions.json).
GENERATED_PARAMS = {"mode", "request_body"}

# Phrases of the old templates, and sentences a model does not need.
TEMPLATE = [
    (re.compile(r"\bGoes in (the|a) "), "placement sentence ('Goes in the ...')"),
    (re.compile(r"\bIdentifier of the [a-z ]+ unique\b"), "template 'Identifier of the ... unique'"),
    (re.compile(r"\bSends (GET|POST|PUT|PATCH|DELETE) /"), "HTTP method and path"),
    (re.compile(r"\b(GET|POST|PUT|PATCH|DELETE) /[a-z{]"), "HTTP method and path"),
    (re.compile(r"\bon the [a-z -]*platform\b"), "'on the ... platform' phrase"),
    (re.compile(r"\b(query string|URL path|request header|JSON body)\b"), "placement words"),
    (re.compile(r"\b(Removes or overwrites data|Mode-based: call once)\b"), "old template"),
]
TOOL_REF = re.compile(r"\b(" + "|".join(toolkit_names()) + r")[._]([A-Za-z0-9]+)\b")
WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z]|\d|$)|[A-Z]?[a-z]+|\d+")


def descriptions_path(repo, toolkit):
    return os.path.join(repo, "toolkits", toolkit, "descriptions.json")


def load_descriptions(repo, toolkit):
    """The toolkit's written text: tool name -> {title, description, params, body}."""
    with open(descriptions_path(repo, toolkit), encoding="utf-8") as f:
        return json.load(f).get("tools", {})


def load_m_tool_words(repo):
    """The words every M-tool shares: {"description_note": ..., "params": {mode, request_body}}."""
    with open(os.path.join(repo, "toolkits", "m_tool_descriptions.json"), encoding="utf-8") as f:
        return json.load(f)


def body_fields(schema):
    """Every field path of a body schema -> True when a caller must be told about it
    (top-level fields, and fields some object lists as required)."""
    out = {}

    def walk(node, path, top):
        if not isinstance(node, dict):
            return
        for key in ("oneOf", "anyOf", "allOf"):
            for branch in node.get(key, []):
                walk(branch, path, top)
        required = set(node.get("required", []))
        for name, sub in (node.get("properties") or {}).items():
            p = f"{path}.{name}" if path else name
            out[p] = out.get(p, False) or top or name in required
            walk(sub, p, False)
        if isinstance(node.get("items"), dict):
            walk(node["items"], (path or "") + "[]", top and not path)
        extra = node.get("additionalProperties")
        if isinstance(extra, dict):
            walk(extra, f"{path}.*" if path else "*", False)

    walk(schema, "", True)
    return out


def set_body_descriptions(schema, texts):
    """Adds `description` to every schema node whose field path has a text."""

    def walk(node, path):
        if not isinstance(node, dict):
            return
        for key in ("oneOf", "anyOf", "allOf"):
            for branch in node.get(key, []):
                walk(branch, path)
        for name, sub in (node.get("properties") or {}).items():
            p = f"{path}.{name}" if path else name
            if p in texts and isinstance(sub, dict):
                sub["description"] = texts[p]
            walk(sub, p)
        if isinstance(node.get("items"), dict):
            walk(node["items"], (path or "") + "[]")
        extra = node.get("additionalProperties")
        if isinstance(extra, dict):
            walk(extra, f"{path}.*" if path else "*")

    walk(schema, "")


def published_catalogue(catalogue, written, m_tool_words):
    """A copy of `catalogue` with its words, as the build publishes them (merge_texts in
    toolkits/gen/text_check.cpp, which the build uses; this copy serves the Python benches)."""
    cat = copy.deepcopy(catalogue)
    shared = m_tool_words["params"]
    for tool in cat["tools"]:
        text = written[tool["name"]]
        tool["title"] = text["title"]
        tool["description"] = text["description"]
        if tool["m_tool"]:
            tool["description"] += " " + m_tool_words["description_note"]
        for param in tool["params"]:
            if param["in"] in GENERATED_PARAMS:
                param["description"] = shared[param["in"]]
            else:
                param["description"] = text.get("params", {})[param["name"]]
        if tool.get("request_body_schema") and text.get("body"):
            set_body_descriptions(tool["request_body_schema"], text["body"])
    return cat


def name_words(name):
    return [w.lower() for w in WORD.findall(name.replace("_", " ").replace(".", " "))]


def is_restatement(text, name):
    """A text that only repeats the name's words (plus filler) says nothing."""
    filler = {"the", "a", "an", "of", "to", "for", "by", "this", "its", "on", "in", "and",
              "or", "get", "gets", "value", "identifier", "id", "unique", "details", "info"}
    words = [w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in filler]
    own = set(name_words(name)) | filler
    return len(words) <= 8 and all(w in own or w.rstrip("s") in own for w in words)


def check_text(where, text, limit, name, problems):
    if not isinstance(text, str) or not text.strip():
        problems.append(f"{where}: no text")
        return
    if len(text) > limit:
        problems.append(f"{where}: {len(text)} characters (at most {limit})")
    for pattern, what in TEMPLATE:
        if pattern.search(text):
            problems.append(f"{where}: {what}")
    if is_restatement(text, name):
        problems.append(f"{where}: restates the name")


def check_toolkit(catalogue, written, all_tools, m_tool_note):
    """Problems of one toolkit's written text against its catalogue (a list of strings).
    all_tools: every 'Toolkit.Tool' name, to check references to other tools; m_tool_note: the
    note the build appends to every M-tool's description (it counts towards the bound)."""
    kit = catalogue["toolkit"]
    problems = []
    tools = {t["name"]: t for t in catalogue["tools"]}
    for name in written:
        if name not in tools:
            problems.append(f"{kit}.{name}: no such tool")
    seen = {}
    for name, tool in sorted(tools.items()):
        full = f"{kit}.{name}"
        text = written.get(name)
        if text is None:
            problems.append(f"{full}: not written")
            continue
        for key in sorted(set(text) - TEXT_KEYS):
            problems.append(f"{full}: {key} is not a text (facts belong in catalogue.json)")
        limit = TOOL_MAX - len(m_tool_note) - 1 if tool["m_tool"] else TOOL_MAX
        check_text(f"{full} description", text.get("description"), limit, name, problems)
        title = text.get("title", "")
        if not title or len(title) > TITLE_MAX:
            problems.append(f"{full}: title missing or over {TITLE_MAX} characters")
        desc = text.get("description") or ""
        if desc in seen:
            problems.append(f"{full}: same description as {kit}.{seen[desc]}")
        seen[desc] = name
        for ref_kit, ref_tool in TOOL_REF.findall(json.dumps(text)):
            if f"{ref_kit}.{ref_tool}" not in all_tools:
                problems.append(f"{full}: names {ref_kit}_{ref_tool}, which does not exist")
        params = {p["name"]: p for p in tool["params"]}
        for pname in text.get("params", {}):
            if pname not in params:
                problems.append(f"{full}: parameter {pname} does not exist")
            elif pname in GENERATED_PARAMS and params[pname]["in"] in ("mode", "request_body"):
                problems.append(f"{full}: parameter {pname} has the text every M-tool shares")
        for pname, p in params.items():
            if pname in GENERATED_PARAMS and p["in"] in ("mode", "request_body"):
                continue
            check_text(f"{full}({pname})", text.get("params", {}).get(pname), PARAM_MAX, pname,
                       problems)
        schema = tool.get("request_body_schema")
        body = text.get("body", {})
        fields = body_fields(schema) if schema else {}
        for path in body:
            if path not in fields:
                problems.append(f"{full}: body field {path} does not exist")
        for path, must in sorted(fields.items()):
            if path in body:
                check_text(f"{full} body {path}", body[path], BODY_MAX, path.split(".")[-1],
                           problems)
            elif must:
                problems.append(f"{full} body {path}: not written")
    return problems
