// Access tokens from the token store, per principal and toolkit: the server's own (principal
// "", its token_source) and each client's (principal_tokens), renewed shortly before they
// expire (refresh token, or the client-credentials grant again) and once after a 401, never
// for another principal. A renewal is shared by every call that needs it at the time; rotated
// refresh tokens reach the store before anyone uses the new access token. The store is a
// token_backend: the file (its reads and writes on a thread of their own, never on a thread
// that serves requests) or the state shared by replicas, where one replica renews and the
// others use its new token; each principal's tokens are apart in either.
#pragma once

#include "common/result.hpp"
#include "credentials/oauth_client.hpp"
#include "credentials/token_backend.hpp"
#include "credentials/token_store.hpp"
#include "toolkits/token_source.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

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
    /// Over another backend (the shared store; `backend` holds the server's own tokens, and
    /// its for_principal() a client's): nothing is read now; the first call that needs a
    /// toolkit's tokens reads them.
    token_refresher(transport::outbound_client& client, std::shared_ptr<token_backend> backend,
        secrets_provider client_secrets, oauth_client::clock now, bool allow_insecure = false,
        std::chrono::milliseconds lock_wait = std::chrono::seconds(10));
    ~token_refresher() override;

    /// The server's own (principal ""): access_token_for("", ...).
    boost::asio::awaitable<toolkits::token_answer> access_token(
        std::string toolkit, std::string refused) override;
    bool has_token(std::string_view toolkit) const override { return has_token_for("", toolkit); }

    /// A usable access token of `principal` for `toolkit` (token_source::access_token's
    /// contract), from that principal's entry only.
    boost::asio::awaitable<toolkits::token_answer> access_token_for(
        std::string principal, std::string toolkit, std::string refused);
    /// Whether `principal` holds an entry for `toolkit` whose renewal was not refused for
    /// good, as this process knows it now (no read of the store).
    bool has_token_for(std::string_view principal, std::string_view toolkit) const;
    /// Saves a sign-in of `principal` (the store first, then this process's view). An error
    /// names the store and the reason.
    boost::asio::awaitable<common::checked<void>> store(
        std::string principal, std::string toolkit, token_entry entry);
    /// Removes `principal`'s entry for `toolkit` (signing out), from the store and this view.
    boost::asio::awaitable<common::checked<void>> forget(
        std::string principal, std::string toolkit);

    /// Reads the file again (SIGHUP) and forgets refused sign-ins. Returns a summary for the
    /// log (toolkit names and states; clients' sign-ins counted, never named). Throws
    /// std::invalid_argument, keeping the current tokens, when the file is bad.
    std::string reload();

    /// Reads `principal`'s tokens in the store again now, forgetting refused sign-ins
    /// (`toolgate auth`); a problem when it cannot be read (the tokens in hand are kept).
    boost::asio::awaitable<common::checked<void>> reread(std::string principal = {});

    /// What this process holds now: the server's own entries (for `toolgate auth status`,
    /// tests), and one principal's.
    token_entries snapshot() const { return snapshot_of(""); }
    token_entries snapshot_of(std::string_view principal) const;
    /// The token file (`toolgate auth` writes it); over the shared store, the default path's,
    /// unused.
    token_file const& file() const { return file_; }
    token_backend& backend() { return *backend_; }
    /// The backend holding `principal`'s tokens ("" : backend()).
    std::shared_ptr<token_backend> backend_of(std::string const& principal);
    oauth_client& client_for(std::string_view toolkit);

    /// Seconds before expiry at which a token is renewed: a quarter of its lifetime, at most
    /// two minutes, at least one second.
    static std::int64_t renew_margin(token_entry const& entry);
    /// After a renewal forced by a 401 gave a token the platform refuses too, the next forced
    /// renewal of that principal's entry waits this long, doubling each time up to the maximum.
    static constexpr std::int64_t first_pause = 60;
    static constexpr std::int64_t longest_pause = 3600;

    struct flight; ///< one renewal and the calls waiting for it (internal)

    /// Whose entry: a principal ("" the server's) and a toolkit.
    using key = std::pair<std::string, std::string>;

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
    step next_step(key const& k, std::string const& refused);
    boost::asio::awaitable<void> renew(key k, std::shared_ptr<flight> f);
    boost::asio::awaitable<toolkits::token_answer> renewal(key k, token_entry entry);
    boost::asio::awaitable<toolkits::token_answer> renew_with(key k, token_entry entry);
    /// Whether a renewal of `k` for `refused` (a 401 to a token not yet expired) may start
    /// now. Called with the state's lock held.
    bool may_force(key const& k, std::string const& refused) const;
    /// Remembers what a renewal of `k` forced by a 401 to `refused` gave.
    void remember_forced(key const& k, std::string const& refused, std::string const& token);
    /// How long another has held `k`'s renewal, counted over the renewals that found it held
    /// since it was last free; 0 once it is free (`busy` false).
    std::int64_t held_elsewhere_for(key const& k, bool busy);
    /// Whether `principal`'s tokens in the store changed (and are now in hand); a problem when
    /// the shared store cannot be read.
    boost::asio::awaitable<common::checked<bool>> reload_if_changed(std::string principal);
    boost::asio::awaitable<void> read_store(
        std::string principal, std::shared_ptr<token_backend> backend, std::shared_ptr<flight> f);
    boost::asio::awaitable<void> save(key k, token_entry entry);
    /// Waits for the renewal hold of `k` (see token_backend::patience); `entry` is the token
    /// in hand, used at once instead when another holds it and it has not expired.
    boost::asio::awaitable<lock_attempt> hold_for_renewal(
        key const& k, token_entry const& entry, bool& use_current);
    void publish(key const& k, std::shared_ptr<flight> const& f, toolkits::token_answer answer);

    transport::outbound_client& client_;
    token_file file_;
    std::shared_ptr<token_backend> backend_;
    bool shared_ = false; ///< the backend is the shared store, not file_
    secrets_provider client_secrets_;
    oauth_client::clock now_;
    std::chrono::milliseconds lock_wait_;
    std::unique_ptr<state> state_;
};

/// One client principal's token source: its own sign-ins, then, when `shared`, the server's.
/// Handed to that principal's calls only (credential_hub::for_request), so a token stored for
/// one principal never serves another.
class principal_tokens final : public toolkits::token_source {
public:
    principal_tokens(std::shared_ptr<token_refresher> store, std::string principal, bool shared)
        : store_(std::move(store))
        , principal_(std::move(principal))
        , shared_(shared)
    {
    }
    boost::asio::awaitable<toolkits::token_answer> access_token(
        std::string toolkit, std::string refused) override;
    bool has_token(std::string_view toolkit) const override;

private:
    std::shared_ptr<token_refresher> store_;
    std::string principal_;
    bool shared_;
};

} // namespace toolgate::credentials
