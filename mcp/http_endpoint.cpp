// Streamable HTTP: one endpoint, both protocol generations. What the HTTP rules decide lives in
// protocol/streamable_http (pure, tested from strings); this file routes paths, applies the
// Origin/Host policy, CORS and client authentication, and adapts a POST's verdict to the
// server's sessions, views and router. Rule ids: docs/protocol-rules.md.
#include "mcp/http_endpoint.hpp"

#include "auth/authenticate.hpp"
#include "common/ascii.hpp"
#include "common/split_list.hpp"
#include "mcp/connection_choices.hpp"
#include "mcp/http_answer.hpp"
#include "mcp/sign_in_route.hpp"
#include "mcp/standalone_stream.hpp"
#include "protocol/names.hpp"
#include "protocol/request_meta.hpp"
#include "protocol/streamable_http.hpp"
#include "protocol/text.hpp"
#include "protocol/versions.hpp"
#include "transport/front_door.hpp"

#include <boost/json/serialize.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>

namespace toolgate::mcp {
namespace asio = boost::asio;
namespace json = boost::json;
namespace shttp = protocol::streamable_http;
using transport::header_list;
using transport::http_request;
using transport::http_responder;

namespace {

header_list json_headers()
{
    return { { "Content-Type", "application/json" } };
}

/// The headers the Streamable HTTP rules read, as a plain view (no copies).
shttp::post_view post_view_of(http_request const& request)
{
    auto header = [&request](char const* name) -> std::optional<std::string_view> {
        auto const* value = request.header(name);
        return value ? std::optional<std::string_view>(*value) : std::nullopt;
    };
    return { header("content-type"), header("accept"), header("mcp-session-id"),
        header("mcp-protocol-version"), header("mcp-method"), header("mcp-name"), request.body };
}

/// An answer the rules decided: a JSON body, or none.
asio::awaitable<void> send(http_responder& out, shttp::immediate answer)
{
    if (answer.body.empty()) {
        co_await out.respond(answer.status, {}, {});
    } else {
        co_await out.respond(answer.status, json_headers(), std::move(answer.body));
    }
}

/// The request headers a browser page may send us (CORS preflight answer).
constexpr char const* allowed_request_headers
    = "Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method, "
      "Mcp-Name, Last-Event-ID, Toolgate-Toolkits, Toolgate-Tools, Toolgate-Tool-Mode, "
      "Toolgate-Read-Only";

/// The preflight's allowed headers: ours, plus the Toolgate-Secret-<VARIABLE> names the page
/// asks for when per-request credentials are on (CORS cannot allow a name prefix).
std::string allowed_headers_for(http_request const& request, bool per_request_credentials)
{
    std::string allowed = allowed_request_headers;
    auto const* asked = request.header("access-control-request-headers");
    if (!per_request_credentials || asked == nullptr) {
        return allowed;
    }
    auto const names = common::split_list(*asked);
    for (std::size_t i = 0; i < names.size() && i < 32; ++i) {
        auto lower = common::to_lower_ascii(names[i]);
        bool const plain = std::all_of(lower.begin(), lower.end(), [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
        });
        if (plain && lower.size() <= 96 && lower.starts_with(credentials::secret_header_prefix)) {
            allowed += ", " + lower;
        }
    }
    return allowed;
}

/// The paths an OAuth client probes after a 401 (RFC 9728, RFC 8414, OpenID discovery, RFC
/// 7591 dynamic registration).
bool is_oauth_discovery(http_request const& request)
{
    std::string_view const path = request.path;
    return path.starts_with("/.well-known/oauth-protected-resource")
        || path.starts_with("/.well-known/oauth-authorization-server")
        || path.starts_with("/.well-known/openid-configuration")
        || (request.method == "POST" && path == "/register");
}

std::string static_tokens_only_body()
{
    return R"({"error":"not_found","error_description":"This server takes static bearer tokens, )"
           R"(not OAuth: send the header Authorization: Bearer <token> with every request (ask )"
           R"(whoever runs it for a token). There is no OAuth authorization server to discover, )"
           R"(register with or sign in to."})";
}

answer_format answer_format_for(http_request const& request, bool sse, transport::gzip_cache* gzip)
{
    answer_format format;
    format.sse_allowed = sse;
    format.gzip = gzip;
    // One pass over the (lower-case) names for both trace headers.
    for (auto const& [name, value] : request.headers) {
        if (name.size() == 11 && name == "traceparent") {
            format.traceparent = &value;
        } else if (name.size() == 10 && name == "tracestate") {
            format.tracestate = &value;
        }
    }
    return format;
}

/// --max-sessions reached (503), or the client's own --max-sessions-per-principal with all of
/// its sessions busy (429): a JSON-RPC error the client can show, and Retry-After.
asio::awaitable<void> refuse_session(json::value id, http_responder& out,
    session_registry const& sessions, session_registry::refusal why)
{
    header_list headers = json_headers();
    headers.emplace_back("Retry-After", "5");
    bool const own = why == session_registry::refusal::principal_full;
    unsigned const status = own ? 429 : 503;
    auto message = own
        ? fmt::format("Too many sessions for this client: at most {} at once "
                      "(--max-sessions-per-principal), and none is idle; end one with DELETE "
                      "or retry when a call finishes",
            sessions.max_sessions_per_principal())
        : fmt::format("Too many sessions: this server holds at most {} (--max-sessions); end "
                      "an unused session with DELETE or retry later",
            sessions.max_sessions());
    co_await out.respond(status, std::move(headers),
        protocol::serialize_error(id, protocol::error_code::internal_error, std::move(message)));
}

} // namespace

mcp_http_endpoint::mcp_http_endpoint(router& r, session_registry& sessions,
    transport::origin_policy origins, endpoint_options options)
    : router_(r)
    , sessions_(sessions)
    , origins_(std::move(origins))
    , options_(std::move(options))
    , probes_([this] {
        auto probes = options_.ops;
        probes.auth = options_.auth;
        return probes;
    }())
    , path_shadows_probe_(options_.path.empty() || options_.path == "/healthz"
          || options_.path == "/readyz" || options_.path == "/metrics")
{
}

std::optional<client_auth::answer> mcp_http_endpoint::off_path_answer(
    http_request const& request, bool metrics_path) const
{
    bool const get = request.method == "GET" || request.method == "HEAD";
    if (options_.auth && get && !options_.path.empty()) {
        // A1/A2: Protected Resource Metadata is public (RFC 9728 §3).
        if (auto doc = options_.auth->metadata(request.path, options_.path)) {
            return doc;
        }
    }
    if (options_.auth && !options_.auth->oauth() && is_oauth_discovery(request)) {
        // A client that meets a 401 looks for an OAuth authorization server (the Inspector,
        // mcp-remote). There is none: say what works instead of a bare 404.
        spdlog::debug("http: {} {} from {}: static tokens only, no OAuth", request.method,
            protocol::clipped(request.path), request.peer);
        return client_auth::answer { 404, json_headers(), static_tokens_only_body() };
    }
    if (request.path == options_.path || metrics_path) {
        return std::nullopt;
    }
    return client_auth::answer { 404, json_headers(),
        protocol::serialize_error(nullptr, protocol::error_code::invalid_request,
            options_.path.empty()
                ? std::string("Not found")
                : fmt::format("Not found: the MCP endpoint is {}", options_.path)) };
}

asio::awaitable<void> mcp_http_endpoint::preflight(
    http_request const& request, http_responder& out) const
{
    spdlog::debug("http: OPTIONS {} from {} (CORS preflight)", request.path, request.peer);
    header_list headers;
    if (request.header("origin")) {
        headers.emplace_back("Access-Control-Allow-Methods", "POST, GET, DELETE, OPTIONS");
        bool const per_request
            = options_.credentials != nullptr && options_.credentials->settings().per_request;
        headers.emplace_back(
            "Access-Control-Allow-Headers", allowed_headers_for(request, per_request));
        headers.emplace_back("Access-Control-Max-Age", "600");
    }
    headers.emplace_back("Allow", "POST, GET, DELETE, OPTIONS");
    co_await out.respond(204, std::move(headers), {});
}

asio::awaitable<void> mcp_http_endpoint::handle(http_request request, http_responder& out)
{
    // The MCP path is the hot one: one comparison, and the probes are not looked at.
    bool const mcp_path = request.path == options_.path && !path_shadows_probe_;
    bool metrics_path = false;
    if (!mcp_path) {
        if (probes_.is_probe(request)) {
            co_await probes_.answer_probe(request, out);
            co_return;
        }
        if (options_.sign_in && options_.sign_in->is_own(request.path)) {
            co_await serve_sign_in_page(
                std::move(request), out, *options_.sign_in, origins_, options_.loopback_bind);
            co_return;
        }
        metrics_path = probes_.is_metrics(request);
        if (auto answer = off_path_answer(request, metrics_path)) {
            co_await out.respond(
                answer->status, std::move(answer->headers), std::move(answer->body));
            co_return;
        }
    }
    if (auto refused = transport::check_front_door(request, origins_, options_.loopback_bind)) {
        out.close_after_response();
        co_await out.respond(refused->status, json_headers(), std::move(refused->body));
        co_return;
    }
    // A browser page from an allowed origin (the Inspector's "Direct" mode, a web client).
    transport::allow_cross_origin(request, out);
    if (request.method == "OPTIONS") {
        co_await preflight(request, out);
    } else if (metrics_path) {
        co_await probes_.serve_metrics(request, out);
    } else {
        co_await serve_mcp(request, out);
    }
}

asio::awaitable<void> mcp_http_endpoint::serve_mcp(http_request const& request, http_responder& out)
{
    // §3 row 0, H16, A4/A5: the token is checked on every request, sessions or not.
    std::vector<std::string> scopes;
    auto client = auth::authenticate(options_.auth, request, &scopes);
    if (!client) {
        // A refused client keeps no connection slot (security review 6).
        out.close_after_response();
        auto answer = std::move(client.error());
        co_await out.respond(answer.status, std::move(answer.headers), std::move(answer.body));
        co_return;
    }
    out.mark_authenticated();
    std::string principal = std::move(*client);
    if (request.method == "POST") {
        // The request's platform credentials, assembled once for every call it makes
        // (issue 14 item 5). Header values are never logged or echoed.
        credentials_ptr credentials;
        if (options_.credentials != nullptr) {
            auto assembled = options_.credentials->for_request(principal, request.headers);
            if (!assembled) {
                spdlog::warn("http: 400 from {}: per-request credentials refused", request.peer);
                out.close_after_response();
                std::string body
                    = protocol::serialize_error(nullptr, protocol::error_code::invalid_request,
                        "Bad Request: " + assembled.error().message);
                co_await out.respond(400, json_headers(), std::move(body));
                co_return;
            }
            credentials = std::move(*assembled);
        }
        co_await post(
            request, out, std::move(principal), std::move(scopes), std::move(credentials));
    } else if (request.method == "DELETE") {
        co_await remove(request, out, std::move(principal));
    } else {
        // H19: a standalone stream only for a session that may be sent something unprompted
        // (mcp/standalone_stream.hpp); every other GET has nothing to carry: 405.
        bool const streamed
            = co_await serve_standalone_stream(request, out, sessions_, router_, principal);
        if (streamed) {
            co_return;
        }
        spdlog::debug("http: {} {} from {}: 405 (toolgate sends no unsolicited messages)",
            protocol::clipped(request.method, 16), request.path, request.peer);
        header_list headers = json_headers();
        headers.emplace_back("Allow", "POST, DELETE");
        co_await out.respond(405, std::move(headers),
            protocol::serialize_error(nullptr, protocol::error_code::invalid_request,
                fmt::format("Method not allowed: {} {}; use POST", request.method, options_.path)));
    }
}

asio::awaitable<void> mcp_http_endpoint::remove(
    http_request const& request, http_responder& out, std::string principal)
{
    auto const* id = request.header("mcp-session-id");
    if (!id) {
        co_await out.respond(400, json_headers(),
            protocol::serialize_error(nullptr, protocol::error_code::invalid_request,
                "Bad Request: DELETE needs the Mcp-Session-Id header"));
        co_return;
    }
    if (!co_await sessions_.end_shared(*id, router_, principal)) {
        co_await out.respond(404, json_headers(),
            protocol::serialize_error(
                nullptr, protocol::error_code::invalid_request, "Session not found"));
        co_return;
    }
    spdlog::debug("http: session ended by DELETE from {}", request.peer);
    // 200, as the reference SDK answers: the older Inspector's proxy cannot relay a 204.
    co_await out.respond(200, {}, {});
}

common::checked<std::shared_ptr<protocol::tool_view const>> mcp_http_endpoint::view_for(
    http_request const& request, std::string_view principal,
    std::vector<std::string> const& scopes) const
{
    if (options_.views == nullptr) {
        return std::shared_ptr<protocol::tool_view const>();
    }
    auto choice = read_connection_choices(request);
    if (!choice) {
        return choice.error();
    }
    if (options_.policy != nullptr && !principal.empty()) {
        // The operator's narrowing goes in as a choice the client cannot take back.
        auto policy = options_.policy->for_caller(principal, scopes);
        choice->policy_toolsets = std::move(policy.toolsets);
        choice->policy_read_only = policy.read_only;
    }
    return options_.views->view_for(*choice);
}

// The adapter: the rules decide (protocol/streamable_http.hpp); here are only the lookups
// and effects they leave to the server (sessions, views, running, writing).
asio::awaitable<void> mcp_http_endpoint::post(http_request const& request, http_responder& out,
    std::string principal, std::vector<std::string> scopes, credentials_ptr credentials)
{
    auto const plain = post_view_of(request);
    auto checked_headers = shttp::check_post_headers(plain);
    if (!checked_headers) {
        co_await send(out, checked_headers.error());
        co_return;
    }
    auto const accepts = *checked_headers;
    auto picked = view_for(request, principal, scopes);
    if (!picked) {
        shttp::immediate answer { 400,
            protocol::serialize_error(nullptr, protocol::error_code::invalid_request,
                "Bad Request: " + picked.error().message) };
        co_await send(out, std::move(answer));
        co_return;
    }
    auto view = std::move(*picked);
    auto verdict = shttp::classify_post(plain, { router_.max_depth() });
    if (auto* answer = std::get_if<shttp::immediate>(&verdict)) {
        co_await send(out, std::move(*answer));
        co_return;
    }
    auto& work = std::get<shttp::classified>(verdict);
    if (work.kind == shttp::route::initialize) {
        co_await open_session(request, out, std::move(*work.message), principal, view);
        co_return;
    }
    std::shared_ptr<conversation> conv;
    if (plain.session_id && work.kind != shttp::route::modern) {
        conv = co_await sessions_.find_shared(std::string(*plain.session_id), principal, router_);
        if (!conv) {
            json::value const id = work.message ? work.message->id() : json::value();
            co_await send(out, shttp::session_not_found(work.kind, id));
            co_return;
        }
    } else if (work.kind == shttp::route::ping) {
        conv = sessions_.make_conversation();
    }
    if (work.kind == shttp::route::batch) {
        auto outcome = co_await router_.run_batch(
            conv, std::move(work.batch), discard_sink(), credentials, principal, view);
        if (outcome.refused) {
            co_await out.respond(400, json_headers(), std::move(*outcome.refused));
        } else if (outcome.answer) {
            co_await out.respond_pieces(200, json_headers(), outcome.answer->pieces());
        } else {
            co_await out.respond(202, {}, {});
        }
        co_return;
    }
    if (work.kind == shttp::route::notification) {
        if (conv) { // H5: only a 2025 session has calls to cancel
            co_await router_.handle(std::move(*work.message), conv, discard_sink());
        }
        co_await out.respond(202, {}, {});
        co_return;
    }
    auto const* encoding = request.header("accept-encoding");
    bool const gzip = encoding && transport::accepts_gzip(*encoding);
    auto const format = answer_format_for(request, accepts.sse, gzip ? &gzip_ : nullptr);
    auto const* meta = work.meta ? &*work.meta : nullptr;
    transport::header_list no_headers;
    co_await answer_request(router_, std::move(*work.message), conv, std::move(principal), view,
        out, format, std::move(no_headers), std::move(credentials), meta);
}

asio::awaitable<void> mcp_http_endpoint::open_session(http_request const& request,
    http_responder& out, protocol::message msg, std::string const& principal,
    std::shared_ptr<protocol::tool_view const> view)
{
    auto const* session_id = request.header("mcp-session-id");
    if (session_id && sessions_.find(*session_id, principal)) {
        co_await send(out, shttp::already_initialized(msg.id()));
        co_return;
    }
    if (auto full = sessions_.room_for(principal); full != session_registry::refusal::none) {
        co_await refuse_session(msg.id(), out, sessions_, full);
        co_return;
    }
    json::value const init_id = msg.id();
    auto conv = sessions_.make_conversation();
    auto reply = co_await router_.handle(std::move(msg), conv, discard_sink(), view);
    header_list headers = json_headers();
    if (reply && reply->opened_session) {
        auto const version = conv->negotiated_version();
        auto opened = sessions_.try_open(conv, version, principal, router_);
        if (!opened) {
            co_await refuse_session(init_id, out, sessions_, opened.error());
            co_return; // lost a race for the last place
        }
        spdlog::debug("http: initialize from {}: session opened ({})", request.peer, version);
        headers.emplace_back("Mcp-Session-Id", std::move(*opened));
    }
    unsigned const status = reply ? reply->http_status : 500;
    std::string body;
    if (reply) {
        body = std::move(reply->text);
    }
    co_await out.respond(status, std::move(headers), std::move(body));
}

} // namespace toolgate::mcp
