// Fuzz helpers shared by the validation and request-building targets: pick a catalogue tool
// from the input's first two bytes, and make its arguments from the rest (either the bytes as
// a JSON object, or the bytes cut into values for the tool's own parameters in order, so
// hostile values reach paths, queries, headers and bodies often).
#pragma once

#include "toolkits/catalogue.hpp"

#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace toolgate::fuzzing {

inline std::vector<toolkits::tool_ref> const& every_tool()
{
    static auto const tools = [] {
        std::vector<toolkits::tool_ref> out;
        for (auto const* kit : toolkits::all_toolkits()) {
            for (auto const& tool : kit->tools) {
                out.push_back({ kit, &tool });
            }
        }
        return out;
    }();
    return tools;
}

struct picked {
    toolkits::tool_ref ref;
    boost::json::object arguments;
};

/// The bytes after a value's type byte, up to the next 0xFF separator.
inline std::string_view next_piece(std::string_view& rest)
{
    auto const end = rest.find('\xff');
    auto piece = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    return piece;
}

inline boost::json::value make_value(toolkits::param_spec const& param, std::string_view piece)
{
    using toolkits::json_type;
    auto const type = piece.empty() ? param.type : json_type(std::uint8_t(piece[0]) % 6);
    if (!piece.empty()) {
        piece.remove_prefix(1);
    }
    switch (type) {
    case json_type::integer: {
        std::uint64_t v = 0; // wraps by design: any 64-bit pattern is a fine integer
        for (unsigned char c : piece) {
            v = v * 131 + c - 64;
        }
        return static_cast<std::int64_t>(v);
    }
    case json_type::number:
        return double(piece.size()) / 3.0 - 7.5;
    case json_type::boolean:
        return !piece.empty() && (piece[0] & 1);
    case json_type::array: {
        boost::json::array a;
        for (char c : piece) {
            a.emplace_back(std::string(1, c));
        }
        return a;
    }
    case json_type::object: {
        boost::system::error_code ec;
        auto v = boost::json::parse(piece, ec);
        return ec ? boost::json::value(boost::json::object {}) : v;
    }
    case json_type::string:
        break;
    }
    return boost::json::string(piece);
}

inline bool pick(std::uint8_t const* data, std::size_t size, picked& out)
{
    auto const& tools = every_tool();
    if (size < 3 || tools.empty()) {
        return false;
    }
    out.ref = tools[(std::size_t(data[0]) << 8 | data[1]) % tools.size()];
    std::string_view rest(reinterpret_cast<char const*>(data + 3), size - 3);
    if (data[2] & 1) {
        boost::system::error_code ec;
        auto v = boost::json::parse(rest, ec);
        if (ec || !v.is_object()) {
            return false;
        }
        out.arguments = std::move(v.as_object());
        return true;
    }
    for (auto const& param : out.ref.tool->params) {
        if (rest.empty()) {
            break;
        }
        auto const piece = next_piece(rest);
        if (piece == "\xfe") {
            continue; // leave this one out
        }
        out.arguments[param.name] = make_value(param, piece);
    }
    return true;
}

} // namespace toolgate::fuzzing
