// Elicitation on the wire, without I/O or state: the modes a client declares, URL-mode and
// form-mode requests, the -32042 error and the completion notification of 2025-11-25, and the
// `input_required` result and retry members of 2026-07-28 (basic/patterns/mrtr).
#pragma once

#include "protocol/errors.hpp"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace toolgate::protocol {

/// The elicitation modes a client can answer.
struct elicitation_modes {
    bool form = false;
    bool url = false;

    bool any() const { return form || url; }
};

/// The modes a ClientCapabilities object declares (initialize's `capabilities`, or a
/// 2026-07-28 request's clientCapabilities): no `elicitation` member means none; an empty
/// `elicitation: {}` means form only (2025-11-25 client/elicitation, kept for older clients);
/// otherwise the modes it names. Null: none.
elicitation_modes elicitation_modes_of(boost::json::object const* capabilities);

/// One URL-mode elicitation. `id` is the 2025-11-25 `elicitationId`; 2026-07-28 has none.
struct url_elicitation {
    std::string id;
    std::string url;
    std::string message;
};

/// `{mode: "url", elicitationId, url, message}`; `with_id` false leaves the id out (2026-07-28).
boost::json::object url_elicitation_params(url_elicitation const& e, bool with_id);

/// -32042 URLElicitationRequiredError: `message`, and `data.elicitations` holding `e`.
rpc_error url_elicitation_required_error(url_elicitation const& e, std::string message);

/// `notifications/elicitation/complete` for `elicitation_id`, serialised.
std::string elicitation_complete_notification(std::string_view elicitation_id);

/// Form-mode `elicitation/create` params: `mode: "form"`, `message` and `requestedSchema` (a
/// flat object schema; the caller keeps it within the spec's primitive types).
boost::json::object form_elicitation_params(
    std::string_view message, boost::json::object requested_schema);

/// One InputRequests value: `{method, params}`.
boost::json::object input_request(std::string_view method, boost::json::object params);

/// An InputRequiredResult: `resultType: "input_required"`, `inputRequests` when not empty and
/// `requestState` when not empty (at least one must be given).
boost::json::object input_required_result(
    boost::json::object input_requests, std::string const& request_state);

/// The members a 2026-07-28 client adds when it retries a request that got input_required.
struct input_retry {
    std::optional<boost::json::object> responses; ///< `inputResponses`
    std::optional<std::string> state; ///< `requestState`, exactly as echoed

    bool empty() const { return !responses && !state; }
};

/// Reads `inputResponses` (an object of objects) and `requestState` (a string) from a
/// request's params; -32602 naming the member when one has the wrong type.
rpc_result<input_retry> read_input_retry(boost::json::object const* params);

/// An ElicitResult: the user's choice and, on accept in form mode, what they entered.
struct elicit_answer {
    enum class action { accept, decline, cancel };
    action choice = action::cancel;
    boost::json::object content;
};

/// Reads an ElicitResult (a 2025 response's `result`, or one inputResponses value);
/// -32602 when `action` is missing or unknown or `content` is not an object.
rpc_result<elicit_answer> read_elicit_answer(boost::json::value const& result);

} // namespace toolgate::protocol
