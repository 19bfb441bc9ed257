// C++ twin of tools/toolgate_spec.py (see spec_parser.hpp).
#include "spec_parser.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

namespace toolgate::test {
namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

const std::regex param_re { R"(^([a-z][A-Za-z0-9_]*) (s|i|n|b|a\[s\]) (R|O)$)" };
const std::regex embedded_re {
    R"((?:^|, | and | extras )([a-z][A-Za-z0-9_]*) (s|i|n|b|a\[s\]) (R|O)(?=$|,| and ))"
};
const std::regex bare_re { R"(^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$)" };
const std::regex group_re { R"(^optional (strings|booleans):? (.*)$)" };
const std::regex exec_re { R"(\(exec\b|required when executing)" };
const std::regex mtool_re { R"(^M-tool( with (no )?extras)?)" };

std::string type_of(std::string const& code)
{
    if (code == "s")
        return "string";
    if (code == "i")
        return "integer";
    if (code == "n")
        return "number";
    if (code == "b")
        return "boolean";
    return "array";
}

std::string trim(std::string s)
{
    auto b = s.find_first_not_of(" \t");
    auto e = s.find_last_not_of(" \t");
    return b == std::string::npos ? std::string {} : s.substr(b, e - b + 1);
}

std::vector<std::string> split_top(std::string const& text, std::string const& sep)
{
    std::vector<std::string> parts;
    std::string cur;
    int depth = 0;
    for (std::size_t i = 0; i < text.size();) {
        char c = text[i];
        if (c == '(') {
            ++depth;
        } else if (c == ')') {
            depth = std::max(0, depth - 1);
        }
        if (depth == 0 && text.compare(i, sep.size(), sep) == 0) {
            parts.push_back(cur);
            cur.clear();
            i += sep.size();
            continue;
        }
        cur += c;
        ++i;
    }
    parts.push_back(cur);
    return parts;
}

std::string first_sentence(std::string const& text)
{
    auto head = split_top(text, ". ")[0];
    if (!head.empty() && head.back() == '.') {
        head.pop_back();
    }
    return head;
}

std::string strip_parens(std::string const& text)
{
    std::string out;
    int depth = 0;
    for (char c : text) {
        if (c == '(') {
            ++depth;
        } else if (c == ')') {
            depth = std::max(0, depth - 1);
        } else if (depth == 0) {
            out += c;
        }
    }
    return trim(std::regex_replace(out, std::regex(R"(\s+)"), " "));
}

bool is_exec(std::string const& raw)
{
    return std::regex_search(raw, exec_re);
}

spec_param make_param(
    std::string name, std::string const& code, std::string const& flag, bool exec = false)
{
    return { std::move(name), type_of(code), flag == "R", exec };
}

struct parsed {
    std::vector<spec_param> params;
    bool m_tool = false, no_params = false, complete = true;
};

parsed parse_params(std::string const& body, bool history)
{
    parsed r;
    std::smatch m;
    for (auto const& raw : split_top(first_sentence(body), "; ")) {
        bool exec = is_exec(raw);
        auto item = strip_parens(raw);
        if (item.empty()) {
            continue;
        }
        if (item == "no parameters") {
            r.no_params = true;
        } else if (item.starts_with("M-tool")) {
            r.m_tool = true;
            auto rest = trim(std::regex_replace(trim(raw), mtool_re, ""));
            if (!rest.empty()) {
                for (auto const& piece : split_top(rest, " and ")) {
                    auto s = strip_parens(piece);
                    if (std::regex_match(s, m, param_re)) {
                        r.params.push_back(make_param(m[1], m[2], m[3], is_exec(piece)));
                    } else {
                        r.complete = false;
                    }
                }
            }
        } else if (std::regex_match(item, m, param_re)) {
            r.params.push_back(make_param(m[1], m[2], m[3], exec));
        } else if (std::regex_match(item, m, group_re)) {
            std::string code = m[1] == "strings" ? "s" : "b";
            for (auto const& name : split_top(m[2].str(), ", ")) {
                r.params.push_back(make_param(trim(name), code, "O"));
            }
        } else if (std::regex_match(item, bare_re)) {
            r.params.push_back(make_param(item, "s", "O"));
        } else {
            r.complete = false;
            for (std::sregex_iterator it(item.begin(), item.end(), embedded_re), end; it != end;
                 ++it) {
                r.params.push_back(make_param((*it)[1], (*it)[2], (*it)[3], exec));
            }
        }
    }
    if (r.m_tool) {
        r.params.insert(r.params.begin(),
            { make_param("mode", "s", "R", true), make_param("request_body", "s", "O", true) });
    }
    if (history) {
        r.params.push_back(make_param("idempotency_key", "s", "O"));
    }
    return r;
}

std::vector<std::string> all_matches(std::string const& text, std::regex const& re)
{
    std::vector<std::string> out;
    for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it) {
        out.push_back((*it)[1]);
    }
    return out;
}

void parse_tool_line(
    std::string const& line, std::string const& toolkit, bool history, std::vector<spec_tool>& out)
{
    auto text = trim(line.substr(2));
    auto cut = text.find(": ");
    if (cut == std::string::npos) {
        return;
    }
    auto header = text.substr(0, cut);
    auto names = all_matches(header, std::regex(R"(`([A-Z][A-Za-z0-9]*)`)"));
    auto ops = all_matches(header, std::regex(R"(\[([^\]]+)\])"));
    if (names.empty() && ops.empty()) {
        return;
    }
    auto p = parse_params(text.substr(cut + 2), history);
    auto count = std::max(names.size(), ops.size());
    for (std::size_t i = 0; i < count; ++i) {
        spec_tool t { toolkit, std::nullopt, std::nullopt, p.m_tool, p.no_params, p.complete,
            p.params };
        if (i < names.size()) {
            t.name = names[i];
        }
        if (i < ops.size() && ops.size() == count) {
            t.operation_id = ops[i];
        }
        out.push_back(std::move(t));
    }
}

std::vector<fs::path> spec_files(fs::path const& dir)
{
    std::vector<fs::path> files;
    for (auto const& e : fs::directory_iterator(dir)) {
        if (e.path().extension() == ".txt") {
            files.push_back(e.path());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::optional<std::string> opt_string(json::object const& o, char const* key)
{
    auto const* v = o.if_contains(key);
    if (!v || v->is_null()) {
        return std::nullopt;
    }
    return std::string(v->as_string());
}

} // namespace

spec_table parse_spec_dir(fs::path const& dir)
{
    spec_table table;
    const std::regex kit_row { R"(^\| `(\w+)` \| ([^|]+) \| ([\d.]+) \| (\d+) \|$)" };
    for (auto const& file : spec_files(dir)) {
        std::ifstream in(file);
        std::string line, toolkit;
        bool endpoints = false, history = false;
        std::smatch m;
        while (std::getline(in, line)) {
            if (std::regex_match(line, m, kit_row)) {
                table.toolkits.push_back({ m[1], trim(m[2]), m[3], std::stoi(m[4]) });
            }
            if (line.starts_with("## ")) {
                endpoints = line == "## Endpoints";
                toolkit.clear();
            } else if (line.starts_with("### ") && endpoints) {
                auto word = line.substr(4, line.find(' ', 4) - 4);
                toolkit = word.ends_with("Api") ? word : "";
                history = false;
            } else if (!toolkit.empty() && line.starts_with("- ")) {
                parse_tool_line(line, toolkit, history, table.tools);
            } else if (!toolkit.empty() && line.ends_with(":")) {
                history = line.ends_with("(H):");
            }
        }
    }
    return table;
}

spec_table load_spec_table(fs::path const& file)
{
    std::ifstream in(file);
    std::stringstream buf;
    buf << in.rdbuf();
    auto doc = json::parse(buf.str()).as_object();
    spec_table table;
    for (auto const& v : doc.at("toolkits").as_array()) {
        auto const& o = v.as_object();
        table.toolkits.push_back({ std::string(o.at("name").as_string()),
            std::string(o.at("wraps").as_string()), std::string(o.at("version").as_string()),
            static_cast<int>(o.at("tool_count").as_int64()) });
    }
    for (auto const& v : doc.at("tools").as_array()) {
        auto const& o = v.as_object();
        spec_tool t { std::string(o.at("toolkit").as_string()), opt_string(o, "name"),
            opt_string(o, "operation_id"), o.at("m_tool").as_bool(),
            o.at("no_parameters").as_bool(), o.at("complete").as_bool(), {} };
        for (auto const& pv : o.at("params").as_array()) {
            auto const& p = pv.as_object();
            t.params.push_back(
                { std::string(p.at("name").as_string()), std::string(p.at("type").as_string()),
                    p.at("required").as_bool(), p.at("required_when_executing").as_bool() });
        }
        table.tools.push_back(std::move(t));
    }
    return table;
}

std::optional<fs::path> find_spec_dir()
{
    std::vector<fs::path> roots;
    if (auto const* env = std::getenv("TOOLGATE_SOURCE_DIR"); env && *env) {
        roots.emplace_back(env);
    }
    roots.emplace_back(TOOLGATE_TEST_SOURCE_DIR);
    for (auto const& root : roots) {
        auto dir = root / ".." / "shared" / "spec";
        if (fs::is_directory(dir) && !spec_files(dir).empty()) {
            return dir;
        }
    }
    return std::nullopt;
}

spec_table current_spec_table()
{
    if (auto dir = find_spec_dir()) {
        return parse_spec_dir(*dir);
    }
    return load_spec_table(
        fs::path(TOOLGATE_TEST_SOURCE_DIR) / "test" / "toolkits" / "spec_tools.json");
}

} // namespace toolgate::test
