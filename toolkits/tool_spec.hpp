// The catalogue model: plain structs, which toolkits/stored_catalogue.cpp fills from the
// generated files once. Everything is a view into storage that lives as long as the program
// (the binary's text blocks, the expanded arrays); nothing here allocates.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace toolgate::toolkits {

enum class json_type : std::uint8_t { string, integer, number, boolean, array, object };

/// Where an argument travels in the HTTP request.
enum class param_location : std::uint8_t {
    path, ///< fills `{wire_name}` in the URL template, percent-encoded
    query, ///< `wire_name=value` in the query string
    header, ///< `wire_name: value`
    body, ///< JSON body property; dots in wire_name nest objects; "(entire body)" = whole body
    form, ///< form field (urlencoded or multipart per binding)
    mode, ///< M-tool `mode`, never sent
    request_body, ///< M-tool `request_body`: parsed and sent as the JSON body
};

/// How an array query value is written.
enum class array_format : std::uint8_t { none, comma, repeat };

/// A named format check beyond JSON types (see toolkits/validate.cpp).
enum class value_format : std::uint8_t {
    none,
    date, ///< YYYY-MM-DD
    http_url, ///< starts with http:// or https://
    backup_id, ///< lowercase letters, digits, `_` and `-`
    trimmed, ///< no leading or trailing white space
    year, ///< YYYY
    utc_date_time, ///< YYYY-MM-DDTHH:MM:SSZ
    date_time, ///< ISO 8601: YYYY-MM-DD, optionally followed by a time
};

struct param_spec {
    std::string_view name; ///< the argument name the model uses
    std::string_view wire_name; ///< the name on the wire
    std::string_view description; ///< our own words
    json_type type = json_type::string;
    json_type item_type = json_type::string; ///< arrays only
    param_location in = param_location::query;
    array_format array_fmt = array_format::none;
    bool required = false;
    bool required_when_executing = false; ///< M-tool extras
    std::span<const std::string_view> enum_values {};
    bool has_minimum = false;
    bool has_maximum = false;
    double minimum = 0;
    double maximum = 0;
    std::uint32_t max_length = 0; ///< 0: no limit
    value_format format = value_format::none;
    std::uint32_t min_length = 0; ///< 0: no limit
    /// Structured parameters (objects, lists of JSON texts): their serialised JSON Schema in
    /// its published form, with `x-toolgate-wire` markers (toolkits/wire_forms.hpp); else "".
    std::string_view schema;
};

struct header_spec {
    std::string_view name;
    std::string_view value;
};

struct http_binding {
    std::string_view method; ///< GET, POST, PUT, PATCH, DELETE
    std::string_view url; ///< absolute template, starts with a platform base URL
    std::span<const header_spec> headers {};
    std::string_view
        body_content_type; ///< "" when no body; application/json, multipart/form-data, ...
};

/// How a list tool pages (toolkits/paging.hpp computes the call after a cut answer).
enum class paging_kind : std::uint8_t {
    offset, ///< `param` = the first element's position
    page, ///< `param` = the page number, counted from `first`
    cursor, ///< `param` = an opaque cursor; the answer's `answer` path holds the next one
    key, ///< `param` = a field (`answer`) of the last element seen: before/after/until/since
};

struct paging_style {
    paging_kind kind = paging_kind::offset;
    std::string_view param; ///< the argument that moves through the list (model's name)
    std::string_view answer; ///< cursor: path of the next cursor; key: the element's field
    std::string_view with_param; ///< an argument this style needs, e.g. `usemarker`
    std::string_view with_value; ///< its value, as JSON text
    std::int64_t first = 1; ///< page: the number of the first page
};

struct paging_spec {
    std::string_view items; ///< path of the element list in the answer; "" : the answer itself
    std::string_view total; ///< path of the total count in the answer; "" : none
    std::string_view size_param; ///< the page-size argument; "" : the platform's size is fixed
    std::uint32_t default_size = 0; ///< elements a page holds when none is asked for (0: unknown)
    std::uint32_t max_size = 0; ///< the largest size the platform takes (0: unknown)
    std::span<const paging_style> styles {}; ///< the first is used when a call names none
};

struct tool_spec {
    std::string_view name; ///< `ToolName` (without the toolkit)
    std::string_view title;
    std::string_view description; ///< our own words
    std::string_view operation_id;
    http_binding http;
    std::span<const param_spec> params {};
    bool m_tool = false;
    std::string_view request_body_schema; ///< serialised JSON Schema (M-tools), else ""
    std::string_view input_schema; ///< serialised JSON Schema object for tools/list
    bool read_only = false;
    bool destructive = false;
    bool idempotent = false;
    std::span<const std::string_view> secrets {}; ///< environment variables this tool needs
    paging_spec const* paging = nullptr; ///< list tools: how they page; else nullptr
};

/// How one secret reaches the platform.
struct secret_transmission {
    std::string_view secret; ///< environment variable name
    std::string_view in; ///< "header", "query", "basic", "url"
    std::string_view name; ///< header or query name
    std::string_view format; ///< e.g. "Bearer {}"
};

struct toolkit_spec {
    std::string_view name; ///< e.g. "StoreApi"
    std::string_view version; ///< e.g. "0.2.0"
    std::string_view platform; ///< what it wraps, e.g. "file and folder storage platform"
    std::string_view capabilities;
    std::string_view auth_kind; ///< "oauth2" or "api_key"
    std::span<const std::string_view> scopes {};
    std::span<const std::string_view> secrets {};
    std::span<const secret_transmission> transmission {};
    std::span<const std::string_view> base_urls {}; ///< first is the default
    std::span<const tool_spec> tools {};
};

} // namespace toolgate::toolkits
