// Message routing: protocol decisions come from protocol::dispatcher; this file adds the
// concurrency (one coroutine per call), cancellation and batches.
#include "mcp/router.hpp"

#include "common/tool_names.hpp"
#include "mcp/call_context.hpp"
#include "mcp/call_scope.hpp"
#include "ops/log_redaction.hpp"
#include "ops/logging.hpp"
#include "protocol/names.hpp"
#include "protocol/text.hpp"
#include "protocol/versions.hpp"
#include "transport/cancellation.hpp"
#include "transport/coroutine_root.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/serialize.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>

namespace toolgate::mcp {
namespace asio = boost::asio;
namespace json = boost::json;
using protocol::rpc_error;

namespace {

/// A request id as logs show it: client-chosen, so cut short (security review 13).
std::string log_id(json::value const& id)
{
    return protocol::clipped(json::serialize(id), 64);
}

/// Who and what a call's log line names besides the call itself.
struct call_tags {
    std::string_view request_id;
    std::string_view span_id;
    std::string_view session_tag;
    std::string_view principal; ///< logged as a tag, never as it is
};

/// The call's one info line, key=value (README "Operations").
void log_call_end(protocol::tool_call const& call, call_tags const& tags, ops::call_outcome outcome,
    unsigned upstream_status, std::chrono::steady_clock::duration elapsed)
{
    static constexpr std::string_view outcome_text[]
        = { "ok", "tool_error", "protocol_error", "cancelled" };
    auto const dotted = std::string_view(call.tool->dotted_name);
    auto const toolkit = common::toolkit_of(dotted);
    auto const principal = ops::log_tag(tags.principal);
    auto const id = log_id(call.id);
    auto const ms = std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count();
    std::string_view trace_id;
    std::string_view parent_id;
    if (call.trace) {
        trace_id = call.trace->trace_id();
        parent_id = call.trace->parent_id();
    }
    auto const status = upstream_status > 0
        ? ops::log_field::value_type(std::int64_t(upstream_status))
        : ops::log_field::value_type(std::monostate {});
    ops::log_event(spdlog::level::info, "tools/call",
        { { "id", id }, { "request_id", tags.request_id }, { "tool", dotted },
            { "toolkit", toolkit }, { "outcome", outcome_text[static_cast<int>(outcome)] },
            { "status", status }, { "ms", std::int64_t(ms) }, { "session", tags.session_tag },
            { "principal", std::string_view(principal) }, { "trace_id", trace_id },
            { "parent_id", parent_id }, { "span_id", tags.span_id } });
}

} // namespace

/// What an admitted call holds until it ends: a unit of the server-wide budget, one of its
/// principal's places and, in a conversation, its registration. Move-only; gives all back once.
class router::call_ticket {
public:
    call_ticket() = default;
    call_ticket(call_ticket&& other) noexcept
        : router_(std::exchange(other.router_, nullptr))
        , principal_(std::move(other.principal_))
        , conv_(std::move(other.conv_))
        , key_(std::move(other.key_))
        , entry_(std::move(other.entry_))
        , total_(std::move(other.total_))
    {
    }
    call_ticket& operator=(call_ticket&&) = delete;
    call_ticket(call_ticket const&) = delete;
    ~call_ticket() { release(); }

    void hold_total(std::shared_ptr<transport::activity> total) { total_ = std::move(total); }
    void hold_principal(router& r, std::string principal)
    {
        if (!principal.empty()) { // the anonymous principal holds no place
            router_ = &r;
            principal_ = std::move(principal);
        }
    }
    void hold_registration(
        std::shared_ptr<conversation> conv, std::string key, std::shared_ptr<inflight_call> entry)
    {
        conv_ = std::move(conv);
        key_ = std::move(key);
        entry_ = std::move(entry);
    }
    /// The registration's cancellation (null outside a conversation).
    std::shared_ptr<inflight_call> const& entry() const { return entry_; }

    /// Gives everything back now (before the answer is sent, so that the client may reuse
    /// the id at once).
    void release()
    {
        if (conv_) {
            conv_->unregister_call(key_);
            conv_.reset();
        }
        if (router_) {
            router_->release_principal(principal_);
            router_ = nullptr;
        }
        if (total_) {
            total_->leave();
            total_.reset();
        }
    }

private:
    router* router_ = nullptr; ///< set while a principal's place is held
    std::string principal_;
    std::shared_ptr<conversation> conv_;
    std::string key_;
    std::shared_ptr<inflight_call> entry_;
    /// Shared with the router: a frame destroyed after the router must not touch it.
    std::shared_ptr<transport::activity> total_;
};

protocol::rpc_result<router::call_ticket> router::admit_call(protocol::tool_call const& call,
    std::shared_ptr<conversation> const& conv, std::string const& principal,
    asio::any_io_executor const& runs_on, std::shared_ptr<inflight_call> const& bound)
{
    auto refuse = [&](int code, std::string message) {
        count_refused(call);
        return rpc_error { code, std::move(message), std::nullopt };
    };
    if (refusing_) {
        return refuse(protocol::error_code::internal_error,
            "Server is shutting down: no new tool calls are accepted");
    }
    // Optimistic increment: a call over the limit gives its unit straight back.
    auto const before = inflight_total_->enter();
    if (before >= limits_.max_inflight_total) {
        inflight_total_->leave();
        return refuse(protocol::error_code::internal_error,
            fmt::format("Server busy: {} tool calls in flight (limit {}, --max-inflight); retry "
                        "shortly",
                before, limits_.max_inflight_total));
    }
    call_ticket ticket;
    ticket.hold_total(inflight_total_);
    if (auto admitted = admit_principal(principal); !admitted) {
        count_refused(call);
        return admitted.error();
    }
    ticket.hold_principal(*this, principal);
    if (conv) { // stdio registers calls of both eras: a cancellation names the id only
        auto key = json::serialize(call.id);
        auto registered = bound
            ? conv->register_call(key, bound, limits_.max_inflight_per_conversation)
            : conv->register_call(key, runs_on, limits_.max_inflight_per_conversation);
        if (!registered) {
            return registered.error() == conversation::refusal::duplicate_id
                ? refuse(protocol::error_code::invalid_request,
                    fmt::format("Invalid Request: id {} is already in use by a call in flight",
                        protocol::clipped(key, 64)))
                : refuse(protocol::error_code::internal_error,
                    fmt::format("Too many calls in flight in this session (limit {}, "
                                "--max-inflight-per-session); retry when one finishes",
                        limits_.max_inflight_per_conversation));
        }
        ticket.hold_registration(conv, std::move(key), std::move(*registered));
    }
    return ticket;
}

protocol::rpc_result<void> router::admit_principal(std::string const& principal)
{
    if (principal.empty()) {
        return {};
    }
    std::lock_guard lock(principals_mutex_);
    auto& count = principal_calls_[principal];
    if (count >= limits_.max_inflight_per_principal) {
        return rpc_error { protocol::error_code::internal_error,
            fmt::format("Too many calls in flight for this client ({} at once, "
                        "--max-inflight-per-principal); retry when one finishes",
                limits_.max_inflight_per_principal),
            std::nullopt };
    }
    ++count;
    return {};
}

void router::release_principal(std::string const& principal)
{
    if (principal.empty()) {
        return;
    }
    std::lock_guard lock(principals_mutex_);
    if (auto it = principal_calls_.find(principal);
        it != principal_calls_.end() && --it->second == 0) {
        principal_calls_.erase(it);
    }
}

router::router(
    toolkits::tool_provider& provider, protocol::dispatcher const& dispatcher, router_limits limits)
    : provider_(provider)
    , dispatcher_(dispatcher)
    , limits_(limits)
{
}

void router::count_refused(protocol::tool_call const& call)
{
    if (observer_) {
        observer_->record_refused_call(call.tool);
    }
}

asio::awaitable<std::optional<std::string>> router::run_tool(
    protocol::tool_call call, std::shared_ptr<transport::message_sink> sink, call_origin origin)
{
    auto const request = ops::new_request_id();
    auto const request_id = request.view();
    // A caller's trace goes on upstream under a span of our own (W3C Trace Context).
    std::string span_id;
    std::string forwarded;
    if (call.trace) {
        span_id = protocol::new_span_id();
        forwarded = call.trace->child(span_id);
    }
    call_scope scope(call, origin.principal, origin.conv, sink, origin.credentials,
        limits_.client_answer_timeout);
    routed_call_context context(std::move(sink), call.progress_token, call.level, call.version,
        call.view, std::move(forwarded), std::move(call.tracestate), std::move(origin.credentials),
        origin.principal, controls_);
    context.set_scope(&scope, &steps_);
    if (spdlog::should_log(spdlog::level::debug)) {
        // Secret-named arguments are masked at every level (issue 6 item 6).
        spdlog::debug("tools/call id={} request_id={} tool={} arguments={}", log_id(call.id),
            request_id, call.tool->dotted_name,
            protocol::clipped(ops::redacted_arguments_text(call.arguments), 2048));
    }
    auto const started = std::chrono::steady_clock::now();
    step_outcome ran; // the tool's result, or a step's answer instead (router_steps.cpp)
    bool failed = false;
    bool aborted = false;
    try {
        ran = co_await run_with_steps(call, context, scope);
    } catch (boost::system::system_error const& e) {
        failed = true;
        aborted = e.code() == asio::error::operation_aborted;
        if (!aborted) {
            spdlog::error("tools/call id={} request_id={} tool={} failed: {}", log_id(call.id),
                request_id, call.tool->dotted_name, e.what());
        }
    } catch (std::exception const& e) {
        failed = true;
        spdlog::error("tools/call id={} request_id={} tool={} failed: {}", log_id(call.id),
            request_id, call.tool->dotted_name, e.what());
    }
    context.finish();
    auto const elapsed = std::chrono::steady_clock::now() - started;
    auto const cs = co_await asio::this_coro::cancellation_state;
    auto outcome = ran.outcome();
    if (aborted || transport::is_cancelled(cs)) {
        outcome = ops::call_outcome::cancelled;
    } else if (failed) {
        outcome = ops::call_outcome::protocol_error;
    }
    if (observer_) {
        observer_->record_call(call.tool, outcome, elapsed);
    }
    if (spdlog::should_log(spdlog::level::info)) {
        log_call_end(call, { request_id, span_id, origin.session_tag, origin.principal }, outcome,
            ran.result.upstream_status, elapsed);
    }
    if (failed) {
        co_return protocol::serialize_error(call.id,
            rpc_error { protocol::error_code::internal_error,
                fmt::format("Internal error while running {}", call.tool->name), std::nullopt });
    }
    co_return ran.answer ? std::move(*ran.answer) : dispatcher_.call_reply(call, ran.result);
}

asio::awaitable<std::optional<protocol::reply>> router::handle(protocol::message msg,
    std::shared_ptr<conversation> conv, std::shared_ptr<transport::message_sink> stream,
    std::shared_ptr<protocol::tool_view const> view, credentials_ptr credentials,
    std::shared_ptr<inflight_call> bound)
{
    auto decided = decide(msg, conv.get(), view);
    if (auto* r = std::get_if<protocol::reply>(&decided)) {
        co_return std::move(*r);
    }
    if (auto* call = std::get_if<protocol::tool_call>(&decided)) {
        std::string no_principal; // named: no braced temporaries inside a co_await operand
        co_return co_await run_decided(std::move(*call), std::move(conv), std::move(stream),
            std::move(no_principal), std::move(credentials), std::move(bound));
    }
    co_return std::nullopt;
}

router::decision router::decide(protocol::message const& msg, conversation* conv)
{
    return decide(msg, conv, dispatcher_.default_view());
}

router::decision router::decide(protocol::message const& msg, conversation* conv,
    std::shared_ptr<protocol::tool_view const> const& view, protocol::request_meta const* checked)
{
    if (msg.kind() == protocol::message_kind::response) {
        // The client's answer to a request of ours: to the call waiting for it, in this
        // conversation only. Anything else is dropped (J4: a response is never answered).
        if (conv) {
            conv->requests().deliver(msg);
        }
        return std::monostate {};
    }
    auto const& seen = view ? view : dispatcher_.default_view();
    protocol::outcome outcome;
    if (checked) {
        outcome = dispatcher_.dispatch_checked(msg, *checked, seen);
    } else if (conv) {
        outcome = conv->dispatch(dispatcher_, msg, seen);
    } else {
        protocol::legacy_session stateless; // modern requests never touch it
        outcome = dispatcher_.dispatch(msg, stateless, seen);
    }
    if (auto* r = std::get_if<protocol::reply>(&outcome)) {
        return std::move(*r);
    }
    if (auto* cancel = std::get_if<protocol::cancel_call>(&outcome)) {
        if (conv) {
            conv->cancel_call(json::serialize(cancel->request_id));
        }
        return std::monostate {};
    }
    if (auto* call = std::get_if<protocol::tool_call>(&outcome)) {
        call->may_ask = may_ask(*call, conv);
        return std::move(*call);
    }
    return std::monostate {};
}

asio::awaitable<std::optional<protocol::reply>> router::run_decided(protocol::tool_call call,
    std::shared_ptr<conversation> conv, std::shared_ptr<transport::message_sink> stream,
    std::string principal, credentials_ptr credentials, std::shared_ptr<inflight_call> bound)
{
    // The call runs on this request's own executor: hopping to the session's strand and back
    // would cost two posts per call, and calls of one session need no ordering among them.
    auto const here = co_await asio::this_coro::executor;
    auto admitted = admit_call(call, conv, principal, here, bound);
    if (!admitted) {
        co_return protocol::reply { protocol::serialize_error(call.id, admitted.error()), 200,
            false };
    }
    auto ticket = std::move(*admitted);
    call_origin origin { conv ? conv->session_tag() : std::string(), principal,
        std::move(credentials), conv };
    auto const entry = ticket.entry();
    std::optional<std::string> text;
    if (!entry || entry == bound) {
        // This coroutine's own slot cancels the call: a stateless request's (the client
        // closing the stream), or the entry's signal the caller bound it to (a stdio line).
        text = co_await run_tool(std::move(call), stream, std::move(origin));
    } else {
        // The call listens to its entry's signal (notifications/cancelled, session end). The
        // HTTP request's own cancellation (its client hanging up) must reach it too, as it
        // does for a stateless call (security review 10): this coroutine's slot is free while
        // it awaits the call, so a handler there forwards it.
        auto const cs = co_await asio::this_coro::cancellation_state;
        auto forward = cs.slot();
        if (forward.is_connected()) {
            forward.assign([entry](asio::cancellation_type) { entry->cancel(entry); });
        }
        auto [error, answer]
            = co_await asio::co_spawn(here, run_tool(std::move(call), stream, std::move(origin)),
                asio::bind_cancellation_slot(
                    entry->signal.slot(), asio::as_tuple(asio::use_awaitable)));
        if (forward.is_connected()) {
            forward.clear();
        }
        if (!error) {
            text = std::move(answer);
        }
    }
    ticket.release();
    if (!text || (entry && entry->cancelled)) {
        co_return std::nullopt; // CN1: a cancelled call gets no reply
    }
    co_return protocol::reply { std::move(*text), 200, false };
}

void router::note_refusal(
    protocol::message const& msg, protocol::tool_view const* view, std::string_view principal) const
{
    if (controls_ == nullptr || msg.method() != protocol::names::tools_call) {
        return;
    }
    auto const* params = msg.params();
    auto const* name = params ? params->if_contains("name") : nullptr;
    if (name == nullptr || !name->is_string()) {
        return;
    }
    auto const& index = dispatcher_.index();
    auto const* tool = index.find(name->get_string());
    auto const& seen = view != nullptr ? *view : *dispatcher_.default_view();
    if (tool == nullptr || seen.allows(index.position(*tool))) {
        return;
    }
    json::object arguments;
    if (auto const* given = params->if_contains("arguments"); given && given->is_object()) {
        arguments = given->get_object();
    }
    controls_->refused(*tool, arguments, principal, {}, "not available to this caller");
}

void router::cancel_all(conversation& conv)
{
    conv.end();
}

} // namespace toolgate::mcp
