// The catalogue's text, checked on the compiled catalogue (issue 11 item 8): every tool,
// parameter and body field a caller sets has text of our own within the bounds, with no
// template phrases, no restated names and no duplicates within a toolkit; the full listing stays
// under 1.6 MB. tools/check-descriptions applies the same rules to the source files.
#include "protocol/tool_pages.hpp"
#include "toolkits/catalogue.hpp"
#include "toolkits/catalogue_provider.hpp"
#include "toolkits/selection.hpp"

#include <boost/json/parse.hpp>
#include <catch2/catch.hpp>

#include <cctype>
#include <map>
#include <regex>
#include <set>

using namespace toolgate;
using namespace toolgate::toolkits;
namespace json = boost::json;

namespace {

constexpr std::size_t tool_limit = 400;
constexpr std::size_t param_limit = 200;

/// Phrases of the old templates and sentences a model does not need (placements, method and
/// path, "on the … platform"), each with the reason it is refused.
std::vector<std::pair<std::regex, char const*>> const& template_phrases()
{
    static std::vector<std::pair<std::regex, char const*>> const phrases = {
        { std::regex(R"(\bGoes in (the|a) )"), "placement sentence" },
        { std::regex(R"(\bIdentifier of the [a-z ]+ unique\b)"), "template identifier text" },
        { std::regex(R"(\b(GET|POST|PUT|PATCH|DELETE) /[a-z{])"), "HTTP method and path" },
        { std::regex(R"(\bon the [a-z -]*platform\b)"), "'on the ... platform'" },
        { std::regex(R"(\b(Removes or overwrites data|Mode-based: call once)\b)"), "old template" },
    };
    return phrases;
}

std::vector<std::string> words_of(std::string_view text)
{
    std::vector<std::string> out;
    std::string word;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        char const c = i < text.size() ? text[i] : ' ';
        bool const boundary = !std::isalnum(static_cast<unsigned char>(c))
            || (std::isupper(static_cast<unsigned char>(c)) && !word.empty()
                && std::islower(static_cast<unsigned char>(word.back())));
        if (boundary && !word.empty()) {
            out.push_back(word);
            word.clear();
        }
        if (std::isalnum(static_cast<unsigned char>(c))) {
            word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
    }
    return out;
}

/// A text made only of the name's own words and filler says nothing the name does not.
bool restates(std::string_view text, std::string_view name)
{
    static std::set<std::string> const filler
        = { "the", "a", "an", "of", "to", "for", "by", "this", "its", "on", "in", "and", "or",
              "get", "gets", "value", "identifier", "id", "unique", "details", "info" };
    auto const own = words_of(name);
    std::set<std::string> allowed(own.begin(), own.end());
    allowed.insert(filler.begin(), filler.end());
    auto const words = words_of(text);
    std::size_t meaningful = 0;
    for (auto const& w : words) {
        if (!filler.contains(w)) {
            ++meaningful;
        }
        std::string singular = w;
        if (singular.size() > 1 && singular.back() == 's') {
            singular.pop_back();
        }
        if (!allowed.contains(w) && !allowed.contains(singular)) {
            return false;
        }
    }
    return meaningful <= 8;
}

/// "" when `text` is acceptable, otherwise why not.
std::string problem_with(std::string_view text, std::size_t limit, std::string_view name)
{
    if (text.empty()) {
        return "no text";
    }
    if (text.size() > limit) {
        return "over " + std::to_string(limit) + " characters";
    }
    std::string const s(text);
    for (auto const& [pattern, why] : template_phrases()) {
        if (std::regex_search(s, pattern)) {
            return why;
        }
    }
    if (restates(text, name)) {
        return "restates the name";
    }
    return {};
}

/// Field paths of a body schema that a caller must be told about: top-level fields and every
/// required one (the same rule as tools/descriptions_lib.py).
void must_describe(json::value const& node, std::string const& path, bool top,
    std::vector<std::pair<std::string, json::object const*>>& out)
{
    auto const* o = node.if_object();
    if (!o) {
        return;
    }
    for (auto key : { "oneOf", "anyOf", "allOf" }) {
        if (auto const* branches = o->if_contains(key)) {
            for (auto const& b : branches->as_array()) {
                must_describe(b, path, top, out);
            }
        }
    }
    std::set<std::string> required;
    if (auto const* r = o->if_contains("required")) {
        for (auto const& name : r->as_array()) {
            required.insert(std::string(name.as_string()));
        }
    }
    if (auto const* props = o->if_contains("properties")) {
        for (auto const& [name, sub] : props->as_object()) {
            auto const p = path.empty() ? std::string(name) : path + "." + std::string(name);
            if ((top || required.contains(std::string(name))) && sub.is_object()) {
                out.emplace_back(p, &sub.as_object());
            }
            must_describe(sub, p, false, out);
        }
    }
    if (auto const* items = o->if_contains("items")) {
        must_describe(*items, path + "[]", top && path.empty(), out);
    }
}

} // namespace

TEST_CASE("every tool and parameter has text of our own within the bounds", "[toolkits][text]")
{
    std::vector<std::string> problems;
    for (auto const* kit : all_toolkits()) {
        std::map<std::string_view, std::string_view> seen;
        for (auto const& tool : kit->tools) {
            auto const full = std::string(kit->name) + "." + std::string(tool.name);
            if (auto why = problem_with(tool.description, tool_limit, tool.name); !why.empty()) {
                problems.push_back(full + " description: " + why);
            }
            if (auto [it, fresh] = seen.emplace(tool.description, tool.name); !fresh) {
                problems.push_back(full + ": same description as " + std::string(it->second));
            }
            if (tool.title.empty() || tool.title.size() > 60) {
                problems.push_back(full + ": title missing or over 60 characters");
            }
            for (auto const& p : tool.params) {
                if (auto why = problem_with(p.description, param_limit, p.name); !why.empty()) {
                    problems.push_back(full + "(" + std::string(p.name) + "): " + why);
                }
            }
        }
    }
    INFO(problems.size() << " problems; the first: "
                         << (problems.empty() ? std::string() : problems.front()));
    CHECK(problems.empty());
}

TEST_CASE("every body field a caller sets is described", "[toolkits][text]")
{
    std::vector<std::string> missing;
    std::size_t described = 0;
    for (auto const* kit : all_toolkits()) {
        for (auto const& tool : kit->tools) {
            if (tool.request_body_schema.empty()) {
                continue;
            }
            std::vector<std::pair<std::string, json::object const*>> fields;
            auto const schema = json::parse(tool.request_body_schema);
            must_describe(schema, "", true, fields);
            for (auto const& [path, node] : fields) {
                auto const* d = node->if_contains("description");
                if (!d || !d->is_string() || d->as_string().empty()) {
                    missing.push_back(
                        std::string(kit->name) + "." + std::string(tool.name) + " body " + path);
                } else {
                    ++described;
                    CHECK(d->as_string().size() <= param_limit);
                }
            }
        }
    }
    INFO(missing.size() << " missing; the first: "
                        << (missing.empty() ? std::string() : missing.front()));
    CHECK(missing.empty());
    CHECK(described > 1000);
}

namespace {
class unused_executor final : public tool_executor {
public:
    boost::asio::awaitable<protocol::call_result> execute(
        toolkit_spec const&, tool_spec const&, json::object, call_context&) override
    {
        co_return protocol::call_result::error("not used");
    }
};
} // namespace

// The bound grew from 1.3 MB with the reserved arguments every tool takes (`_fields`,
// `_max_tokens`, `_dry_run`: toolkits/reserved_arguments.hpp).
TEST_CASE("the full listing of 1150 tools stays under 1.6 MB", "[toolkits][text]")
{
    unused_executor executor;
    catalogue_provider provider(make_selection({}, {}), executor);
    protocol::tool_pages pages(provider.tools(), protocol::tool_naming::wire, 0, {});
    auto const page = pages.page("", protocol::list_variant::legacy).value();
    CHECK(provider.tools().size() == 1150);
    CHECK(page.size() < 1'600'000);
}
