// Confirmation by a person (see confirmation.hpp).
#include "mcp/confirmation.hpp"

#include "common/base64.hpp"
#include "common/random.hpp"
#include "protocol/elicitation.hpp"

#include <boost/json/serialize.hpp>
#include <fmt/format.h>

namespace toolgate::mcp {
namespace json = boost::json;
namespace {

/// The member of requestState, inputRequests and inputResponses that is ours.
constexpr std::string_view confirm_key = "confirm";
/// How long an accepted confirmation's nonce is remembered: a requestState lives 10 minutes.
constexpr auto nonce_memory = std::chrono::minutes(11);

std::string qualified(toolkits::controlled_call const& call)
{
    return std::string(call.toolkit.name) + "." + std::string(call.tool.name);
}

/// The description's first sentence: what the tool does, in our own words.
std::string_view first_sentence(std::string_view text)
{
    auto const end = text.find(". ");
    return end == std::string_view::npos ? text : text.substr(0, end + 1);
}

json::object confirm_schema()
{
    json::object field;
    field["type"] = "boolean";
    field["title"] = "Send this request";
    field["description"] = "Tick to let toolgate send it; leave it or decline to send nothing.";
    json::object properties;
    properties[confirm_key] = std::move(field);
    json::object schema;
    schema["type"] = "object";
    schema["properties"] = std::move(properties);
    schema["required"] = json::array { json::string(confirm_key) };
    return schema;
}

confirmation_outcome unavailable(toolkits::controlled_call const& call, std::string const& why)
{
    return { confirmation_outcome::kind::unavailable,
        protocol::call_result::error(fmt::format("{}: not sent: this server requires a person's "
                                                 "confirmation before a call that may destroy "
                                                 "data, and {}",
            qualified(call), why)) };
}

confirmation_outcome decided(
    toolkits::controlled_call const& call, protocol::elicit_answer const& answer)
{
    auto const* box = answer.content.if_contains(confirm_key);
    bool const yes = answer.choice == protocol::elicit_answer::action::accept && box != nullptr
        && box->is_bool() && box->get_bool();
    if (yes) {
        return {};
    }
    std::string_view const how = answer.choice == protocol::elicit_answer::action::decline
        ? "declined"
        : (answer.choice == protocol::elicit_answer::action::cancel ? "cancelled"
                                                                    : "did not confirm");
    return { confirmation_outcome::kind::declined,
        protocol::call_result::text(fmt::format("{}: not sent: the person asked to confirm it {} "
                                                "(nothing was changed)",
            qualified(call), how)) };
}

} // namespace

std::string person_confirmation::message_for(toolkits::controlled_call const& call)
{
    std::string targets;
    for (auto const& param : call.tool.params) {
        if (param.in != toolkits::param_location::path) {
            continue;
        }
        if (auto const* value = call.arguments.if_contains(param.name)) {
            targets += targets.empty() ? "" : ", ";
            targets += fmt::format("{} {}", param.name,
                value->is_string() ? std::string(value->get_string()) : json::serialize(*value));
        }
    }
    return fmt::format("Confirm: {} ({}){}. {} It may change or remove data that cannot be "
                       "restored. Nothing is sent unless you confirm.",
        call.tool.title, qualified(call), targets.empty() ? "" : " on " + targets,
        first_sentence(call.tool.description));
}

bool person_confirmation::first_use(std::string const& nonce)
{
    auto const now = std::chrono::steady_clock::now();
    std::lock_guard lock(mutex_);
    std::erase_if(used_, [&](auto const& entry) { return entry.second < now; });
    return used_.emplace(nonce, now + nonce_memory).second;
}

confirmation_outcome person_confirmation::modern(toolkits::controlled_call const& call,
    toolkits::client_interaction const& client, std::string const& message)
{
    auto const* state = client.retry_state();
    auto const* nonce = state != nullptr ? state->if_contains(confirm_key) : nullptr;
    if (nonce == nullptr || !nonce->is_string()) {
        // The first round: ask, and let the signed state bring the answer back.
        confirmation_outcome out { confirmation_outcome::kind::asking, {} };
        json::object requests;
        requests[confirm_key] = protocol::input_request(
            "elicitation/create", protocol::form_elicitation_params(message, confirm_schema()));
        out.result.input_requests = std::move(requests);
        out.result.input_state[confirm_key] = common::base64url_encode(common::random_bytes(16));
        return out;
    }
    auto const* responses = client.input_responses();
    auto const* answer = responses != nullptr ? responses->if_contains(confirm_key) : nullptr;
    if (answer == nullptr) {
        return unavailable(call, "the retry carries no answer to the confirmation");
    }
    auto read = protocol::read_elicit_answer(*answer);
    if (!read) {
        return unavailable(
            call, "the answer to the confirmation is malformed: " + read.error().message);
    }
    if (!first_use(std::string(nonce->get_string()))) {
        return unavailable(call, "this confirmation was used already: each one sends one call");
    }
    return decided(call, *read);
}

boost::asio::awaitable<confirmation_outcome> person_confirmation::ask(
    toolkits::controlled_call const& call, toolkits::call_context& context)
{
    auto* client = context.interaction();
    if (client == nullptr || !client->modes().form) {
        co_return unavailable(call,
            "this client cannot ask one (it declared no form "
            "elicitation); use a client that can, or ask the operator");
    }
    auto const message = message_for(call);
    if (client->modern()) {
        co_return modern(call, *client, message);
    }
    if (!client->can_ask()) {
        co_return unavailable(call,
            "this request's answer cannot carry the question (an HTTP "
            "client must accept an event stream)");
    }
    auto answer = co_await client->ask(
        "elicitation/create", protocol::form_elicitation_params(message, confirm_schema()));
    if (!answer) {
        co_return unavailable(call, "asking for it failed: " + answer.error().message);
    }
    auto read = protocol::read_elicit_answer(*answer);
    if (!read) {
        co_return unavailable(
            call, "the answer to the confirmation is malformed: " + read.error().message);
    }
    co_return decided(call, *read);
}

bool confirmation_step::may_ask(protocol::tool_call const& call) const
{
    if (!policy_.confirmation_possible() || call.tool == nullptr) {
        return false;
    }
    auto const* tool = call.tool;
    if (tool->name == "toolgate_call_tool") {
        auto const* name = call.arguments.if_contains("name");
        tool = name != nullptr && name->is_string() ? index_.find(name->get_string()) : nullptr;
    }
    return tool != nullptr && tool->hints.destructive;
}

} // namespace toolgate::mcp
