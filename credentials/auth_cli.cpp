// The `toolgate auth` commands (see auth_cli.hpp).
#include "credentials/auth_cli.hpp"

#include "state/redis_client.hpp"
#include "toolkits/catalogue.hpp"
#include "toolkits/oauth_providers.hpp"
#include "transport/http_listener.hpp"

#include <CLI/App.hpp>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <memory>
#include <netinet/in.h>
#include <spawn.h>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace toolgate::credentials {
namespace asio = boost::asio;
namespace urls = boost::urls;

namespace {

/// A usage or configuration problem: exit status 2.
struct usage_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

void say(std::string const& text)
{
    // One-shot command output for the user's terminal; not the protocol.
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
}

std::int64_t now_seconds()
{
    return std::chrono::duration_cast<std::chrono::seconds>(
        std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::string expiry(std::int64_t expires_at)
{
    if (expires_at == 0) {
        return "expiry unknown";
    }
    auto const left = expires_at - now_seconds();
    if (left <= 0) {
        return "expired (renewed on the next call)";
    }
    return left >= 120 ? fmt::format("expires in {} min", left / 60)
                       : fmt::format("expires in {} s", left);
}

toolkits::oauth_provider const& provider_of(std::string const& toolkit)
{
    auto const* provider = toolkits::find_oauth_provider(toolkit);
    if (provider == nullptr) {
        std::string names;
        for (auto const& p : toolkits::oauth_providers()) {
            names += (names.empty() ? "" : " or ") + std::string(p.toolkit);
        }
        throw usage_error(fmt::format(
            "`{}` does not sign in with OAuth; the toolkits that do: {}", toolkit, names));
    }
    return *provider;
}

client_identity identity_of(
    credential_hub const& hub, toolkits::oauth_provider const& provider, bool secret_required)
{
    auto const secrets = hub.server_secrets();
    client_identity id;
    id.id = secrets->find(provider.client_id_variable).value_or("");
    id.secret = secrets->find(provider.client_secret_variable).value_or("");
    if (id.id.empty() || (secret_required && id.secret.empty())) {
        throw usage_error(fmt::format(
            "{} needs its app's client id{} in {}{} (environment or --secrets-file); register an "
            "app with the platform first (see README, \"Signing in\")",
            provider.toolkit, secret_required ? " and secret" : "", provider.client_id_variable,
            secret_required ? fmt::format(" and {}", provider.client_secret_variable) : ""));
    }
    return id;
}

/// Starts the desktop's browser on `url` when there seems to be one; failing is fine (the
/// URL is printed anyway).
void open_browser(std::string const& url)
{
    char const* browser = std::getenv("BROWSER");
    bool const desktop = std::getenv("DISPLAY") != nullptr || std::getenv("WAYLAND_DISPLAY");
    if ((browser == nullptr || *browser == '\0') && !desktop) {
        return;
    }
    std::string const program = browser && *browser ? browser : "xdg-open";
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    std::vector<char*> argv
        = { const_cast<char*>(program.c_str()), const_cast<char*>(url.c_str()), nullptr };
    pid_t pid = 0;
    if (posix_spawnp(&pid, program.c_str(), &actions, nullptr, argv.data(), environ) == 0) {
        say(fmt::format("(opening it with {})\n", program));
    }
    posix_spawn_file_actions_destroy(&actions);
}

std::string html_page(std::string const& title, std::string const& text)
{
    return fmt::format("<!doctype html><html><head><meta charset=\"utf-8\"><title>{0}</title>"
                       "</head><body><h1>{0}</h1><p>{1}</p></body></html>\n",
        title, text);
}

/// Text from the authorization server, safe to print: printable ASCII, cut short.
std::string printable(std::string_view text)
{
    std::string out;
    for (char c : text.substr(0, 200)) {
        out += (c >= 0x20 && c < 0x7f && c != '<' && c != '>' && c != '&') ? c : ' ';
    }
    return out;
}

/// The loopback redirect target: takes the one callback that carries our `state`.
class callback_handler final : public transport::http_handler {
public:
    callback_handler(std::string state, asio::steady_timer& done)
        : state_(std::move(state))
        , done_(done)
    {
    }

    asio::awaitable<void> handle(
        transport::http_request request, transport::http_responder& out) override
    {
        transport::header_list headers
            = { { "Content-Type", "text/html; charset=utf-8" }, { "Cache-Control", "no-store" } };
        auto parsed = urls::parse_origin_form(request.target);
        if (request.path != "/callback" || !parsed || finished_) {
            auto page = html_page("Not found", "Nothing is waiting here.");
            co_await out.respond(404, std::move(headers), std::move(page));
            co_return;
        }
        auto const params = parsed->params();
        auto const value = [&](std::string_view key) {
            auto it = params.find(key);
            return it == params.end() ? std::string() : std::string((*it).value);
        };
        if (value("state") != state_) {
            // Not the sign-in this command started (RFC 6749 §10.12): ignore it, keep waiting.
            auto page = html_page("Unknown sign-in",
                "This answer does not belong to the sign-in "
                "toolgate is waiting for.");
            co_await out.respond(400, std::move(headers), std::move(page));
            co_return;
        }
        error_ = value("error");
        description_ = value("error_description");
        code_ = value("code");
        finished_ = true;
        bool const ok = error_.empty() && !code_.empty();
        auto page = ok
            ? html_page("toolgate: signed in",
                "toolgate received the sign-in. You can close this tab and "
                "return to the terminal.")
            : html_page("toolgate: sign-in refused",
                "The sign-in did not complete: " + printable(error_) + ". See the terminal.");
        co_await out.respond(200, std::move(headers), std::move(page));
        done_.cancel();
    }

    bool finished() const { return finished_; }
    std::string const& code() const { return code_; }
    std::string const& error() const { return error_; }
    std::string const& description() const { return description_; }

private:
    std::string state_;
    asio::steady_timer& done_;
    bool finished_ = false;
    std::string code_;
    std::string error_;
    std::string description_;
};

/// Whether this machine has an IPv6 loopback to bind at all.
bool has_ipv6_loopback()
{
    int const fd = ::socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return false;
    }
    sockaddr_in6 address {};
    address.sin6_family = AF_INET6;
    address.sin6_addr = in6addr_loopback;
    bool const ok = ::bind(fd, reinterpret_cast<sockaddr const*>(&address), sizeof address) == 0;
    ::close(fd);
    return ok;
}

/// The callback's listeners: 127.0.0.1, and [::1] on the same port when the redirect names
/// `localhost`, which a browser may resolve to either address: a program holding the other
/// one at that port would receive the code (security review 3, item 15).
struct callback_listeners {
    std::unique_ptr<transport::http_listener> v4;
    std::unique_ptr<transport::http_listener> v6;

    std::uint16_t port() const { return v4->port(); }
    void start()
    {
        v4->start();
        if (v6) {
            v6->start();
        }
    }
    void stop()
    {
        v4->stop();
        if (v6) {
            v6->stop();
        }
    }
};

/// Binds the callback (RFC 8252 §7.3: a loopback address, on a port we choose: any free one
/// unless --port asks for the one the app registered). Throws std::runtime_error when an
/// address cannot be had.
callback_listeners open_callback(
    asio::io_context& ioc, auth_command const& a, transport::http_handler& handler)
{
    transport::http_limits limits;
    limits.max_connections = 16;
    limits.max_connections_per_address = 64;
    // Idle local connections make way for the browser's instead of earning it a 503
    // (security review 3, item 14).
    limits.evict_idle_when_full = true;
    bool const both = a.redirect_host == "localhost" && has_ipv6_loopback();
    for (int attempt = 1;; ++attempt) {
        callback_listeners out;
        out.v4
            = std::make_unique<transport::http_listener>(ioc, "127.0.0.1", a.port, handler, limits);
        if (!both) {
            return out;
        }
        try {
            out.v6 = std::make_unique<transport::http_listener>(
                ioc, "::1", out.port(), handler, limits);
            return out;
        } catch (std::runtime_error const&) {
            if (a.port != 0 || attempt == 5) {
                throw std::runtime_error(fmt::format(
                    "another program listens on [::1]:{}, where a browser may send the "
                    "sign-in for localhost; choose another --port (and register its redirect "
                    "URI), or use --redirect-host 127.0.0.1",
                    out.port()));
            }
        }
    }
}

/// Everything a command needs, made once.
struct command_context {
    auth_cli_settings const& cfg;
    asio::io_context& ioc;
    transport::https_client& client;
    credential_hub& hub;
};

void print_tenants(tenant_list const& list)
{
    if (list.tenants.empty()) {
        say("This sign-in reaches no organisation yet: connect one to the app at the platform, "
            "then run this again.\n");
        return;
    }
    say("Organisations this sign-in reaches (give the id as `tenant_identifier` in LedgerApi "
        "calls):\n");
    for (auto const& t : list.tenants) {
        say(fmt::format("  {}  {}{}\n", printable(t.id), printable(t.name),
            t.type.empty() ? "" : " (" + printable(t.type) + ")"));
    }
}

// The commands below run on `ctx.ioc`; `ctx` lives in run_auth_command's frame, which runs
// the io_context until they finish.

asio::awaitable<int> show_tenants(command_context& ctx, std::string toolkit, bool quiet_failure)
{
    auto const& provider = provider_of(toolkit);
    if (std::string(provider.tenants_url).empty()) {
        throw usage_error(fmt::format("{} has no tenants to list", toolkit));
    }
    auto token = ctx.hub.server_secrets()->find(provider.access_variable).value_or("");
    if (token.empty()) {
        auto answer = co_await ctx.hub.tokens()->access_token(toolkit, {});
        if (answer.state != toolkits::token_answer::kind::token) {
            if (!quiet_failure) {
                say(answer.state == toolkits::token_answer::kind::failed
                        ? answer.text + "\n"
                        : fmt::format("{} is not signed in: run `toolgate auth login {}` (or set "
                                      "{})\n",
                            toolkit, toolkit, provider.access_variable));
            }
            co_return 1;
        }
        token = std::move(answer.text);
    }
    auto list = co_await ctx.hub.tokens()->client_for(toolkit).tenants(token);
    if (!list.ok) {
        say(fmt::format("Could not list {}'s tenants: {}{}\n", toolkit, list.problem,
            list.status == 401 ? " (the access token was refused: sign in again)" : ""));
        co_return 1;
    }
    print_tenants(list);
    co_return 0;
}

/// Where the tokens are, for messages: "token store <path>" or the shared store.
std::string where(command_context& ctx)
{
    return ctx.hub.tokens()->backend().where();
}

/// Saves (or, given nullopt, removes) one toolkit's tokens; a failure ends the command.
asio::awaitable<void> save_tokens(
    command_context& ctx, std::string toolkit, std::optional<token_entry> entry)
{
    auto& backend = ctx.hub.tokens()->backend();
    common::checked<void> saved;
    if (entry) {
        saved = co_await backend.write(toolkit, std::move(*entry));
    } else {
        saved = co_await backend.erase(toolkit);
    }
    if (!saved) {
        throw std::runtime_error(
            fmt::format("{}: not saved in the {}: {}", toolkit, where(ctx), saved.error().message));
    }
    if (auto read = co_await ctx.hub.tokens()->reread(); !read) {
        throw std::runtime_error(read.error().message);
    }
}

asio::awaitable<int> login(command_context& ctx)
{
    auto const& a = ctx.cfg.command;
    auto const& provider = provider_of(a.toolkit);
    auto const id = identity_of(ctx.hub, provider, false);
    auto& oauth = ctx.hub.tokens()->client_for(a.toolkit);

    auto const pkce = make_pkce();
    auto const state = random_token();
    asio::steady_timer done(ctx.ioc);
    callback_handler handler(state, done);
    auto listener = open_callback(ctx.ioc, a, handler);
    listener.start();
    auto const redirect_uri
        = fmt::format("http://{}:{}/callback", a.redirect_host, listener.port());
    auto const url = oauth.authorize_url(id.id, redirect_uri, state, pkce.challenge, a.scopes);
    say(fmt::format("To sign in to {}, open this URL in a browser:\n\n  {}\n\n", a.toolkit, url));
    if (!a.no_browser) {
        open_browser(url);
    }
    say(fmt::format("Waiting for the sign-in at {} (up to {} s; Ctrl-C cancels)...\n", redirect_uri,
        a.login_timeout.count()));
    done.expires_after(a.login_timeout);
    co_await done.async_wait(asio::as_tuple(asio::use_awaitable));
    listener.stop();
    if (!handler.finished()) {
        say(fmt::format(
            "No sign-in arrived within {} s; nothing was saved.\n", a.login_timeout.count()));
        co_return 1;
    }
    if (!handler.error().empty() || handler.code().empty()) {
        say(fmt::format("The sign-in was refused: {}{}; nothing was saved.\n",
            handler.error().empty() ? "no code came back" : printable(handler.error()),
            handler.description().empty() ? "" : " (" + printable(handler.description()) + ")"));
        co_return 1;
    }
    auto grant = co_await oauth.exchange_code(id, handler.code(), pkce.verifier, redirect_uri);
    if (grant.state != token_grant::outcome::granted) {
        say(fmt::format(
            "Signing in to {} failed: {}; nothing was saved.\n", a.toolkit, grant.problem));
        co_return 1;
    }
    co_await save_tokens(ctx, a.toolkit, grant.entry);
    say(fmt::format("Signed in to {}: access token {}; {}. Saved in the {}.\n", a.toolkit,
        expiry(grant.entry.expires_at),
        grant.entry.refresh_token.empty()
            ? "no refresh token was given, so sign in again when it expires"
            : "toolgate renews it with the refresh token",
        where(ctx)));
    if (!std::string(provider.tenants_url).empty()) {
        co_await show_tenants(ctx, a.toolkit, false);
    }
    co_return 0;
}

asio::awaitable<int> client_credentials(command_context& ctx)
{
    auto const& a = ctx.cfg.command;
    auto const& provider = provider_of(a.toolkit);
    if (!provider.client_credentials) {
        throw usage_error(fmt::format("{} offers no client-credentials grant", a.toolkit));
    }
    if (provider.credentials_need_subject && a.subject_id.empty()) {
        throw usage_error(fmt::format(
            "{} client credentials act for an enterprise or a user: give --subject-id (the "
            "enterprise id, or a user id with --subject-type user)",
            a.toolkit));
    }
    auto const id = identity_of(ctx.hub, provider, true);
    auto& oauth = ctx.hub.tokens()->client_for(a.toolkit);
    auto grant = co_await oauth.client_credentials(id, a.subject_type, a.subject_id);
    if (grant.state != token_grant::outcome::granted) {
        say(fmt::format("{}: no token: {}; nothing was saved.\n", a.toolkit, grant.problem));
        co_return 1;
    }
    co_await save_tokens(ctx, a.toolkit, grant.entry);
    say(fmt::format("{}: access token from the client-credentials grant, {}; toolgate asks for a "
                    "new one before it expires. Saved in the {}.\n",
        a.toolkit, expiry(grant.entry.expires_at), where(ctx)));
    co_return 0;
}

std::string describe_variable(credential_hub const& hub, std::string_view variable)
{
    auto origin = hub.origin_of(variable);
    return fmt::format("{} {}", variable, origin.empty() ? "not set" : "from " + origin);
}

/// `auth status --principal P`: that client's sign-ins from the conversation, nothing else
/// (its secrets, if any, are in the credentials file, which this command does not read).
int principal_status(command_context& ctx, std::string const& principal)
{
    auto const entries = ctx.hub.tokens()->snapshot_of(principal);
    say(fmt::format("Token store: {}\nSign-ins of {}:\n", where(ctx), principal));
    for (auto const& provider : toolkits::oauth_providers()) {
        auto const it = entries.find(provider.toolkit);
        if (it == entries.end()) {
            say(fmt::format("{}: not signed in (a call offers a sign-in from the conversation)\n",
                provider.toolkit));
            continue;
        }
        auto const& e = it->second;
        say(fmt::format("{}: signed in ({}): access token {}{}\n", provider.toolkit, e.grant,
            expiry(e.expires_at), e.refresh_token.empty() ? "" : ", refresh token kept"));
    }
    return 0;
}

int status(command_context& ctx)
{
    if (!ctx.cfg.command.principal.empty()) {
        return principal_status(ctx, ctx.cfg.command.principal);
    }
    auto const entries = ctx.hub.tokens()->snapshot();
    say(fmt::format("Token store: {}\n", where(ctx)));
    if (!ctx.cfg.credentials.secrets_file.empty()) {
        say(fmt::format("Secrets file: {}\n", ctx.cfg.credentials.secrets_file));
    }
    for (auto const* kit : toolkits::all_toolkits()) {
        std::string line = fmt::format("{}: ", kit->name);
        auto const* provider = toolkits::find_oauth_provider(kit->name);
        bool first = true;
        for (auto variable : kit->secrets) {
            line += (first ? "" : ", ") + describe_variable(ctx.hub, variable);
            first = false;
        }
        if (provider != nullptr) {
            auto const it = entries.find(kit->name);
            bool const configured = !ctx.hub.origin_of(provider->access_variable).empty();
            if (it == entries.end()) {
                line += fmt::format("; not signed in (toolgate auth login {})", kit->name);
            } else {
                auto const& e = it->second;
                line += fmt::format("; signed in ({}): access token {}{}{}", e.grant,
                    expiry(e.expires_at), e.refresh_token.empty() ? "" : ", refresh token kept",
                    configured ? fmt::format(" (unused: {} wins)", provider->access_variable) : "");
            }
            line += "; " + describe_variable(ctx.hub, provider->client_id_variable);
        }
        say(line + "\n");
    }
    return 0;
}

asio::awaitable<int> logout(command_context& ctx)
{
    auto const& a = ctx.cfg.command;
    provider_of(a.toolkit);
    auto const whose = a.principal.empty() ? std::string() : " for " + a.principal;
    auto const entries = ctx.hub.tokens()->snapshot_of(a.principal);
    if (!entries.contains(a.toolkit)) {
        say(fmt::format("{} was not signed in{} (the {}).\n", a.toolkit, whose, where(ctx)));
        co_return 0;
    }
    if (auto gone = co_await ctx.hub.tokens()->forget(a.principal, a.toolkit); !gone) {
        throw std::runtime_error(fmt::format(
            "{}: not removed from the {}: {}", a.toolkit, where(ctx), gone.error().message));
    }
    say(fmt::format("Signed out of {}{}: its tokens are gone from the {}. The app stays "
                    "authorised at the platform until you revoke it there.\n",
        a.toolkit, whose, where(ctx)));
    co_return 0;
}

asio::awaitable<int> dispatch(command_context& ctx)
{
    auto const& action = ctx.cfg.command.action;
    if (auto read = co_await ctx.hub.tokens()->reread(); !read) {
        throw std::invalid_argument(read.error().message);
    }
    if (auto const& principal = ctx.cfg.command.principal; !principal.empty()) {
        if (auto read = co_await ctx.hub.tokens()->reread(principal); !read) {
            throw std::invalid_argument(read.error().message);
        }
    }
    if (action == "login") {
        co_return co_await login(ctx);
    }
    if (action == "client-credentials") {
        co_return co_await client_credentials(ctx);
    }
    if (action == "tenants") {
        co_return co_await show_tenants(ctx, ctx.cfg.command.toolkit, false);
    }
    if (action == "status") {
        co_return status(ctx);
    }
    co_return co_await logout(ctx);
}

} // namespace

void add_auth_commands(CLI::App& app, auth_command& c)
{
    auto* auth = app.add_subcommand("auth",
        "sign in to the OAuth toolkits and show where "
        "credentials come from");
    auth->require_subcommand(1);
    auth->fallthrough();
    auto* login = auth->add_subcommand(
        "login", "sign in with a browser (authorization code + PKCE on a loopback redirect)");
    login->add_option("toolkit", c.toolkit, "StoreApi or LedgerApi")->required();
    login->add_option("--port", c.port,
        "loopback port of the redirect URI (default: any free port; give the one "
        "your app registered if the platform wants an exact match)");
    login
        ->add_option("--redirect-host", c.redirect_host,
            "host named in the redirect URI (127.0.0.1 or localhost)")
        ->check(CLI::IsMember({ "127.0.0.1", "localhost" }));
    login->add_flag("--no-browser", c.no_browser, "only print the URL to open");
    login->add_option("--scopes", c.scopes,
        "scopes to ask for, space separated (default: the catalogue's, plus "
        "offline_access for LedgerApi); an app may not be allowed them all");
    login
        ->add_option_function<long>(
            "--timeout", [&c](long v) { c.login_timeout = std::chrono::seconds(v); },
            "seconds to wait for the browser")
        ->check(CLI::Range(1L, 3600L));
    auto* credentials = auth->add_subcommand(
        "client-credentials", "get a token with the client-credentials grant (server apps)");
    credentials->add_option("toolkit", c.toolkit, "StoreApi or LedgerApi")->required();
    credentials
        ->add_option("--subject-type", c.subject_type,
            "StoreApi: enterprise (the app's service account) or user")
        ->check(CLI::IsMember({ "enterprise", "user" }));
    credentials->add_option(
        "--subject-id", c.subject_id, "StoreApi: the enterprise id, or the user id");
    auto* status = auth->add_subcommand("status",
        "each toolkit's credential sources and token expiry (never "
        "a value)");
    status->add_option("--principal", c.principal,
        "a client's sign-ins from the conversation (static:<name> or jwt:<sub>) instead of the "
        "server's own");
    auto* logout = auth->add_subcommand("logout", "forget a toolkit's stored tokens");
    logout->add_option("toolkit", c.toolkit, "StoreApi or LedgerApi")->required();
    logout->add_option("--principal", c.principal,
        "forget a client's sign-in (static:<name> or jwt:<sub>) instead of the server's own");
    auto* tenants = auth->add_subcommand("tenants", "list the organisations a sign-in reaches");
    tenants->add_option("toolkit", c.toolkit, "LedgerApi")->required();
    for (auto* sub : { login, credentials, logout, tenants, status }) {
        sub->fallthrough();
    }
    for (auto* sub : auth->get_subcommands({})) {
        sub->callback([&c, sub] { c.action = sub->get_name(); });
    }
}

/// The shared store of --state-store, once connected (within 5 s); null without the flag.
std::shared_ptr<state::redis_client> connect_store(
    asio::io_context& ioc, auth_cli_settings const& settings)
{
    if (settings.state_store.empty()) {
        return nullptr;
    }
    auto endpoint
        = state::parse_redis_url(settings.state_store, std::getenv("TOOLGATE_REDIS_PASSWORD"));
    if (!endpoint) {
        throw usage_error(endpoint.error().message);
    }
    auto store = state::redis_client::make(ioc.get_executor(), *endpoint, {});
    store->start();
    auto const give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!store->status().connected && std::chrono::steady_clock::now() < give_up) {
        ioc.run_for(std::chrono::milliseconds(20));
    }
    ioc.restart();
    if (!store->status().connected) {
        throw std::runtime_error(
            fmt::format("the state store (Redis at {}) cannot be reached", endpoint->describe()));
    }
    return store;
}

int run_auth_command(auth_cli_settings const& settings)
{
    try {
        asio::io_context ioc(1);
        transport::https_client client(ioc, settings.https);
        auto credentials = settings.credentials;
        credentials.store = connect_store(ioc, settings);
        credential_hub hub(credentials, client);
        command_context ctx { settings, ioc, client, hub };
        int status = 1;
        std::exception_ptr failure;
        asio::co_spawn(ioc, dispatch(ctx), [&](std::exception_ptr e, int code) {
            failure = e;
            status = code;
            ioc.stop();
        });
        ioc.run();
        if (credentials.store) {
            credentials.store->stop();
        }
        if (failure) {
            std::rethrow_exception(failure);
        }
        return status;
    } catch (usage_error const& e) {
        fmt::print(stderr, "toolgate auth: {}\n", e.what());
        return 2;
    } catch (std::invalid_argument const& e) {
        fmt::print(stderr, "toolgate auth: {}\n", e.what());
        return 2;
    } catch (std::exception const& e) {
        fmt::print(stderr, "toolgate auth: {}\n", e.what());
        return 1;
    }
}

} // namespace toolgate::credentials
