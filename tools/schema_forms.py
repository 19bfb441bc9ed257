"""Published forms of parameter schemas that every client converts intact (issue 11, item 10).

Strict clients (the OpenAI Agents SDK's strict mode, OpenAI structured outputs) take objects
only with declared properties and `additionalProperties: false`, no `oneOf`, and no open maps;
LangChain's adapter merges `oneOf` object branches and keeps only the last `const`. So the
schemas toolgate publishes for its parameters say the same thing in the plainest form:

- an object with declared properties gets `additionalProperties: false`;
- a discriminated union (`oneOf` of objects told apart by one `const` property) becomes one
  object whose discriminator is an `enum`; a property only one branch requires is described as
  such instead (the platform still checks it);
- a map (an object with no properties and typed values) becomes a list of `{key, value}`
  objects, marked `"x-toolgate-wire": "map"`;
- free-form JSON (an object or value the platform does not describe) becomes a string holding
  JSON text, marked `"x-toolgate-wire": "json"`.

The markers tell the request builder to turn the published form back into the platform's
(toolkits/wire_forms.cpp); the catalogue generator removes them from the published
inputSchema.
"""
import copy

MARKER = "x-toolgate-wire"


def _types(node):
    t = node.get("type")
    return t if isinstance(t, list) else ([t] if t else [])


def _is_object(node):
    return "object" in _types(node) or ("properties" in node and not _types(node))


def _discriminator(branches):
    """The property every branch fixes with a `const` (and requires), or None."""
    if not branches or not all(isinstance(b, dict) and _is_object(b) for b in branches):
        return None
    common = None
    for b in branches:
        names = {k for k, v in (b.get("properties") or {}).items()
                 if isinstance(v, dict) and "const" in v and k in (b.get("required") or [])}
        common = names if common is None else common & names
    return sorted(common)[0] if common else None


def _merge_union(node, key):
    branches = node[key]
    tag = _discriminator(branches)
    if tag is None:
        return None
    values = [b["properties"][tag]["const"] for b in branches]
    merged = {"type": "object", "properties": {}, "required": [tag]}
    merged["properties"][tag] = {"type": "string", "enum": values}
    requirements = {}
    for b, value in zip(branches, values):
        for name, sub in (b.get("properties") or {}).items():
            if name == tag:
                continue
            merged["properties"].setdefault(name, copy.deepcopy(sub))
            if name in (b.get("required") or []):
                requirements.setdefault(name, []).append(value)
    for name, when in requirements.items():
        if len(when) == len(branches):
            merged["required"].append(name)
        else:
            prop = merged["properties"][name]
            note = f"Required when {tag} is {' or '.join(map(str, when))}."
            prop["description"] = (prop.get("description", "") + " " + note).strip()
    for k, v in node.items():
        if k not in (key, "type", "properties", "required"):
            merged.setdefault(k, v)
    return merged


def publishable(node):
    """The published form of a parameter schema (see the module text)."""
    if isinstance(node, list):
        return [publishable(n) for n in node]
    if not isinstance(node, dict):
        return node
    node = dict(node)
    for key in ("oneOf", "anyOf"):
        if key in node:
            merged = _merge_union(node, key)
            if merged is not None:
                node = merged
            break
    if _is_object(node):
        props = node.get("properties")
        extra = node.get("additionalProperties")
        if not props:
            if isinstance(extra, dict) and extra.get("type"):
                value = publishable(extra)
                return {"type": "array", MARKER: "map",
                        "items": {"type": "object",
                                  "properties": {"key": {"type": "string"}, "value": value},
                                  "required": ["key", "value"],
                                  "additionalProperties": False}}
            return {"type": "string", MARKER: "json"}
        node["properties"] = {k: publishable(v) for k, v in props.items()}
        node["additionalProperties"] = False
    for key in ("items",):
        if isinstance(node.get(key), dict):
            node[key] = publishable(node[key])
    for key in ("oneOf", "anyOf", "allOf"):
        if isinstance(node.get(key), list):
            node[key] = [publishable(b) for b in node[key]]
    return node
