// Issue 27 through the shipped server: replicas sharing their OAuth tokens on a redis-server of
// the test's own (--state-store). Twenty calls spread over two replicas after expiry make one
// refresh grant; a lease holder killed with SIGKILL mid-renewal leaves the renewal to the
// other, once; Redis holds no token in the clear; with Redis stopped a call that needs it fails
// within 2 s saying so while another toolkit keeps working, and it recovers.
#include "credentials/shared_token_store.hpp"
#include "credentials_support.hpp"
#include "integration/integration_support.hpp"
#include "redis_server.hpp"
#include "state/redis_client.hpp"
#include "support/fake_auth_server.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <arpa/inet.h>
#include <csignal>
#include <future>
#include <netinet/in.h>
#include <sstream>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace toolgate::testing;
using toolgate::credentials::shared_token_store;
using toolgate::credentials::token_entry;
using toolgate::test::fake_auth_options;
using toolgate::test::fake_auth_server;
using toolgate::test::fake_platform;

namespace {

constexpr char const* store_key
    = "5f1d3c0a9b8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a392817061234";
constexpr char const* invite_tool = "StoreApi_CheckUserInviteStatus";

std::int64_t unix_now()
{
    return std::chrono::duration_cast<std::chrono::seconds>(
        std::chrono::system_clock::now().time_since_epoch())
        .count();
}

toolgate::state::store_keys keys()
{
    toolgate::state::store_keys k;
    k.current = *toolgate::state::parse_store_key(store_key);
    return k;
}

/// Writes a sign-in into the shared store as a replica's renewal (or `toolgate auth`) would.
void seed(redis_server const& redis, std::string const& toolkit, token_entry entry)
{
    boost::asio::io_context io(1);
    auto endpoint = toolgate::state::parse_redis_url(redis.url(), nullptr).value();
    auto client = toolgate::state::redis_client::make(io.get_executor(), endpoint, {});
    client->start();
    for (int i = 0; i < 200 && !client->status().connected; ++i) {
        io.run_for(std::chrono::milliseconds(10));
    }
    REQUIRE(client->status().connected);
    auto store = std::make_shared<shared_token_store>(client, keys());
    bool done = false;
    boost::asio::co_spawn(io, store->write(toolkit, std::move(entry)),
        [&](std::exception_ptr e, toolgate::common::checked<void> r) {
            REQUIRE_FALSE(e);
            REQUIRE(r.has_value());
            done = true;
        });
    io.restart();
    for (int i = 0; i < 200 && !done; ++i) {
        io.run_for(std::chrono::milliseconds(10));
    }
    REQUIRE(done);
    client->stop();
    io.restart();
    io.run_for(std::chrono::milliseconds(20));
}

/// A StoreApi sign-in the fake issued, already `age` seconds past its expiry (negative: live).
token_entry expired_sign_in(fake_auth_server& auth, std::int64_t age)
{
    auto [access, refresh] = auth.seed_tokens();
    token_entry e;
    e.grant = "authorization_code";
    e.access_token = access;
    e.refresh_token = refresh;
    e.obtained_at = unix_now() - 3600;
    e.expires_at = unix_now() - age;
    return e;
}

/// The files and flags of a replica: client id and secret, the fake as StoreApi's platform.
struct replica_setup {
    replica_setup(fake_auth_server& a, redis_server& r)
        : auth(a)
        , redis(r)
    {
        write_file(dir.file("secrets.env"),
            fmt::format("STORE_CLIENT_ID={}\nSTORE_CLIENT_SECRET={}\nDEPLOY_ACCESS_TOKEN=zqDeploy"
                        "-static-fake\n",
                fake_auth_options().client_id, fake_auth_options().client_secret));
    }
    std::vector<std::string> args(std::string const& deploy_url = "https://127.0.0.1:1") const
    {
        return { "--toolkits", "StoreApi,DeployApi", "--state-store", redis.url(), "--secrets-file",
            dir.file("secrets.env"), "--ca-file", fake_platform::ca_file(), "--base-url",
            "StoreApi=" + auth.url(""), "--base-url", "DeployApi=" + deploy_url, "--log-level",
            "debug", "--threads", "4" };
    }
    spawn_options env(std::string const& token_url) const
    {
        spawn_options s;
        s.env = { "TOOLGATE_OAUTH_TOKEN_URL_STOREAPI=" + token_url,
            "STORE_ACCESS_TOKEN=", std::string("TOOLGATE_STORE_KEY=") + store_key,
            "TOOLGATE_STORE_KEY_PREVIOUS=" };
        return s;
    }

    fake_auth_server& auth;
    redis_server& redis;
    temp_dir dir;
};

/// A stateless tools/call; the result object (the test fails on a protocol error).
json::object call(std::uint16_t port, std::string const& tool, std::string const& arguments,
    std::chrono::seconds timeout = std::chrono::seconds(10))
{
    auto headers = mcp_headers();
    auto const modern = modern_headers("tools/call", tool);
    headers.insert(headers.end(), modern.begin(), modern.end());
    auto response = http_request(
        port, "POST", "/mcp", headers, call_request("1", tool, arguments, modern_meta()), timeout);
    auto msg = rpc_body(response);
    INFO(response.body);
    REQUIRE(msg.as_object().contains("result"));
    return msg.at("result").as_object();
}

bool is_error(json::object const& result)
{
    auto const* flag = result.if_contains("isError");
    return flag != nullptr && flag->as_bool();
}

std::string text_of(json::object const& result)
{
    return std::string(result.at("content").as_array()[0].at("text").as_string());
}

std::string const invite_args = R"({"invite_id":"i1"})";

void check_no_secret_in_logs(std::string const& text, fake_auth_server const& auth)
{
    for (auto const& t : auth.access_tokens()) {
        CHECK(text.find(t) == std::string::npos);
    }
    for (auto const& t : auth.refresh_tokens()) {
        CHECK(text.find(t) == std::string::npos);
    }
    CHECK(text.find(store_key) == std::string::npos);
}

/// Every key and value in Redis, as one text.
std::string dump(redis_server const& redis)
{
    std::string out;
    std::istringstream keys_text(redis.cli({ "--scan" }));
    std::string key;
    while (std::getline(keys_text, key)) {
        auto const type = redis.cli({ "TYPE", key });
        out += key + " " + type + redis.cli({ type.starts_with("hash") ? "HGETALL" : "GET", key })
            + "\n";
    }
    return out;
}

/// A TCP server on 127.0.0.1 that accepts connections and never answers: a token endpoint a
/// renewal waits on for as long as its deadline.
class black_hole {
public:
    black_hole()
    {
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr {};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof addr;
        REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
        REQUIRE(::listen(fd_, 16) == 0);
        REQUIRE(::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) == 0);
        port_ = ntohs(addr.sin_port);
    }
    ~black_hole() { ::close(fd_); }
    black_hole(black_hole const&) = delete;
    black_hole& operator=(black_hole const&) = delete;
    std::string url() const { return fmt::format("https://127.0.0.1:{}/token", port_); }

private:
    int fd_ = -1;
    std::uint16_t port_ = 0;
};

} // namespace

TEST_CASE("replicas sharing Redis: 20 calls over both after expiry make one refresh grant, and "
          "Redis holds no token in the clear",
    "[auth][redis][replicas]")
{
    redis_server redis;
    fake_auth_server auth;
    auth.set_token_delay(std::chrono::milliseconds(300)); // the calls pile up on the renewal
    replica_setup setup(auth, redis);
    seed(redis, "StoreApi", expired_sign_in(auth, 10));
    http_server_process a(toolgate_bin, setup.args(), setup.env(auth.url("/token")));
    http_server_process b(toolgate_bin, setup.args(), setup.env(auth.url("/token")));

    // The threads only send; the answers are read here: Catch's assertions and INFO are not
    // thread-safe (from 20 threads they corrupted its message stack).
    std::vector<std::future<http_response>> calls;
    for (int i = 0; i < 20; ++i) {
        auto const port = i % 2 == 0 ? a.port() : b.port();
        calls.push_back(std::async(std::launch::async, [port] {
            return mcp_post(port, call_request("1", invite_tool, invite_args, modern_meta()), {},
                modern_headers("tools/call", invite_tool));
        }));
    }
    int ok = 0;
    for (auto& c : calls) {
        auto result = rpc_body(c.get()).at("result").as_object();
        INFO(text_of(result));
        ok += !is_error(result);
    }
    INFO(a.process().stderr_text() << "\n---\n" << b.process().stderr_text());
    CHECK(ok == 20);
    CHECK(auth.token_requests("refresh_token") == 1);
    // Every call reached the platform with the one renewed token.
    auto const seen = auth.api_tokens();
    CHECK(std::count(seen.begin(), seen.end(), auth.access_tokens().back()) == 20);
    check_no_secret_in_logs(a.process().stderr_text() + b.process().stderr_text(), auth);
    auto const everything = dump(redis);
    CHECK(everything.find("toolgate:tokens:server") != std::string::npos);
    for (auto const& t : auth.access_tokens()) {
        CHECK(everything.find(t) == std::string::npos);
    }
    for (auto const& t : auth.refresh_tokens()) {
        CHECK(everything.find(t) == std::string::npos);
    }
}

TEST_CASE("a lease holder killed mid-renewal: the other replica renews once, after the lease",
    "[auth][redis][replicas]")
{
    redis_server redis;
    fake_auth_server auth;
    black_hole stuck;
    replica_setup setup(auth, redis);
    seed(redis, "StoreApi", expired_sign_in(auth, 10));
    // The holder's token endpoint never answers: it takes the lease and waits.
    auto holder
        = std::make_unique<http_server_process>(toolgate_bin, setup.args(), setup.env(stuck.url()));
    http_server_process other(toolgate_bin, setup.args(), setup.env(auth.url("/token")));
    auto const holder_port = holder->port();
    auto hung = std::async(std::launch::async, [holder_port] {
        return http_request(holder_port, "POST", "/mcp",
            { { "Content-Type", "application/json" },
                { "Accept", "application/json, text/event-stream" },
                { "MCP-Protocol-Version", "2026-07-28" }, { "Mcp-Method", "tools/call" },
                { "Mcp-Name", invite_tool } },
            call_request("1", invite_tool, invite_args, modern_meta()), std::chrono::seconds(20));
    });
    bool leased = false;
    for (int i = 0; i < 100 && !leased; ++i) {
        leased = redis.cli({ "EXISTS", "toolgate:lease:server:StoreApi" }) == "1\n";
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    REQUIRE(leased);
    holder->process().signal(SIGKILL);
    holder.reset();
    hung.wait();
    auto const started = std::chrono::steady_clock::now();
    auto result = call(other.port(), invite_tool, invite_args, std::chrono::seconds(30));
    auto const waited = std::chrono::steady_clock::now() - started;
    INFO(text_of(result) << "\n" << other.process().stderr_text());
    CHECK_FALSE(is_error(result));
    CHECK(auth.token_requests("refresh_token") == 1); // the dead holder's never arrived
    CHECK(waited < std::chrono::seconds(14)); // within a lease (10 s) of the last extension
    bool released = false; // the winner lets its lease go once the tokens are saved
    for (int i = 0; i < 40 && !released; ++i) {
        released = redis.cli({ "EXISTS", "toolgate:lease:server:StoreApi" }) == "0\n";
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    CHECK(released);
    check_no_secret_in_logs(other.process().stderr_text(), auth);
}

TEST_CASE("Redis stopped: a call that needs it fails within 2 s saying so, another toolkit works, "
          "and it recovers",
    "[auth][redis][replicas]")
{
    redis_server redis;
    fake_auth_server auth;
    fake_platform deploy; // a toolkit with a static key: no store involved
    replica_setup setup(auth, redis);
    seed(redis, "StoreApi", expired_sign_in(auth, -3600)); // live for an hour
    http_server_process server(
        toolgate_bin, setup.args(deploy.url("")), setup.env(auth.url("/token")));
    redis.kill();
    std::this_thread::sleep_for(std::chrono::milliseconds(200)); // the replica sees it go
    auto const started = std::chrono::steady_clock::now();
    auto refused = call(server.port(), invite_tool, invite_args);
    auto const took = std::chrono::steady_clock::now() - started;
    INFO(text_of(refused) << "\n" << server.process().stderr_text());
    CHECK(is_error(refused));
    CHECK(text_of(refused).find("shared token store") != std::string::npos);
    CHECK(text_of(refused).find("unavailable") != std::string::npos);
    CHECK(took < std::chrono::seconds(2));
    auto other = call(server.port(), "DeployApi_CheckRemoteCachingStatus", "{}");
    INFO(text_of(other));
    CHECK_FALSE(is_error(other));
    auto ready = http_request(server.port(), "GET", "/readyz");
    CHECK(ready.status == 200);
    CHECK(ready.body.find(R"("state_store":"unavailable")") != std::string::npos);

    redis.start(); // empty: nothing persisted, so the sign-in is written again
    seed(redis, "StoreApi", expired_sign_in(auth, -3600));
    bool back = false;
    for (int i = 0; i < 60 && !back; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        back = !is_error(call(server.port(), invite_tool, invite_args));
    }
    CHECK(back);
    CHECK(auth.token_requests() == 0); // live tokens: used as they are
    check_no_secret_in_logs(server.process().stderr_text(), auth);
}

TEST_CASE(
    "toolgate auth with --state-store reads and removes the replicas' sign-ins", "[auth][redis]")
{
    redis_server redis;
    fake_auth_server auth;
    seed(redis, "StoreApi", expired_sign_in(auth, -3600));
    spawn_options env;
    env.env = { std::string("TOOLGATE_STORE_KEY=") + store_key };
    auto run = [&](std::vector<std::string> args) {
        args.insert(args.end(), { "--state-store", redis.url() });
        child_process cli(toolgate_bin, args, env);
        std::string out;
        while (auto line = cli.read_line(std::chrono::seconds(10))) {
            out += *line + "\n";
        }
        CHECK(cli.wait_exit() == 0);
        return out + cli.stderr_text();
    };
    auto status = run({ "auth", "status" });
    INFO(status);
    CHECK(status.find("shared token store (Redis at 127.0.0.1:") != std::string::npos);
    CHECK(status.find("StoreApi: ") != std::string::npos);
    CHECK(status.find("signed in (authorization_code)") != std::string::npos);
    auto logout = run({ "auth", "logout", "StoreApi" });
    INFO(logout);
    CHECK(logout.find("Signed out of StoreApi") != std::string::npos);
    CHECK(redis.cli({ "HEXISTS", "toolgate:tokens:server", "StoreApi" }) == "0\n");
    check_no_secret_in_logs(status + logout, auth);
}
