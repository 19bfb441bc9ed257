// The Redis client (see redis_client.hpp). hiredis owns the socket and the protocol; Asio only
// tells it when the socket is ready. Everything that touches the hiredis context runs on
// strand_, because hiredis is not thread-safe.
#include "state/redis_client.hpp"

#include "transport/coroutine_root.hpp"
#include "transport/run_on.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <hiredis/async.h>
#include <hiredis/hiredis.h>
#include <optional>
#include <random>

namespace toolgate::state {
namespace asio = boost::asio;
using common::checked;
using common::problem_of;

/// The socket as Asio sees it. hiredis says what it wants (read, write) through the hooks
/// below; a wait per direction is kept outstanding while it wants it. Handlers hold the watch
/// alive; `context` turns null when hiredis frees the connection, after which they do nothing.
struct redis_client::watch : std::enable_shared_from_this<redis_client::watch> {
    watch(strand_type const& strand, int fd)
        : descriptor(strand, fd)
    {
    }
    redis_client* owner = nullptr;
    redisAsyncContext* context = nullptr;
    asio::posix::stream_descriptor descriptor;
    bool want_read = false;
    bool want_write = false;
    bool reading = false; ///< a read wait is outstanding
    bool writing = false;
};

/// A command waiting for its reply; shared by the waiting coroutine and hiredis's callback.
struct redis_client::pending {
    explicit pending(strand_type const& strand)
        : timer(strand)
    {
    }
    enum class state { waiting, answered, lost, abandoned };
    asio::steady_timer timer; ///< the deadline; cancelled when the reply comes
    state now = state::waiting;
    redis_reply reply;
};

namespace {

using watch = redis_client::watch;
using pending = redis_client::pending;

redis_reply convert(redisReply const& r)
{
    redis_reply out;
    switch (r.type) {
    case REDIS_REPLY_STRING:
        out.type = redis_reply::kind::string;
        out.text.assign(r.str, r.len);
        break;
    case REDIS_REPLY_STATUS:
        out.type = redis_reply::kind::status;
        out.text.assign(r.str, r.len);
        break;
    case REDIS_REPLY_ERROR:
        out.type = redis_reply::kind::error;
        out.text.assign(r.str, r.len);
        break;
    case REDIS_REPLY_INTEGER:
        out.type = redis_reply::kind::integer;
        out.integer = r.integer;
        break;
    case REDIS_REPLY_ARRAY:
        out.type = redis_reply::kind::array;
        for (std::size_t i = 0; i < r.elements; ++i) {
            out.elements.push_back(convert(*r.element[i]));
        }
        break;
    default:
        break; // nil
    }
    return out;
}

void on_reply(redisAsyncContext* /*context*/, void* reply, void* privdata)
{
    // hiredis calls each command's callback exactly once: with the reply, or with null when
    // the connection goes first.
    std::unique_ptr<std::shared_ptr<pending>> holder(
        static_cast<std::shared_ptr<pending>*>(privdata));
    auto& p = **holder;
    if (p.now != pending::state::waiting) {
        return; // its waiter gave up already
    }
    if (reply != nullptr) {
        p.reply = convert(*static_cast<redisReply*>(reply));
        p.now = pending::state::answered;
    } else {
        p.now = pending::state::lost;
    }
    p.timer.cancel();
}

void arm(std::shared_ptr<watch> const& w, bool read)
{
    bool& busy = read ? w->reading : w->writing;
    if (busy || w->context == nullptr) {
        return;
    }
    busy = true;
    w->descriptor.async_wait(
        read ? asio::posix::descriptor_base::wait_read : asio::posix::descriptor_base::wait_write,
        [w, read](boost::system::error_code ec) {
            (read ? w->reading : w->writing) = false;
            if (ec || w->context == nullptr || !(read ? w->want_read : w->want_write)) {
                return;
            }
            if (read) {
                redisAsyncHandleRead(w->context);
            } else {
                redisAsyncHandleWrite(w->context);
            }
            // hiredis may have freed the context meanwhile, or lost interest.
            if (w->context != nullptr && (read ? w->want_read : w->want_write)) {
                arm(w, read);
            }
        });
}

constexpr std::string_view what_auth = "the password";
constexpr std::string_view what_select = "the database number";
constexpr std::string_view what_ping = "PING";

/// Whether a set-up command went through; what Redis said when it did not.
checked<void> accepted(checked<redis_reply> const& r, std::string_view what)
{
    if (!r) {
        return r.error();
    }
    if (r->is_error()) {
        auto const text = r->text.substr(0, 120);
        if (text.starts_with("NOAUTH")) {
            return problem_of("Redis asks for a password: give it in the --state-store URL "
                              "or in TOOLGATE_REDIS_PASSWORD");
        }
        return problem_of(fmt::format("Redis refused {}: {}", what, text));
    }
    return {};
}

watch* watch_of(void* privdata)
{
    return static_cast<watch*>(privdata);
}

void add_read(void* privdata)
{
    watch_of(privdata)->want_read = true;
    arm(watch_of(privdata)->shared_from_this(), true);
}

void del_read(void* privdata)
{
    watch_of(privdata)->want_read = false;
}

void add_write(void* privdata)
{
    watch_of(privdata)->want_write = true;
    arm(watch_of(privdata)->shared_from_this(), false);
}

void del_write(void* privdata)
{
    watch_of(privdata)->want_write = false;
}

} // namespace

/// hiredis is freeing the connection (it closes the socket itself right after).
static void cleanup_hook(void* privdata)
{
    auto* w = watch_of(privdata);
    auto* owner = w->owner;
    if (w->context != nullptr && w->context->err != 0 && w->context->errstr[0] != '\0') {
        owner->note_problem(w->context->errstr);
    }
    w->context = nullptr;
    w->want_read = w->want_write = false;
    w->descriptor.release(); // cancels the waits; hiredis owns the descriptor
    owner->on_context_gone();
}

std::shared_ptr<redis_client> redis_client::make(
    asio::any_io_executor executor, redis_endpoint endpoint, redis_client_options o)
{
    return std::shared_ptr<redis_client>(
        new redis_client(std::move(executor), std::move(endpoint), o));
}

redis_client::redis_client(
    asio::any_io_executor executor, redis_endpoint endpoint, redis_client_options options)
    : strand_(asio::make_strand(executor))
    , endpoint_(std::move(endpoint))
    , options_(options)
    , lost_(strand_)
{
}

redis_client::~redis_client()
{
    if (context_ != nullptr) {
        // hiredis closes the socket itself: the descriptor lets go of it first, and the
        // hooks must not call back into an object being destroyed.
        context_->ev.cleanup = nullptr;
        if (watch_) {
            watch_->context = nullptr;
            (void)watch_->descriptor.release();
        }
        redisAsyncFree(context_);
    }
}

void redis_client::start()
{
    asio::co_spawn(strand_, keep_connected(), transport::logged { "state store connection" });
}

void redis_client::stop()
{
    asio::post(strand_, [self = shared_from_this()] {
        self->stopped_ = true;
        self->drop("the server is stopping");
        self->lost_.cancel();
    });
}

redis_status redis_client::status() const
{
    redis_status out;
    out.connected = ready_.load();
    out.commands = commands_.load();
    out.failures = failures_.load();
    out.connects = connects_.load();
    return out;
}

void redis_client::note_problem(std::string why)
{
    last_problem_ = std::move(why);
}

void redis_client::on_context_gone()
{
    context_ = nullptr;
    watch_.reset();
    ready_ = false;
    lost_.cancel();
}

void redis_client::drop(std::string const& why)
{
    if (context_ != nullptr) {
        last_problem_ = why;
        redisAsyncFree(context_); // fails its pending commands; cleanup_hook clears context_
    }
}

asio::awaitable<checked<redis_reply>> redis_client::command(std::vector<std::string> args)
{
    auto self = shared_from_this(); // alive until the command is over
    co_return co_await transport::run_on(strand_, self->run(std::move(args), false));
}

asio::awaitable<void> redis_client::wait_for_first_connection()
{
    // Not connected yet since start-up: the first connection is on its way, so the first
    // calls wait for it (within a command's deadline) rather than fail.
    asio::steady_timer poll(strand_);
    auto const give_up = std::chrono::steady_clock::now() + options_.command_timeout;
    while (!ready_ && !first_attempt_done_ && std::chrono::steady_clock::now() < give_up) {
        poll.expires_after(std::chrono::milliseconds(10));
        co_await poll.async_wait(asio::as_tuple(asio::use_awaitable));
    }
}

asio::awaitable<checked<redis_reply>> redis_client::run(std::vector<std::string> args, bool setup)
{
    auto const unavailable = [&](std::string_view why) {
        if (setup) {
            return problem_of(std::string(why)); // the connection's own log line names Redis
        }
        ++failures_;
        return problem_of(fmt::format(
            "the state store (Redis at {}) is unavailable: {}", endpoint_.describe(), why));
    };
    if (!setup && !ready_ && !first_attempt_done_ && !stopped_) {
        co_await wait_for_first_connection();
    }
    if (context_ == nullptr || (!setup && !ready_)) {
        if (!setup) {
            ++commands_;
            if (auto* observer = observer_.load()) {
                observer->on_command(std::chrono::nanoseconds(0), false);
            }
        }
        co_return unavailable(last_problem_.empty() ? std::string("not connected yet")
                                                    : "not connected (" + last_problem_ + ")");
    }
    std::vector<char const*> argv;
    std::vector<std::size_t> lengths;
    for (auto const& a : args) {
        argv.push_back(a.data());
        lengths.push_back(a.size());
    }
    auto p = std::make_shared<pending>(strand_);
    auto holder = std::make_unique<std::shared_ptr<pending>>(p);
    if (redisAsyncCommandArgv(context_, &on_reply, holder.get(), static_cast<int>(argv.size()),
            argv.data(), lengths.data())
        != REDIS_OK) {
        co_return unavailable("the connection is closing");
    }
    (void)holder.release(); // on_reply owns it now
    auto const started = std::chrono::steady_clock::now();
    auto const deadline = setup ? options_.connect_timeout : options_.command_timeout;
    if (p->now == pending::state::waiting) {
        p->timer.expires_after(deadline);
        co_await p->timer.async_wait(asio::as_tuple(asio::use_awaitable));
    }
    auto const state = p->now;
    if (state == pending::state::waiting) {
        p->now = pending::state::abandoned;
        // No answer in time: Redis is stuck or the network is. Whatever else is queued on this
        // connection would wait as long, so it goes, and a new one is made.
        drop(fmt::format("no answer within {} ms", deadline.count()));
    }
    if (!setup) {
        ++commands_;
        if (auto* observer = observer_.load()) {
            observer->on_command(
                std::chrono::steady_clock::now() - started, state == pending::state::answered);
        }
    }
    if (state != pending::state::answered) {
        co_return unavailable(state == pending::state::waiting
                ? fmt::format("no answer within {} ms", deadline.count())
                : "the connection was lost (" + last_problem_ + ")");
    }
    co_return std::move(p->reply);
}

asio::awaitable<checked<void>> redis_client::handshake()
{
    if (!endpoint_.password.empty()) {
        std::vector<std::string> auth { std::string("AUTH") };
        if (!endpoint_.user.empty()) {
            auth.push_back(endpoint_.user);
        }
        auth.push_back(endpoint_.password);
        auto const answer = co_await run(std::move(auth), true);
        if (auto ok = accepted(answer, what_auth); !ok) {
            co_return ok;
        }
    }
    if (endpoint_.db != 0) {
        std::vector<std::string> select { std::string("SELECT"), std::to_string(endpoint_.db) };
        auto const answer = co_await run(std::move(select), true);
        if (auto ok = accepted(answer, what_select); !ok) {
            co_return ok;
        }
    }
    std::vector<std::string> ping { std::string("PING") };
    auto const answer = co_await run(std::move(ping), true);
    co_return accepted(answer, what_ping);
}

asio::awaitable<checked<void>> redis_client::connect_once()
{
    // The name is resolved by Asio (its resolver thread), so that hiredis is handed an address
    // and never calls a blocking getaddrinfo on our threads.
    asio::ip::tcp::resolver resolver(strand_);
    auto [ec, found] = co_await resolver.async_resolve(
        endpoint_.host, std::to_string(endpoint_.port), asio::as_tuple(asio::use_awaitable));
    if (ec || found.empty()) {
        co_return problem_of(fmt::format("cannot resolve the host: {}", ec.message()));
    }
    auto const address = found.begin()->endpoint().address().to_string();
    auto* context = redisAsyncConnect(address.c_str(), endpoint_.port);
    if (context == nullptr) {
        co_return problem_of("out of memory");
    }
    if (context->err != 0) {
        auto why = std::string(context->errstr);
        redisAsyncFree(context);
        co_return problem_of(why);
    }
    context_ = context;
    watch_ = std::make_shared<watch>(strand_, context->c.fd);
    watch_->owner = this;
    watch_->context = context;
    context->ev.data = watch_.get();
    context->ev.addRead = add_read;
    context->ev.delRead = del_read;
    context->ev.addWrite = add_write;
    context->ev.delWrite = del_write;
    context->ev.cleanup = cleanup_hook;
    auto made = co_await handshake(); // its first command asks for the socket's writability,
                                      // which finishes the non-blocking connect
    if (!made) {
        drop(made.error().message);
    }
    co_return made;
}

asio::awaitable<void> redis_client::keep_connected()
{
    auto self = shared_from_this();
    auto backoff = options_.first_backoff;
    asio::steady_timer pause(strand_);
    std::minstd_rand jitter(std::random_device {}());
    bool reported = false; // one warning per outage; the rest at debug level
    while (!stopped_) {
        auto made = co_await connect_once();
        first_attempt_done_ = true;
        if (made) {
            ready_ = true;
            ++connects_;
            backoff = options_.first_backoff;
            reported = false;
            last_problem_.clear();
            spdlog::info("state store: connected to Redis at {}", endpoint_.describe());
            lost_.expires_at(asio::steady_timer::time_point::max());
            if (context_ != nullptr) {
                co_await lost_.async_wait(asio::as_tuple(asio::use_awaitable));
            }
            ready_ = false;
            if (stopped_) {
                break;
            }
            spdlog::warn("state store: connection to Redis at {} lost ({}); reconnecting",
                endpoint_.describe(), last_problem_);
            reported = true;
        } else {
            last_problem_ = made.error().message;
            if (reported) {
                spdlog::debug("state store: Redis at {}: {}", endpoint_.describe(), last_problem_);
            } else {
                spdlog::warn("state store: cannot use Redis at {}: {}; retrying with backoff",
                    endpoint_.describe(), last_problem_);
                reported = true;
            }
        }
        std::uniform_real_distribution<double> spread(0.8, 1.2);
        pause.expires_after(
            std::chrono::duration_cast<std::chrono::milliseconds>(backoff * spread(jitter)));
        co_await pause.async_wait(asio::as_tuple(asio::use_awaitable));
        backoff = std::min(backoff * 2, options_.max_backoff);
    }
}

} // namespace toolgate::state
