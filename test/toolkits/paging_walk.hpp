// Following a list as a model does: the next call a note gives, or, when an answer fitted and
// has no note, the platform's own way on (the next offset or page, the answer's cursor, the last
// element's key). Shared by the paging tests in test/toolkits and test/upstream.
#pragma once

#include "protocol/tool_descriptor.hpp"
#include "toolkits/tool_spec.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/stream_parser.hpp>
#include <catch2/catch.hpp>

#include <charconv>
#include <optional>

namespace toolgate::toolkits::testing {

namespace json = boost::json;
using protocol::call_result;

inline std::optional<std::uint64_t> number_of(json::value const* v)
{
    if (v == nullptr || v->is_null()) {
        return std::nullopt;
    }
    if (v->is_int64()) {
        return static_cast<std::uint64_t>(v->get_int64());
    }
    if (v->is_uint64()) {
        return v->get_uint64();
    }
    if (v->is_double()) {
        return static_cast<std::uint64_t>(v->get_double());
    }
    if (v->is_string()) {
        std::uint64_t n = 0;
        auto const& s = v->get_string();
        std::from_chars(s.data(), s.data() + s.size(), n);
        return n;
    }
    return std::nullopt;
}

/// The next call's arguments as the note gives them, or nullopt when it gives none.
inline std::optional<json::object> next_from_note(call_result const& r)
{
    if (r.content.size() < 2) {
        return std::nullopt;
    }
    static constexpr std::string_view lead
        = "Next call, starting with the first element not shown: ";
    auto const& note = r.content[1].text;
    auto const at = note.find(lead);
    if (at == std::string::npos) {
        return std::nullopt;
    }
    json::stream_parser p;
    boost::system::error_code ec;
    p.write_some(note.data() + at + lead.size(), note.size() - at - lead.size(), ec);
    REQUIRE(p.done());
    return p.release().as_object();
}

/// Where an answer that fits (and so has no note) continues, the platform's own way, as a model
/// reads it: the next offset or page, the answer's cursor, the last element's key.
inline std::optional<json::object> native_next(
    tool_spec const& tool, json::object args, call_result const& r, std::size_t count)
{
    auto const& spec = *tool.paging;
    std::uint64_t size = spec.default_size ? spec.default_size : 50;
    if (!spec.size_param.empty()) {
        size = number_of(args.if_contains(spec.size_param)).value_or(size);
    }
    if (count < size) {
        return std::nullopt; // a short page is the last
    }
    paging_style const* style = &spec.styles.front();
    for (auto const& s : spec.styles) {
        if (args.contains(s.param) || (!s.with_param.empty() && args.contains(s.with_param))) {
            style = &s;
            break;
        }
    }
    auto const answer = json::parse(r.content.at(0).text);
    switch (style->kind) {
    case paging_kind::offset:
        args[style->param]
            = number_of(args.if_contains(style->param)).value_or(style->first) + count;
        break;
    case paging_kind::page:
        args[style->param] = number_of(args.if_contains(style->param)).value_or(style->first) + 1;
        break;
    case paging_kind::cursor: {
        json::value const* at = &answer;
        std::string_view path = style->answer;
        while (at != nullptr && !path.empty()) {
            auto const dot = path.find('.');
            at = at->as_object().if_contains(path.substr(0, dot));
            path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
        }
        if (at == nullptr || at->is_null()) {
            return std::nullopt;
        }
        args[style->param] = *at;
        break;
    }
    case paging_kind::key: {
        json::value const* list = &answer;
        std::string_view path = spec.items;
        while (!path.empty()) {
            auto const dot = path.find('.');
            list = list->as_object().if_contains(path.substr(0, dot));
            path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
        }
        args[style->param] = list->as_array().back().at(style->answer);
        break;
    }
    }
    return args;
}

} // namespace toolgate::toolkits::testing
