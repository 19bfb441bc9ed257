// Tokens and renewal leases in the shared state store (see shared_token_store.hpp).
#include "credentials/shared_token_store.hpp"

#include "common/random.hpp"
#include "state/ended_ids.hpp"
#include "state/redis_client.hpp"
#include "state/store_keys.hpp"
#include "transport/coroutine_root.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <atomic>

namespace toolgate::credentials {
namespace asio = boost::asio;
using common::checked;
using common::problem_of;
using state::redis_client;
using state::redis_reply;

namespace {

/// Extends a lease only while it is still ours; deletes it only while it is still ours.
constexpr std::string_view extend_script = "if redis.call('get', KEYS[1]) == ARGV[1] then "
                                           "return redis.call('pexpire', KEYS[1], ARGV[2]) "
                                           "else return 0 end";
constexpr std::string_view release_script = "if redis.call('get', KEYS[1]) == ARGV[1] then "
                                            "return redis.call('del', KEYS[1]) else return 0 end";

std::string random_owner()
{
    state::id_digest d;
    common::fill_random(d.bytes);
    return state::hex_of(d);
}

/// A reply or its failure as a problem (an error reply included).
checked<redis_reply> answered(checked<redis_reply> reply)
{
    if (reply && reply->is_error()) {
        return problem_of("the state store refused a command: " + reply->text.substr(0, 120));
    }
    return reply;
}

asio::awaitable<checked<redis_reply>> run(
    std::shared_ptr<redis_client> client, std::vector<std::string> args)
{
    co_return answered(co_await client->command(std::move(args)));
}

asio::awaitable<void> release_lease(
    std::shared_ptr<redis_client> client, std::string key, std::string owner)
{
    std::vector<std::string> args { std::string("EVAL"), std::string(release_script),
        std::string("1"), std::move(key), std::move(owner) };
    auto done = co_await run(client, std::move(args));
    if (!done) {
        spdlog::debug(
            "renewal lease not released ({}): it expires by itself", done.error().message);
    }
}

/// Extends the lease every third of its length while `alive`; stops when it is lost.
asio::awaitable<void> keep_lease(std::shared_ptr<redis_client> client, std::string key,
    std::string owner, std::chrono::milliseconds lease, std::shared_ptr<std::atomic<bool>> alive)
{
    asio::steady_timer pause(co_await asio::this_coro::executor);
    for (;;) {
        pause.expires_after(lease / 3);
        co_await pause.async_wait(asio::as_tuple(asio::use_awaitable));
        if (!*alive) {
            co_return;
        }
        std::vector<std::string> args { std::string("EVAL"), std::string(extend_script),
            std::string("1"), key, owner, std::to_string(lease.count()) };
        auto extended = co_await run(client, std::move(args));
        if (!extended || extended->integer == 0) {
            spdlog::warn("a token renewal outlived its lease: another replica may renew too");
            co_return;
        }
    }
}

/// A renewal lease held: extended while it lives, released when it goes.
struct lease_hold {
    lease_hold(
        std::shared_ptr<redis_client> c, std::string k, std::string o, asio::any_io_executor ex)
        : client(std::move(c))
        , key(std::move(k))
        , owner(std::move(o))
        , executor(std::move(ex))
    {
    }
    std::shared_ptr<redis_client> client;
    std::string key;
    std::string owner;
    asio::any_io_executor executor;
    std::shared_ptr<std::atomic<bool>> alive = std::make_shared<std::atomic<bool>>(true);

    lease_hold(lease_hold const&) = delete;
    lease_hold& operator=(lease_hold const&) = delete;
    ~lease_hold()
    {
        *alive = false;
        asio::co_spawn(
            executor, release_lease(client, key, owner), transport::logged { "lease release" });
    }
};

} // namespace

shared_token_store::shared_token_store(std::shared_ptr<redis_client> client, state::store_keys keys,
    std::string principal, std::chrono::milliseconds lease)
    : client_(std::move(client))
    , keys_(keys)
    , principal_(std::move(principal))
    , lease_(lease)
{
}

std::shared_ptr<token_backend> shared_token_store::for_principal(std::string principal) const
{
    return std::make_shared<shared_token_store>(client_, keys_, std::move(principal), lease_);
}

std::string shared_token_store::where() const
{
    return fmt::format("shared token store (Redis at {})", client_->endpoint().describe());
}

std::chrono::seconds shared_token_store::patience() const
{
    return std::chrono::duration_cast<std::chrono::seconds>(lease_) + std::chrono::seconds(5);
}

std::string shared_token_store::tokens_key() const
{
    if (principal_.empty()) {
        return std::string(state::key_prefix) + "tokens:server";
    }
    // Principals are names from client authentication: a digest keeps any character out of
    // the key.
    return std::string(state::key_prefix)
        + "tokens:principal:" + state::hex_of(state::digest_of(principal_));
}

std::string shared_token_store::lease_key(std::string const& toolkit) const
{
    auto const tokens = tokens_key();
    return std::string(state::key_prefix) + "lease:" + tokens.substr(state::key_prefix.size() + 7)
        + ":" + toolkit;
}

std::string shared_token_store::context(std::string const& toolkit) const
{
    // Bound into each sealed value: copied under another principal or toolkit, it does not open.
    return "toolgate-tokens/1\n" + principal_ + "\n" + toolkit;
}

asio::awaitable<checked<token_entries>> shared_token_store::read()
{
    std::vector<std::string> args { std::string("HGETALL"), tokens_key() };
    auto reply = co_await run(client_, std::move(args));
    if (!reply) {
        co_return reply.error();
    }
    token_entries out;
    auto const& items = reply->elements;
    for (std::size_t i = 0; i + 1 < items.size(); i += 2) {
        auto const& toolkit = items[i].text;
        auto opened = state::unseal(keys_, items[i + 1].text, context(toolkit));
        if (!opened) {
            co_return problem_of(fmt::format("{}: {}", toolkit, opened.error().message));
        }
        try {
            // One entry in the token file's format, under the server's own name within it
            // (the principal is the hash's).
            auto one = parse_tokens(*opened, tokens_key())[""];
            if (auto it = one.find(toolkit); it != one.end()) {
                out.emplace(toolkit, it->second);
            }
        } catch (std::exception const& e) {
            co_return problem_of(e.what());
        }
    }
    co_return out;
}

asio::awaitable<lock_attempt> shared_token_store::try_hold(std::string toolkit)
{
    auto owner = random_owner();
    std::vector<std::string> args { std::string("SET"), lease_key(toolkit), owner,
        std::string("NX"), std::string("PX"), std::to_string(lease_.count()) };
    auto taken = co_await run(client_, std::move(args));
    lock_attempt out;
    if (!taken) {
        out.stored = taken.error();
        co_return out;
    }
    if (taken->is_nil()) {
        co_return out; // another replica holds it
    }
    auto const executor = co_await asio::this_coro::executor;
    auto hold = std::make_shared<lease_hold>(client_, lease_key(toolkit), owner, executor);
    asio::co_spawn(executor, keep_lease(client_, hold->key, owner, lease_, hold->alive),
        transport::logged { "lease extension" });
    out.stored = co_await read();
    out.held = std::move(hold);
    co_return out;
}

asio::awaitable<checked<void>> shared_token_store::write(std::string toolkit, token_entry entry)
{
    token_book one;
    one[""].emplace(toolkit, std::move(entry));
    auto sealed = state::seal(keys_, serialize_tokens(one), context(toolkit));
    std::vector<std::string> args { std::string("HSET"), tokens_key(), toolkit, std::move(sealed) };
    auto done = co_await run(client_, std::move(args));
    if (!done) {
        co_return done.error();
    }
    co_return checked<void> {};
}

asio::awaitable<checked<void>> shared_token_store::erase(std::string toolkit)
{
    std::vector<std::string> args { std::string("HDEL"), tokens_key(), std::move(toolkit) };
    auto done = co_await run(client_, std::move(args));
    if (!done) {
        co_return done.error();
    }
    co_return checked<void> {};
}

} // namespace toolgate::credentials
