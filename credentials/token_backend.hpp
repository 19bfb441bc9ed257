// Where OAuth tokens live, as the renewal sees it: the token file (one machine; renewal lock
// files) or the shared state store (replicas; a renewal lease), one principal's at a time
// (the server's own, or a client's after a sign-in from the conversation). The renewal logic
// (token_refresher) is the same over both.
#pragma once

#include "common/result.hpp"
#include "credentials/token_store.hpp"

#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <memory>
#include <string>

namespace toolgate::credentials {

/// A try for a toolkit's renewal hold: the hold (null when another process or replica has
/// it; released when the last copy goes) and, when taken, the tokens read under it.
struct lock_attempt {
    std::shared_ptr<void> held;
    common::checked<token_entries> stored = token_entries {};

    bool busy() const { return !held && stored.has_value(); }
};

class token_backend {
public:
    virtual ~token_backend() = default;
    /// The same store for another principal's tokens ("" the server's own; `static:alice`,
    /// `jwt:<sub>`), sharing this one's connection or file thread. Every method below reads
    /// and writes only the principal the backend was made for.
    virtual std::shared_ptr<token_backend> for_principal(std::string principal) const = 0;
    /// For logs and errors: where the tokens are (never a token).
    virtual std::string where() const = 0;
    /// Every toolkit's entry, read now (off the threads that serve requests, or async).
    virtual boost::asio::awaitable<common::checked<token_entries>> read() = 0;
    /// Takes `toolkit`'s renewal hold if no one has it (never waits), and reads under it.
    virtual boost::asio::awaitable<lock_attempt> try_hold(std::string toolkit) = 0;
    /// Saves `toolkit`'s entry, keeping the others.
    virtual boost::asio::awaitable<common::checked<void>> write(
        std::string toolkit, token_entry entry)
        = 0;
    /// Removes `toolkit`'s entry (signing out).
    virtual boost::asio::awaitable<common::checked<void>> erase(std::string toolkit) = 0;
    /// How long a renewal waits for another's hold. Past it, the file renews anyway (a lock
    /// file can be held by a hung process for good); the shared store gives up, since its
    /// lease expires by itself when its holder dies and a live holder is still renewing.
    virtual std::chrono::seconds patience() const = 0;
    virtual bool renews_after_patience() const = 0;
};

/// The token file as a backend for `principal`'s entries: its reads, writes and lock tries on
/// a thread of their own.
std::shared_ptr<token_backend> make_file_backend(token_file file, std::string principal = {});

} // namespace toolgate::credentials
