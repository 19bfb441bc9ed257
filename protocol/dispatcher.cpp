// Method dispatch. Section (§n) and rule references: docs/protocol-rules.md.
#include "protocol/dispatcher.hpp"

#include "protocol/call_result_json.hpp"
#include "protocol/names.hpp"
#include "protocol/request_meta.hpp"
#include "protocol/streamable_http.hpp"
#include "protocol/text.hpp"
#include "protocol/versions.hpp"

#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace toolgate::protocol {
namespace json = boost::json;

namespace {

rpc_error make_error(int code, std::string message, std::optional<json::value> data = {})
{
    return { code, std::move(message), std::move(data) };
}

json::object capabilities()
{
    // Tools without listChanged (the catalogue is fixed) and logging (we emit
    // notifications/message when asked). Nothing else is served (C1–C3, §5).
    json::object caps;
    caps["tools"] = json::object();
    caps["logging"] = json::object();
    return caps;
}

bool is_removed_in_modern(std::string_view method)
{
    return method == names::initialize || method == names::ping || method == names::set_level
        || method == "resources/subscribe" || method == "resources/unsubscribe";
}

} // namespace

std::size_t batch_reply::size() const
{
    std::size_t bytes = 2 + (replies.empty() ? 0 : replies.size() - 1);
    for (auto const& r : replies) {
        bytes += r.text.size() + r.shared.size() + r.tail.size();
    }
    return bytes;
}

std::vector<std::string_view> batch_reply::pieces() const
{
    std::vector<std::string_view> out;
    out.reserve(replies.size() * 4 + 2);
    out.emplace_back("[");
    for (std::size_t i = 0; i < replies.size(); ++i) {
        if (i > 0) {
            out.emplace_back(",");
        }
        for (std::string_view part : { std::string_view(replies[i].text), replies[i].shared,
                 std::string_view(replies[i].tail) }) {
            if (!part.empty()) {
                out.push_back(part);
            }
        }
    }
    out.emplace_back("]");
    return out;
}

std::string batch_reply::flatten() const
{
    std::string out;
    out.reserve(size());
    for (auto piece : pieces()) {
        out.append(piece);
    }
    return out;
}

namespace {

std::shared_ptr<tool_view const> whole_view(tool_pages const& pages, std::string instructions)
{
    auto view = std::make_shared<tool_view>();
    // Not owned: the caller keeps `pages` alive for the dispatcher's life.
    view->pages = std::shared_ptr<tool_pages const>(std::shared_ptr<void>(), &pages);
    view->instructions = std::move(instructions);
    return view;
}

} // namespace

dispatcher::dispatcher(server_identity identity, tool_pages const& pages, tool_index const& index)
    : identity_(std::move(identity))
    , default_view_(whole_view(pages, identity_.instructions))
    , index_(index)
{
}

dispatcher::dispatcher(server_identity identity, std::shared_ptr<tool_view const> default_view,
    tool_index const& index)
    : identity_(std::move(identity))
    , default_view_(std::move(default_view))
    , index_(index)
{
}

reply dispatcher::error_reply(json::value const& id, rpc_error error, bool modern) const
{
    return { serialize_error(id, error), streamable_http::http_status_for(error.code, modern),
        false };
}

reply dispatcher::result_reply(json::value const& id, json::object result, bool modern) const
{
    if (modern) {
        decorate_modern_result(result, identity_);
    }
    return { serialize_result(id, result), 200, false };
}

std::string dispatcher::input_required_reply(
    tool_call const& call, json::object input_requests, std::string const& request_state) const
{
    json::object body;
    decorate_modern_result(body, identity_);
    auto result = input_required_result(std::move(input_requests), request_state);
    result["_meta"] = std::move(body["_meta"]);
    return serialize_result(call.id, result);
}

std::string dispatcher::call_reply(tool_call const& call, call_result const& result) const
{
    auto body = to_json(result, call.version);
    if (call.modern) {
        decorate_modern_result(body, identity_);
    }
    return serialize_result(call.id, body);
}

outcome dispatcher::dispatch(message const& msg, legacy_session& session) const
{
    return dispatch(msg, session, default_view_);
}

outcome dispatcher::dispatch(
    message const& msg, legacy_session& session, view_ptr const& view) const
{
    if (msg.kind() == message_kind::response) {
        return no_reply {}; // we send no requests, so there is nothing to match it to
    }
    if (msg.is_notification()) {
        if (msg.method() == names::cancelled) {
            auto const* params = msg.params();
            auto const* id = params ? params->if_contains("requestId") : nullptr;
            if (id && (id->is_string() || id->is_int64() || id->is_uint64())) {
                return cancel_call { *id };
            }
        }
        // notifications/initialized and anything else: nothing to answer (J4).
        return no_reply {};
    }
    // §2: the claim decides; a claim naming a legacy revision we list goes the legacy way.
    if (has_version_claim(msg.params()) && !is_legacy_version(claimed_version(msg.params()))) {
        return dispatch_modern(msg, view);
    }
    return dispatch_legacy(msg, session, view);
}

outcome dispatcher::dispatch_modern(message const& msg, view_ptr const& view) const
{
    auto meta = read_request_meta(msg.params());
    if (!meta) {
        return error_reply(msg.id(), meta.error(), true);
    }
    auto const& m = *meta;
    if (!is_modern_version(m.protocol_version)) {
        return error_reply(msg.id(), unsupported_version_error(m.protocol_version), true);
    }
    return dispatch_checked(msg, m, view);
}

outcome dispatcher::dispatch_checked(
    message const& msg, request_meta const& m, view_ptr const& view) const
{
    auto const method = msg.method();
    if (method == names::discover) {
        json::object result;
        result["supportedVersions"] = supported_version_list();
        result["capabilities"] = capabilities();
        if (!view->instructions.empty()) {
            result["instructions"] = view->instructions;
        }
        result["ttlMs"] = 3'600'000;
        result["cacheScope"] = view->per_client ? "private" : "public";
        return result_reply(msg.id(), std::move(result), true);
    }
    if (method == names::tools_list) {
        return list_tools(msg, m.protocol_version, true, *view);
    }
    if (method == names::tools_call) {
        auto call = read_call(msg, view);
        if (!call) {
            auto out = error_reply(msg.id(), call.error(), true);
            out.http_status = 200; // unknown tool / bad params: a handler error (§3 row 10)
            return out;
        }
        auto retry = read_input_retry(msg.params());
        if (!retry) {
            auto out = error_reply(msg.id(), retry.error(), true);
            out.http_status = 200; // a handler error, as a bad argument (§3 row 10)
            return out;
        }
        auto& work = *call;
        work.version = m.protocol_version;
        work.modern = true;
        work.level = m.level; // §8: logs only when this request asks for them
        // §4: this request's own capabilities, never an earlier request's.
        work.elicitation = elicitation_modes_of(&m.client_capabilities);
        if (m.client_info) {
            if (auto const* name = m.client_info->if_contains("name"); name && name->is_string()) {
                work.client_name = clipped(name->get_string(), 100);
            }
        }
        work.retry = std::move(*retry);
        return std::move(work);
    }
    auto const why = is_removed_in_modern(method)
        ? fmt::format("Method not found: {} does not exist in revision {}", method, modern_version)
        : fmt::format("Method not found: {}", method);
    return error_reply(msg.id(), make_error(error_code::method_not_found, why), true);
}

outcome dispatcher::dispatch_legacy(
    message const& msg, legacy_session& session, view_ptr const& view) const
{
    auto const method = msg.method();
    if (method == names::initialize) {
        return initialize(msg, session, *view);
    }
    if (method == names::ping) {
        return result_reply(msg.id(), json::object(), false); // L9: any time
    }
    if (method == names::discover) {
        // §2 stdio rule 4: discover without a claim is a malformed modern request.
        return error_reply(msg.id(),
            make_error(error_code::invalid_params,
                fmt::format("Invalid params: server/discover needs "
                            "params._meta[\"{}\"]",
                    names::meta_protocol_version)),
            true);
    }
    if (!session.initialized) {
        return error_reply(msg.id(),
            make_error(error_code::invalid_request,
                fmt::format("Invalid Request: {} before initialize; send "
                            "initialize first (or use revision {} with "
                            "params._meta)",
                    method, modern_version)),
            false);
    }
    if (method == names::tools_list) {
        return list_tools(msg, session.version, false, *view);
    }
    if (method == names::tools_call) {
        auto call = read_call(msg, view);
        if (!call) {
            return error_reply(msg.id(), call.error(), false);
        }
        auto& work = *call;
        work.version = session.version;
        work.level = session.level;
        work.elicitation = session.elicitation;
        work.client_name = session.client_name;
        return std::move(work);
    }
    if (method == names::set_level) {
        auto const* params = msg.params();
        auto const* level = params ? params->if_contains("level") : nullptr;
        auto parsed
            = level && level->is_string() ? parse_log_level(level->get_string()) : std::nullopt;
        if (!parsed) {
            return error_reply(msg.id(),
                make_error(error_code::invalid_params,
                    "Invalid params: \"level\" must be one of debug, info, "
                    "notice, warning, error, critical, alert, emergency"),
                false);
        }
        session.level = parsed;
        return result_reply(msg.id(), json::object(), false);
    }
    return error_reply(msg.id(),
        make_error(error_code::method_not_found, fmt::format("Method not found: {}", method)),
        false);
}

outcome dispatcher::initialize(
    message const& msg, legacy_session& session, tool_view const& view) const
{
    if (session.initialized) {
        return error_reply(msg.id(),
            make_error(error_code::invalid_request,
                "Invalid Request: this session is already initialized"),
            false); // L7
    }
    auto const* params = msg.params();
    auto const* requested = params ? params->if_contains("protocolVersion") : nullptr;
    auto const* client = params ? params->if_contains("clientInfo") : nullptr;
    if (!requested || !requested->is_string() || !client || !client->is_object()) {
        json::object data;
        data["supported"] = supported_version_list();
        return error_reply(msg.id(),
            make_error(error_code::invalid_params,
                !requested || !requested->is_string()
                    ? "Invalid params: initialize needs a string "
                      "\"protocolVersion\""
                    : "Invalid params: initialize needs a \"clientInfo\" "
                      "object",
                json::value(std::move(data))),
            false); // L4
    }
    auto const version = negotiate_initialize(requested->get_string());
    session.initialized = true;
    session.version = version;
    auto const* declared = params->if_contains("capabilities");
    session.elicitation = elicitation_modes_of(declared ? declared->if_object() : nullptr);
    if (auto const* name = client->get_object().if_contains("name"); name && name->is_string()) {
        session.client_name = clipped(name->get_string(), 100);
    }
    json::object result;
    result["protocolVersion"] = version;
    result["capabilities"] = capabilities();
    result["serverInfo"] = identity_.info_object();
    if (!view.instructions.empty()) {
        result["instructions"] = view.instructions;
    }
    auto out = result_reply(msg.id(), std::move(result), false);
    out.opened_session = true;
    return out;
}

outcome dispatcher::list_tools(
    message const& msg, std::string_view version, bool modern, tool_view const& view) const
{
    std::string_view cursor;
    if (auto const* params = msg.params()) {
        if (auto const* c = params->if_contains("cursor")) {
            if (!c->is_string()) {
                return error_reply(msg.id(),
                    make_error(
                        error_code::invalid_params, "Invalid params: \"cursor\" must be a string"),
                    modern);
            }
            cursor = c->get_string();
        }
    }
    auto page = view.pages->page_of(cursor, list_variant_for(version));
    if (!page) {
        auto out = error_reply(msg.id(), page.error(), modern);
        out.http_status = 200; // a handler error, not an envelope error (§3 row 10)
        return out;
    }
    // The page is serialised once; only the envelope around it is built per request.
    reply out;
    out.text = R"({"jsonrpc":"2.0","id":)";
    out.text += json::serialize(msg.id());
    out.text += R"(,"result":)";
    out.shared = page->text;
    out.shared_id = page->id;
    out.tail.push_back('}'); // (not `= "}"`: g++ 12 warns falsely, GCC bug 105651)
    return out;
}

rpc_result<tool_call> dispatcher::read_call(message const& msg, view_ptr const& view) const
{
    auto const* params = msg.params();
    auto const* name = params ? params->if_contains("name") : nullptr;
    if (!name || !name->is_string()) {
        return make_error(
            error_code::invalid_params, "Invalid params: tools/call needs a string \"name\"");
    }
    tool_call call;
    call.id = msg.id();
    if (auto const* args = params->if_contains("arguments"); args && !args->is_null()) {
        if (!args->is_object()) {
            return make_error(
                error_code::invalid_params, "Invalid params: \"arguments\" must be an object");
        }
        call.arguments = args->get_object();
    }
    call.tool = index_.find(name->get_string());
    if (call.tool && !view->allows(index_.position(*call.tool))) {
        if (!view->refusal.empty()) {
            json::object data;
            data["tool"] = clipped(name->get_string());
            return make_error(error_code::invalid_params,
                fmt::format("Tool {} is not available here: {}", clipped(name->get_string()),
                    view->refusal),
                json::value(std::move(data)));
        }
        call.tool = nullptr; // outside this connection's selection: as if unknown
    }
    if (!call.tool) {
        auto close = index_.suggest(name->get_string());
        std::erase_if(close, [&](std::string const& candidate) {
            auto const* known = index_.find(candidate);
            return known == nullptr || !view->allows(index_.position(*known));
        });
        auto const shown = clipped(name->get_string());
        std::string message = fmt::format("Unknown tool: {}", shown);
        json::object data;
        data["tool"] = shown;
        if (!close.empty()) {
            message += fmt::format(" (did you mean {}?)", fmt::join(close, ", "));
            json::array names_array;
            for (auto const& c : close) {
                names_array.emplace_back(c);
            }
            data["suggestions"] = std::move(names_array);
        }
        return make_error(
            error_code::invalid_params, std::move(message), json::value(std::move(data)));
    }
    call.progress_token = progress_token_of(params);
    call.view = view;
    auto trace = trace_of(params);
    call.trace = trace.parent; // trivially copyable
    call.tracestate = std::move(trace.state);
    return call;
}

} // namespace toolgate::protocol
