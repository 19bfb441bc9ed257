#include "mcp/conversation.hpp"

#include "protocol/versions.hpp"

#include <boost/asio/post.hpp>

namespace toolgate::mcp {
namespace asio = boost::asio;

void inflight_call::cancel(std::shared_ptr<inflight_call> const& self)
{
    cancelled = true;
    asio::post(executor, [self] { self->signal.emit(asio::cancellation_type::terminal); });
}

conversation::conversation(asio::any_io_executor executor)
    : strand_(asio::make_strand(executor))
{
}

protocol::outcome conversation::dispatch(protocol::dispatcher const& dispatcher,
    protocol::message const& msg, std::shared_ptr<protocol::tool_view const> const& view)
{
    std::lock_guard lock(mutex_);
    return dispatcher.dispatch(msg, session_, view);
}

void conversation::adopt(std::string version)
{
    std::lock_guard lock(mutex_);
    session_.initialized = true;
    session_.version = std::move(version);
}

std::string conversation::negotiated_version() const
{
    std::lock_guard lock(mutex_);
    return session_.version;
}

protocol::elicitation_modes conversation::elicitation() const
{
    std::lock_guard lock(mutex_);
    return session_.elicitation;
}

bool conversation::takes_batches() const
{
    std::lock_guard lock(mutex_);
    return session_.initialized && protocol::allows_batches(session_.version);
}

boost::system::result<std::shared_ptr<inflight_call>, conversation::refusal>
conversation::register_call(
    std::string const& key, asio::any_io_executor runs_on, std::size_t limit)
{
    return register_call(key, std::make_shared<inflight_call>(std::move(runs_on)), limit);
}

boost::system::result<std::shared_ptr<inflight_call>, conversation::refusal>
conversation::register_call(
    std::string const& key, std::shared_ptr<inflight_call> entry, std::size_t limit)
{
    std::lock_guard lock(mutex_);
    if (inflight_.contains(key)) {
        return refusal::duplicate_id;
    }
    if (inflight_.size() >= limit) {
        return refusal::full;
    }
    inflight_.emplace(key, entry);
    return entry;
}

void conversation::unregister_call(std::string const& key)
{
    std::lock_guard lock(mutex_);
    inflight_.erase(key);
}

void conversation::cancel_call(std::string const& key)
{
    std::shared_ptr<inflight_call> entry;
    {
        std::lock_guard lock(mutex_);
        auto it = inflight_.find(key);
        if (it == inflight_.end()) {
            return; // CN2: unknown or finished
        }
        entry = it->second;
    }
    entry->cancel(entry);
}

void conversation::cancel_all_calls()
{
    std::vector<std::shared_ptr<inflight_call>> entries;
    {
        std::lock_guard lock(mutex_);
        for (auto& [key, entry] : inflight_) {
            entries.push_back(entry);
        }
    }
    for (auto& entry : entries) {
        entry->cancel(entry);
    }
}

void conversation::end()
{
    cancel_all_calls();
    requests_.close();
    outbox_.close();
}

bool conversation::has_calls_in_flight() const
{
    std::lock_guard lock(mutex_);
    return !inflight_.empty();
}

} // namespace toolgate::mcp
