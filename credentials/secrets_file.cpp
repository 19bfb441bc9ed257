// Secrets files: permission check, KEY=VALUE parsing, change summaries (names only).
#include "credentials/secrets_file.hpp"

#include "common/ascii.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>
#include <vector>

namespace toolgate::credentials {
namespace {

bool is_variable_name(std::string_view name)
{
    if (name.empty() || (name.front() >= '0' && name.front() <= '9')) {
        return false;
    }
    for (char c : name) {
        if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) {
            return false;
        }
    }
    return true;
}

/// Parses one `KEY=VALUE` line into `out`; `first_line` remembers where each key came from.
void parse_pair(std::string_view line, std::size_t number, std::string_view what, secret_map& out,
    std::map<std::string, std::size_t, std::less<>>& first_line)
{
    if (line.starts_with("export ")) {
        line = common::trim_blanks(line.substr(7));
    }
    auto const eq = line.find('=');
    if (eq == std::string_view::npos) {
        // The line is not echoed: it may be a secret pasted without its name.
        throw std::invalid_argument(fmt::format("{} line {}: expected KEY=VALUE", what, number));
    }
    auto const key = common::trim_blanks(line.substr(0, eq));
    auto value = common::trim_blanks(line.substr(eq + 1));
    if (!is_variable_name(key)) {
        throw std::invalid_argument(fmt::format(
            "{} line {}: the name before '=' must be an upper-case variable name such as "
            "KANBAN_API_KEY",
            what, number));
    }
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'')
        && value.back() == value.front()) {
        value = value.substr(1, value.size() - 2);
    }
    if (auto it = first_line.find(key); it != first_line.end()) {
        throw std::invalid_argument(
            fmt::format("{} line {}: {} is already set on line {}", what, number, key, it->second));
    }
    first_line.emplace(std::string(key), number);
    out.emplace(std::string(key), std::string(value));
}

/// Calls `on_line(number, trimmed line)` for every line that is neither blank nor a comment.
template <class F> void for_each_line(std::string_view text, F&& on_line)
{
    std::size_t number = 0;
    while (!text.empty()) {
        auto const end = text.find('\n');
        auto line = common::trim_blanks(text.substr(0, end));
        ++number;
        if (!line.empty() && !line.starts_with('#')) {
            on_line(number, line);
        }
        if (end == std::string_view::npos) {
            break;
        }
        text.remove_prefix(end + 1);
    }
}

} // namespace

void check_private_file(std::string const& path, std::string_view what)
{
    struct stat st { };
    if (::stat(path.c_str(), &st) != 0) {
        throw std::invalid_argument(fmt::format("{} {}: {}", what, path, std::strerror(errno)));
    }
    if (!S_ISREG(st.st_mode)) {
        throw std::invalid_argument(fmt::format("{} {}: not a regular file", what, path));
    }
    if ((st.st_mode & 077) != 0) {
        throw std::invalid_argument(fmt::format(
            "{} {}: the file is open to other users (mode {:04o}); it holds secrets, so it must "
            "be readable by its owner only: chmod 600 {}",
            what, path, st.st_mode & 07777, path));
    }
}

std::string read_private_file(std::string const& path, std::string_view what)
{
    check_private_file(path, what);
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw std::invalid_argument(fmt::format("{} {}: cannot be read", what, path));
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

secret_map parse_secrets(std::string_view text, std::string_view what)
{
    secret_map out;
    std::map<std::string, std::size_t, std::less<>> first_line;
    for_each_line(text, [&](std::size_t number, std::string_view line) {
        if (line.starts_with('[')) {
            throw std::invalid_argument(fmt::format(
                "{} line {}: sections belong in --credentials-file; this file holds KEY=VALUE "
                "lines only",
                what, number));
        }
        parse_pair(line, number, what, out, first_line);
    });
    return out;
}

principal_secrets parse_principal_secrets(std::string_view text, std::string_view what)
{
    principal_secrets out;
    std::map<std::string, std::size_t, std::less<>> principal_line;
    std::map<std::string, std::size_t, std::less<>> first_line;
    secret_map* current = nullptr;
    for_each_line(text, [&](std::size_t number, std::string_view line) {
        if (line.starts_with('[')) {
            if (!line.ends_with(']') || line.size() < 3) {
                throw std::invalid_argument(
                    fmt::format("{} line {}: expected a [principal] header such as [static:alice]",
                        what, number));
            }
            auto const name = common::trim_blanks(line.substr(1, line.size() - 2));
            if (auto it = principal_line.find(name); it != principal_line.end()) {
                throw std::invalid_argument(fmt::format(
                    "{} line {}: [{}] already starts on line {}", what, number, name, it->second));
            }
            principal_line.emplace(std::string(name), number);
            current = &out[std::string(name)];
            first_line.clear();
            return;
        }
        if (current == nullptr) {
            throw std::invalid_argument(fmt::format(
                "{} line {}: KEY=VALUE lines belong under a [principal] header (the client's "
                "principal, e.g. [static:alice] or [jwt:<sub>])",
                what, number));
        }
        parse_pair(line, number, what, *current, first_line);
    });
    return out;
}

std::string describe_changes(secret_map const& before, secret_map const& after)
{
    std::vector<std::string_view> changed;
    std::vector<std::string_view> added;
    std::vector<std::string_view> removed;
    for (auto const& [name, value] : after) {
        auto it = before.find(name);
        if (it == before.end()) {
            added.push_back(name);
        } else if (it->second != value) {
            changed.push_back(name);
        }
    }
    for (auto const& [name, value] : before) {
        if (!after.contains(name)) {
            removed.push_back(name);
        }
    }
    std::string out;
    auto const append = [&](std::string_view label, std::vector<std::string_view> const& names) {
        if (names.empty()) {
            return;
        }
        out += out.empty() ? "" : "; ";
        out += fmt::format("{} {}", label, fmt::join(names, ", "));
    };
    append("changed", changed);
    append("added", added);
    append("removed", removed);
    return out;
}

} // namespace toolgate::credentials
