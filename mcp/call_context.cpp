// Progress (MCP basic/utilities/progress) and logging (server/utilities/logging) for a call.
#include "mcp/call_context.hpp"

#include "protocol/jsonrpc.hpp"
#include "protocol/names.hpp"

namespace toolgate::mcp {
namespace json = boost::json;

namespace {

/// Whole numbers as integers: `2`, not Boost.JSON's `2E0`, which some clients print oddly.
json::value number(double v)
{
    if (v == static_cast<double>(static_cast<std::int64_t>(v))) {
        return json::value(static_cast<std::int64_t>(v));
    }
    return json::value(v);
}

} // namespace

routed_call_context::routed_call_context(std::shared_ptr<transport::message_sink> sink,
    json::value progress_token, std::optional<protocol::log_level> threshold, std::string version,
    std::shared_ptr<protocol::tool_view const> view, std::string traceparent,
    std::string tracestate, std::shared_ptr<toolkits::call_credentials const> credentials,
    std::string principal, toolkits::call_controls* controls)
    : sink_(std::move(sink))
    , token_(std::move(progress_token))
    , threshold_(threshold)
    , version_(std::move(version))
    , view_(std::move(view))
    , traceparent_(std::move(traceparent))
    , tracestate_(std::move(tracestate))
    , credentials_(std::move(credentials))
    , principal_(std::move(principal))
    , controls_(controls)
{
}

void routed_call_context::report_progress(
    double progress, std::optional<double> total, std::string_view message)
{
    if (token_.is_null() || finished_) {
        return; // PG1: only for requests that carried a progressToken; PG3: none after the end
    }
    {
        std::lock_guard lock(mutex_);
        if (progress <= last_progress_) {
            return; // PG2: progress must grow
        }
        last_progress_ = progress;
    }
    json::object params;
    params["progressToken"] = token_;
    params["progress"] = number(progress);
    if (total) {
        params["total"] = number(*total);
    }
    if (!message.empty()) {
        params["message"] = message;
    }
    sink_->send(protocol::serialize_notification(protocol::names::progress, std::move(params)));
}

bool routed_call_context::lacks_sign_in(std::string_view toolkit) const
{
    if (scope_ == nullptr || steps_ == nullptr) {
        return false;
    }
    for (auto const* step : *steps_) {
        if (step->lacks_sign_in(*scope_, toolkit)) {
            return true;
        }
    }
    return false;
}

void routed_call_context::log(protocol::log_level level, std::string_view logger, json::value data)
{
    if (!threshold_ || level < *threshold_ || finished_) {
        return;
    }
    json::object params;
    params["level"] = protocol::to_string(level);
    if (!logger.empty()) {
        params["logger"] = logger;
    }
    params["data"] = std::move(data);
    sink_->send(protocol::serialize_notification(protocol::names::message, std::move(params)));
}

} // namespace toolgate::mcp
