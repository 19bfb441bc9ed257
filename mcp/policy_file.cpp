// Reading `[policy."<principal>"]` tables from the TOML config file (see policy.hpp). The rest
// of the file is app/config_file.cpp's: flags as top-level keys.
#include "mcp/policy.hpp"

#include <fmt/format.h>

#include <limits>
#include <stdexcept>
#include <toml++/toml.h>

namespace toolgate::mcp {
namespace {

[[noreturn]] void refuse(std::string const& path, toml::source_region const& where,
    std::string_view principal, std::string const& message)
{
    throw std::invalid_argument(
        fmt::format("{}:{}: [policy.\"{}\"] {}", path, where.begin.line, principal, message));
}

std::vector<std::string> toolkit_list(
    std::string const& path, std::string_view principal, toml::node const& node)
{
    std::vector<std::string> out;
    if (auto const* one = node.as_string()) {
        out.push_back(one->get());
        return out;
    }
    auto const* list = node.as_array();
    if (list == nullptr) {
        refuse(path, node.source(), principal,
            "toolkits: expected a list of toolkits or toolsets, e.g. [\"KanbanApi:read\"]");
    }
    for (auto const& item : *list) {
        auto const* text = item.as_string();
        if (text == nullptr) {
            refuse(path, item.source(), principal, "toolkits: every item must be a string");
        }
        out.push_back(text->get());
    }
    return out;
}

principal_policy read_table(
    std::string const& path, std::string_view principal, toml::table const& table)
{
    principal_policy out;
    for (auto const& [key, node] : table) {
        auto const name = key.str();
        if (name == "toolkits") {
            out.toolkits = toolkit_list(path, principal, node);
        } else if (name == "read_only" || name == "confirm_destructive") {
            auto const* flag = node.as_boolean();
            if (flag == nullptr) {
                refuse(path, node.source(), principal,
                    fmt::format("{}: expected true or false", name));
            }
            if (name == "read_only") {
                out.read_only = flag->get();
            } else {
                out.confirm_destructive = flag->get();
            }
        } else if (name == "calls_per_minute") {
            auto const* number = node.as_integer();
            if (number == nullptr || number->get() < 0
                || number->get() > std::numeric_limits<std::uint32_t>::max()) {
                refuse(path, node.source(), principal,
                    "calls_per_minute: expected a whole number of calls, 0 or more");
            }
            out.calls_per_minute = static_cast<std::uint32_t>(number->get());
        } else {
            refuse(path, key.source(), principal,
                fmt::format("unknown key \"{}\" (keys: toolkits, read_only, calls_per_minute, "
                            "confirm_destructive)",
                    name));
        }
    }
    return out;
}

} // namespace

std::map<std::string, principal_policy, std::less<>> read_policy_tables(std::string const& path)
{
    toml::table file;
    try {
        file = toml::parse_file(path);
    } catch (toml::parse_error const& e) {
        throw std::invalid_argument(
            fmt::format("{}:{}: not valid TOML: {}", path, e.source().begin.line, e.description()));
    }
    std::map<std::string, principal_policy, std::less<>> out;
    auto const* policies = file.get("policy");
    if (policies == nullptr) {
        return out;
    }
    auto const* tables = policies->as_table();
    if (tables == nullptr) {
        throw std::invalid_argument(fmt::format("{}:{}: policy must be tables, one per client: "
                                                "[policy.\"static:bob\"]",
            path, policies->source().begin.line));
    }
    for (auto const& [key, node] : *tables) {
        auto const principal = std::string(key.str());
        auto const* table = node.as_table();
        if (table == nullptr) {
            throw std::invalid_argument(fmt::format("{}:{}: policy.{} must be a table: "
                                                    "[policy.\"{}\"]",
                path, key.source().begin.line, principal, principal));
        }
        out.emplace(principal, read_table(path, principal, *table));
    }
    return out;
}

} // namespace toolgate::mcp
