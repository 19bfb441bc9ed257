// catalogue_gen: reads one toolkit's catalogue.json (facts) and descriptions.json (words),
// checks both and each against the other, merges them, and writes the C++ data file the server
// compiles: the toolkit in its stored form (toolkits/stored_catalogue.hpp: one text block,
// pointer-free rows, one `extern const stored::toolkit <toolkit>_toolkit`). Output is sorted
// and byte-stable. Usage: see main(); the catalogues of every toolkit come last, to check
// references between tools.
#include "toolkits/gen/catalogue_model.hpp"
#include "toolkits/gen/text_check.hpp"

#include <boost/json/array.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <vector>

namespace json = boost::json;
using namespace toolgate::catalogue_gen;

namespace {

/// A C++ string literal for any bytes (UTF-8 passes through; controls become three-digit octal
/// escapes, so that a digit after one is not taken into it).
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
    return out + "\"";
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

std::string_view string_member(json::object const& o, std::string_view key)
{
    auto const* v = o.if_contains(key);
    return v && v->is_string() ? std::string_view(v->as_string()) : std::string_view {};
}

/// The toolkit's stored catalogue (toolkits/stored_catalogue.hpp) while it is written: one
/// text block, in which each distinct string is kept once, and the rows of each array, as C++
/// initializers.
class stored_kit {
public:
    /// `{offset, size}` of `s` in the text block.
    std::string text(std::string_view s)
    {
        if (s.empty()) {
            return "{}";
        }
        auto it = offsets_.find(s);
        if (it == offsets_.end()) {
            it = offsets_.emplace(std::string(s), size_).first;
            pieces_.emplace_back(s);
            size_ += s.size();
        }
        return "{" + std::to_string(it->second) + ", " + std::to_string(s.size()) + "}";
    }
    std::string text_of(json::object const& o, std::string_view key)
    {
        return text(string_member(o, key));
    }
    /// The strings of a JSON array, as a range of the toolkit's strings.
    std::string strings(json::value const* values)
    {
        if (!values || !values->is_array() || values->as_array().empty()) {
            return "{}";
        }
        auto const first = string_rows.size();
        for (auto const& v : values->as_array()) {
            string_rows.push_back("    " + text(v.as_string()) + ",\n");
        }
        return range(first, string_rows.size());
    }
    static std::string range(std::size_t first, std::size_t end)
    {
        return end == first
            ? "{}"
            : "{" + std::to_string(first) + ", " + std::to_string(end - first) + "}";
    }

    /// The block's strings in order, each whole.
    std::vector<std::string> const& pieces() const { return pieces_; }

    std::vector<std::string> string_rows;
    std::vector<std::string> params;
    std::vector<std::string> headers;
    std::vector<std::string> styles;
    std::vector<std::string> pagings;
    std::vector<std::string> tools;
    std::vector<std::string> transmission;

private:
    std::vector<std::string> pieces_;
    std::size_t size_ = 0;
    std::map<std::string, std::size_t, std::less<>> offsets_;
};

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

/// Adds a tool's parameters to the toolkit's and returns their range.
std::string add_params(stored_kit& kit, json::array const& params)
{
    auto const first = kit.params.size();
    for (auto const& row : params) {
        auto const& p = row.as_object();
        auto type = get_string(p, "type", "param");
        std::ostringstream os;
        os << "    {.name = " << kit.text_of(p, "name")
           << ", .wire_name = " << kit.text_of(p, "wire_name")
           << ", .description = " << kit.text_of(p, "description")
           << ", .type = json_type::" << type;
        if (type == "array") {
            os << ", .item_type = json_type::" << get_string(p, "item_type", "param");
        }
        os << ", .in = param_location::" << get_string(p, "in", "param") << ", .array_fmt = "
           << enum_value("array_format::", get_string(p, "array_format", "param"))
           << ", .required = " << (get_bool(p, "required") ? "true" : "false")
           << ", .required_when_executing = "
           << (get_bool(p, "required_when_executing") ? "true" : "false");
        if (auto const* e = p.if_contains("enum"); e && e->is_array() && !e->as_array().empty()) {
            os << ", .enum_values = " << kit.strings(e);
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
            os << ", .schema = " << kit.text(json::serialize(*s));
        }
        os << "},\n";
        kit.params.push_back(os.str());
    }
    return stored_kit::range(first, kit.params.size());
}

std::string add_headers(stored_kit& kit, json::object const& headers)
{
    auto const first = kit.headers.size();
    for (auto const& [k, v] : headers) {
        kit.headers.push_back(
            "    {" + kit.text(k) + ", " + kit.text(std::string_view(v.as_string())) + "},\n");
    }
    return stored_kit::range(first, kit.headers.size());
}

/// Adds a list tool's paging descriptor (`paging` with `styles`) and returns its position, or
/// "" for a tool that does not page.
std::string add_paging(stored_kit& kit, json::object const& tool)
{
    auto const* paging = tool.if_contains("paging");
    if (!paging || !paging->as_object().contains("styles")) {
        return "";
    }
    auto const& p = paging->as_object();
    auto const first_style = kit.styles.size();
    for (auto const& sv : p.at("styles").as_array()) {
        auto const& style = sv.as_object();
        auto const kind = get_string(style, "kind", "paging");
        auto const* with = style.if_contains("with");
        std::string with_param, with_value;
        if (with && with->is_object() && !with->as_object().empty()) {
            with_param = with->as_object().begin()->key();
            with_value = json::serialize(with->as_object().begin()->value());
        }
        auto const answer = kind == "cursor" ? kit.text_of(style, "next")
                                             : (kind == "key" ? kit.text_of(style, "field") : "{}");
        std::ostringstream os;
        os << "    {.kind = paging_kind::" << kind << ", .param = " << kit.text_of(style, "param")
           << ", .answer = " << answer << ", .with_param = " << kit.text(with_param)
           << ", .with_value = " << kit.text(with_value);
        if (auto const* first = style.if_contains("first"); first && first->is_number()) {
            os << ", .first = " << first->to_number<std::int64_t>();
        }
        os << "},\n";
        kit.styles.push_back(os.str());
    }
    std::ostringstream os;
    os << "    {.items = " << kit.text_of(p, "items") << ", .total = " << kit.text_of(p, "total");
    if (auto const* size = p.if_contains("size"); size && size->is_object()) {
        auto const& sz = size->as_object();
        os << ", .size_param = " << kit.text_of(sz, "param"); // "" : a fixed page size
        for (auto key : { "default", "max" }) {
            if (auto const* v = sz.if_contains(key); v && v->is_number()) {
                os << (std::string_view(key) == "default" ? ", .default_size = " : ", .max_size = ")
                   << v->to_number<std::uint32_t>();
            }
        }
    }
    os << ", .styles = " << stored_kit::range(first_style, kit.styles.size()) << "},\n";
    kit.pagings.push_back(os.str());
    return std::to_string(kit.pagings.size() - 1);
}

void add_tool(stored_kit& kit, json::object const& tool)
{
    auto const params = add_params(kit, tool.at("params").as_array());
    auto const& http = tool.at("http").as_object();
    auto const headers = add_headers(kit, http.at("headers").as_object());
    auto const secrets = kit.strings(tool.if_contains("secrets"));
    auto const paging = add_paging(kit, tool);
    auto const& hints = tool.at("hints").as_object();
    auto const* body_schema = tool.if_contains("request_body_schema");
    std::ostringstream e;
    e << "    {.name = " << kit.text_of(tool, "name") << ", .title = " << kit.text_of(tool, "title")
      << ",\n     .description = " << kit.text_of(tool, "description")
      << ", .operation_id = " << kit.text_of(tool, "operation_id")
      << ",\n     .method = " << kit.text_of(http, "method")
      << ", .url = " << kit.text_of(http, "url") << ", .headers = " << headers
      << ", .body_content_type = " << kit.text_of(http, "body_content_type")
      << ", .params = " << params
      << ", .m_tool = " << (get_bool(tool, "m_tool") ? "true" : "false");
    if (body_schema && body_schema->is_object()) {
        e << ",\n     .request_body_schema = " << kit.text(json::serialize(*body_schema));
    }
    e << ",\n     .input_schema = " << kit.text(json::serialize(build_input_schema(tool)))
      << ",\n     .read_only = " << (get_bool(hints, "read_only") ? "true" : "false")
      << ", .destructive = " << (get_bool(hints, "destructive") ? "true" : "false")
      << ", .idempotent = " << (get_bool(hints, "idempotent") ? "true" : "false")
      << ", .secrets = " << secrets;
    if (!paging.empty()) {
        e << ", .paging = " << paging;
    }
    e << "},\n";
    kit.tools.push_back(e.str());
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

/// `constexpr stored::<type> <id>[] = {...};` when there are rows; returns the span's
/// initializer ("{}" for none: C++ has no empty arrays).
std::string emit_array(std::ostream& os, std::string_view type, std::string_view id,
    std::vector<std::string> const& rows)
{
    if (rows.empty()) {
        return "{}";
    }
    os << "constexpr stored::" << type << " " << id << "[] = {\n";
    for (auto const& row : rows) {
        os << row;
    }
    os << "};\n";
    return std::string(id);
}

/// The text block as adjacent literals, one string of it a line (never a UTF-8 sequence cut
/// in two), so that the file stays readable and its diffs small.
void emit_block(std::ostream& os, std::vector<std::string> const& pieces)
{
    os << "constexpr char kit_texts[] =\n";
    for (auto const& piece : pieces) {
        os << "    " << literal(piece) << "\n";
    }
    os << "    \"\";\n";
}

void emit(std::ostream& os, json::object const& cat, std::string const& folder)
{
    auto kit_name = std::string(get_string(cat, "toolkit", "catalogue"));
    std::vector<json::object const*> tools;
    for (auto const& t : cat.at("tools").as_array()) {
        tools.push_back(&t.as_object());
    }
    std::sort(tools.begin(), tools.end(), [](auto const* a, auto const* b) {
        return a->at("name").as_string() < b->at("name").as_string();
    });
    stored_kit kit;
    for (auto const* tool : tools) {
        add_tool(kit, *tool);
    }
    auto const& auth = cat.at("auth").as_object();
    auto const scopes = kit.strings(auth.if_contains("scopes"));
    auto const secrets = kit.strings(auth.if_contains("secrets"));
    auto const bases = kit.strings(cat.if_contains("base_urls"));
    for (auto const& v : auth.at("transmission").as_array()) {
        auto const& t = v.as_object();
        kit.transmission.push_back("    {" + kit.text_of(t, "secret") + ", " + kit.text_of(t, "in")
            + ", " + kit.text_of(t, "name") + ", " + kit.text_of(t, "format") + "},\n");
    }
    auto const name = kit.text(kit_name);
    auto const version = kit.text_of(cat, "version");
    auto const platform = kit.text_of(cat, "platform");
    auto const capabilities = kit.text(join_strings(cat.at("capabilities").as_array(), "; "));
    auto const auth_kind = kit.text_of(auth, "kind");

    os << "// Generated by toolkits/gen/catalogue_gen from " << folder << "/catalogue.json and "
       << folder << "/descriptions.json. Do not edit.\n"
       << "// The stored form of toolkits/stored_catalogue.hpp: texts are {offset, size} in\n"
       << "// kit_texts, lists are {first, count} in the arrays below.\n"
       << "#include \"toolkits/stored_catalogue.hpp\"\n\n"
       << "namespace toolgate::toolkits {\nnamespace {\n\n";
    emit_block(os, kit.pieces());
    auto const strings = emit_array(os, "text", "kit_strings", kit.string_rows);
    auto const params = emit_array(os, "param", "kit_params", kit.params);
    auto const headers = emit_array(os, "header", "kit_headers", kit.headers);
    auto const styles = emit_array(os, "style", "kit_styles", kit.styles);
    auto const pagings = emit_array(os, "paging", "kit_pagings", kit.pagings);
    auto const tool_rows = emit_array(os, "tool", "kit_tools", kit.tools);
    auto const transmission
        = emit_array(os, "secret_transmission", "kit_transmission", kit.transmission);
    os << "\n} // namespace\n\nextern const stored::toolkit " << snake(kit_name) << "_toolkit = {\n"
       << "    .texts = kit_texts, .texts_size = sizeof kit_texts - 1, .name = " << name
       << ", .version = " << version << ", .platform = " << platform
       << ",\n    .capabilities = " << capabilities << ", .auth_kind = " << auth_kind
       << ", .scopes = " << scopes << ", .secrets = " << secrets << ", .base_urls = " << bases
       << ",\n    .strings = " << strings << ", .params = " << params << ", .headers = " << headers
       << ", .styles = " << styles << ", .pagings = " << pagings << ",\n    .tools = " << tool_rows
       << ", .transmission = " << transmission << ",\n};\n\n} // namespace toolgate::toolkits\n";
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
