// catalogue_provider: descriptors built once at start-up; per call, validate then execute.
#include "toolkits/catalogue_provider.hpp"

#include "toolkits/call_options.hpp"
#include "toolkits/call_reporter.hpp"
#include "toolkits/result_limits.hpp"
#include "toolkits/validate.hpp"

#include <chrono>

namespace toolgate::toolkits {

catalogue_provider::catalogue_provider(
    selection const& sel, tool_executor& executor, result_options results)
    : refs_(sel.tools())
    , executor_(executor)
    , results_(results)
{
    descriptors_.reserve(refs_.size());
    for (auto const& ref : refs_) {
        protocol::tool_descriptor d;
        d.name = std::string(ref.toolkit->name) + "_" + std::string(ref.tool->name);
        d.dotted_name = std::string(ref.toolkit->name) + "." + std::string(ref.tool->name);
        d.title = ref.tool->title;
        d.description = ref.tool->description;
        d.input_schema = ref.tool->input_schema;
        d.hints.read_only = ref.tool->read_only;
        d.hints.destructive = ref.tool->destructive;
        d.hints.idempotent = ref.tool->idempotent;
        d.hints.open_world = true; // every tool talks to a third-party platform
        descriptors_.push_back(std::move(d));
    }
    // Keys view the descriptors' strings: descriptors_ no longer changes size from here on.
    by_name_.reserve(2 * descriptors_.size());
    for (std::size_t i = 0; i < descriptors_.size(); ++i) {
        by_name_.emplace(descriptors_[i].name, i);
        by_name_.emplace(descriptors_[i].dotted_name, i);
    }
}

std::span<const protocol::tool_descriptor> catalogue_provider::tools() const
{
    return descriptors_;
}

protocol::tool_descriptor const* catalogue_provider::find(std::string_view name) const
{
    auto it = by_name_.find(name);
    return it == by_name_.end() ? nullptr : &descriptors_[it->second];
}

std::optional<tool_ref> catalogue_provider::spec_of(protocol::tool_descriptor const& tool) const
{
    auto const* first = descriptors_.data();
    if (&tool >= first && &tool < first + descriptors_.size()) {
        return refs_[static_cast<std::size_t>(&tool - first)];
    }
    auto it = by_name_.find(tool.name);
    if (it == by_name_.end()) {
        return std::nullopt;
    }
    return refs_[it->second];
}

// `tool` is owned by this provider (or by the router, which holds it for the whole call) and
// `context` by the router for the whole call, so both references outlive the coroutine.
boost::asio::awaitable<protocol::call_result> catalogue_provider::call(
    protocol::tool_descriptor const& tool, boost::json::object arguments, call_context& context)
{
    auto ref = spec_of(tool);
    if (!ref) {
        co_return protocol::call_result::error("tool `" + tool.name + "` is not served");
    }
    auto* controls = context.controls();
    auto const started = std::chrono::steady_clock::now();
    // The reserved arguments are toolgate's: out before validation, so none reaches a platform.
    auto options = take_call_options(arguments);
    auto valid = options ? validate_arguments(*ref->toolkit, *ref->tool, arguments)
                         : tool_result<void>(options.error());
    if (!valid) {
        auto result = protocol::call_result::error(std::move(valid.error().message));
        report_refusal(context, *ref->toolkit, *ref->tool, result.content.front().text);
        if (controls != nullptr) {
            controlled_call const refused { *ref->toolkit, *ref->tool, arguments, false };
            controls->finished(refused, result, call_end::invalid_arguments,
                std::chrono::steady_clock::now() - started, context);
        }
        co_return result;
    }
    normalise_integers(*ref->tool, arguments);
    bool const dry_run = options->dry_run;
    controlled_call const admitted { *ref->toolkit, *ref->tool, arguments, dry_run };
    if (controls != nullptr) {
        if (auto refusal = co_await controls->admit(admitted, context)) {
            co_return std::move(*refusal);
        }
    }
    if (dry_run) {
        auto shown = executor_.dry_run(*ref->toolkit, *ref->tool, arguments, context);
        if (controls != nullptr) {
            controls->finished(admitted, shown, call_end::dry_run,
                std::chrono::steady_clock::now() - started, context);
        }
        co_return shown;
    }
    // The executor takes a copy: the controls read the arguments after the call, and a cut
    // answer's note repeats a list tool's (a tool's arguments are small beside its request).
    auto result = co_await executor_.execute(
        *ref->toolkit, *ref->tool, boost::json::object(arguments), context);
    if (controls != nullptr) {
        controls->finished(admitted, result, call_end::answered,
            std::chrono::steady_clock::now() - started, context);
    }
    co_return limit_result(
        std::move(result), results_, { ref->toolkit, ref->tool, &arguments, &*options });
}

} // namespace toolgate::toolkits
