// Reading and checking the stateless revision's per-request `_meta`.
#include "protocol/request_meta.hpp"

#include "protocol/names.hpp"
#include "protocol/versions.hpp"

#include <fmt/format.h>

namespace toolgate::protocol {
namespace json = boost::json;

namespace {

json::object const* meta_of(json::object const* params)
{
    if (!params) {
        return nullptr;
    }
    auto const* meta = params->if_contains("_meta");
    return meta && meta->is_object() ? &meta->get_object() : nullptr;
}

rpc_error bad_meta(std::string_view key, std::string_view expected)
{
    return { error_code::invalid_params,
        fmt::format("Invalid params: _meta[\"{}\"] must be {}", key, expected), std::nullopt };
}

} // namespace

json::array supported_version_list()
{
    json::array list;
    for (auto v : supported_versions()) {
        list.emplace_back(v);
    }
    return list;
}

rpc_error unsupported_version_error(std::string_view requested)
{
    json::object data;
    data["supported"] = supported_version_list();
    data["requested"] = requested;
    return { error_code::unsupported_protocol_version,
        fmt::format("Unsupported protocol version \"{}\"", requested),
        json::value(std::move(data)) };
}

bool has_version_claim(json::object const* params)
{
    auto const* meta = meta_of(params);
    return meta && meta->contains(names::meta_protocol_version);
}

std::string claimed_version(json::object const* params)
{
    auto const* meta = meta_of(params);
    auto const* v = meta ? meta->if_contains(names::meta_protocol_version) : nullptr;
    return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

rpc_result<request_meta> read_request_meta(json::object const* params)
{
    auto const* meta = meta_of(params);
    if (!meta) {
        return rpc_error { error_code::invalid_params,
            "Invalid params: this revision needs params._meta with the protocol "
            "version and client capabilities",
            std::nullopt };
    }
    request_meta out;
    auto const* version = meta->if_contains(names::meta_protocol_version);
    if (!version || !version->is_string()) {
        return bad_meta(names::meta_protocol_version, "a string");
    }
    out.protocol_version = version->get_string();
    auto const* caps = meta->if_contains(names::meta_client_capabilities);
    if (!caps || !caps->is_object()) {
        return bad_meta(names::meta_client_capabilities, "an object");
    }
    out.client_capabilities = caps->get_object();
    if (auto const* info = meta->if_contains(names::meta_client_info)) {
        if (!info->is_object()) {
            return bad_meta(names::meta_client_info, "an object");
        }
        out.client_info = info->get_object();
    }
    if (auto const* level = meta->if_contains(names::meta_log_level)) {
        auto parsed = level->is_string() ? parse_log_level(level->get_string()) : std::nullopt;
        if (!parsed) {
            return bad_meta(names::meta_log_level,
                "one of debug, info, notice, warning, error, critical, alert, "
                "emergency");
        }
        out.level = parsed;
    }
    return out;
}

json::value progress_token_of(json::object const* params)
{
    auto const* meta = meta_of(params);
    auto const* token = meta ? meta->if_contains(names::progress_token) : nullptr;
    if (token && (token->is_string() || token->is_int64() || token->is_uint64())) {
        return *token;
    }
    return nullptr;
}

meta_trace trace_of(json::object const* params)
{
    meta_trace out;
    auto const* meta = meta_of(params);
    auto const* parent = meta ? meta->if_contains(names::meta_traceparent) : nullptr;
    if (!parent || !parent->is_string()) {
        return out;
    }
    out.parent = parse_traceparent(parent->get_string());
    if (out.parent) {
        if (auto const* state = meta->if_contains(names::meta_tracestate);
            state && state->is_string()) {
            out.state = checked_tracestate(state->get_string()).value_or(std::string());
        }
    }
    return out;
}

} // namespace toolgate::protocol
