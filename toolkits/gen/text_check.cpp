// Checks a toolkit's words (descriptions.json) against its facts (catalogue.json) and merges
// them for the generator, so that the two files cannot drift apart unnoticed: the build fails
// instead (toolkits/README.md, "Words and facts").
#include "toolkits/gen/text_check.hpp"

#include "toolkits/gen/catalogue_model.hpp"

#include <boost/json/array.hpp>
#include <boost/json/string.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <string_view>

namespace toolgate::catalogue_gen {
namespace json = boost::json;

namespace {

/// The keys a tool's entry in descriptions.json may have: words only. Facts (annotations,
/// enums) live in catalogue.json alone.
constexpr std::array<std::string_view, 4> text_keys { "title", "description", "params", "body" };

/// The parts, joined: one allocation where `a + b + c` in a loop would make temporaries.
template <class... Parts> std::string join(Parts const&... parts)
{
    std::string out;
    (out.append(parts), ...);
    return out;
}

/// The placements of the two parameters every M-tool has; their text is shared
/// (m_tool_words), not written per tool.
bool is_m_tool_placement(std::string_view in)
{
    return in == "mode" || in == "request_body";
}

/// Calls `visit(path, field, must)` for every field of a request-body schema, with the paths
/// descriptions.json uses: property names joined by '.', '[]' after a segment for the items of
/// an array, '*' for the values of a map; oneOf/anyOf/allOf branches share their paths.
/// `must`: a top-level field, or one its object requires (a caller must be told about it).
/// `Value` is json::value or json::value const, so that one walk serves checking and merging.
template <class Value, class Visit>
void walk_fields(Value& node, std::string const& path, bool top, Visit const& visit)
{
    auto* o = node.if_object();
    if (!o) {
        return;
    }
    for (auto key : { "oneOf", "anyOf", "allOf" }) {
        if (auto* branches = o->if_contains(key); branches && branches->is_array()) {
            for (auto& branch : branches->as_array()) {
                walk_fields(branch, path, top, visit);
            }
        }
    }
    std::set<std::string_view> required;
    if (auto const* r = o->if_contains("required"); r && r->is_array()) {
        for (auto const& name : r->as_array()) {
            if (name.is_string()) {
                required.insert(name.as_string());
            }
        }
    }
    if (auto* props = o->if_contains("properties"); props && props->is_object()) {
        for (auto& field : props->as_object()) {
            auto const name = std::string(field.key());
            auto const field_path = path.empty() ? name : join(path, ".", name);
            visit(field_path, field.value(), top || required.contains(name));
            walk_fields(field.value(), field_path, false, visit);
        }
    }
    if (auto* items = o->if_contains("items"); items && items->is_object()) {
        walk_fields(*items, path + "[]", top && path.empty(), visit);
    }
    if (auto* extra = o->if_contains("additionalProperties"); extra && extra->is_object()) {
        walk_fields(*extra, path.empty() ? std::string("*") : path + ".*", false, visit);
    }
}

/// Every field path of a body schema -> whether a caller must be told about it.
std::map<std::string, bool> body_fields(json::value const& schema)
{
    std::map<std::string, bool> out;
    walk_fields(schema, "", true, [&](std::string const& path, json::value const&, bool must) {
        out[path] = out[path] || must;
    });
    return out;
}

bool is_alnum(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) != 0;
}

/// A name in the form of a toolkit or tool name: a capital first, and some lower case
/// (so `PROJECT_VIEWER` or `FILE.UPLOADED` in backticks are not taken for tool names).
bool looks_like_name(std::string_view s)
{
    return !s.empty() && std::isupper(static_cast<unsigned char>(s.front()))
        && std::any_of(
            s.begin(), s.end(), [](char c) { return std::islower(static_cast<unsigned char>(c)); });
}

/// Problems with the tool names `text` mentions: `Toolkit_Tool` or `Toolkit.Tool` of a known
/// toolkit (in backticks or not) must exist; a backticked name of that form must name a
/// known toolkit.
void check_references(std::string_view text, std::string const& where, known_tools const& known,
    std::vector<std::string>& problems)
{
    auto const n = text.size();
    for (std::size_t i = 0; i < n; ++i) {
        if (!std::isupper(static_cast<unsigned char>(text[i]))
            || (i > 0 && (is_alnum(text[i - 1]) || text[i - 1] == '_'))) {
            continue;
        }
        auto j = i;
        while (j < n && is_alnum(text[j])) {
            ++j;
        }
        auto k = j + 1;
        while (k < n && is_alnum(text[k])) {
            ++k;
        }
        bool const qualified = j < n && (text[j] == '.' || text[j] == '_') && k > j + 1
            && (k == n || !(is_alnum(text[k]) || text[k] == '_'));
        if (qualified) {
            auto const kit = std::string(text.substr(i, j - i));
            auto const tool = std::string(text.substr(j + 1, k - j - 1));
            bool const backticked = i > 0 && text[i - 1] == '`' && k < n && text[k] == '`';
            if (known.toolkits.contains(kit)) {
                if (!known.tools.contains(join(kit, ".", tool))) {
                    problems.push_back(
                        join(where, " names `", kit, "_", tool, "`, which does not exist"));
                }
            } else if (backticked && looks_like_name(kit) && looks_like_name(tool)) {
                problems.push_back(
                    join(where, " names `", kit, "_", tool, "`, but there is no toolkit ", kit));
            }
        }
        i = j;
    }
}

/// A non-empty string, or a problem naming `where`.
std::string_view text_of(
    json::value const* v, std::string const& where, std::vector<std::string>& problems)
{
    if (!v || !v->is_string() || v->as_string().empty()) {
        problems.push_back(where + ": no text");
        return {};
    }
    return v->as_string();
}

/// The object under `key` of a tool's entry (empty when absent), or a problem when it is not
/// an object.
json::object const& text_map(json::object const& entry, std::string_view key,
    std::string const& where, std::vector<std::string>& problems)
{
    static json::object const none;
    auto const* v = entry.if_contains(key);
    if (!v) {
        return none;
    }
    if (!v->is_object()) {
        problems.push_back(where + ": `" + std::string(key) + "` must be an object of texts");
        return none;
    }
    return v->as_object();
}

void check_params(json::object const& tool, json::object const& entry, std::string const& where,
    known_tools const& known, std::vector<std::string>& problems)
{
    auto const& written = text_map(entry, "params", where, problems);
    std::map<std::string, std::string_view> placements;
    for (auto const& pv : tool.at("params").as_array()) {
        auto const& p = pv.as_object();
        auto const name = std::string(get_string(p, "name", where));
        placements[name] = get_string(p, "in", where);
        if (p.contains("description")) {
            problems.push_back(join(where, " parameter ", name,
                ": catalogue.json carries its description; words belong in descriptions.json"));
        }
    }
    for (auto const& [name, text] : written) {
        auto const at = where + " parameter " + std::string(name);
        auto const found = placements.find(std::string(name));
        if (found == placements.end()) {
            problems.push_back(at + ": no such parameter in catalogue.json");
        } else if (is_m_tool_placement(found->second)) {
            problems.push_back(at
                + ": every M-tool shares this text "
                  "(toolkits/m_tool_descriptions.json); do not write it per tool");
        } else {
            check_references(text_of(&text, at, problems), at, known, problems);
        }
    }
    for (auto const& [name, in] : placements) {
        if (!is_m_tool_placement(in) && !written.contains(name)) {
            problems.push_back(join(where, " parameter ", name, ": no text"));
        }
    }
}

void check_body(json::object const& tool, json::object const& entry, std::string const& where,
    known_tools const& known, std::vector<std::string>& problems)
{
    auto const& written = text_map(entry, "body", where, problems);
    auto const* schema = tool.if_contains("request_body_schema");
    std::map<std::string, bool> fields;
    if (schema && schema->is_object()) {
        fields = body_fields(*schema);
        walk_fields(
            *schema, "", true, [&](std::string const& path, json::value const& field, bool) {
                if (field.is_object() && field.as_object().contains("description")) {
                    problems.push_back(where + " body field " + path
                        + ": catalogue.json carries its description; words belong in "
                          "descriptions.json");
                }
            });
    }
    for (auto const& [path, text] : written) {
        auto const at = where + " body field " + std::string(path);
        if (!fields.contains(std::string(path))) {
            problems.push_back(at + ": no such field in the request_body_schema of catalogue.json");
        } else {
            check_references(text_of(&text, at, problems), at, known, problems);
        }
    }
    for (auto const& [path, must] : fields) {
        if (must && !written.contains(path)) {
            problems.push_back(join(where, " body field ", path, ": no text"));
        }
    }
}

void check_tool(json::object const& tool, json::object const& entry, known_tools const& known,
    std::vector<std::string>& problems)
{
    auto const where = "Tool " + std::string(get_string(tool, "name", "tool"));
    for (auto key : { "title", "description" }) {
        if (tool.contains(key)) {
            problems.push_back(where + ": catalogue.json carries its " + std::string(key)
                + "; words belong in descriptions.json");
        }
    }
    for (auto const& field : entry) {
        if (std::find(text_keys.begin(), text_keys.end(), field.key()) == text_keys.end()) {
            problems.push_back(where + ": `" + std::string(field.key())
                + "` is not a text; facts belong in catalogue.json");
        }
    }
    for (auto key : { "title", "description" }) {
        auto const at = where + " " + key;
        check_references(text_of(entry.if_contains(key), at, problems), at, known, problems);
    }
    check_params(tool, entry, where, known, problems);
    check_body(tool, entry, where, known, problems);
}

} // namespace

m_tool_words read_m_tool_words(json::object const& document)
{
    auto const* params = document.if_contains("params");
    if (!params || !params->is_object()) {
        throw catalogue_error("missing object `params`");
    }
    return { std::string(get_string(document, "description_note", "M-tool texts")),
        std::string(get_string(params->as_object(), "mode", "M-tool texts")),
        std::string(get_string(params->as_object(), "request_body", "M-tool texts")) };
}

void add_known_tools(known_tools& known, json::object const& catalogue)
{
    auto const kit = std::string(get_string(catalogue, "toolkit", "catalogue"));
    known.toolkits.insert(kit);
    for (auto const& tool : catalogue.at("tools").as_array()) {
        known.tools.insert(kit + "." + std::string(get_string(tool.as_object(), "name", kit)));
    }
}

std::vector<std::string> check_texts(
    json::object const& catalogue, json::object const& texts, known_tools const& known)
{
    std::vector<std::string> problems;
    auto const kit = get_string(catalogue, "toolkit", "catalogue");
    if (auto const* named = texts.if_contains("toolkit");
        !named || !named->is_string() || named->as_string() != kit) {
        problems.push_back("`toolkit` is not " + std::string(kit) + ", as in catalogue.json");
    }
    auto const* written = texts.if_contains("tools");
    if (!written || !written->is_object()) {
        problems.emplace_back("no `tools` object");
        return problems;
    }
    std::set<std::string_view> names;
    for (auto const& tv : catalogue.at("tools").as_array()) {
        auto const& tool = tv.as_object();
        auto const name = get_string(tool, "name", kit);
        names.insert(name);
        auto const* entry = written->as_object().if_contains(name);
        if (!entry || !entry->is_object()) {
            problems.push_back("Tool " + std::string(name) + ": no text");
            continue;
        }
        check_tool(tool, entry->as_object(), known, problems);
    }
    for (auto const& entry : written->as_object()) {
        if (!names.contains(entry.key())) {
            problems.push_back(
                "Tool " + std::string(entry.key()) + ": no such tool in catalogue.json");
        }
    }
    return problems;
}

void merge_texts(json::object& catalogue, json::object const& texts, m_tool_words const& shared)
{
    auto const& written = texts.at("tools").as_object();
    for (auto& tv : catalogue.at("tools").as_array()) {
        auto& tool = tv.as_object();
        auto const& entry = written.at(tool.at("name").as_string()).as_object();
        tool["title"] = entry.at("title");
        std::string description(entry.at("description").as_string());
        if (get_bool(tool, "m_tool")) {
            description += ' ';
            description += shared.description_note;
        }
        tool["description"] = description;
        auto const* params = entry.if_contains("params");
        for (auto& pv : tool.at("params").as_array()) {
            auto& p = pv.as_object();
            auto const in = p.at("in").as_string();
            if (in == "mode" || in == "request_body") {
                p["description"] = in == "mode" ? shared.mode : shared.request_body;
            } else {
                p["description"] = params->as_object().at(p.at("name").as_string());
            }
        }
        auto const* body = entry.if_contains("body");
        auto* schema = tool.if_contains("request_body_schema");
        if (body && schema && schema->is_object()) {
            // Appended as the last key of each field, where the importer used to put it, so
            // that the published schema stays byte for byte the same.
            walk_fields(*schema, "", true, [&](std::string const& path, json::value& field, bool) {
                if (auto const* text = body->as_object().if_contains(path);
                    text && field.is_object()) {
                    field.as_object()["description"] = *text;
                }
            });
        }
    }
}

} // namespace toolgate::catalogue_gen
