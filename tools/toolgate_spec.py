"""Reads the user's specification documents (../shared/spec/*.txt) into plain data.

Shared by tools/extract-spec-table and tools/import-reference. Only facts are taken: toolkit
names, versions, tool counts, capabilities, and for every tool line of an "Endpoints" section
the tool name, operation identifier and the typed parameters with their R/O flags. The rules
are mirrored by test/toolkits/spec_parser.cpp, which reads the same files when they are present;
keep the two in step.
"""
import glob
import os
import re

TYPE_CODES = {"s": "string", "i": "integer", "n": "number", "b": "boolean", "a[s]": "array"}
PARAM = re.compile(r"^([a-z][A-Za-z0-9_]*) (s|i|n|b|a\[s\]) (R|O)$")
EMBEDDED = re.compile(r"(?:^|, | and | extras )([a-z][A-Za-z0-9_]*) (s|i|n|b|a\[s\]) (R|O)(?=$|,| and )")
BARE = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$")
GROUP = re.compile(r"^optional (strings|booleans):? (.*)$")


def spec_files(spec_dir):
    return sorted(glob.glob(os.path.join(spec_dir, "*.txt")))


def split_top(text, sep):
    """Splits at `sep` outside parentheses."""
    parts, depth, cur, i = [], 0, [], 0
    while i < len(text):
        c = text[i]
        if c == "(":
            depth += 1
        elif c == ")":
            depth = max(0, depth - 1)
        if depth == 0 and text.startswith(sep, i):
            parts.append("".join(cur))
            cur, i = [], i + len(sep)
            continue
        cur.append(c)
        i += 1
    parts.append("".join(cur))
    return parts


def first_sentence(text):
    """The parameter list ends at the first '. ' (or final '.') outside parentheses."""
    head = split_top(text, ". ")[0]
    return head[:-1] if head.endswith(".") else head


def strip_parens(text):
    out, depth = [], 0
    for c in text:
        if c == "(":
            depth += 1
        elif c == ")":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(c)
    return re.sub(r"\s+", " ", "".join(out)).strip()


def is_exec(raw):
    """'(exec)', '(exec; ...)' or '(required when executing)' mark an M-tool extra."""
    return bool(re.search(r"\(exec\b|required when executing", raw))


def make_param(name, code, flag, exec_flag=False):
    return {"name": name, "type": TYPE_CODES[code], "required": flag == "R",
            "required_when_executing": exec_flag}


def parse_params(body, history):
    """Returns (params, m_tool, no_parameters, complete) for the text after 'Name [op]: '."""
    params, m_tool, no_params, complete = [], False, False, True
    for raw in split_top(first_sentence(body), "; "):
        exec_flag = is_exec(raw)
        item = strip_parens(raw)
        if not item:
            continue
        if item == "no parameters":
            no_params = True
        elif item.startswith("M-tool"):
            m_tool = True
            rest = re.sub(r"^M-tool( with (no )?extras)?", "", raw.strip()).strip()
            for piece in split_top(rest, " and ") if rest else []:
                m = PARAM.match(strip_parens(piece))
                if m:
                    params.append(make_param(m.group(1), m.group(2), m.group(3), is_exec(piece)))
                else:
                    complete = False
        elif PARAM.match(item):
            m = PARAM.match(item)
            params.append(make_param(m.group(1), m.group(2), m.group(3), exec_flag))
        elif GROUP.match(item):
            m = GROUP.match(item)
            code = "s" if m.group(1) == "strings" else "b"
            for name in item[len(m.group(0)) - len(m.group(2)):].split(", "):
                params.append(make_param(name.strip(), code, "O"))
        elif BARE.match(item):
            params.append(make_param(item, "s", "O"))
        else:
            complete = False
            for m in EMBEDDED.finditer(item):
                params.append(make_param(m.group(1), m.group(2), m.group(3), exec_flag))
    if m_tool:
        params[0:0] = [dict(make_param("mode", "s", "R"), required_when_executing=True),
                       dict(make_param("request_body", "s", "O"), required_when_executing=True)]
    if history:
        params.append(make_param("idempotency_key", "s", "O"))
    return params, m_tool, no_params, complete


def parse_tool_line(line, toolkit, history):
    """One '- ...' line of an Endpoints section; returns a list of tool records (maybe empty)."""
    text = line[2:].strip()
    cut = text.find(": ")
    if cut < 0:
        return []
    header, body = text[:cut], text[cut + 2:]
    names = re.findall(r"`([A-Z][A-Za-z0-9]*)`", header)
    ops = re.findall(r"\[([^\]]+)\]", header)
    if not names and not ops:
        return []
    params, m_tool, no_params, complete = parse_params(body, history)
    count = max(len(names), len(ops))
    records = []
    for i in range(count):
        records.append({
            "toolkit": toolkit,
            "name": names[i] if i < len(names) else None,
            "operation_id": ops[i] if i < len(ops) and (len(ops) == count) else None,
            "m_tool": m_tool,
            "no_parameters": no_params,
            "complete": complete,
            "params": params,
        })
    return records


def parse_tools(spec_dir):
    tools = []
    for path in spec_files(spec_dir):
        toolkit, in_endpoints, history = None, False, False
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n")
                if line.startswith("## "):
                    in_endpoints = line == "## Endpoints"
                    toolkit = None
                elif line.startswith("### ") and in_endpoints:
                    word = line[4:].split()[0]
                    toolkit = word if word.endswith("Api") else None
                    history = False
                elif toolkit and line.startswith("- "):
                    tools.extend(parse_tool_line(line, toolkit, history))
                elif toolkit and line.endswith(":"):
                    history = line.endswith("(H):")
    return tools


def parse_toolkits(spec_dir):
    """The toolkit table of document 1 plus each toolkit's capabilities."""
    kits, caps = {}, {}
    for path in spec_files(spec_dir):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for m in re.finditer(r"^\| `(\w+)` \| ([^|]+) \| ([\d.]+) \| (\d+) \|$", text, re.M):
            kits[m.group(1)] = {"name": m.group(1), "wraps": m.group(2).strip(),
                                "version": m.group(3), "tool_count": int(m.group(4))}
        for m in re.finditer(r"^- `(\w+Api)`(?: \(version [^)]*\))?(?::| lets an agent) (.*)$",
                             text, re.M):
            body = m.group(2)
            if "resources" in body[:12] or m.group(1) in caps:
                continue
            if ": " in body.split(";")[0]:
                body = body.split(": ", 1)[1]
            items = []
            for part in split_top(body, "; "):
                part = re.sub(r"^and ", "", part.strip())
                items.extend(p.strip() for p in re.split(r"\. (?=[A-Z])", part))
            caps[m.group(1)] = [i.rstrip(".") for i in items if i]
    for name, kit in kits.items():
        kit["capabilities"] = caps.get(name, [])
    return [kits[k] for k in kits]
