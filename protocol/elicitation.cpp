// Elicitation wire shapes (see elicitation.hpp). Field names follow the 2025-11-25 schema
// (ElicitRequestURLParams, URLElicitationRequiredError, ElicitationCompleteNotification) and
// the 2026-07-28 one (InputRequiredResult, InputResponseRequestParams).
#include "protocol/elicitation.hpp"

#include "protocol/jsonrpc.hpp"
#include "protocol/names.hpp"

#include <boost/json/array.hpp>

namespace toolgate::protocol {
namespace json = boost::json;

namespace {

rpc_error bad_params(std::string message)
{
    return { error_code::invalid_params, "Invalid params: " + std::move(message), std::nullopt };
}

} // namespace

elicitation_modes elicitation_modes_of(json::object const* capabilities)
{
    elicitation_modes out;
    auto const* declared = capabilities ? capabilities->if_contains("elicitation") : nullptr;
    if (declared == nullptr || !declared->is_object()) {
        return out;
    }
    auto const& modes = declared->get_object();
    out.form = modes.contains("form");
    out.url = modes.contains("url");
    if (!out.form && !out.url) {
        out.form = true; // `elicitation: {}`: what every client meant before URL mode existed
    }
    return out;
}

json::object url_elicitation_params(url_elicitation const& e, bool with_id)
{
    json::object params;
    params["mode"] = "url";
    if (with_id) {
        params["elicitationId"] = e.id;
    }
    params["url"] = e.url;
    params["message"] = e.message;
    return params;
}

rpc_error url_elicitation_required_error(url_elicitation const& e, std::string message)
{
    json::object data;
    data["elicitations"] = json::array { url_elicitation_params(e, true) };
    return { error_code::url_elicitation_required, std::move(message),
        json::value(std::move(data)) };
}

std::string elicitation_complete_notification(std::string_view elicitation_id)
{
    json::object params;
    params["elicitationId"] = elicitation_id;
    return serialize_notification(names::elicitation_complete, std::move(params));
}

json::object form_elicitation_params(std::string_view message, json::object requested_schema)
{
    json::object params;
    params["mode"] = "form";
    params["message"] = message;
    params["requestedSchema"] = std::move(requested_schema);
    return params;
}

json::object input_request(std::string_view method, json::object params)
{
    json::object request;
    request["method"] = method;
    request["params"] = std::move(params);
    return request;
}

json::object input_required_result(json::object input_requests, std::string const& request_state)
{
    json::object result;
    result["resultType"] = "input_required";
    if (!input_requests.empty()) {
        result["inputRequests"] = std::move(input_requests);
    }
    if (!request_state.empty()) {
        result["requestState"] = request_state;
    }
    return result;
}

rpc_result<input_retry> read_input_retry(json::object const* params)
{
    input_retry out;
    if (params == nullptr) {
        return out;
    }
    if (auto const* responses = params->if_contains("inputResponses")) {
        if (!responses->is_object()) {
            return bad_params("\"inputResponses\" must be an object");
        }
        for (auto const& [key, value] : responses->get_object()) {
            if (!value.is_object()) {
                return bad_params("each \"inputResponses\" value must be an object (the "
                                  "client's result for that input request)");
            }
        }
        out.responses = responses->get_object();
    }
    if (auto const* state = params->if_contains("requestState")) {
        if (!state->is_string()) {
            return bad_params("\"requestState\" must be the string the server sent");
        }
        out.state = std::string(state->get_string());
    }
    return out;
}

rpc_result<elicit_answer> read_elicit_answer(json::value const& result)
{
    auto const* object = result.if_object();
    auto const* action = object ? object->if_contains("action") : nullptr;
    if (action == nullptr || !action->is_string()) {
        return bad_params("an elicitation result needs \"action\": accept, decline or cancel");
    }
    elicit_answer out;
    auto const& choice = action->get_string();
    if (choice == "accept") {
        out.choice = elicit_answer::action::accept;
    } else if (choice == "decline") {
        out.choice = elicit_answer::action::decline;
    } else if (choice == "cancel") {
        out.choice = elicit_answer::action::cancel;
    } else {
        return bad_params("an elicitation result's \"action\" must be accept, decline or cancel");
    }
    if (auto const* content = object->if_contains("content"); content && !content->is_null()) {
        if (!content->is_object()) {
            return bad_params("an elicitation result's \"content\" must be an object");
        }
        out.content = content->get_object();
    }
    return out;
}

} // namespace toolgate::protocol
