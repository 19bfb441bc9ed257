"""The toolkits, in the specification's order, from their one list: TOOLGATE_TOOLKIT_NAMES in
toolkits/CMakeLists.txt. Every script that walks the toolkits reads it through here.
"""
import os
import re

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_SET = re.compile(r"^\s*set\(\s*TOOLGATE_TOOLKIT_NAMES\b([^)]*)\)", re.M)


def toolkit_names(repo=REPO):
    """['StoreApi', 'CoreEngineApi', ...]: the words of the set(TOOLGATE_TOOLKIT_NAMES ...)."""
    path = os.path.join(repo, "toolkits", "CMakeLists.txt")
    with open(path, encoding="utf-8") as f:
        match = _SET.search(f.read())
    if not match:
        raise SystemExit(f"{path}: no set(TOOLGATE_TOOLKIT_NAMES ...)")
    names = re.sub(r"#[^\n]*", "", match.group(1)).split()
    if not names:
        raise SystemExit(f"{path}: TOOLGATE_TOOLKIT_NAMES is empty")
    return names
