// The outbound client's call logic: deadline, pool lease, retries and redirects around the
// Beast steps of upstream_connection.cpp. Each call runs on its own strand; each step that
// touches a connection runs on that connection's strand (STYLE §3).
#include "transport/https_client.hpp"

#include "common/masking.hpp"
#include "transport/cancellation.hpp"
#include "transport/connection_pool.hpp"
#include "transport/outbound_policy.hpp"
#include "transport/pem_certificates.hpp"
#include "transport/proxy_config.hpp"
#include "transport/run_on.hpp"
#include "transport/tls_context.hpp"
#include "transport/upstream_connection.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/system/system_error.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <cctype>
#include <mutex>
#include <optional>
#include <stdexcept>

namespace toolgate::transport {
namespace asio = boost::asio;
using std::chrono::steady_clock;

struct https_client::state {
    state(asio::io_context& io, https_options o)
        : ioc(io)
        , options(std::move(o))
        , pool(options.max_connections_per_host, options.idle_timeout)
    {
        // A CA file that cannot be read stops the start, not the first call. OpenSSL parses
        // it with the context, at the first connection: here only its framing is checked
        // (transport/pem_certificates.hpp says why).
        if (!options.ca_file.empty()) {
            if (auto checked = check_pem_certificates(options.ca_file); !checked) {
                throw std::runtime_error(
                    "cannot load CA file " + options.ca_file + ": " + checked.error().message);
            }
        }
        if (options.proxy_from_environment) {
            if (options.https_proxy.empty()) {
                options.https_proxy = https_proxy_from_environment();
            }
            if (options.no_proxy.empty()) {
                options.no_proxy = no_proxy_from_environment();
            }
        }
        if (!options.https_proxy.empty()) {
            auto parsed = parse_proxy_url(options.https_proxy);
            if (!parsed) {
                // The value may carry a password: name the setting, not its value.
                throw std::runtime_error("HTTPS proxy setting is not an http://host:port URL");
            }
            proxy = std::move(*parsed);
        }
    }

    /// The TLS context, made at the first connection: OpenSSL's set-up of a context is a
    /// quarter of the instructions before the first answer, and a session that only lists
    /// tools never needs it. Throws when the CA file is refused (then at every connection).
    std::shared_ptr<asio::ssl::context> const& tls()
    {
        std::call_once(tls_made, [this] {
            tls_context = make_tls_client_context(options.ca_file, options.system_trust);
        });
        return tls_context;
    }

    asio::io_context& ioc;
    https_options options;
    std::once_flag tls_made;
    std::shared_ptr<asio::ssl::context> tls_context;
    std::optional<proxy_endpoint> proxy;
    connection_pool pool;
    std::atomic<outbound_observer*> observer { nullptr }; ///< metrics; relaxed loads
};

namespace {

using state_ptr = std::shared_ptr<https_client::state>;

outbound_result failed(outbound_failure failure, std::string detail)
{
    outbound_result out;
    out.failure = failure;
    out.detail = std::move(detail);
    return out;
}

outbound_result to_result(step_outcome outcome)
{
    outbound_result out;
    out.failure = outcome.failure;
    out.detail = std::move(outcome.detail);
    out.response = std::move(outcome.response);
    return out;
}

char const* failure_name(outbound_failure failure)
{
    switch (failure) {
    case outbound_failure::none:
        return "none";
    case outbound_failure::bad_url:
        return "bad_url";
    case outbound_failure::resolve:
        return "resolve";
    case outbound_failure::connect:
        return "connect";
    case outbound_failure::tls:
        return "tls";
    case outbound_failure::timeout:
        return "timeout";
    case outbound_failure::cancelled:
        return "cancelled";
    case outbound_failure::too_large:
        return "too_large";
    case outbound_failure::protocol:
        return "protocol";
    }
    return "unknown";
}

/// The metrics observer, or null; one relaxed load per event.
outbound_observer* observer_of(https_client::state const& st)
{
    return st.observer.load(std::memory_order_relaxed);
}

void note_failure(
    https_client::state const& st, outbound_request const& request, outbound_failure failure)
{
    if (auto* o = observer_of(st)) {
        o->on_failure(request.toolkit, failure);
    }
}

/// One attempt's outcome: a response's status, or why none came.
void note_attempt(
    https_client::state const& st, outbound_request const& request, step_outcome const& outcome)
{
    if (auto* o = observer_of(st)) {
        if (outcome.failure == outbound_failure::none) {
            o->on_response(request.toolkit, outcome.response.status);
        } else {
            o->on_failure(request.toolkit, outcome.failure);
        }
    }
}

void note_retry(https_client::state const& st, outbound_request const& request)
{
    if (auto* o = observer_of(st)) {
        o->on_retry(request.toolkit);
    }
}

/// Host and path of `target` as logs and events show them: secrets (a host a secret names, a
/// token in a path) masked (issue 6 item 6), never the query.
std::string masked_where(outbound_request const& request, url_target const& target)
{
    return common::mask_secrets(
        fmt::format("{}{}", target.authority(), target.path), request.log_redactions);
}

/// One line per attempt at debug (method, host, path, outcome, time), and the same told to
/// the request's own observer.
void report_attempt(outbound_request const& request, url_target const& target,
    step_outcome const& outcome, steady_clock::time_point started, int attempt, bool reused,
    int max_attempts, bool retrying = false)
{
    bool const logged = spdlog::should_log(spdlog::level::debug);
    if (!logged && !request.on_event) {
        return;
    }
    auto const ms
        = std::chrono::duration_cast<std::chrono::milliseconds>(steady_clock::now() - started);
    auto const where = masked_where(request, target);
    if (logged && outcome.failure == outbound_failure::none) {
        spdlog::debug("upstream {} {} status={} ms={} attempt={} reused={}", request.method, where,
            outcome.response.status, ms.count(), attempt, reused);
    } else if (logged) {
        spdlog::debug("upstream {} {} failure={} ms={} attempt={} reused={}", request.method, where,
            failure_name(outcome.failure), ms.count(), attempt, reused);
    }
    if (request.on_event) {
        outbound_event event;
        event.what = outcome.failure == outbound_failure::none ? outbound_event::kind::answered
                                                               : outbound_event::kind::failed;
        event.method = request.method;
        event.where = where;
        event.status = outcome.response.status;
        if (outcome.failure != outbound_failure::none) {
            event.failure = failure_name(outcome.failure);
        }
        event.elapsed = ms;
        event.retrying = retrying;
        event.attempt = attempt;
        event.max_attempts = max_attempts;
        request.on_event(event);
    }
}

/// The observer's event for a retry wait (or a wait the deadline does not allow).
void report_wait(outbound_request const& request, url_target const& target,
    outbound_event::kind what, std::chrono::milliseconds wait, bool asked, int next_attempt,
    int max_attempts)
{
    if (!request.on_event) {
        return;
    }
    outbound_event event;
    event.what = what;
    event.method = request.method;
    event.where = masked_where(request, target);
    event.wait = wait;
    event.retry_after = asked;
    event.attempt = next_attempt;
    event.max_attempts = max_attempts;
    request.on_event(event);
}

/// How long to wait before retrying a 429/503. `retry` is false when the answer is returned as
/// is: not retryable, no attempts left, or the wait (then in `wait`) would end past the
/// deadline. `asked`: the platform named the delay (Retry-After).
struct retry_plan {
    bool retry = false;
    std::chrono::milliseconds wait { 0 };
    bool asked = false;
};

retry_plan plan_retry(outbound_response const& response, int attempt, https_options const& options,
    steady_clock::time_point deadline)
{
    retry_plan plan;
    if (!is_retryable_status(response.status) || attempt >= options.max_attempts) {
        return plan;
    }
    plan.wait = backoff_delay(attempt);
    if (auto const asked = response.header("Retry-After"); !asked.empty()) {
        if (auto const parsed = parse_retry_after(asked, std::chrono::system_clock::now())) {
            plan.wait = *parsed;
            plan.asked = true;
        }
    }
    plan.retry = steady_clock::now() + plan.wait < deadline;
    return plan;
}

open_params make_open_params(https_client::state const& st, url_target const& target,
    std::string const& method, steady_clock::time_point deadline)
{
    open_params p;
    p.target = target;
    if (st.proxy && target.tls && !bypasses_proxy(st.options.no_proxy, target.host, target.port)) {
        p.proxy = st.proxy;
    }
    p.connect_by = std::min(steady_clock::now() + st.options.connect_timeout, deadline);
    p.deadline = deadline;
    p.connect_timeout = st.options.connect_timeout;
    p.call_timeout = st.options.deadline;
    p.method = method;
    return p;
}

exchange_params make_exchange_params(https_client::state const& st, url_target const& target,
    outbound_request const& request, steady_clock::time_point deadline)
{
    exchange_params p;
    p.target = target;
    p.method = request.method;
    p.headers = request.headers;
    p.body = request.body;
    p.user_agent = st.options.user_agent;
    p.deadline = deadline;
    p.call_timeout = st.options.deadline;
    p.max_response_bytes = st.options.max_response_bytes;
    return p;
}

outbound_result gave_up(asio::cancellation_state const& cs, https_client::state const& st,
    outbound_request const& request, url_target const& target, std::string_view phase)
{
    if (is_cancelled(cs)) {
        return failed(outbound_failure::cancelled,
            fmt::format("{} {}{}: cancelled while {}", request.method, target.authority(),
                target.path, phase));
    }
    return failed(outbound_failure::timeout,
        fmt::format("{} {}{}: deadline of {} ms passed while {}", request.method,
            target.authority(), target.path, st.options.deadline.count(), phase));
}

/// A pool slot held by one attempt. Given back on every path, an exception included: a slot
/// lost on an unusual path would leave every later call to that host waiting for its deadline.
class slot_guard {
public:
    slot_guard(connection_pool& pool, std::string const& key)
        : pool_(pool)
        , key_(key)
    {
    }
    slot_guard(slot_guard const&) = delete;
    slot_guard& operator=(slot_guard const&) = delete;
    ~slot_guard()
    {
        if (held_) {
            pool_.release(key_, nullptr, false);
        }
    }
    /// Ends the lease now: a reusable connection goes back to the pool, anything else frees
    /// the slot.
    void release(std::shared_ptr<upstream_connection> connection, bool reusable)
    {
        held_ = false;
        pool_.release(key_, reusable ? std::move(connection) : nullptr, reusable);
    }

private:
    connection_pool& pool_;
    std::string const& key_; // the caller's, which outlives the guard
    bool held_ = true;
};

/// Whether a failed attempt may be sent again. Nothing came back, so the platform did not
/// answer; it may still have acted on a request it received. Idempotent methods may be
/// repeated anyway (RFC 9110 §9.2.2); others only when the request provably never left (the
/// write failed before its first byte) or carries an idempotency key (docs/decisions.md: retries).
bool may_resend(outbound_request const& request, step_outcome const& outcome)
{
    if (outcome.failure != outbound_failure::protocol || !outcome.nothing_received) {
        return false;
    }
    return is_idempotent(request.method) || outcome.nothing_written
        || has_idempotency_key(request.headers);
}

/// Tells the request's event callback (progress, logs) that an attempt is being sent.
void report_sending(
    outbound_request const& request, url_target const& target, int attempt, int max_attempts)
{
    if (request.on_event) {
        outbound_event event;
        event.what = outbound_event::kind::sending;
        event.method = request.method;
        event.where = masked_where(request, target);
        event.attempt = attempt;
        event.max_attempts = max_attempts;
        request.on_event(event);
    }
}

/// What an answer from the platform leads to: the call's result (in the optional), or, for a
/// 429/503 that plan_retry lets us repeat, a wait and then another attempt (an empty optional).
/// Runs on the call's strand; `request` and `target` are send_to's, which awaits this.
asio::awaitable<std::optional<outbound_result>> settle_answer(state_ptr st,
    asio::cancellation_state cs, outbound_request const& request, url_target const& target,
    step_outcome outcome, int attempt, steady_clock::time_point deadline)
{
    auto const max_attempts = st->options.max_attempts;
    auto const plan = plan_retry(outcome.response, attempt, st->options, deadline);
    if (!plan.retry) {
        if (is_retryable_status(outcome.response.status) && attempt < max_attempts) {
            report_wait(request, target, outbound_event::kind::retry_skipped, plan.wait, plan.asked,
                attempt + 1, max_attempts);
        }
        co_return to_result(std::move(outcome));
    }
    report_wait(request, target, outbound_event::kind::retry_wait, plan.wait, plan.asked,
        attempt + 1, max_attempts);
    asio::steady_timer timer(co_await asio::this_coro::executor, plan.wait);
    co_await timer.async_wait(asio::as_tuple(asio::use_awaitable));
    if (is_cancelled(cs)) {
        auto result = gave_up(cs, *st, request, target, "waiting to retry");
        note_failure(*st, request, result.failure);
        co_return result;
    }
    note_retry(*st, request);
    co_return std::nullopt;
}

/// The TLS context, or the failure of a call that cannot have one: OpenSSL refused the CA
/// file that passed the start-up check (transport/pem_certificates.hpp).
boost::system::result<std::shared_ptr<asio::ssl::context>, outbound_result> tls_or_failure(
    https_client::state& st, outbound_request const& request, url_target const& target)
{
    try {
        return st.tls();
    } catch (std::runtime_error const& e) {
        return failed(outbound_failure::tls,
            fmt::format("{} {}{}: {}", request.method, target.authority(), target.path, e.what()));
    }
}

/// One URL, with the retries docs/decisions.md allows. Runs on the call's strand.
asio::awaitable<outbound_result> send_to(state_ptr st, outbound_request request, url_target target,
    steady_clock::time_point deadline, bool check_addresses)
{
    auto const cs = co_await asio::this_coro::cancellation_state;
    // A connection opened without the address check must never serve a request that needs it.
    auto const key = target.pool_key() + (check_addresses ? " public" : "");
    for (int attempt = 1;; ++attempt) {
        auto const started = steady_clock::now();
        report_sending(request, target, attempt, st->options.max_attempts);
        auto lease = co_await st->pool.acquire(key, deadline);
        if (!lease) {
            auto result = gave_up(cs, *st, request, target, "waiting for a pooled connection");
            note_failure(*st, request, result.failure);
            co_return result;
        }
        slot_guard slot(st->pool, key);
        auto connection = std::move(lease->connection);
        bool const reused = lease->reused;
        if (connection && !is_idempotent(request.method) && !connection->looks_idle()) {
            // A kept-alive connection the server has closed (or written to) while idle: a
            // non-idempotent request sent on it could not be repeated safely, so it gets a
            // fresh connection instead.
            connection.reset();
        }
        if (!connection) {
            auto context = tls_or_failure(*st, request, target);
            if (!context) {
                slot.release(nullptr, false);
                note_failure(*st, request, context.error().failure);
                co_return std::move(context.error());
            }
            connection = std::make_shared<upstream_connection>(st->ioc, *context);
            auto params = make_open_params(*st, target, request.method, deadline);
            params.refuse_private_addresses = check_addresses;
            auto opened = co_await run_on(
                connection->executor(), open_connection(connection, std::move(params)));
            if (opened.failure != outbound_failure::none) {
                slot.release(nullptr, false);
                report_attempt(
                    request, target, opened, started, attempt, reused, st->options.max_attempts);
                note_attempt(*st, request, opened);
                co_return to_result(std::move(opened));
            }
        }
        auto outcome = co_await run_on(connection->executor(),
            exchange(connection, make_exchange_params(*st, target, request, deadline)));
        slot.release(connection, outcome.reusable);
        connection.reset();
        bool const may_retry = outcome.failure != outbound_failure::none
            && may_resend(request, outcome) && attempt < st->options.max_attempts
            && steady_clock::now() < deadline;
        report_attempt(request, target, outcome, started, attempt, reused, st->options.max_attempts,
            may_retry);
        note_attempt(*st, request, outcome);

        if (outcome.failure == outbound_failure::none) {
            auto settled = co_await settle_answer(
                st, cs, request, target, std::move(outcome), attempt, deadline);
            if (settled) {
                co_return std::move(*settled);
            }
            continue;
        }
        if (!may_retry) {
            co_return to_result(std::move(outcome));
        }
        if (reused) {
            st->pool.drop_idle(key);
        }
        note_retry(*st, request);
    }
}

/// The whole call: redirects (GET only) around send_to. Root of the call's own strand.
/// A redirect goes only where docs/decisions.md allows (redirect_allowed); any other 3xx is the
/// call's result, as the platform sent it.
asio::awaitable<outbound_result> send_with_redirects(
    state_ptr st, outbound_request request, steady_clock::time_point deadline)
{
    co_await asio::this_coro::throw_if_cancelled(false);
    if (auto sendable = check_sendable_headers(request.headers); !sendable) {
        // Refused before a connection is taken or opened (security review 1).
        note_failure(*st, request, outbound_failure::bad_url);
        co_return failed(outbound_failure::bad_url,
            fmt::format("{}: {}", request.method, sendable.error().message));
    }
    std::string first_origin;
    for (int redirects = 0;; ++redirects) {
        auto target = parse_url_target(request.url);
        if (!target) {
            // The URL may hold secrets (query credentials): say what is wrong, not what it is.
            note_failure(*st, request, outbound_failure::bad_url);
            co_return failed(outbound_failure::bad_url,
                fmt::format("{}: URL is not an absolute http(s) URL ({})", request.method,
                    target.error().message()));
        }
        if (redirects == 0) {
            first_origin = target->pool_key();
        }
        bool const check_addresses = request.public_addresses_only
            || (redirects > 0 && !is_trusted_origin(request, first_origin, *target));
        auto result = co_await send_to(st, request, *target, deadline, check_addresses);
        if (result.failure != outbound_failure::none || request.method != "GET"
            || !is_redirect_status(result.response.status)) {
            co_return result;
        }
        auto const location = result.response.header("Location");
        if (location.empty()) {
            co_return result;
        }
        if (redirects >= st->options.max_redirects) {
            co_return failed(outbound_failure::protocol,
                fmt::format("GET {}{}: more than {} redirects", target->authority(), target->path,
                    st->options.max_redirects));
        }
        auto next = follow_redirect(request, location);
        if (!next) {
            co_return failed(outbound_failure::bad_url,
                fmt::format("GET {}{}: redirect Location cannot be followed ({})",
                    target->authority(), target->path, next.error().message()));
        }
        auto const next_target = parse_url_target(next->url);
        if (!next_target || !redirect_allowed(request, first_origin, *next_target)) {
            spdlog::debug("upstream GET {}{}: redirect to another origin not followed",
                target->authority(), target->path);
            co_return result;
        }
        if (auto* o = observer_of(*st)) {
            o->on_redirect(request.toolkit);
        }
        if (request.on_event) {
            outbound_event event;
            event.what = outbound_event::kind::redirected;
            event.method = request.method;
            event.where = masked_where(*next, *next_target);
            event.status = result.response.status;
            request.on_event(event);
        }
        request = std::move(*next);
    }
}

} // namespace

https_client::https_client(asio::io_context& ioc, https_options options)
    : state_(std::make_shared<state>(ioc, std::move(options)))
{
}

https_client::~https_client() = default;

https_options const& https_client::options() const
{
    return state_->options;
}

https_client::pool_totals https_client::pool() const
{
    auto const sum = state_->pool.sum();
    return { sum.open, sum.idle, sum.waiting };
}

void https_client::set_observer(outbound_observer* observer)
{
    state_->observer.store(observer, std::memory_order_relaxed);
}

std::size_t https_client::open_connections(std::string const& url) const
{
    auto const target = parse_url_target(url);
    return target ? state_->pool.open_count(target->pool_key()) : 0;
}

asio::awaitable<outbound_result> https_client::send(outbound_request request)
{
    auto st = state_;
    auto const cs = co_await asio::this_coro::cancellation_state;
    if (is_cancelled(cs)) {
        co_return failed(
            outbound_failure::cancelled, request.method + ": cancelled before sending");
    }
    auto deadline = steady_clock::now() + st->options.deadline;
    if (request.deadline != steady_clock::time_point {}) {
        deadline = std::min(deadline, request.deadline);
    }
    try {
        // A strand per call: the pool wakes waiters by posting to their executor, which is
        // only safe when that executor serialises the call (STYLE §3).
        co_return co_await run_on(
            asio::make_strand(st->ioc), send_with_redirects(st, std::move(request), deadline));
    } catch (boost::system::system_error const& e) {
        // The caller's own coroutine throws operation_aborted when it was cancelled before
        // this co_await (throw_if_cancelled is its default); report it as a value.
        if (e.code() != asio::error::operation_aborted) {
            throw;
        }
    }
    co_return failed(outbound_failure::cancelled, "call cancelled");
}

} // namespace toolgate::transport
