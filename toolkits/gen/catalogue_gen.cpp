// catalogue_gen: reads one toolkit's catalogue.json (facts) and descriptions.json (words),
// checks both and each against the other, merges them, and writes the C++ data file the server
// compiles (constexpr arrays of the tool_spec.hpp structs, schemas as string literals, one
// `extern const toolkit_spec <toolkit>_toolkit`). Output is sorted and byte-stable. Usage: see
// main(); the catalogues of every toolkit come last, to check references between tools.
#include "toolkits/gen/catalogue_model.hpp"
#include "toolkits/gen/text_check.hpp"

#include <boost/json/array.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

namespace json = boost::json;
using namespace toolgate::catalogue_gen;

namespace {

/// A C++ `std::string_view` literal for any bytes (UTF-8 passes through; controls become octal
/// escapes). The `sv` suffix hands the compiler the length: a plain literal converted to
/// string_view in a constexpr table is measured character by character at compile time, and
/// clang's constexpr step limit (-fconstexpr-steps) gives up on a toolkit's worth of schemas.
std::string literal(std::string_view s)
{
    std::string out = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c < 0x20 || c == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\%03o", c);
            out += buf;
        } else {
            out += static_cast<char>(c);
        }
    }
    return out + "\"sv";
}

/// StoreApi -> store_api, VectorDbApi -> vector_db_api.
std::string snake(std::string_view name)
{
    std::string out;
    for (char c : name) {
        if (c >= 'A' && c <= 'Z') {
            if (!out.empty()) {
                out += '_';
            }
            out += static_cast<char>(c - 'A' + 'a');
        } else {
            out += c;
        }
    }
    return out;
}

std::string str_field(json::object const& o, std::string_view key)
{
    auto const* v = o.if_contains(key);
    return literal(v && v->is_string() ? std::string_view(v->as_string()) : std::string_view {});
}

/// Emits `constexpr std::string_view <id>[] = {...};` and returns <id>, or "" when empty.
std::string string_array(std::ostream& os, std::string const& id, json::value const* values)
{
    if (!values || !values->is_array() || values->as_array().empty()) {
        return "";
    }
    os << "constexpr std::string_view " << id << "[] = {";
    for (auto const& v : values->as_array()) {
        os << literal(v.as_string()) << ", ";
    }
    os << "};\n";
    return id;
}

/// The four limit members, in declaration order (designated initializers demand it).
std::string limit_fields(json::object const& p)
{
    auto const* lo = p.if_contains("minimum");
    auto const* hi = p.if_contains("maximum");
    bool has_lo = lo && lo->is_number(), has_hi = hi && hi->is_number();
    std::ostringstream os;
    if (has_lo) {
        os << ", .has_minimum = true";
    }
    if (has_hi) {
        os << ", .has_maximum = true";
    }
    if (has_lo) {
        os << ", .minimum = " << lo->to_number<double>();
    }
    if (has_hi) {
        os << ", .maximum = " << hi->to_number<double>();
    }
    return os.str();
}

std::string enum_value(std::string_view prefix, std::string_view value)
{
    return std::string(prefix) + std::string(value.empty() ? "none" : value);
}

void emit_params(std::ostream& os, std::string const& id, json::array const& params)
{
    std::vector<std::string> enums;
    for (std::size_t i = 0; i < params.size(); ++i) {
        enums.push_back(string_array(
            os, id + "_e" + std::to_string(i), params[i].as_object().if_contains("enum")));
    }
    os << "constexpr param_spec " << id << "[] = {\n";
    for (std::size_t i = 0; i < params.size(); ++i) {
        auto const& p = params[i].as_object();
        auto type = get_string(p, "type", "param");
        os << "    {.name = " << str_field(p, "name")
           << ", .wire_name = " << str_field(p, "wire_name")
           << ", .description = " << str_field(p, "description") << ", .type = json_type::" << type;
        if (type == "array") {
            os << ", .item_type = json_type::" << get_string(p, "item_type", "param");
        }
        os << ", .in = param_location::" << get_string(p, "in", "param") << ", .array_fmt = "
           << enum_value("array_format::", get_string(p, "array_format", "param"))
           << ", .required = " << (get_bool(p, "required") ? "true" : "false")
           << ", .required_when_executing = "
           << (get_bool(p, "required_when_executing") ? "true" : "false");
        if (!enums[i].empty()) {
            os << ", .enum_values = " << enums[i];
        }
        os << limit_fields(p);
        if (auto const* v = p.if_contains("max_length"); v && v->is_number()) {
            os << ", .max_length = " << v->to_number<unsigned>();
        }
        os << ", .format = " << enum_value("value_format::", get_string(p, "format", "param"));
        if (auto const* v = p.if_contains("min_length"); v && v->is_number()) {
            os << ", .min_length = " << v->to_number<unsigned>();
        }
        if (auto const* s = p.if_contains("schema"); s && s->is_object()) {
            os << ", .schema = " << literal(json::serialize(*s));
        }
        os << "},\n";
    }
    os << "};\n";
}

std::string emit_headers(std::ostream& os, std::string const& id, json::object const& headers)
{
    if (headers.empty()) {
        return "";
    }
    os << "constexpr header_spec " << id << "[] = {";
    for (auto const& [k, v] : headers) {
        os << "{" << literal(k) << ", " << literal(v.as_string()) << "}, ";
    }
    os << "};\n";
    return id;
}

/// Emits a list tool's paging descriptor (`paging` with `styles`) and returns its id, or "".
std::string emit_paging(std::ostream& os, std::string const& id, json::object const& tool)
{
    auto const* paging = tool.if_contains("paging");
    if (!paging || !paging->as_object().contains("styles")) {
        return "";
    }
    auto const& p = paging->as_object();
    os << "constexpr paging_style " << id << "_ps[] = {\n";
    for (auto const& sv : p.at("styles").as_array()) {
        auto const& style = sv.as_object();
        auto const kind = get_string(style, "kind", "paging");
        auto const* with = style.if_contains("with");
        std::string with_param, with_value;
        if (with && with->is_object() && !with->as_object().empty()) {
            with_param = with->as_object().begin()->key();
            with_value = json::serialize(with->as_object().begin()->value());
        }
        auto const answer = kind == "cursor"
            ? str_field(style, "next")
            : (kind == "key" ? str_field(style, "field") : "\"\"sv");
        os << "    {.kind = paging_kind::" << kind << ", .param = " << str_field(style, "param")
           << ", .answer = " << answer << ", .with_param = " << literal(with_param)
           << ", .with_value = " << literal(with_value);
        if (auto const* first = style.if_contains("first"); first && first->is_number()) {
            os << ", .first = " << first->to_number<std::int64_t>();
        }
        os << "},\n";
    }
    os << "};\n";
    os << "constexpr paging_spec " << id << "_pg = {.items = " << str_field(p, "items")
       << ", .total = " << str_field(p, "total");
    if (auto const* size = p.if_contains("size"); size && size->is_object()) {
        auto const& sz = size->as_object();
        os << ", .size_param = " << str_field(sz, "param"); // "" : a fixed page size
        for (auto key : { "default", "max" }) {
            if (auto const* v = sz.if_contains(key); v && v->is_number()) {
                os << (std::string_view(key) == "default" ? ", .default_size = " : ", .max_size = ")
                   << v->to_number<std::uint32_t>();
            }
        }
    }
    os << ", .styles = " << id << "_ps};\n";
    return id + "_pg";
}

void emit_tool(std::ostream& os, std::size_t index, json::object const& tool,
    std::vector<std::string>& entries)
{
    std::string id = "t";
    id += std::to_string(index);
    auto const& params = tool.at("params").as_array();
    if (!params.empty()) {
        emit_params(os, id + "_p", params);
    }
    auto const& http = tool.at("http").as_object();
    auto headers = emit_headers(os, id + "_h", http.at("headers").as_object());
    auto secrets = string_array(os, id + "_s", tool.if_contains("secrets"));
    auto paging = emit_paging(os, id, tool);
    auto const& hints = tool.at("hints").as_object();
    auto const* body_schema = tool.if_contains("request_body_schema");
    std::ostringstream e;
    e << "    {.name = " << str_field(tool, "name") << ", .title = " << str_field(tool, "title")
      << ",\n     .description = " << str_field(tool, "description")
      << ", .operation_id = " << str_field(tool, "operation_id")
      << ",\n     .http = {.method = " << str_field(http, "method")
      << ", .url = " << str_field(http, "url");
    if (!headers.empty()) {
        e << ", .headers = " << headers;
    }
    e << ", .body_content_type = " << str_field(http, "body_content_type") << "}";
    if (!params.empty()) {
        e << ", .params = " << id << "_p";
    }
    e << ", .m_tool = " << (get_bool(tool, "m_tool") ? "true" : "false");
    if (body_schema && body_schema->is_object()) {
        e << ",\n     .request_body_schema = " << literal(json::serialize(*body_schema));
    }
    e << ",\n     .input_schema = " << literal(json::serialize(build_input_schema(tool)))
      << ",\n     .read_only = " << (get_bool(hints, "read_only") ? "true" : "false")
      << ", .destructive = " << (get_bool(hints, "destructive") ? "true" : "false")
      << ", .idempotent = " << (get_bool(hints, "idempotent") ? "true" : "false");
    if (!secrets.empty()) {
        e << ", .secrets = " << secrets;
    }
    if (!paging.empty()) {
        e << ", .paging = &" << paging;
    }
    e << "},\n";
    entries.push_back(e.str());
}

void emit_transmission(std::ostream& os, json::array const& items)
{
    os << "constexpr secret_transmission kit_transmission[] = {\n";
    for (auto const& v : items) {
        auto const& t = v.as_object();
        os << "    {" << str_field(t, "secret") << ", " << str_field(t, "in") << ", "
           << str_field(t, "name") << ", " << str_field(t, "format") << "},\n";
    }
    os << "};\n";
}

std::string join_strings(json::array const& a, std::string_view sep)
{
    std::string out;
    for (auto const& v : a) {
        // Appended piece by piece: g++ 12 warns falsely (-Wrestrict) on a temporary sum.
        if (!out.empty()) {
            out += sep;
        }
        out += std::string_view(v.as_string());
    }
    return out;
}

void emit(std::ostream& os, json::object const& cat, std::string const& folder)
{
    auto kit = std::string(get_string(cat, "toolkit", "catalogue"));
    os << "// Generated by toolkits/gen/catalogue_gen from " << folder << "/catalogue.json and "
       << folder << "/descriptions.json. Do not edit.\n"
       << "#include \"toolkits/tool_spec.hpp\"\n\n#include <string_view>\n\n"
       << "namespace toolgate::toolkits {\nnamespace {\n\nusing namespace "
          "std::string_view_literals;\n\n";
    std::vector<json::object const*> tools;
    for (auto const& t : cat.at("tools").as_array()) {
        tools.push_back(&t.as_object());
    }
    std::sort(tools.begin(), tools.end(), [](auto const* a, auto const* b) {
        return a->at("name").as_string() < b->at("name").as_string();
    });
    std::vector<std::string> entries;
    for (std::size_t i = 0; i < tools.size(); ++i) {
        emit_tool(os, i, *tools[i], entries);
    }
    os << "\nconstexpr tool_spec kit_tools[] = {\n";
    for (auto const& e : entries) {
        os << e;
    }
    os << "};\n";
    auto const& auth = cat.at("auth").as_object();
    auto scopes = string_array(os, "kit_scopes", auth.if_contains("scopes"));
    auto secrets = string_array(os, "kit_secrets", auth.if_contains("secrets"));
    auto bases = string_array(os, "kit_base_urls", cat.if_contains("base_urls"));
    emit_transmission(os, auth.at("transmission").as_array());
    os << "\n} // namespace\n\nextern const toolkit_spec " << snake(kit) << "_toolkit = {\n"
       << "    .name = " << literal(kit) << ", .version = " << str_field(cat, "version")
       << ", .platform = " << str_field(cat, "platform") << ",\n    .capabilities = "
       << literal(join_strings(cat.at("capabilities").as_array(), "; "))
       << ",\n    .auth_kind = " << str_field(auth, "kind");
    if (!scopes.empty()) {
        os << ", .scopes = " << scopes;
    }
    if (!secrets.empty()) {
        os << ", .secrets = " << secrets;
    }
    os << ", .transmission = kit_transmission, .base_urls = " << bases
       << ", .tools = kit_tools,\n};\n\n} // namespace toolgate::toolkits\n";
}

/// A JSON file, parsed; throws catalogue_error when it cannot be read.
json::value read_json(char const* path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw catalogue_error(std::string("cannot read ") + path);
    }
    std::stringstream buf;
    buf << in.rdbuf();
    return json::parse(buf.str());
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 6) {
        std::cerr << "usage: catalogue_gen <catalogue.json> <descriptions.json> "
                     "<m_tool_descriptions.json> <out.cpp> <source folder> "
                     "[<catalogue.json of every toolkit> ...]\n";
        return 2;
    }
    std::string const folder = argv[5];
    std::string source = folder + "/catalogue.json";
    try {
        auto doc = read_json(argv[1]);
        auto& cat = doc.as_object();
        check_catalogue(cat);
        known_tools known;
        for (int i = 6; i < argc; ++i) {
            source = argv[i];
            add_known_tools(known, read_json(argv[i]).as_object());
        }
        add_known_tools(known, cat);
        source = folder + "/descriptions.json";
        auto const texts = read_json(argv[2]);
        auto const problems = check_texts(cat, texts.as_object(), known);
        for (auto const& problem : problems) {
            std::cerr << source << ": " << problem << "\n";
        }
        if (!problems.empty()) {
            return 1;
        }
        source = argv[3];
        auto const shared = read_m_tool_words(read_json(argv[3]).as_object());
        merge_texts(cat, texts.as_object(), shared);
        std::ostringstream os;
        emit(os, cat, folder);
        std::ofstream out(argv[4], std::ios::binary | std::ios::trunc);
        out << os.str();
        if (!out) {
            std::cerr << argv[4] << ": cannot write\n";
            return 1;
        }
    } catch (std::exception const& e) {
        std::cerr << source << ": " << e.what() << "\n";
        return 1;
    }
    return 0;
}
