// The reserved arguments of a call (see call_options.hpp).
#include "toolkits/call_options.hpp"

#include "toolkits/reserved_arguments.hpp"

#include <fmt/format.h>

#include <string>

namespace toolgate::toolkits {
namespace {

tool_result<std::vector<field_path>> read_fields(boost::json::value const& value)
{
    auto const* list = value.if_array();
    if (list == nullptr) {
        return refuse("argument `_fields`: expected a list of paths, e.g. [\"entries[].id\", "
                      "\"entries[].name\"]");
    }
    if (list->size() > max_field_paths) {
        return refuse(fmt::format("argument `_fields`: at most {} paths", max_field_paths));
    }
    std::vector<std::string> texts;
    for (auto const& item : *list) {
        if (!item.is_string()) {
            return refuse("argument `_fields`: every path must be a string, e.g. \"entries[].id\"");
        }
        if (item.get_string().size() > max_field_path_length) {
            return refuse(fmt::format(
                "argument `_fields`: a path is longer than {} characters", max_field_path_length));
        }
        texts.emplace_back(item.get_string());
    }
    return parse_field_paths(texts);
}

tool_result<std::uint64_t> read_max_tokens(boost::json::value const& value)
{
    std::uint64_t tokens = 0;
    if (value.is_int64() && value.get_int64() >= 0) {
        tokens = static_cast<std::uint64_t>(value.get_int64());
    } else if (value.is_uint64()) {
        tokens = value.get_uint64();
    } else if (value.is_double() && value.get_double() >= 0 && value.get_double() < 1e15
        && static_cast<double>(static_cast<std::uint64_t>(value.get_double()))
            == value.get_double()) {
        tokens = static_cast<std::uint64_t>(value.get_double());
    } else {
        return refuse("argument `_max_tokens`: expected a whole number of tokens, e.g. 20000");
    }
    if (tokens < min_max_tokens) {
        return refuse(fmt::format(
            "argument `_max_tokens`: at least {} tokens, got {}", min_max_tokens, tokens));
    }
    return tokens;
}

} // namespace

tool_result<call_options> take_call_options(boost::json::object& arguments)
{
    call_options options;
    for (auto const& reserved : reserved_arguments) {
        auto it = arguments.find(reserved.name);
        if (it == arguments.end()) {
            continue;
        }
        auto value = std::move(it->value());
        arguments.erase(it);
        if (value.is_null()) {
            continue;
        }
        if (reserved.name == "_fields") {
            auto fields = read_fields(value);
            if (!fields) {
                return fields.error();
            }
            options.fields = std::move(*fields);
        } else if (reserved.name == "_max_tokens") {
            auto tokens = read_max_tokens(value);
            if (!tokens) {
                return tokens.error();
            }
            options.max_tokens = *tokens;
        } else if (reserved.name == "_dry_run") {
            if (!value.is_bool()) {
                return refuse("argument `_dry_run`: expected true (show the request without "
                              "sending it) or false");
            }
            options.dry_run = value.get_bool();
        }
        options.given[reserved.name] = std::move(value);
    }
    return options;
}

} // namespace toolgate::toolkits
