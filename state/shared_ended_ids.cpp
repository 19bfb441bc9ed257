// Ended session ids in Redis (see shared_ended_ids.hpp).
#include "state/shared_ended_ids.hpp"

#include "state/redis_client.hpp"
#include "state/store_keys.hpp"

namespace toolgate::state {
namespace asio = boost::asio;

namespace {

common::problem refused(redis_reply const& reply)
{
    return common::problem_of("the state store refused a command: " + reply.text.substr(0, 120));
}

} // namespace

redis_ended_ids::redis_ended_ids(std::shared_ptr<redis_client> client)
    : client_(std::move(client))
{
}

asio::awaitable<common::checked<bool>> redis_ended_ids::is_ended(id_digest digest)
{
    std::vector<std::string> args { std::string("EXISTS"), ended_key(digest) };
    auto reply = co_await client_->command(std::move(args));
    if (!reply) {
        co_return reply.error();
    }
    if (reply->is_error()) {
        co_return refused(*reply);
    }
    co_return reply->integer > 0;
}

asio::awaitable<common::checked<bool>> redis_ended_ids::mark_ended(
    id_digest digest, std::int64_t until)
{
    // NX: the first replica to end an id is the one whose DELETE succeeded; EXAT: the key goes
    // when the id would be refused by its age anyway.
    std::vector<std::string> args { std::string("SET"), ended_key(digest), std::string("1"),
        std::string("NX"), std::string("EXAT"), std::to_string(until) };
    auto reply = co_await client_->command(std::move(args));
    if (!reply) {
        co_return reply.error();
    }
    if (reply->is_error()) {
        co_return refused(*reply);
    }
    co_return !reply->is_nil();
}

} // namespace toolgate::state
