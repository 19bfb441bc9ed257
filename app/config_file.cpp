// --config F (TOML, with Debian's toml++) and --print-config. Nothing here names a flag: keys
// are the long names of whatever options the CLI11 app has, so this file does not change
// when flags are added (app/config.cpp).
#include "app/config_file.hpp"

#include <CLI/App.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <sstream>
#include <sys/stat.h>
#include <toml++/toml.h>
#include <vector>

extern char** environ;

namespace toolgate::app {
namespace {

/// Options that are not settings: they act on the command line itself.
bool is_command_line_only(std::string_view name)
{
    return name == "help" || name == "version" || name == "config" || name == "print-config";
}

/// Tables that are not settings but read by their own subsystem (mcp/policy.hpp: the
/// operator's policy per client).
bool is_read_elsewhere(std::string_view name)
{
    return name == "policy";
}

std::string long_name(CLI::Option const& option)
{
    auto const& names = option.get_lnames();
    return names.empty() ? std::string() : names.front();
}

bool is_flag(CLI::Option const& option)
{
    return option.get_expected_max() == 0;
}
bool repeats(CLI::Option const& option)
{
    return option.get_items_expected_max() > 1;
}

std::string where(std::string_view file, toml::source_region const& source)
{
    return fmt::format("{}:{}", file, source.begin.line);
}

/// A scalar TOML value as the text CLI11 would get on the command line; nullopt for tables,
/// arrays, dates and times.
std::optional<std::string> scalar_text(toml::node const& node)
{
    if (auto const* s = node.as_string()) {
        return s->get();
    }
    if (auto const* i = node.as_integer()) {
        return std::to_string(i->get());
    }
    if (auto const* f = node.as_floating_point()) {
        return fmt::format("{}", f->get());
    }
    if (auto const* b = node.as_boolean()) {
        return b->get() ? "true" : "false";
    }
    return std::nullopt;
}

std::string_view type_name(toml::node const& node)
{
    switch (node.type()) {
    case toml::node_type::table:
        return "a table";
    case toml::node_type::array:
        return "an array";
    case toml::node_type::date:
        return "a date";
    case toml::node_type::time:
        return "a time";
    case toml::node_type::date_time:
        return "a date-time";
    default:
        return "a value";
    }
}

/// The names of the app's settings, for "unknown key" messages.
std::string close_key(CLI::App const& app, std::string const& key)
{
    std::string dashed = key;
    std::replace(dashed.begin(), dashed.end(), '_', '-');
    if (dashed != key && app.get_option_no_throw("--" + dashed)) {
        return fmt::format("; options are spelled as on the command line: {}", dashed);
    }
    return "; see --help for the options (a key is an option's name without --)";
}

std::vector<std::string> values_of(std::string_view file, std::string const& key,
    toml::node const& node, CLI::Option const& option)
{
    std::vector<std::string> values;
    if (auto const* array = node.as_array()) {
        if (!repeats(option)) {
            throw config_file_error(fmt::format(
                "{}: {} takes one value, not an array", where(file, node.source()), key));
        }
        for (auto const& element : *array) {
            auto text = scalar_text(element);
            if (!text) {
                throw config_file_error(fmt::format("{}: {}: an element is {}, expected a string, "
                                                    "number or boolean",
                    where(file, element.source()), key, type_name(element)));
            }
            values.push_back(std::move(*text));
        }
        return values;
    }
    auto text = scalar_text(node);
    if (!text) {
        throw config_file_error(fmt::format("{}: {} is {}, expected a string, number or boolean "
                                            "(keys are top-level `name = value` lines)",
            where(file, node.source()), key, type_name(node)));
    }
    values.push_back(std::move(*text));
    return values;
}

bool given_as_flag(std::string const& name, int argc, char const* const* argv)
{
    auto const dashed = "--" + name;
    for (int i = 1; i < argc; ++i) {
        std::string_view const arg = argv[i];
        if (arg == dashed || (arg.starts_with(dashed) && arg[dashed.size()] == '=')) {
            return true;
        }
    }
    return false;
}

bool looks_like_integer(std::string_view v)
{
    if (v.starts_with('-')) {
        v.remove_prefix(1);
    }
    return !v.empty() && v.size() < 19
        && std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; })
        && !(v.size() > 1 && v.front() == '0');
}

std::string toml_string(std::string_view v)
{
    std::string out = "\"";
    for (unsigned char c : v) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c < 0x20 || c == 0x7f) {
            out += fmt::format("\\u{:04X}", c);
        } else {
            out += static_cast<char>(c);
        }
    }
    return out + "\"";
}

std::string toml_value(std::string_view v, bool flag)
{
    if (flag || looks_like_integer(v)) {
        return std::string(v);
    }
    return toml_string(v);
}

/// A secret in a file other users can read is no secret (security review 3, item 17): the
/// same rule as the secrets file's (credentials/secrets_file.hpp), for files that hold one.
void refuse_if_shared(std::string const& path, std::string const& key, CLI::Option const& option,
    toml::source_region const& source)
{
    struct stat st { };
    if (::stat(path.c_str(), &st) != 0 || (st.st_mode & 077) == 0) {
        return;
    }
    auto const variable = option.get_envname();
    throw config_file_error(fmt::format(
        "{}: {} is a secret, and the file is open to other users (mode {:04o}); chmod 600 {}, "
        "or give it {}instead",
        where(path, source), key, st.st_mode & 07777, path,
        variable.empty() ? std::string() : fmt::format("in the environment ({}) ", variable)));
}

} // namespace

bool is_secret_option(std::string_view name)
{
    static constexpr std::array<std::string_view, 9> secret_words = { "key", "token", "tokens",
        "secret", "secrets", "password", "passphrase", "credential", "credentials" };
    static constexpr std::array<std::string_view, 4> path_words
        = { "file", "dir", "path", "directory" };
    std::vector<std::string_view> words;
    for (std::size_t start = 0; start <= name.size();) {
        auto const end = std::min(name.find('-', start), name.size());
        words.push_back(name.substr(start, end - start));
        start = end + 1;
    }
    if (name == "state-store") {
        return true; // a redis:// URL may carry the password
    }
    if (words.empty()
        || std::find(path_words.begin(), path_words.end(), words.back()) != path_words.end()) {
        return false; // a path to a secret is not the secret
    }
    if (words.front() == "max" || words.front() == "min") {
        return false; // a limit counted in tokens (--max-result-tokens) is not a token
    }
    return std::any_of(words.begin(), words.end(), [](std::string_view w) {
        return std::find(secret_words.begin(), secret_words.end(), w) != secret_words.end();
    });
}

std::set<std::string> apply_config_file(
    CLI::App& app, std::string const& path, environment_shadow const& shadowed)
{
    toml::table table;
    try {
        table = toml::parse_file(path);
    } catch (toml::parse_error const& e) {
        auto const& source = e.source();
        if (source.begin.line == 0) {
            throw config_file_error(fmt::format("{}: {}", path, e.description()));
        }
        throw config_file_error(
            fmt::format("{}:{}: not valid TOML: {}", path, source.begin.line, e.description()));
    }
    // Check every key before applying any, so that a bad file changes nothing.
    struct pending {
        std::string key;
        CLI::Option* option;
        std::vector<std::string> values;
        toml::source_region source;
    };
    std::vector<pending> items;
    for (auto const& [key, node] : table) {
        auto const name = std::string(key.str());
        if (node.is_table() && is_read_elsewhere(name)) {
            continue;
        }
        if (node.is_table()) {
            throw config_file_error(fmt::format("{}: {} is a table; settings are top-level "
                                                "`name = value` lines",
                where(path, key.source()), name));
        }
        auto* option = app.get_option_no_throw("--" + name);
        if (!option || is_command_line_only(name) || long_name(*option) != name) {
            throw config_file_error(fmt::format(
                "{}: unknown key \"{}\"{}", where(path, key.source()), name, close_key(app, name)));
        }
        items.push_back({ name, option, values_of(path, name, node, *option), key.source() });
    }
    for (auto const& item : items) {
        // "***" is what --print-config writes for a secret: a placeholder, not a secret.
        bool const masked = item.values.size() == 1 && item.values.front() == "***";
        if (!is_flag(*item.option) && is_secret_option(item.key) && !masked) {
            refuse_if_shared(path, item.key, *item.option, item.source);
        }
    }
    std::set<std::string> applied;
    for (auto& item : items) {
        if (item.option->count() > 0) {
            continue; // a flag or the option's environment variable set it: they win
        }
        if (shadowed) {
            std::erase_if(item.values, [&](std::string const& v) { return shadowed(item.key, v); });
            if (item.values.empty()) {
                continue;
            }
        }
        try {
            if (is_flag(*item.option)) {
                item.option->add_result(item.values.front());
            } else {
                item.option->add_result(item.values);
            }
            item.option->run_callback();
        } catch (CLI::Error const& e) {
            throw config_file_error(
                fmt::format("{}: {}: {}", where(path, item.source), item.key, e.what()));
        }
        applied.insert(item.key);
    }
    return applied;
}

std::string effective_config(CLI::App const& app, int argc, char const* const* argv,
    std::set<std::string> const& from_file, std::string_view file)
{
    std::ostringstream out;
    out << "# toolgate: effective settings. Precedence: flag > environment > file > default.\n"
        << "# Each line says where its value came from; secret values are shown as \"***\".\n";
    if (!file.empty()) {
        out << "# file: " << file << "\n";
    }
    std::set<std::string> option_envs;
    for (auto const* option : app.get_options()) {
        auto const name = long_name(*option);
        if (name.empty() || is_command_line_only(name)) {
            continue;
        }
        if (!option->get_envname().empty()) {
            option_envs.insert(option->get_envname());
        }
        std::vector<std::string> values = option->results();
        std::string source;
        if (from_file.contains(name)) {
            source = "file";
        } else if (option->count() > 0) {
            auto const& env = option->get_envname();
            char const* env_value = env.empty() ? nullptr : std::getenv(env.c_str());
            bool const from_env = env_value && *env_value && !given_as_flag(name, argc, argv);
            source = from_env ? "env " + env : "flag";
        } else {
            source = "default";
            auto const def = option->get_default_str();
            if (is_flag(*option)) {
                values = { "false" };
            } else if (repeats(*option)) {
                values.clear(); // "[]" or an empty default: nothing
            } else if (!def.empty()) {
                values = { def };
            }
        }
        bool const secret = !is_flag(*option) && is_secret_option(name);
        if (values.empty() && !repeats(*option)) {
            out << "# " << name << " = (not set)\n";
            continue;
        }
        std::string shown;
        if (repeats(*option)) {
            shown = "[";
            for (std::size_t i = 0; i < values.size(); ++i) {
                shown
                    += (i ? ", " : "") + (secret ? std::string("\"***\"") : toml_string(values[i]));
            }
            shown += "]";
        } else {
            shown = secret ? std::string("\"***\"") : toml_value(values.back(), is_flag(*option));
        }
        out << name << " = " << shown << "  # " << source << "\n";
    }
    // Variables read outside the option set (TOOLGATE_AUTH_TOKENS, TOOLGATE_BASE_URL_<KIT>):
    // named, never shown.
    std::vector<std::string> others;
    for (char** e = environ; e && *e; ++e) {
        std::string_view const entry = *e;
        auto const eq = entry.find('=');
        auto const name = std::string(entry.substr(0, eq));
        if (name.starts_with("TOOLGATE_") && eq + 1 < entry.size() && !option_envs.contains(name)) {
            others.push_back(name);
        }
    }
    std::sort(others.begin(), others.end());
    for (auto const& name : others) {
        out << "# also set in the environment: " << name << " (value not shown)\n";
    }
    return out.str();
}

} // namespace toolgate::app
