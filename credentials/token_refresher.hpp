// The server's token source: access tokens from the token store, renewed shortly before they
// expire (refresh token, or the client-credentials grant again) and once after a 401. A
// renewal is shared by every call that needs it at the time; rotated refresh tokens reach the
// store before anyone uses the new access token. The store is a token_backend: the file (its
// reads and writes on a thread of their own, never on a thread that serves requests) or the
// state shared by replicas, where one replica renews and the others use its new token.
#pragma once

#include "common/result.hpp"
#include "credentials/oauth_client.hpp"
#include "credentials/token_backend.hpp"
#include "credentials/token_store.hpp"
#include "toolkits/token_source.hpp"

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace toolgate::credentials {

class token_refresher final : public toolkits::token_source,
                              public std::enable_shared_from_this<token_refresher> {
public:
    using secrets_provider = std::function<std::shared_ptr<toolkits::credential_source const>()>;

    /// Loads `file` at once (throws std::invalid_argument when it is open to others or not a
    /// token store). `client` must outlive this object. `client_secrets` gives the current
    /// source of the client ids and secrets (it may be reloaded). Endpoints come from
    /// endpoints_for() (throws on a bad override).
    /// `lock_wait`: how long a renewal waits for another process's renewal lock before the
    /// calls waiting for it are answered (a still valid token, or "call again shortly"), so a
    /// held lock never makes a call outlast --call-timeout.
    token_refresher(transport::outbound_client& client, token_file file,
        secrets_provider client_secrets, oauth_client::clock now, bool allow_insecure = false,
        std::chrono::milliseconds lock_wait = std::chrono::seconds(10));
    /// Over another backend (the shared store): nothing is read now; the first call that needs
    /// a toolkit's tokens reads them.
    token_refresher(transport::outbound_client& client, std::shared_ptr<token_backend> backend,
        secrets_provider client_secrets, oauth_client::clock now, bool allow_insecure = false,
        std::chrono::milliseconds lock_wait = std::chrono::seconds(10));
    ~token_refresher() override;

    boost::asio::awaitable<toolkits::token_answer> access_token(
        std::string toolkit, std::string refused) override;

    /// Reads the file again (SIGHUP) and forgets refused sign-ins. Returns a summary for the
    /// log (toolkit names and states only). Throws std::invalid_argument, keeping the
    /// current tokens, when the file is bad.
    std::string reload();

    /// Reads the store again now, forgetting refused sign-ins (`toolgate auth`); a problem
    /// when it cannot be read (the tokens in hand are kept).
    boost::asio::awaitable<common::checked<void>> reread();

    /// What the store holds now (for `toolgate auth status`, tests).
    token_entries snapshot() const;
    /// The token file (`toolgate auth` writes it); over the shared store, the default path's,
    /// unused.
    token_file const& file() const { return file_; }
    token_backend& backend() { return *backend_; }
    oauth_client& client_for(std::string_view toolkit);

    /// Seconds before expiry at which a token is renewed: a quarter of its lifetime, at most
    /// two minutes, at least one second.
    static std::int64_t renew_margin(token_entry const& entry);
    /// After a renewal forced by a 401 gave a token the platform refuses too, the next forced
    /// renewal waits this long, doubling each time up to the maximum.
    static constexpr std::int64_t first_pause = 60;
    static constexpr std::int64_t longest_pause = 3600;

    struct flight; ///< one renewal and the calls waiting for it (internal)

private:
    struct state;
    /// What a call for a token does next (decided under the state's lock): use `answer`,
    /// report `refusal`, join the renewal `f` (starting it when `start`), or find no sign-in.
    struct step {
        std::shared_ptr<flight> f;
        bool start = false;
        std::string answer;
        std::string refusal;
        bool signed_in = false;
    };
    step next_step(std::string const& toolkit, std::string const& refused);
    boost::asio::awaitable<void> renew(std::string toolkit, std::shared_ptr<flight> f);
    boost::asio::awaitable<toolkits::token_answer> renewal(std::string toolkit, token_entry entry);
    boost::asio::awaitable<toolkits::token_answer> renew_with(
        std::string toolkit, token_entry entry);
    /// Whether a renewal for `refused` (a 401 to a token not yet expired) may start now.
    bool may_force(std::string const& toolkit, std::string const& refused) const;
    /// Remembers what a renewal forced by a 401 to `refused` gave.
    void remember_forced(
        std::string const& toolkit, std::string const& refused, std::string const& token);
    /// How long another has held `toolkit`'s renewal, counted over the renewals that found it
    /// held since it was last free; 0 once it is free (`busy` false).
    std::int64_t held_elsewhere_for(std::string const& toolkit, bool busy);
    /// Whether the store's tokens changed (and are now in hand); a problem when the shared
    /// store cannot be read.
    boost::asio::awaitable<common::checked<bool>> reload_if_changed();
    boost::asio::awaitable<void> read_store(std::shared_ptr<flight> f);
    boost::asio::awaitable<void> save(std::string toolkit, token_entry entry);
    /// Waits for `toolkit`'s renewal hold (see token_backend::patience); `entry` is the token
    /// in hand, used at once instead when another holds it and it has not expired.
    boost::asio::awaitable<lock_attempt> hold_for_renewal(
        std::string const& toolkit, token_entry const& entry, bool& use_current);
    void publish(std::string const& toolkit, std::shared_ptr<flight> const& f,
        toolkits::token_answer answer);

    transport::outbound_client& client_;
    token_file file_;
    std::shared_ptr<token_backend> backend_;
    bool shared_ = false; ///< the backend is the shared store, not file_
    secrets_provider client_secrets_;
    oauth_client::clock now_;
    std::chrono::milliseconds lock_wait_;
    std::unique_ptr<state> state_;
};

} // namespace toolgate::credentials
