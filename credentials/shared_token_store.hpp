// The server's OAuth tokens in the state shared by replicas (--state-store): one Redis hash per
// principal, a field per toolkit holding its entry sealed with the store key (state/sealing.hpp),
// and one renewal across replicas: a lease per toolkit (SET NX PX) that its holder extends
// while it renews and deletes when done; a holder that dies loses it at expiry.
#pragma once

#include "credentials/token_backend.hpp"
#include "state/sealing.hpp"

#include <chrono>
#include <memory>
#include <string>

namespace toolgate::state {
class redis_client;
}

namespace toolgate::credentials {

class shared_token_store final : public token_backend,
                                 public std::enable_shared_from_this<shared_token_store> {
public:
    /// `principal` "" : the server's own sign-ins. `lease`: how long a hold lasts unless its
    /// holder extends it (every third of it while alive).
    shared_token_store(std::shared_ptr<state::redis_client> client, state::store_keys keys,
        std::string principal = {}, std::chrono::milliseconds lease = std::chrono::seconds(10));

    std::shared_ptr<token_backend> for_principal(std::string principal) const override;
    std::string where() const override;
    boost::asio::awaitable<common::checked<token_entries>> read() override;
    boost::asio::awaitable<lock_attempt> try_hold(std::string toolkit) override;
    boost::asio::awaitable<common::checked<void>> write(
        std::string toolkit, token_entry entry) override;
    boost::asio::awaitable<common::checked<void>> erase(std::string toolkit) override;
    /// Longer than a lease: a dead holder's lease expires within it, and a live one renews.
    std::chrono::seconds patience() const override;
    bool renews_after_patience() const override { return false; }

    /// The hash holding this principal's tokens, and a toolkit's lease (tests, operators).
    std::string tokens_key() const;
    std::string lease_key(std::string const& toolkit) const;

private:
    std::string context(std::string const& toolkit) const;

    std::shared_ptr<state::redis_client> client_;
    state::store_keys keys_;
    std::string principal_;
    std::chrono::milliseconds lease_;
};

} // namespace toolgate::credentials
