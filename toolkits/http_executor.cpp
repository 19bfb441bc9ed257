// build -> authenticate -> send -> shape (see http_executor.hpp).
#include "toolkits/http_executor.hpp"

#include "toolkits/auth.hpp"
#include "toolkits/call_reporter.hpp"
#include "toolkits/request_builder.hpp"
#include "toolkits/secret_names.hpp"

#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <optional>

namespace toolgate::toolkits {

namespace {

/// A share of the answer budget, given back when the last owner (the result) lets go.
class budget_share {
public:
    budget_share(std::shared_ptr<std::atomic<std::size_t>> held, std::size_t bytes)
        : held_(std::move(held)), bytes_(bytes)
    {
    }
    budget_share(budget_share const&) = delete;
    budget_share& operator=(budget_share const&) = delete;
    ~budget_share() { *held_ -= bytes_; }

private:
    std::shared_ptr<std::atomic<std::size_t>> held_;
    std::size_t bytes_;
};

std::string qualified_name(toolkit_spec const& toolkit, tool_spec const& tool)
{
    return std::string(toolkit.name) + "." + std::string(tool.name);
}

} // namespace

http_executor::http_executor(transport::outbound_client& client,
                             credential_source const& credentials, base_url_overrides overrides,
                             shaping_options options, execution_options execution)
    : client_(client), credentials_(credentials), overrides_(std::move(overrides)),
      options_(options), execution_(execution)
{
}

tool_result<prepared_request> http_executor::prepare(toolkit_spec const& toolkit,
                                                     tool_spec const& tool,
                                                     boost::json::object const& arguments) const
{
    auto prepared = build_request(toolkit, tool, arguments, overrides_);
    if (!prepared) {
        return prepared.error();
    }
    if (auto authenticated = authenticate(toolkit, tool, credentials_, *prepared,
                                          execution_.allow_insecure_upstream);
        !authenticated) {
        return authenticated.error();
    }
    // Where a GET may be redirected (DECISIONS: redirects): the toolkit's own hosts (the
    // catalogue lists the storage platform's upload and download hosts among them), and the
    // operator's override, which is trusted as the request itself is.
    auto& request = prepared->request;
    for (auto base : toolkit.base_urls) {
        if (auto origin = origin_key(base); !origin.empty()) {
            request.redirect_origins.push_back(std::move(origin));
        }
    }
    if (auto replacement = overrides_.find(toolkit.name)) {
        request.trusted_origins.push_back(origin_key(*replacement));
    }
    return prepared;
}

boost::asio::awaitable<protocol::call_result> http_executor::execute(toolkit_spec const& toolkit,
                                                                     tool_spec const& tool,
                                                                     boost::json::object arguments,
                                                                     call_context& context)
{
    if (auto local = answer_locally(tool, arguments)) {
        co_return std::move(*local);
    }
    auto prepared = prepare(toolkit, tool, arguments);
    if (!prepared) {
        report_refusal(context, toolkit, tool, prepared.error().message);
        co_return protocol::call_result::error(std::move(prepared.error().message));
    }
    // Logs never show a secret, a secret host, or a secret-named argument (issue 6 item 6).
    prepared->request.log_redactions = prepared->redactions;
    for (auto& value : secret_argument_values(arguments)) {
        prepared->request.log_redactions.push_back(std::move(value));
    }
    prepared->request.toolkit = toolkit.name; // static storage: the catalogue's
    // A caller's trace continues upstream (W3C Trace Context), so the platform's own logs can
    // be matched with ours.
    if (auto const parent = context.traceparent(); !parent.empty()) {
        prepared->request.headers.emplace_back("traceparent", std::string(parent));
        if (auto const state = context.tracestate(); !state.empty()) {
            prepared->request.headers.emplace_back("tracestate", std::string(state));
        }
    }
    // Progress and log notifications while the request is out, when the client asked for any.
    std::optional<call_reporter> reporter;
    if (context.reporting()) {
        reporter.emplace(context, qualified_name(toolkit, tool));
        prepared->request.on_event = reporter->observer();
        reporter->start_heartbeat(co_await boost::asio::this_coro::executor);
    }
    // The request is copied into send(): the prepared redactions stay here for shaping.
    auto result = co_await client_.send(prepared->request);
    if (reporter) {
        reporter->stop();
    }
    // The answer's bytes count against the budget until its result is gone (sent).
    auto const bytes = result.response.body.size();
    auto const before = answers_held_->fetch_add(bytes);
    auto share = std::make_shared<budget_share>(answers_held_, bytes);
    if (execution_.answer_budget_bytes > 0 && before > 0 &&
        before + bytes > execution_.answer_budget_bytes) {
        // The answer itself is dropped at once: shaping it would hold several times its size.
        co_return protocol::call_result::error(
            std::string(toolkit.name) + "." + std::string(tool.name) + ": the platform's answer (" +
            std::to_string(bytes) + " bytes) arrived while other large answers fill toolgate's "
            "memory budget for answers; retry shortly, or ask for less (fields, page size)");
    }
    auto shaped = shape_result(toolkit, tool, *prepared, result, options_);
    shaped.reservation = std::move(share);
    if (result.failure == transport::outbound_failure::none) {
        shaped.upstream_status = result.response.status;
    }
    co_return shaped;
}

} // namespace toolgate::toolkits
