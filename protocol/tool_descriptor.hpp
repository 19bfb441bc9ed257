// What the protocol layer needs to know about a tool to list it and to shape its result.
// Filled by whoever provides tools (the compiled-in catalogue, or test-only providers).
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toolgate::protocol {

/// Behaviour hints published as `annotations` (MCP ToolAnnotations).
struct tool_hints {
    bool read_only = false;
    bool destructive = false;
    bool idempotent = false;
    bool open_world = true;
};

/// One servable tool. Immutable after start-up.
///
/// The three texts are views, of the compiled-in catalogue (static storage) or of texts the
/// descriptor owns (own_texts()), which its copies share. So neither building the
/// catalogue's descriptors nor copying them copies text: the catalogue's descriptions and
/// schemas are 1.3 MB, which start-up used to copy into the heap twice.
struct tool_descriptor {
    std::string name; ///< wire name, `Toolkit_Tool`
    std::string dotted_name; ///< catalogue name, `Toolkit.Tool`
    std::string_view title;
    std::string_view description;
    std::string_view input_schema; ///< serialised JSON Schema object (2020-12), compact
    tool_hints hints;
    /// Keeps the texts of own_texts() alive; empty when they are the catalogue's.
    std::shared_ptr<void const> text_storage;

    /// Texts made at run time (meta-tools, tests): the descriptor and its copies own them.
    void own_texts(std::string title_text, std::string description_text, std::string schema)
    {
        struct texts {
            std::string title;
            std::string description;
            std::string input_schema;
        };
        auto owned = std::make_shared<texts const>(
            texts { std::move(title_text), std::move(description_text), std::move(schema) });
        title = owned->title;
        description = owned->description;
        input_schema = owned->input_schema;
        text_storage = std::move(owned);
    }
};

/// One content block of a tool result.
struct content_block {
    enum class kind { text, image, resource } type = kind::text;
    std::string text; ///< text: the text; image/resource: base64 data
    std::string mime_type; ///< image/resource only
    std::string uri; ///< resource only
};

/// What a tool call produced, before the negotiated revision decides what goes on the wire
/// (e.g. whether `structuredContent` may be sent).
struct call_result {
    std::vector<content_block> content;
    std::optional<boost::json::value> structured;
    /// `content[0]` is the platform's JSON answer as text: compact with its parsed value in
    /// `structured`, or, when too large to be parsed when shaped, as it came (the budget step
    /// cuts it from there, or minifies it when it passes whole).
    bool json_answer = false;
    /// The result's `_meta` (e.g. `io.toolgate/truncated` when the answer was cut to its budget).
    std::optional<boost::json::object> meta;
    bool is_error = false;
    /// The platform's HTTP status for this call's request (0: none was sent or none came
    /// back), for logs.
    unsigned upstream_status = 0;
    /// The platform's id for that request (a request-id header of its answer), for the audit
    /// log; empty when it sent none.
    std::string upstream_request_id;
    /// Keeps a reservation for as long as the result lives (a share of the memory budget for
    /// platform answers); empty for most results.
    std::shared_ptr<void> reservation;
    /// The call needs a sign-in to this toolkit (an OAuth toolkit) that its caller lacks; the
    /// result's text says how to get one from outside the conversation. Static storage.
    std::string_view needs_sign_in;
    /// 2026-07-28: the call needs the client's input first. The router answers with an
    /// input_required result holding these InputRequests and a signed requestState carrying
    /// `input_state`; the retry hands both back (toolkits/client_interaction.hpp).
    std::optional<boost::json::object> input_requests;
    boost::json::object input_state;

    static call_result error(std::string message)
    {
        call_result r;
        r.content.push_back({ content_block::kind::text, std::move(message), {}, {} });
        r.is_error = true;
        return r;
    }
    static call_result text(std::string message)
    {
        call_result r;
        r.content.push_back({ content_block::kind::text, std::move(message), {}, {} });
        return r;
    }
};

} // namespace toolgate::protocol
