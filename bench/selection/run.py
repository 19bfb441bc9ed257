#!/usr/bin/env python3
"""Tool-selection benchmark: can a tool's texts alone lead a request to the right tool?

Every request in requests.json (plain business language, no tool names) is scored against all
1150 tools of the eight toolkits, not only its own toolkit. For each request we find the rank of
the best-placed expected tool and report recall@1, recall@5 and MRR, overall and per toolkit.

    python3 bench/selection/run.py                          # the working tree's catalogue
    python3 bench/selection/run.py --catalogue-rev HEAD~3   # the catalogue as of a git revision
    python3 bench/selection/run.py --upstream ../shared/reference/toolkits   # the vendors' texts
    python3 bench/selection/run.py --json                   # machine-readable, with every rank
    python3 bench/selection/run.py --show-misses 20         # the 20 worst-placed requests
    python3 bench/selection/run.py --check                  # validate requests.json only

The default ranker is BM25F over each tool's fields (see FIELD_WEIGHTS). A ranker is any
callable `query -> ranked list of "Toolkit.Tool" names`; RANKERS below maps --ranker names to
factories, which is where another ranker (for example one that asks the server's own search
tool) plugs in. Standard library only. See bench/selection/README.md.
"""
import argparse
import collections
import glob
import json
import math
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEFAULT_REQUESTS = os.path.join(HERE, "requests.json")
# The tuning set: the ranker's constants and synonym table are judged on it, never on
# requests.json, which stays held out (bench/selection/README.md, "Two request sets").
DEV_REQUESTS = os.path.join(HERE, "dev-requests.json")
# One request for every tool (bench/selection/README.md, "The coverage set"): it finds tools
# whose texts lack the words users say. The descriptions were revised against it, so its
# figures are not results.
COVERAGE_REQUESTS = os.path.join(HERE, "coverage-requests.json")
MIN_PER_TOOLKIT = 30
MIN_PER_TOOLKIT_DEV = 20
sys.path.insert(0, os.path.join(ROOT, "tools"))
import descriptions_lib  # noqa: E402
from toolkit_names import toolkit_names  # noqa: E402  (the list in toolkits/CMakeLists.txt)

TOOLKITS = toolkit_names()

# --- ranking constants -------------------------------------------------------------------------
# BM25 saturation and length normalisation: the usual defaults (Robertson & Zaragoza 2009;
# Lucene's). Tool texts are short and similar in length, so b matters little; k1 = 1.2 keeps a
# word repeated across name, title and description from swamping the other query words.
K1 = 1.2
B = 0.75
# BM25F field weights: a word's frequency in a field is multiplied by the field's weight before
# saturation. The name is what a model sees first and is the most reliable summary; the
# description says what the tool does; parameter texts add vocabulary (and noise).
# In today's catalogue the title is the name's words again, so those words count 3 + 1.
FIELD_WEIGHTS = {
    "name": 3.0,         # name words, CamelCase/acronyms split: GetOidcDiscovery -> get oidc discovery
    "title": 1.0,        # the catalogue's title (upstream texts have none)
    "description": 2.0,  # the tool description
    "params": 1.0,       # parameter names (snake_case split) and parameter descriptions
}
TOP_K = 5  # recall@TOP_K besides recall@1

STOPWORDS = frozenset("""
a an the and or nor of to in on for with by at from as into onto about via per
is are was were be been being am it its this that these those there here
i me my we us our you your he him his she her they them their
do does did can could would should will shall may might must please
what which who whom whose when where how why if then than so just also only
""".split())


# --- tokenisation ------------------------------------------------------------------------------
_VOWEL = re.compile(r"[aeiouy]")
_IDENT = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def split_identifier(text):
    """'GetOidcDiscovery' -> ['Get', 'Oidc', 'Discovery']; 'XMLFile2' -> ['XML', 'File', '2'];
    snake_case and any other punctuation separate words too."""
    return _IDENT.findall(text)


def stem(word):
    """Light, conservative suffix stripping: plurals, -ing, -ed, then a final -e, so that
    archive/archives/archived/archiving all become 'archiv' and files/file become 'fil'."""
    if len(word) <= 3 or word.isdigit():
        return word
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("sses"):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if word.endswith("ing") and len(word) >= 6 and _VOWEL.search(word[:-3]):
        word = word[:-3]                                 # moving -> mov; string, bring stay
        if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz":
            word = word[:-1]                             # running -> run, billing -> bill
    elif word.endswith("ed") and len(word) >= 5 and _VOWEL.search(word[:-2]):
        word = word[:-2]                                 # shared -> shar; need stays
        if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz":
            word = word[:-1]                             # embedded -> embed
    if word.endswith("e") and len(word) >= 4:
        word = word[:-1]
    return word


def tokenize(text):
    """Lower-cased, identifier-split, stopword-free, stemmed words; one-letter words dropped."""
    out = []
    for raw in split_identifier(text or ""):
        w = raw.lower()
        if len(w) < 2 or w in STOPWORDS:
            continue
        out.append(stem(w))
    return out


# --- tool texts --------------------------------------------------------------------------------
def tool_doc(toolkit, name, title, description, params):
    """One tool as the ranker sees it. params: [(param_name, param_description), ...]."""
    return {
        "id": f"{toolkit}.{name}",
        "toolkit": toolkit,
        "fields": {
            "name": name,
            "title": title or "",
            "description": description or "",
            "params": " ".join(f"{pn} {pd or ''}" for pn, pd in params),
        },
    }


def docs_from_catalogue(cat):
    kit = cat["toolkit"]
    return [tool_doc(kit, t["name"], t.get("title"), t.get("description"),
                     [(p["name"], p.get("description")) for p in t.get("params", [])])
            for t in cat["tools"]]


def git(*args):
    done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"selection bench: git {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def with_words(cat, read):
    """The catalogue with its words: today's catalogue.json carries none, and they are merged
    from descriptions.json as the build does; older revisions carried them inline.
    read(relative path) returns a file's text."""
    if all("description" in t for t in cat["tools"]):
        return cat
    written = json.loads(read(f"toolkits/{cat['toolkit']}/descriptions.json"))["tools"]
    shared = json.loads(read("toolkits/m_tool_descriptions.json"))
    return descriptions_lib.published_catalogue(cat, written, shared)


def load_catalogue_tools(rev=None):
    """The tools of toolkits/*/catalogue.json: in the working tree, or as of git revision rev."""
    docs = []
    if rev is None:
        def read(path):
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                return f.read()

        paths = sorted(glob.glob(os.path.join(ROOT, "toolkits", "*", "catalogue.json")))
        for path in paths:
            docs += docs_from_catalogue(with_words(json.loads(read(path)), read))
        source = "catalogue (working tree)"
    else:
        def read(path):
            return git("show", f"{rev}:{path}")

        listed = git("ls-tree", "-r", "--name-only", rev, "--", "toolkits").split("\n")
        paths = sorted(p for p in listed if re.fullmatch(r"toolkits/[^/]+/catalogue\.json", p))
        for path in paths:
            docs += docs_from_catalogue(with_words(json.loads(read(path)), read))
        source = f"catalogue @ {rev} ({git('rev-parse', '--short', rev).strip()})"
    if not docs:
        sys.exit(f"selection bench: no toolkits/*/catalogue.json found ({source})")
    return docs, source


def load_upstream_tools(directory):
    """The vendors' texts from the reference data: tool name, upstream_description, and each
    parameter's name and upstream_description. No title: the reference has none."""
    if not os.path.isdir(directory) and os.path.isdir(os.path.join(ROOT, directory)):
        directory = os.path.join(ROOT, directory)
    paths = sorted(glob.glob(os.path.join(directory, "*.json")))
    if not paths:
        sys.exit(f"selection bench: no *.json under {directory}")
    docs = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            ref = json.load(f)
        kit = ref.get("toolkit") or os.path.splitext(os.path.basename(path))[0]
        for t in ref["tools"]:
            docs.append(tool_doc(kit, t["name"], "", t.get("upstream_description"),
                                 [(p["name"], p.get("upstream_description"))
                                  for p in t.get("parameters", []) or []]))
    return docs, f"upstream texts ({os.path.relpath(directory)})"


# --- rankers -----------------------------------------------------------------------------------
class BM25FRanker:
    """BM25F (Zaragoza et al. 2004, simple variant): per field f, a term's frequency tf_f is
    length-normalised with that field's average length, weighted and summed:
        tf~ = sum_f w_f * tf_f / (1 - B + B * len_f / avglen_f)
    then saturated once: score = sum over distinct query terms of idf(t) * tf~ / (K1 + tf~),
    with idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5)) over the N tools."""

    def __init__(self, docs, weights=None, k1=K1, b=B):
        self.weights = dict(weights or FIELD_WEIGHTS)
        self.ids = [d["id"] for d in docs]
        n = len(docs)
        tokens = [{f: tokenize(d["fields"].get(f, "")) for f in self.weights} for d in docs]
        avglen = {f: (sum(len(t[f]) for t in tokens) / n) or 1.0 for f in self.weights}
        df = collections.Counter()
        pseudo_tf = []
        for t in tokens:
            acc = collections.defaultdict(float)
            for f, words in t.items():
                if not words or not self.weights[f]:
                    continue
                norm = 1.0 - b + b * len(words) / avglen[f]
                for w, c in collections.Counter(words).items():
                    acc[w] += self.weights[f] * c / norm
            pseudo_tf.append(acc)
            df.update(acc.keys())
        self.idf = {w: math.log(1.0 + (n - c + 0.5) / (c + 0.5)) for w, c in df.items()}
        self.postings = collections.defaultdict(list)   # term -> [(doc index, contribution)]
        for i, acc in enumerate(pseudo_tf):
            for w, tf in acc.items():
                self.postings[w].append((i, self.idf[w] * tf / (k1 + tf)))

    def scores(self, query):
        s = collections.defaultdict(float)
        for w in set(tokenize(query)):
            for i, contribution in self.postings.get(w, ()):
                s[i] += contribution
        return s

    def __call__(self, query):
        """Ranked "Toolkit.Tool" names; tools sharing no word with the query are left out."""
        s = self.scores(query)
        return [self.ids[i] for i in sorted(s, key=lambda i: (-s[i], self.ids[i]))]


def build_bm25(args, docs):
    return BM25FRanker(docs)


class ServerRanker:
    """Asks a running toolgate's own toolgate_search_tools (stdio, one MCP session) for each
    query: the ranking the model would get in discovery mode."""

    def __init__(self, binary, limit=10):
        self.limit = limit
        self.proc = subprocess.Popen([binary, "--tool-mode", "discovery", "--log-level", "warn"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.next_id = 0
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "selection-bench", "version": "1"}})
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0",
                                          "method": "notifications/initialized"}) + "\n")

    def request(self, method, params):
        self.next_id += 1
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": self.next_id,
                                          "method": method, "params": params}) + "\n")
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit("selection bench: the server closed its output")
            msg = json.loads(line)
            if msg.get("id") == self.next_id:
                if "error" in msg:
                    sys.exit(f"selection bench: {method}: {msg['error']}")
                return msg["result"]

    def __call__(self, query):
        result = self.request("tools/call", {"name": "toolgate_search_tools",
                                             "arguments": {"query": query, "limit": self.limit}})
        tools = (result.get("structuredContent") or {}).get("tools", [])
        return [t["name"].replace("_", ".", 1) for t in tools]


def build_server(args, docs):
    binary = args.server_bin or os.path.join(ROOT, "build", "bin", "toolgate")
    if not os.path.exists(binary):
        sys.exit(f"selection bench: no toolgate binary at {binary} (make build, or --server-bin)")
    return ServerRanker(binary)


# Extension point: --ranker NAME picks RANKERS[NAME](args, docs), which must return a callable
# query -> ranked list of "Toolkit.Tool" names (best first; it may be shorter than the catalogue,
# anything left out counts as not found). To add the server's own search tool:
#   1. add `--server-bin PATH` (and whatever else it needs) in parse_args();
#   2. write build_server(args, docs) that starts PATH on stdio, initialises an MCP session and
#      returns a function that calls the server's search tool with the query and maps its
#      answer to "Toolkit.Tool" names (docs gives the full set of valid names);
#   3. register it here: RANKERS["server"] = build_server.
# Nothing else changes: evaluation, tables, --json and --show-misses work on any ranker.
RANKERS = {
    "bm25": build_bm25,
    "server": build_server,
}


# --- requests and evaluation -------------------------------------------------------------------
def load_requests(path):
    with open(path, encoding="utf-8") as f:
        reqs = json.load(f)
    if not isinstance(reqs, list):
        sys.exit(f"selection bench: {path}: expected a JSON array of requests")
    for i, r in enumerate(reqs):
        missing = [k for k in ("toolkit", "request", "expected") if k not in r]
        if missing or not r["expected"]:
            sys.exit(f"selection bench: {path}: entry {i} lacks {missing or ['expected tools']}")
    return reqs


def check_requests(reqs, known_ids, minimum=MIN_PER_TOOLKIT):
    """Problems with the request set against a set of tool ids: unknown expected tools,
    expected tools outside the request's toolkit, duplicates, toolkits under `minimum`."""
    problems = []
    for r in reqs:
        for e in r["expected"]:
            if e not in known_ids:
                problems.append(f"unknown tool {e} for: {r['request']}")
            elif not e.startswith(r["toolkit"] + "."):
                problems.append(f"{e} is not in toolkit {r['toolkit']}: {r['request']}")
    seen = collections.Counter(r["request"] for r in reqs)
    problems += [f"duplicate request: {q}" for q, c in seen.items() if c > 1]
    per_kit = collections.Counter(r["toolkit"] for r in reqs)
    problems += [f"{k}: {per_kit[k]} requests, fewer than {minimum}"
                 for k in TOOLKITS if per_kit[k] < minimum]
    return problems


_WORDS = re.compile(r"[a-z0-9]+")


def word_runs(text, n=6):
    """Every run of n consecutive words of text, lower-cased."""
    w = _WORDS.findall(text.lower())
    return {" ".join(w[i:i + n]) for i in range(len(w) - n + 1)}


def overlapping(reqs, other_paths, n=6):
    """Problems for the requests of reqs that share a run of n words with a request of the
    sets in other_paths: the coverage set is used to revise the texts, so a request close to
    one of the held-out or tuning sets would carry that set's wording into them."""
    other = {}
    for path in other_paths:
        for r in load_requests(path):
            for phrase in word_runs(r["request"], n):
                other.setdefault(phrase, os.path.basename(path))
    problems = []
    for r in reqs:
        hit = next((other[w] for w in word_runs(r["request"], n) if w in other), None)
        if hit:
            problems.append(f"shares {n} words in a row with a request of {hit}: {r['request']}")
    return problems


def evaluate(reqs, ranker):
    """One result per request: the 1-based rank of its best-placed expected tool (None when
    the ranker did not return any of them) and the ranker's top TOP_K."""
    results = []
    for r in reqs:
        ranked = ranker(r["request"])
        pos = {name: i + 1 for i, name in enumerate(ranked)}
        ranks = [pos[e] for e in r["expected"] if e in pos]
        results.append({
            "toolkit": r["toolkit"],
            "request": r["request"],
            "expected": r["expected"],
            "rank": min(ranks) if ranks else None,
            "top": ranked[:TOP_K],
        })
    return results


def summarise(results):
    def stats(rows):
        n = len(rows)
        ranks = [x["rank"] for x in rows]
        return {
            "n": n,
            "recall@1": sum(1 for k in ranks if k == 1) / n if n else 0.0,
            f"recall@{TOP_K}": sum(1 for k in ranks if k is not None and k <= TOP_K) / n
            if n else 0.0,
            "mrr": sum(1.0 / k for k in ranks if k) / n if n else 0.0,
            # the top tool at least belongs to the right toolkit
            "toolkit@1": sum(1 for x in rows if x["top"] and
                             x["top"][0].split(".")[0] == x["toolkit"]) / n if n else 0.0,
        }
    kits = [k for k in TOOLKITS if any(x["toolkit"] == k for x in results)]
    kits += sorted({x["toolkit"] for x in results} - set(kits))
    return {"overall": stats(results),
            "per_toolkit": {k: stats([x for x in results if x["toolkit"] == k]) for k in kits}}


def table(summary):
    cols = ["n", "recall@1", f"recall@{TOP_K}", "mrr", "toolkit@1"]
    head = ["toolkit", "requests", "R@1", f"R@{TOP_K}", "MRR", "kit@1"]
    rows = [[k] + [v[c] for c in cols] for k, v in summary["per_toolkit"].items()]
    rows.append(["overall"] + [summary["overall"][c] for c in cols])
    cell = lambda v: f"{v:.3f}" if isinstance(v, float) else str(v)
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(
        ["---"] + ["---:"] * (len(head) - 1)) + "|"]
    for row in rows:
        name = f"**{row[0]}**" if row[0] == "overall" else row[0]
        lines.append("| " + " | ".join([name] + [cell(v) for v in row[1:]]) + " |")
    return "\n".join(lines)


def misses(results, count):
    worst = sorted((x for x in results if x["rank"] != 1),
                   key=lambda x: (-(x["rank"] or 10**9), x["toolkit"], x["request"]))[:count]
    out = []
    for x in worst:
        rank = x["rank"] if x["rank"] is not None else "not found"
        out.append(f"- [{x['toolkit']}] rank {rank}: {x['request']}\n"
                   f"    expected: {', '.join(e.split('.', 1)[1] for e in x['expected'])}\n"
                   f"    got:      {', '.join(x['top'][:3]) or '(nothing)'}")
    return "\n".join(out)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    src = p.add_mutually_exclusive_group()
    src.add_argument("--catalogue-rev", metavar="REV",
                     help="read toolkits/*/catalogue.json as of this git revision "
                          "(default: the working tree)")
    src.add_argument("--upstream", metavar="DIR",
                     help="score the vendors' texts in DIR/*.json instead "
                          "(e.g. ../shared/reference/toolkits)")
    sets = p.add_mutually_exclusive_group()
    sets.add_argument("--requests", default=DEFAULT_REQUESTS, metavar="PATH",
                      help="the request set (default: bench/selection/requests.json)")
    sets.add_argument("--dev", action="store_true",
                      help="the tuning set, bench/selection/dev-requests.json")
    sets.add_argument("--coverage", action="store_true",
                      help="one request per tool, bench/selection/coverage-requests.json")
    p.add_argument("--ranker", choices=sorted(RANKERS), default="bm25",
                   help="which ranker to evaluate (default: bm25)")
    p.add_argument("--server-bin", metavar="PATH",
                   help="with --ranker server: the toolgate binary (default build/bin/toolgate)")
    p.add_argument("--json", action="store_true", help="print machine-readable results")
    p.add_argument("--show-misses", type=int, default=0, metavar="N",
                   help="also print the N worst-placed requests")
    p.add_argument("--check", action="store_true",
                   help="only validate the request set against the catalogue; exit 1 on problems")
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    path = DEV_REQUESTS if args.dev else COVERAGE_REQUESTS if args.coverage else args.requests
    reqs = load_requests(path)
    if args.upstream:
        docs, source = load_upstream_tools(args.upstream)
    else:
        docs, source = load_catalogue_tools(args.catalogue_rev)
    known = {d["id"] for d in docs}
    problems = check_requests(reqs, known, MIN_PER_TOOLKIT_DEV if args.dev or args.coverage
                              else MIN_PER_TOOLKIT)
    if args.coverage:
        firsts = collections.Counter(r["expected"][0] for r in reqs)
        problems += [f"{t}: no request of its own" for t in sorted(known - set(firsts))]
        problems += [f"{t}: {c} requests of its own" for t, c in firsts.items() if c > 1]
        problems += overlapping(reqs, [DEFAULT_REQUESTS, DEV_REQUESTS])
    if args.check:
        for msg in problems:
            print(f"selection bench: {msg}", file=sys.stderr)
        per_kit = collections.Counter(r["toolkit"] for r in reqs)
        print(f"{len(reqs)} requests, {len(known)} tools; " +
              ", ".join(f"{k} {per_kit[k]}" for k in TOOLKITS) +
              ("; OK" if not problems else f"; {len(problems)} problem(s)"))
        return 1 if problems else 0
    for msg in problems:   # e.g. an expected tool renamed at this revision: counts as a miss
        print(f"selection bench: warning: {msg}", file=sys.stderr)

    ranker = RANKERS[args.ranker](args, docs)
    results = evaluate(reqs, ranker)
    summary = summarise(results)
    config = {"ranker": args.ranker, "source": source, "tools": len(docs),
              "requests": len(reqs)}
    if args.ranker == "bm25":
        config.update({"k1": K1, "b": B, "field_weights": FIELD_WEIGHTS})
    if args.json:
        json.dump({"config": config, **summary, "results": results}, sys.stdout, indent=1)
        print()
        return 0
    print(f"Tool selection: {config['requests']} requests against {config['tools']} tools; "
          f"ranker {args.ranker}; {source}")
    print()
    print(table(summary))
    if args.show_misses:
        print()
        print(f"Worst {args.show_misses} (the rank of the best-placed expected tool):")
        print(misses(results, args.show_misses))
    return 0


if __name__ == "__main__":
    sys.exit(main())
