// build -> authenticate -> send -> shape (see http_executor.hpp). For the OAuth toolkits the
// access token may come from the token source, which renews it; a 401 to such a token gets
// one renewal and one retry.
#include "toolkits/http_executor.hpp"

#include "common/ascii.hpp"
#include "toolkits/auth.hpp"
#include "toolkits/call_reporter.hpp"
#include "toolkits/dry_run.hpp"
#include "toolkits/oauth_providers.hpp"
#include "toolkits/request_builder.hpp"
#include "toolkits/secret_names.hpp"

#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/serialize.hpp>
#include <fmt/format.h>
#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <optional>

namespace toolgate::toolkits {

namespace {

/// A share of the answer budget, given back when the last owner (the result) lets go.
class budget_share {
public:
    budget_share(std::shared_ptr<std::atomic<std::size_t>> held, std::size_t bytes)
        : held_(std::move(held))
        , bytes_(bytes)
    {
    }
    budget_share(budget_share const&) = delete;
    budget_share& operator=(budget_share const&) = delete;
    ~budget_share() { *held_ -= bytes_; }

private:
    std::shared_ptr<std::atomic<std::size_t>> held_;
    std::size_t bytes_;
};

/// The caller's secrets, whose "not set" hint also offers the sign-in that would supply the
/// access token (only where the caller may use the server's token store).
class sign_in_hint final : public credential_source {
public:
    sign_in_hint(credential_source const& base, oauth_provider const& provider)
        : base_(base)
        , provider_(provider)
    {
    }
    std::optional<std::string> find(std::string_view variable) const override
    {
        return base_.find(variable);
    }
    std::string missing_hint(bool plural) const override
    {
        return base_.missing_hint(plural) + ", or sign in once with `toolgate auth login "
            + std::string(provider_.toolkit) + "` (toolgate then renews the access token),";
    }

private:
    credential_source const& base_;
    oauth_provider const& provider_;
};

/// A call refused before anything was sent. `sign_in`: a sign-in would supply the missing
/// access token (mcp/sign_in_step may then offer one from the conversation instead).
protocol::call_result refusal(std::string text, toolkit_spec const& toolkit, bool sign_in)
{
    auto out = protocol::call_result::error(std::move(text));
    if (sign_in) {
        out.needs_sign_in = toolkit.name;
    }
    return out;
}

bool lists(std::span<const std::string_view> names, std::string_view name)
{
    return std::find(names.begin(), names.end(), name) != names.end();
}

/// Answer headers that carry a platform's own id for a request, the first present wins: the
/// common names, then those of platforms that use their own (the accounting platform's
/// correlation id, the storage platform's request id, the deployment platform's id).
constexpr std::string_view request_id_headers[] = { "x-request-id", "request-id",
    "x-correlation-id", "xero-correlation-id", "box-request-id", "x-vercel-id" };

/// The platform's id for the request it answered (cut short: it goes into the audit log).
std::string request_id_of(transport::outbound_response const& response)
{
    constexpr std::size_t longest = 128;
    for (auto name : request_id_headers) {
        auto value = response.header(name);
        if (!value.empty()) {
            value.resize(std::min(value.size(), longest));
            return value;
        }
    }
    return {};
}

std::string qualified_name(toolkit_spec const& toolkit, tool_spec const& tool)
{
    return std::string(toolkit.name) + "." + std::string(tool.name);
}

/// What names a request's place under pacing: a digest of the credentials it carries (never
/// the credentials), and of the header that narrows them where the platform counts per that
/// (the accounting platform's tenant).
std::string pacing_key(toolkit_spec const& toolkit, prepared_request const& prepared)
{
    std::string material;
    for (auto const& value : prepared.credential_values) {
        material += value;
        material += '\0';
    }
    if (auto const header = pacing_key_header(toolkit.name); !header.empty()) {
        for (auto const& [name, value] : prepared.request.headers) {
            if (common::iequals_ascii(name, header)) {
                material += value;
            }
        }
    }
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest {};
    unsigned int length = 0;
    EVP_Digest(material.data(), material.size(), digest.data(), &length, EVP_sha256(), nullptr);
    return std::string(reinterpret_cast<char const*>(digest.data()), length);
}

/// A call refused by pacing: when to try again, as words and as a number.
protocol::call_result paced_out(toolkit_spec const& toolkit, tool_spec const& tool,
    upstream_rate rate, std::chrono::milliseconds wait, std::chrono::milliseconds timeout)
{
    auto const seconds = std::chrono::ceil<std::chrono::seconds>(wait).count();
    boost::json::object answer;
    answer["error"] = fmt::format("{}: not sent: toolgate sends at most {} {} requests in any {} "
                                  "s per credential (--upstream-rate), and this call's turn would "
                                  "come in {} s, past its deadline of {} s (--call-timeout); try "
                                  "again in {} s",
        qualified_name(toolkit, tool), rate.requests, toolkit.name,
        std::chrono::duration<double>(rate.window).count(), seconds,
        std::chrono::ceil<std::chrono::seconds>(timeout).count(), seconds);
    answer["retry_after_seconds"] = seconds;
    auto result = protocol::call_result::error(boost::json::serialize(answer));
    result.structured = boost::json::value(std::move(answer));
    return result;
}

} // namespace

http_executor::http_executor(transport::outbound_client& client,
    credential_source const& credentials, base_url_overrides overrides, shaping_options options,
    execution_options execution, std::shared_ptr<token_source> tokens)
    : client_(client)
    , credentials_(credentials)
    , tokens_(std::move(tokens))
    , overrides_(std::move(overrides))
    , options_(options)
    , execution_(execution)
{
}

tool_result<prepared_request> http_executor::prepare(
    toolkit_spec const& toolkit, tool_spec const& tool, boost::json::object const& arguments) const
{
    return prepare(toolkit, tool, arguments, credentials_);
}

tool_result<prepared_request> http_executor::prepare(toolkit_spec const& toolkit,
    tool_spec const& tool, boost::json::object const& arguments,
    credential_source const& credentials) const
{
    auto prepared = build_request(toolkit, tool, arguments, overrides_);
    if (!prepared) {
        return prepared.error();
    }
    if (auto authenticated
        = authenticate(toolkit, tool, credentials, *prepared, execution_.url_secrets);
        !authenticated) {
        return authenticated.error();
    }
    // Where a GET may be redirected (docs/decisions.md: redirects): the toolkit's own hosts (the
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
    tool_spec const& tool, boost::json::object arguments, call_context& context)
{
    if (auto local = answer_locally(tool, arguments)) {
        co_return std::move(*local);
    }
    // The call's own credentials (its request's), or the server's. Copies of the shared
    // pointers keep them alive for the whole call, whatever reloads meanwhile.
    std::shared_ptr<credential_source const> own_secrets;
    std::shared_ptr<token_source> tokens = tokens_;
    if (auto const* given = context.credentials()) {
        own_secrets = given->secrets;
        tokens = given->tokens;
    }
    credential_source const& secrets = own_secrets ? *own_secrets : credentials_;

    // An OAuth toolkit's access token: a configured value wins (docs/decisions.md), else the token
    // source supplies (and renews) it.
    auto const* provider = find_oauth_provider(toolkit.name);
    bool const needs_token = provider != nullptr && lists(tool.secrets, provider->access_variable);
    std::string stored_token;
    bool const from_store = needs_token && tokens && !secrets.find(provider->access_variable);
    if (from_store) {
        auto answer = co_await tokens->access_token(std::string(toolkit.name), {});
        if (answer.state == token_answer::kind::failed) {
            report_refusal(context, toolkit, tool, answer.text);
            co_return refusal(std::move(answer.text), toolkit, answer.sign_in_again);
        }
        if (answer.state == token_answer::kind::token) {
            stored_token = std::move(answer.text);
        }
    }
    auto const argument_secrets = secret_argument_values(arguments);
    auto prepare_with = [&](std::string const& token) {
        if (!token.empty()) {
            overlay_credentials with_token(secrets, std::string(provider->access_variable), token);
            return prepare(toolkit, tool, arguments, with_token);
        }
        if (needs_token && tokens) {
            return prepare(toolkit, tool, arguments, sign_in_hint(secrets, *provider));
        }
        return prepare(toolkit, tool, arguments, secrets);
    };
    auto prepared = prepare_with(stored_token);
    if (!prepared) {
        report_refusal(context, toolkit, tool, prepared.error().message);
        // Missing only the access token (the same request builds with a stand-in one, which
        // is never sent): the caller has not signed in. Bad arguments are said first.
        bool const unsigned_in = from_store && stored_token.empty() && prepare_with("stand-in");
        co_return refusal(std::move(prepared.error().message), toolkit, unsigned_in);
    }
    auto sent
        = co_await send_and_shape(toolkit, tool, std::move(*prepared), argument_secrets, context);
    if (sent.status != 401 || stored_token.empty()) {
        co_return std::move(sent.result);
    }
    // The platform refused a token from the store before it expired (revoked, or renewed
    // elsewhere): renew once and try again. A 401 is answered before anything is done, so
    // repeating the request is safe whatever its method.
    auto renewed = co_await tokens->access_token(std::string(toolkit.name), stored_token);
    if (renewed.state == token_answer::kind::failed) {
        report_refusal(context, toolkit, tool, renewed.text);
        co_return refusal(std::move(renewed.text), toolkit, renewed.sign_in_again);
    }
    if (renewed.state != token_answer::kind::token || renewed.text == stored_token) {
        co_return std::move(sent.result);
    }
    auto again = prepare_with(renewed.text);
    if (!again) {
        report_refusal(context, toolkit, tool, again.error().message);
        co_return protocol::call_result::error(std::move(again.error().message));
    }
    auto retried
        = co_await send_and_shape(toolkit, tool, std::move(*again), argument_secrets, context);
    co_return std::move(retried.result);
}

protocol::call_result http_executor::dry_run(toolkit_spec const& toolkit, tool_spec const& tool,
    boost::json::object const& arguments, call_context const& context) const
{
    if (answer_locally(tool, arguments)) {
        return show_local_answer(toolkit, tool);
    }
    std::shared_ptr<credential_source const> own_secrets;
    bool has_token_source = tokens_ != nullptr;
    if (auto const* given = context.credentials()) {
        own_secrets = given->secrets;
        has_token_source = given->tokens != nullptr;
    }
    credential_source const& secrets = own_secrets ? *own_secrets : credentials_;
    auto const* provider = find_oauth_provider(toolkit.name);
    bool const stored_token = provider != nullptr && lists(tool.secrets, provider->access_variable)
        && has_token_source && !secrets.find(provider->access_variable);
    // A stand-in for the stored token: it is masked like the real one would be, and fetching
    // the real one could mean a renewal, which a dry run must not cause.
    auto prepared = stored_token
        ? prepare(toolkit, tool, arguments,
            overlay_credentials(secrets, std::string(provider->access_variable), "stored-token"))
        : prepare(toolkit, tool, arguments, secrets);
    if (!prepared) {
        return protocol::call_result::error(std::move(prepared.error().message));
    }
    return show_request(toolkit, tool, *prepared);
}

// `toolkit` and `tool` are catalogue entries; `prepared` belongs to the calling coroutine,
// which awaits this one.
boost::asio::awaitable<std::variant<transport::outbound_result, protocol::call_result>>
http_executor::paced_send(
    toolkit_spec const& toolkit, tool_spec const& tool, prepared_request& prepared)
{
    auto* pacer = execution_.pacer;
    if (pacer == nullptr || !pacer->paces(toolkit.name)) {
        // The request is copied into send(): the prepared redactions stay here for shaping.
        co_return co_await client_.send(prepared.request);
    }
    auto const deadline = std::chrono::steady_clock::now() + execution_.call_timeout;
    auto turn = co_await pacer->wait_turn(toolkit.name, pacing_key(toolkit, prepared), deadline);
    if (turn.state == upstream_pacer::wait_result::kind::cancelled) {
        co_return protocol::call_result::error(qualified_name(toolkit, tool)
            + ": cancelled while waiting for its turn; nothing was sent");
    }
    if (turn.state == upstream_pacer::wait_result::kind::refused) {
        co_return paced_out(toolkit, tool, turn.rate, turn.wait, execution_.call_timeout);
    }
    prepared.request.deadline = deadline; // the wait counts against the call's deadline
    auto result = co_await client_.send(prepared.request);
    turn.place.done();
    co_return result;
}

// `context` belongs to the router for the whole call (see tool_provider.hpp).
boost::asio::awaitable<http_executor::sent_call> http_executor::send_and_shape(
    toolkit_spec const& toolkit, tool_spec const& tool, prepared_request prepared,
    std::vector<std::string> argument_secrets, call_context& context)
{
    // Logs never show a secret, a secret host, or a secret-named argument (issue 6 item 6).
    prepared.request.log_redactions = prepared.redactions;
    for (auto& value : argument_secrets) {
        prepared.request.log_redactions.push_back(std::move(value));
    }
    prepared.request.toolkit = toolkit.name; // static storage: the catalogue's
    // A caller's trace continues upstream (W3C Trace Context), so the platform's own logs can
    // be matched with ours.
    if (auto const parent = context.traceparent(); !parent.empty()) {
        prepared.request.headers.emplace_back("traceparent", std::string(parent));
        if (auto const state = context.tracestate(); !state.empty()) {
            prepared.request.headers.emplace_back("tracestate", std::string(state));
        }
    }
    // Progress and log notifications while the request is out, when the client asked for any.
    std::optional<call_reporter> reporter;
    if (context.reporting()) {
        reporter.emplace(context, qualified_name(toolkit, tool));
        prepared.request.on_event = reporter->observer();
        reporter->start_heartbeat(co_await boost::asio::this_coro::executor);
    }
    auto sent = co_await paced_send(toolkit, tool, prepared);
    if (reporter) {
        reporter->stop();
    }
    sent_call out;
    if (auto* refused = std::get_if<protocol::call_result>(&sent)) {
        out.result = std::move(*refused);
        co_return out;
    }
    auto& result = std::get<transport::outbound_result>(sent);
    if (result.failure == transport::outbound_failure::none) {
        out.status = result.response.status;
    }
    // The answer's bytes count against the budget until its result is gone (sent).
    auto const bytes = result.response.body.size();
    auto const before = answers_held_->fetch_add(bytes);
    auto share = std::make_shared<budget_share>(answers_held_, bytes);
    if (execution_.answer_budget_bytes > 0 && before > 0
        && before + bytes > execution_.answer_budget_bytes) {
        // The answer itself is dropped at once: shaping it would hold several times its size.
        out.result = protocol::call_result::error(std::string(toolkit.name) + "."
            + std::string(tool.name) + ": the platform's answer (" + std::to_string(bytes)
            + " bytes) arrived while other large answers fill toolgate's "
              "memory budget for answers; retry shortly, or ask for less (fields, page size)");
        co_return out;
    }
    bool const answered = result.failure == transport::outbound_failure::none;
    auto const upstream_status = result.response.status;
    auto upstream_request_id = answered ? request_id_of(result.response) : std::string();
    // Moved in: a large answer's text becomes the result's without a copy.
    out.result = shape_result(toolkit, tool, prepared, std::move(result), options_);
    out.result.reservation = std::move(share);
    if (answered) {
        out.result.upstream_status = upstream_status;
        out.result.upstream_request_id = std::move(upstream_request_id);
    }
    co_return out;
}

} // namespace toolgate::toolkits
