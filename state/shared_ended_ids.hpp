// Ended session ids shared by replicas: a DELETE on one is final on all. Without a shared
// store each replica's own table (state/ended_ids.hpp) is all there is; with Redis, each
// ended id is a key that expires with the id itself.
#pragma once

#include "common/result.hpp"
#include "state/ended_ids.hpp"

#include <boost/asio/awaitable.hpp>

#include <cstdint>
#include <memory>

namespace toolgate::state {

class redis_client;

class shared_ended_ids {
public:
    virtual ~shared_ended_ids() = default;
    /// Whether any replica ended the id of `digest`; a problem when the store cannot say.
    virtual boost::asio::awaitable<common::checked<bool>> is_ended(id_digest digest) = 0;
    /// Records the id as ended until `until` (Unix seconds). True when this call ended it,
    /// false when a replica had already.
    virtual boost::asio::awaitable<common::checked<bool>> mark_ended(
        id_digest digest, std::int64_t until)
        = 0;
};

/// `toolgate:ended:<hex digest>` keys, each expiring at its id's own expiry (SET NX EXAT).
class redis_ended_ids final : public shared_ended_ids {
public:
    explicit redis_ended_ids(std::shared_ptr<redis_client> client);
    boost::asio::awaitable<common::checked<bool>> is_ended(id_digest digest) override;
    boost::asio::awaitable<common::checked<bool>> mark_ended(
        id_digest digest, std::int64_t until) override;

private:
    std::shared_ptr<redis_client> client_;
};

} // namespace toolgate::state
