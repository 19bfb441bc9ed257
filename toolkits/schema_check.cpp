// See schema_check.hpp. The compiled schemas live for the process: at most one per catalogue
// schema (about 150 body schemas and a dozen object parameters).
#include "toolkits/schema_check.hpp"

#include <boost/json/parse.hpp>

#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <valijson/adapters/boost_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

namespace toolgate::toolkits {
namespace {

namespace json = boost::json;

struct compiled {
    json::value document; ///< the schema text, parsed
    std::unique_ptr<valijson::Schema> schema; ///< null when the text did not compile
    std::string error;
    bool wants_array = false; ///< the schema's top-level type is "array"
};

/// `oneOf` becomes `anyOf` throughout: the platforms' schemas list alternatives that overlap
/// (two object shapes neither of which requires anything), so "exactly one" would refuse
/// bodies the platform takes. The check stays a guard against malformed bodies, not a
/// stricter judge than the platform itself.
void relax_one_of(json::value& node)
{
    if (auto* o = node.if_object()) {
        if (auto it = o->find("oneOf"); it != o->end() && !o->contains("anyOf")) {
            auto branches = std::move(it->value());
            o->erase(it);
            (*o)["anyOf"] = std::move(branches);
        }
        for (auto& [key, value] : *o) {
            relax_one_of(value);
        }
    } else if (auto* a = node.if_array()) {
        for (auto& value : *a) {
            relax_one_of(value);
        }
    }
}

std::unique_ptr<compiled> compile(std::string_view text)
{
    auto out = std::make_unique<compiled>();
    try {
        out->document = json::parse(text);
        auto doc = out->document; // checked in a relaxed copy (relax_one_of)
        relax_one_of(doc);
        if (auto const* top = doc.if_object()) {
            auto const* type = top->if_contains("type");
            out->wants_array = type && type->is_string() && type->get_string() == "array";
        }
        auto schema = std::make_unique<valijson::Schema>();
        valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
        valijson::adapters::BoostJsonAdapter adapter(doc);
        parser.populateSchema(adapter, *schema);
        out->schema = std::move(schema);
    } catch (std::exception const& e) {
        out->error = e.what();
    }
    return out;
}

/// The compiled form of a catalogue schema, made on first use.
compiled const& compiled_for(std::string_view text)
{
    static std::shared_mutex mutex;
    static std::map<char const*, std::unique_ptr<compiled>> cache;
    {
        std::shared_lock lock(mutex);
        if (auto it = cache.find(text.data()); it != cache.end()) {
            return *it->second;
        }
    }
    auto made = compile(text);
    std::unique_lock lock(mutex);
    auto [it, inserted] = cache.try_emplace(text.data(), std::move(made));
    return *it->second;
}

/// "/a/0/b" from valijson's context ("<root>", "[a]", "[0]", ...).
std::string pointer_of(std::vector<std::string> const& context)
{
    std::string out;
    for (auto const& part : context) {
        if (part == "<root>") {
            continue;
        }
        std::string_view p = part;
        if (p.size() >= 2 && p.front() == '[' && p.back() == ']') {
            p = p.substr(1, p.size() - 2);
        }
        if (p.size() >= 2 && p.front() == '"' && p.back() == '"') {
            p = p.substr(1, p.size() - 2);
        }
        out += '/';
        out += p;
    }
    return out.empty() ? "/" : out;
}

} // namespace

tool_result<void> check_against_schema(
    std::string_view argument, std::string_view schema, json::value const& value)
{
    auto const& c = compiled_for(schema);
    if (!c.schema) {
        return {};
    }
    valijson::Validator validator(valijson::Validator::kStrongTypes);
    valijson::ValidationResults results;
    valijson::adapters::BoostJsonAdapter target(value);
    if (validator.validate(*c.schema, target, &results)) {
        return {};
    }
    // The deepest error is the most specific one (oneOf reports every branch first).
    valijson::ValidationResults::Error error;
    valijson::ValidationResults::Error deepest;
    std::size_t depth = 0;
    bool any = false;
    while (results.popError(error)) {
        if (!any || error.context.size() > depth) {
            deepest = error;
            depth = error.context.size();
            any = true;
        }
    }
    std::string message = "argument `" + std::string(argument) + "` does not match its schema";
    if (any) {
        message += " at " + pointer_of(deepest.context) + ": " + deepest.description;
    }
    return refuse(std::move(message));
}

json::value const& parsed_schema(std::string_view schema)
{
    return compiled_for(schema).document;
}

bool schema_wants_array(std::string_view schema)
{
    return compiled_for(schema).wants_array;
}

} // namespace toolgate::toolkits
