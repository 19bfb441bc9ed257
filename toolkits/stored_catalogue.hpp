// The generated catalogue as the binary stores it: rows without pointers, texts as places in
// one block per toolkit. stored_catalogue.cpp expands them once into the tool_spec.hpp structs.
//
// Why not the structs themselves: their string_views and spans are pointers, and in a
// position-independent executable every pointer in static data is written by the dynamic
// loader at each start. For the catalogue's 790 KB of tables that was 33,000 relocations and
// some 200 private pages copied on write, about 2.6 ms of every start on a virtual machine
// (bench/README.md, "Start-up, fourth pass"). Expanded into the heap, the same tables cost a
// tenth of that, and the stored rows stay shared, clean pages of the binary.
#pragma once

#include "toolkits/tool_spec.hpp"

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace toolgate::toolkits::stored {

/// A string: its place in the toolkit's text block.
struct text {
    std::uint32_t offset = 0;
    std::uint32_t size = 0;
};

/// Consecutive rows of one of the toolkit's arrays.
struct range {
    std::uint32_t first = 0;
    std::uint32_t count = 0;
};

struct param {
    text name;
    text wire_name;
    text description;
    json_type type = json_type::string;
    json_type item_type = json_type::string;
    param_location in = param_location::query;
    array_format array_fmt = array_format::none;
    bool required = false;
    bool required_when_executing = false;
    range enum_values {}; ///< in the toolkit's strings
    bool has_minimum = false;
    bool has_maximum = false;
    double minimum = 0;
    double maximum = 0;
    std::uint32_t max_length = 0;
    value_format format = value_format::none;
    std::uint32_t min_length = 0;
    text schema;
};

struct header {
    text name;
    text value;
};

struct style {
    paging_kind kind = paging_kind::offset;
    text param;
    text answer;
    text with_param;
    text with_value;
    std::int64_t first = 1;
};

struct paging {
    text items;
    text total;
    text size_param;
    std::uint32_t default_size = 0;
    std::uint32_t max_size = 0;
    range styles {};
};

inline constexpr std::uint32_t no_paging = std::numeric_limits<std::uint32_t>::max();

struct tool {
    text name;
    text title;
    text description;
    text operation_id;
    text method;
    text url;
    range headers {};
    text body_content_type;
    range params {};
    bool m_tool = false;
    text request_body_schema;
    text input_schema;
    bool read_only = false;
    bool destructive = false;
    bool idempotent = false;
    range secrets {}; ///< in the toolkit's strings
    std::uint32_t paging = no_paging; ///< in the toolkit's pagings
};

struct secret_transmission {
    text secret;
    text in;
    text name;
    text format;
};

/// One toolkit: the only pointers of the stored catalogue, a few per toolkit.
struct toolkit {
    char const* texts = nullptr;
    std::uint32_t texts_size = 0; ///< the block's bytes (its terminating NUL aside)
    text name;
    text version;
    text platform;
    text capabilities;
    text auth_kind;
    range scopes {}; ///< in strings
    range secrets {}; ///< in strings
    range base_urls {}; ///< in strings
    std::span<const text> strings {};
    std::span<const param> params {};
    std::span<const header> headers {};
    std::span<const style> styles {};
    std::span<const paging> pagings {};
    std::span<const tool> tools {};
    std::span<const secret_transmission> transmission {};
};

} // namespace toolgate::toolkits::stored

namespace toolgate::toolkits {

/// `kits` expanded, in their order. What the result points to is never freed.
std::vector<toolkit_spec const*> expand(std::span<stored::toolkit const* const> kits);

} // namespace toolgate::toolkits
