// BM25F search over tool texts (see search_index.hpp).
//
// Scoring (Robertson & Zaragoza, "The Probabilistic Relevance Framework: BM25 and Beyond",
// 2009, §4.1, the simple BM25F): per document, a word's frequency in each field is normalised
// by that field's length against its average and multiplied by the field's weight; the sum is
// saturated once, tf / (k1 + tf), and multiplied by the word's idf. Those per-document
// contributions are computed at build time, so a search adds up precomputed numbers.
#include "discovery/search_index.hpp"

#include "common/ascii.hpp"
#include "common/tool_names.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <numeric>
#include <unordered_set>

namespace toolgate::discovery {
namespace {

std::vector<std::string_view> split_words(std::string_view text);

constexpr double k1 = 1.2;
constexpr double b = 0.75;

/// Field weights: the name is the most reliable summary of a tool, the description says what
/// it does and when to use it, and parameter texts add vocabulary (and some noise).
/// The last field holds the name's words as written, unstemmed: "invoices" in a request
/// matches `RetrieveInvoices` better than `GetInvoiceDetails`, which stemming alone cannot
/// tell apart (a plural asks for the list, a singular for one).
enum field : std::size_t {
    name_field,
    title_field,
    description_field,
    params_field,
    name_form_field
};
constexpr std::size_t field_count = 5;
constexpr std::array<double, field_count> field_weight = { 3.0, 1.0, 2.0, 0.5, 1.0 };

/// Query words widened by these, at this weight of the word's own.
constexpr double synonym_weight = 0.3;

/// What a request asks to do, read from its first words, against what a tool's name says it
/// does (its leading verb): a match lifts the tool, a clash (a question answered by a tool
/// that deletes) lowers it. Word matching and BM25 cannot see that "show" and "Get" agree.
enum class action : std::uint8_t { unknown, read, create, change, remove };
constexpr double action_match = 1.3;
constexpr double action_clash = 0.8;
/// The tools of the toolkit the request is most likely about get this factor: a request is
/// about one platform. That toolkit is the one whose own words (its name and platform phrase:
/// "vector database", "service desk", "accounting") the request uses most, else, when it
/// names none or several equally, the one whose best few tools score highest together.
constexpr double group_boost = 1.5;
constexpr std::size_t group_evidence = 3;

action action_of_name(std::string_view name)
{
    std::size_t end = 1;
    while (end < name.size() && name[end] >= 'a' && name[end] <= 'z') {
        ++end;
    }
    auto const verb = name.substr(0, end);
    static constexpr std::string_view reads[]
        = { "Get", "List", "Retrieve", "Fetch", "Read", "View", "Search", "Find", "Check",
              "Download", "Show", "Query", "Count", "Describe", "Export", "Preview", "Look" };
    static constexpr std::string_view creates[]
        = { "Create", "Add", "Upload", "Invite", "Post", "Register", "Generate", "Make", "Start",
              "Initiate", "Copy", "Import", "Send", "Submit", "Record", "Batch" };
    static constexpr std::string_view changes[] = { "Update", "Edit", "Modify", "Set", "Rename",
        "Move", "Change", "Mark", "Archive", "Assign", "Replace", "Enable", "Disable", "Activate",
        "Deactivate", "Restore", "Promote", "Pause", "Unpause", "Convert", "Transfer", "Merge",
        "Close", "Reopen", "Modify", "Toggle", "Rotate", "Advance" };
    static constexpr std::string_view removes[]
        = { "Delete", "Remove", "Purge", "Revoke", "Cancel", "Abort", "Clear" };
    auto const in = [&](auto const& list) {
        return std::find(std::begin(list), std::end(list), verb) != std::end(list);
    };
    if (in(reads)) {
        return action::read;
    }
    if (in(creates)) {
        return action::create;
    }
    if (in(changes)) {
        return action::change;
    }
    if (in(removes)) {
        return action::remove;
    }
    return action::unknown;
}

/// The words that say what a request wants done, and which action each asks for.
constexpr std::pair<std::string_view, action> action_table[] = {
    { "show", action::read },
    { "list", action::read },
    { "get", action::read },
    { "fetch", action::read },
    { "find", action::read },
    { "look", action::read },
    { "see", action::read },
    { "view", action::read },
    { "read", action::read },
    { "which", action::read },
    { "who", action::read },
    { "what", action::read },
    { "how", action::read },
    { "when", action::read },
    { "where", action::read },
    { "is", action::read },
    { "are", action::read },
    { "does", action::read },
    { "do", action::read },
    { "check", action::read },
    { "count", action::read },
    { "tell", action::read },
    { "download", action::read },
    { "pull", action::read },
    { "search", action::read },
    { "retrieve", action::read },
    { "give", action::change }, // "give Priya the editor role"; "give me" is a phrase
    { "create", action::create },
    { "add", action::create },
    { "new", action::create },
    { "make", action::create },
    { "start", action::create },
    { "upload", action::create },
    { "invite", action::create },
    { "post", action::create },
    { "write", action::create },
    { "store", action::create },
    { "load", action::create },
    { "register", action::create },
    { "record", action::create },
    { "send", action::create },
    { "open", action::create },
    { "update", action::change },
    { "edit", action::change },
    { "change", action::change },
    { "modify", action::change },
    { "rename", action::change },
    { "move", action::change },
    { "set", action::change },
    { "bump", action::change },
    { "assign", action::change },
    { "turn", action::change },
    { "switch", action::change },
    { "replace", action::change },
    { "overwrite", action::change },
    { "mark", action::change },
    { "archive", action::change },
    { "close", action::change },
    { "reopen", action::change },
    { "point", action::change },
    { "restore", action::change },
    { "enable", action::change },
    { "disable", action::change },
    { "delete", action::remove },
    { "remove", action::remove },
    { "drop", action::remove },
    { "erase", action::remove },
    { "trash", action::remove },
    { "purge", action::remove },
    { "cancel", action::remove },
    { "revoke", action::remove },
    { "take", action::remove },
    { "kick", action::remove },
    { "wipe", action::remove },
    { "kill", action::remove },
    { "swap", action::change },
};

std::unordered_map<std::string_view, action> const& action_words()
{
    static std::unordered_map<std::string_view, action> const words(
        std::begin(action_table), std::end(action_table));
    return words;
}

/// The first action word among the request's first few words (before stemming: "show",
/// "who", "which" carry the intent and are stopwords for matching).
action action_of_query(std::string_view query)
{
    auto const& words = action_words();
    std::size_t seen = 0;
    for (auto raw : split_words(query)) {
        auto const w = common::to_lower_ascii(raw);
        if (auto it = words.find(w); it != words.end()) {
            return it->second;
        }
        if (++seen == 4) {
            break;
        }
    }
    return action::unknown;
}

std::unordered_set<std::string_view> const& stopwords()
{
    static std::unordered_set<std::string_view> const words = { "a", "an", "the", "and", "or",
        "nor", "of", "to", "in", "on", "for", "with", "by", "at", "from", "as", "into", "onto",
        "about", "via", "per", "is", "are", "was", "were", "be", "been", "being", "am", "it", "its",
        "this", "that", "these", "those", "there", "here", "i", "me", "my", "we", "us", "our",
        "you", "your", "he", "him", "his", "she", "her", "they", "them", "their", "do", "does",
        "did", "can", "could", "would", "should", "will", "shall", "may", "might", "must", "please",
        "what", "which", "who", "whom", "whose", "when", "where", "how", "why", "if", "then",
        "than", "so", "just", "also", "only", "want", "need", "like", "some", "any", "one", "all" };
    return words;
}

bool is_vowel(char c)
{
    return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' || c == 'y';
}

bool has_vowel(std::string_view s)
{
    return std::any_of(s.begin(), s.end(), is_vowel);
}

/// Light, conservative suffix stripping: plurals, -ing, -ed, then a final -e, so that
/// archive, archives, archived and archiving meet, as do file and files.
std::string stem(std::string w)
{
    if (w == "ids") {
        return "id"; // the one short plural that matters here
    }
    if (w.size() <= 3
        || std::all_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        return w;
    }
    if (w.ends_with("ies") && w.size() > 4) {
        w.replace(w.size() - 3, 3, "y");
    } else if (w.ends_with("sses")) {
        w.resize(w.size() - 2);
    } else if (w.ends_with("s") && !w.ends_with("ss") && !w.ends_with("us") && !w.ends_with("is")) {
        w.pop_back();
    }
    auto const undouble = [&w] {
        if (w.size() > 3 && w[w.size() - 1] == w[w.size() - 2] && w.back() != 'l' && w.back() != 's'
            && w.back() != 'z') {
            w.pop_back();
        }
    };
    if (w.ends_with("ing") && w.size() >= 6
        && has_vowel(std::string_view(w).substr(0, w.size() - 3))) {
        w.resize(w.size() - 3);
        undouble();
    } else if (w.ends_with("ed") && w.size() >= 5
        && has_vowel(std::string_view(w).substr(0, w.size() - 2))) {
        w.resize(w.size() - 2);
        undouble();
    }
    if (w.ends_with("e") && w.size() >= 4) {
        w.pop_back();
    }
    return w;
}

bool upper(char c)
{
    return c >= 'A' && c <= 'Z';
}
bool lower(char c)
{
    return c >= 'a' && c <= 'z';
}
bool digit(char c)
{
    return c >= '0' && c <= '9';
}

/// Words of an identifier or of prose: runs of letters split where case turns
/// (`GetOidcDiscovery` -> Get Oidc Discovery, `XMLFile` -> XML File), runs of digits, and
/// every other character a separator.
std::vector<std::string_view> split_words(std::string_view text)
{
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < text.size()) {
        char const c = text[i];
        if (digit(c)) {
            auto j = i;
            while (j < text.size() && digit(text[j])) {
                ++j;
            }
            out.emplace_back(text.substr(i, j - i));
            i = j;
        } else if (upper(c)) {
            auto j = i;
            while (j < text.size() && upper(text[j])) {
                ++j;
            }
            bool const lower_follows = j < text.size() && lower(text[j]);
            if (lower_follows && j - i > 1) {
                out.emplace_back(text.substr(i, j - 1 - i)); // "XMLFile": XML, then File
                i = j - 1;
            } else if (lower_follows) {
                auto k = j;
                while (k < text.size() && lower(text[k])) {
                    ++k;
                }
                out.emplace_back(text.substr(i, k - i)); // "Folder"
                i = k;
            } else {
                out.emplace_back(text.substr(i, j - i)); // "ID", "URL"
                i = j;
            }
        } else if (lower(c)) {
            auto j = i;
            while (j < text.size() && lower(text[j])) {
                ++j;
            }
            out.emplace_back(text.substr(i, j - i));
            i = j;
        } else {
            ++i; // UTF-8 bytes, punctuation, spaces: separators
        }
    }
    return out;
}

/// Groups of words users use for the same thing (stemmed). A query word also looks for the
/// others of its groups, at synonym_weight. Our own table of general business language;
/// additions are judged on the tuning requests (bench/selection/dev-requests.json), never on
/// the held-out ones (bench/selection/README.md, "Two request sets").
std::vector<std::vector<std::string_view>> const& synonym_groups()
{
    static std::vector<std::vector<std::string_view>> const groups = {
        { "delet", "remov", "trash", "eras", "destroy", "discard", "wip", "rid", "kick" },
        { "creat", "add", "new", "mak", "register" },
        { "updat", "edit", "chang", "modify", "renam", "set" },
        { "list", "show", "browse", "enumerat" },
        { "get", "fetch", "retriev", "read", "view", "look", "detail" },
        { "search", "find", "query", "lookup" },
        { "card", "task", "todo" },
        { "invoic", "bill" },
        { "member", "user", "person", "people", "colleagu", "login" },
        { "folder", "directory" },
        { "fil", "document", "attachment" },
        { "comment", "not", "reply", "messag", "remark" },
        { "label", "tag" },
        { "organization", "organisation", "workspac", "team", "org" },
        { "contact", "customer", "supplier", "client" },
        { "payment", "pay" },
        { "deployment", "deploy", "releas", "rollout" },
        { "domain", "dns", "hostnam" },
        { "download", "export" },
        { "upload", "import" },
        { "restor", "recover", "undelet", "untrash", "undo" },
        { "cancel", "stop", "abort", "halt" },
        { "collection", "class", "tabl" },
        { "object", "record", "entry" },
        { "ticket", "incident", "issu", "request" },
        { "asset", "devic", "hardwar", "equipment" },
        { "agent", "technician", "staff" },
        { "requester", "employe", "enduser" },
        { "webhook", "callback", "hook" },
        { "token", "key", "credential" },
        { "secret", "variabl", "env", "environment" },
        { "archiv", "clos" },
        { "star", "favorit", "favourit", "bookmark" },
        { "log", "audit", "history", "activity", "trail" },
        { "schedul", "cron", "recurr" },
        { "permission", "access", "role", "privileg" },
        { "problem", "bug", "defect" },
        { "chang", "amend" },
        { "quot", "estimat" },
        { "account", "ledger" },
        { "report", "summary", "statement" },
        { "expens", "claim", "spend" },
        { "purchas", "buy", "order" },
        { "vendor", "seller", "supplier" },
        { "sign", "signatur", "esign" },
        { "link", "url" },
        { "alia", "nicknam" },
        { "backup", "snapshot" },
        { "vector", "embed" },
        { "databas", "db" },
        { "property", "field", "attribut" },
        { "paus", "hold", "suspend", "freez" },
        { "replac", "swap", "overwrit" },
        { "revok", "invalidat", "expir" },
        { "batch", "bulk", "multipl" },
        { "child", "sub", "subtask" },
    };
    return groups;
}

std::unordered_map<std::string, std::vector<std::string>> const& synonyms()
{
    static auto const table = [] {
        std::unordered_map<std::string, std::vector<std::string>> out;
        for (auto const& group : synonym_groups()) {
            for (auto word : group) {
                for (auto other : group) {
                    if (other != word) {
                        out[std::string(word)].emplace_back(other);
                    }
                }
            }
        }
        return out;
    }();
    return table;
}

/// `text` without the other tools it names in backticks (`CoreEngineApi_GetWorkerHealthStatus`):
/// a pointer to another tool says what this one is not, and indexing its words would rank this
/// tool for that one's requests.
std::string without_tool_references(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    std::size_t i = 0;
    while (i < text.size()) {
        if (text[i] == '`') {
            auto const end = text.find('`', i + 1);
            if (end != std::string_view::npos) {
                auto const inner = text.substr(i + 1, end - i - 1);
                auto const toolkit = common::toolkit_of(inner); // either name spelling
                bool const tool_name = !toolkit.empty() && upper(inner[0])
                    && inner.find(' ') == std::string_view::npos && toolkit.ends_with("Api");
                if (tool_name) {
                    out += ' ';
                    i = end + 1;
                    continue;
                }
            }
        }
        out += text[i];
        ++i;
    }
    return out;
}

/// `query` with the phrases whose words say something else one by one ("get rid of" is not a
/// "get") replaced by the word they mean. Matching ignores case; the rest of the query keeps
/// its case, which splits identifiers (`ListBoards`).
std::string with_phrases_replaced(std::string_view query)
{
    static constexpr std::pair<std::string_view, std::string_view> phrases[]
        = { { "get rid of", "remove" }, { "set up", "create" }, { "give me", "show me" },
              { "give us", "show us" } };
    std::string text(query);
    auto lowered = common::to_lower_ascii(text); // same length; kept in step with `text`
    for (auto const& [phrase, word] : phrases) {
        for (auto at = lowered.find(phrase); at != std::string::npos;) {
            auto const end = at + phrase.size();
            bool const whole = (at == 0 || !std::isalnum(static_cast<unsigned char>(text[at - 1])))
                && (end == text.size() || !std::isalnum(static_cast<unsigned char>(text[end])));
            if (!whole) {
                at = lowered.find(phrase, at + 1);
                continue;
            }
            text.replace(at, phrase.size(), word);
            lowered.replace(at, phrase.size(), word);
            at = lowered.find(phrase, at + word.size());
        }
    }
    return text;
}

/// The words of `text` as written (lower-cased, not stemmed), marked so they never meet a
/// stemmed word: "Invoices" -> "=invoices".
std::vector<std::string> exact_forms(std::string_view text)
{
    std::vector<std::string> out;
    for (auto raw : split_words(text)) {
        auto w = common::to_lower_ascii(raw);
        if (w.size() < 2 || stopwords().contains(w)) {
            continue;
        }
        out.push_back("=" + w);
    }
    return out;
}

using field_tokens = std::array<std::vector<std::string>, field_count>;
/// A document's words (interned) with their field-weighted, length-normalised frequencies.
using pseudo_document = std::vector<std::pair<std::uint32_t, double>>;

/// Each group's platform words once, without those another group has too ("api",
/// "platform", "web"): those name no platform in particular.
void keep_own_platform_words(std::vector<std::vector<std::string>>& group_words)
{
    std::unordered_map<std::string, std::size_t> groups_with;
    for (auto& words : group_words) {
        std::sort(words.begin(), words.end());
        words.erase(std::unique(words.begin(), words.end()), words.end());
        for (auto const& w : words) {
            ++groups_with[w];
        }
    }
    for (auto& words : group_words) {
        std::erase_if(words, [&](auto const& w) { return groups_with[w] > 1; });
    }
}

/// Field-weighted, length-normalised frequencies per document over interned words (`terms`
/// gets every word): each word is hashed once per occurrence, nothing else allocates per word
/// (this runs over the whole catalogue at start-up).
std::vector<pseudo_document> pseudo_documents(std::vector<field_tokens> const& tokens,
    std::array<double, field_count> const& average,
    std::unordered_map<std::string, std::uint32_t>& terms)
{
    std::vector<pseudo_document> pseudo(tokens.size());
    std::vector<double> acc;
    std::vector<std::uint32_t> touched;
    terms.reserve(8192);
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        for (std::size_t f = 0; f < field_count; ++f) {
            auto const& words = tokens[i][f];
            if (words.empty()) {
                continue;
            }
            double const norm = 1.0 - b + b * static_cast<double>(words.size()) / average[f];
            for (auto const& w : words) {
                auto const [it, fresh]
                    = terms.try_emplace(w, static_cast<std::uint32_t>(terms.size()));
                auto const id = it->second;
                if (id >= acc.size()) {
                    acc.resize(id + 1, 0.0);
                }
                if (acc[id] == 0.0) {
                    touched.push_back(id);
                }
                acc[id] += field_weight[f] / norm;
            }
        }
        pseudo[i].reserve(touched.size());
        for (auto id : touched) {
            pseudo[i].emplace_back(id, acc[id]);
            acc[id] = 0.0;
        }
        touched.clear();
    }
    return pseudo;
}

/// What a query looks for: each distinct query word once at full weight (`weights`), its
/// synonyms at synonym_weight unless the query names them itself, and its words as written;
/// `widened` holds all three, in that order.
struct query_terms {
    std::unordered_map<std::string, double> weights;
    std::vector<std::pair<std::string, double>> widened;
};

query_terms terms_of_query(std::string_view query)
{
    query_terms out;
    auto& weights = out.weights;
    for (auto& w : search_tokens(query)) {
        weights[w] = 1.0;
    }
    auto& widened = out.widened;
    widened.assign(weights.begin(), weights.end());
    for (auto const& [w, weight] : std::vector<std::pair<std::string, double>>(widened)) {
        if (auto it = synonyms().find(w); it != synonyms().end()) {
            for (auto const& other : it->second) {
                if (!weights.contains(other)) {
                    weights[other] = synonym_weight;
                    widened.emplace_back(other, synonym_weight);
                }
            }
        }
    }
    std::unordered_set<std::string> forms;
    for (auto& form : exact_forms(query)) { // each once, never widened by synonyms
        if (forms.insert(form).second) {
            widened.emplace_back(std::move(form), 1.0);
        }
    }
    return out;
}

} // namespace

std::vector<std::string> search_tokens(std::string_view text)
{
    std::vector<std::string> out;
    auto const words = split_words(text);
    out.reserve(words.size());
    for (auto raw : words) {
        if (raw.size() < 2) {
            continue;
        }
        auto w = common::to_lower_ascii(raw);
        if (stopwords().contains(w)) {
            continue;
        }
        out.push_back(stem(std::move(w)));
    }
    return out;
}

search_index::search_index(std::vector<search_entry> const& entries)
{
    auto const n = entries.size();
    std::vector<field_tokens> tokens(n);
    std::array<double, field_count> average {};
    std::unordered_map<std::string, std::uint32_t> group_numbers;
    for (std::size_t i = 0; i < n; ++i) {
        auto const& e = entries[i];
        tokens[i] = { search_tokens(e.name), search_tokens(e.title),
            search_tokens(without_tool_references(e.description)),
            search_tokens(without_tool_references(e.params)), exact_forms(e.name) };
        actions_.push_back(static_cast<std::uint8_t>(action_of_name(e.name)));
        auto const [group, fresh]
            = group_numbers.try_emplace(e.group, static_cast<std::uint32_t>(group_numbers.size()));
        groups_.push_back(group->second);
        if (fresh) {
            group_words_.push_back(search_tokens(e.platform));
        }
        for (std::size_t f = 0; f < field_count; ++f) {
            average[f] += static_cast<double>(tokens[i][f].size());
        }
        names_.push_back(e.name);
        name_words_.push_back(tokens[i][name_field].size());
    }
    for (auto& a : average) {
        a = n == 0 || a == 0 ? 1.0 : a / static_cast<double>(n);
    }
    group_count_ = static_cast<std::uint32_t>(group_numbers.size());
    keep_own_platform_words(group_words_);
    auto const pseudo = pseudo_documents(tokens, average, terms_);
    std::vector<std::size_t> df(terms_.size(), 0);
    for (auto const& doc : pseudo) {
        for (auto const& [id, tf] : doc) {
            ++df[id];
        }
    }
    postings_.resize(terms_.size());
    for (std::size_t i = 0; i < n; ++i) {
        for (auto const& [id, tf] : pseudo[i]) {
            double const idf = std::log(
                1.0 + (static_cast<double>(n) - double(df[id]) + 0.5) / (double(df[id]) + 0.5));
            postings_[id].push_back(
                { static_cast<std::uint32_t>(i), static_cast<float>(idf * tf / (k1 + tf)) });
        }
    }
}

std::vector<search_index::hit> search_index::matches(
    std::vector<std::pair<std::string, double>> const& widened,
    std::function<bool(std::size_t)> const& keep) const
{
    std::vector<double> scores(names_.size(), 0.0);
    std::vector<std::uint32_t> touched;
    for (auto const& [w, weight] : widened) {
        auto it = terms_.find(w);
        if (it == terms_.end()) {
            continue;
        }
        for (auto const& p : postings_[it->second]) {
            if (scores[p.document] == 0.0) {
                touched.push_back(p.document);
            }
            scores[p.document] += weight * p.weight;
        }
    }
    std::vector<hit> hits;
    for (auto d : touched) {
        if (keep(d)) {
            hits.push_back({ d, scores[d] });
        }
    }
    return hits;
}

std::uint32_t search_index::likeliest_group(
    std::vector<hit> const& hits, std::unordered_map<std::string, double> const& weights) const
{
    // The toolkit the request is most likely about: the one whose platform words the request
    // itself uses most (synonyms do not count); among equals, the one whose best few tools
    // score highest together.
    std::vector<std::vector<double>> by_group(group_count_);
    for (auto const& h : hits) {
        by_group[groups_[h.position]].push_back(h.score);
    }
    std::uint32_t best_group = group_count_;
    std::pair<std::size_t, double> best_evidence { 0, 0.0 };
    for (std::uint32_t g = 0; g < group_count_; ++g) {
        auto& s = by_group[g];
        auto const top = std::min(group_evidence, s.size());
        std::partial_sort(s.begin(), s.begin() + std::ptrdiff_t(top), s.end(), std::greater<>());
        auto const named = static_cast<std::size_t>(
            std::count_if(group_words_[g].begin(), group_words_[g].end(), [&](auto const& w) {
                auto const it = weights.find(w);
                return it != weights.end() && it->second == 1.0;
            }));
        std::pair const evidence { named,
            std::accumulate(s.begin(), s.begin() + std::ptrdiff_t(top), 0.0) };
        if (!s.empty() && evidence > best_evidence) {
            best_evidence = evidence;
            best_group = g;
        }
    }
    return best_group;
}

std::vector<search_index::hit> search_index::search(
    std::string_view asked, std::function<bool(std::size_t)> const& keep, std::size_t limit) const
{
    auto const rewritten = with_phrases_replaced(asked);
    std::string_view const query = rewritten;
    auto const terms = terms_of_query(query);
    auto hits = matches(terms.widened, keep);
    auto const best_group = likeliest_group(hits, terms.weights);
    auto const wanted = action_of_query(query);
    for (auto& h : hits) {
        auto const does = static_cast<action>(actions_[h.position]);
        if (wanted != action::unknown && does != action::unknown) {
            h.score *= does == wanted ? action_match : action_clash;
        }
        if (groups_[h.position] == best_group && group_count_ > 1) {
            h.score *= group_boost;
        }
    }
    auto const better = [this](hit const& x, hit const& y) {
        if (x.score != y.score) {
            return x.score > y.score;
        }
        if (name_words_[x.position] != name_words_[y.position]) {
            return name_words_[x.position] < name_words_[y.position];
        }
        return names_[x.position] < names_[y.position];
    };
    auto const keep_count = std::min(limit, hits.size());
    std::partial_sort(
        hits.begin(), hits.begin() + static_cast<std::ptrdiff_t>(keep_count), hits.end(), better);
    hits.resize(keep_count);
    return hits;
}

} // namespace toolgate::discovery
