// The token store: one JSON file holding OAuth tokens per principal and toolkit: the server's
// own (principal "": what `toolgate auth login` obtained) and each client's (`static:alice`,
// `jwt:<sub>`: what a sign-in from the conversation obtained), and what the server renewed
// since. Private to its owner (mode 0600, checked on every read), replaced atomically
// (temporary file + rename) under a lock file, so a sign-in and a running server can both
// write it. Its contents are never logged.
#pragma once

#include "state/sealing.hpp"

#include <chrono>
#include <cstdint>
#include <ctime>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace toolgate::credentials {

/// One toolkit's tokens.
struct token_entry {
    std::string grant; ///< "authorization_code" or "client_credentials"
    std::string access_token;
    std::string refresh_token; ///< "" when the grant gave none
    std::int64_t expires_at = 0; ///< Unix seconds; 0: unknown
    std::int64_t obtained_at = 0; ///< Unix seconds
    std::string scope; ///< as granted
    std::string subject_type; ///< client-credentials subject (storage platform), else ""
    std::string subject_id;

    friend bool operator==(token_entry const&, token_entry const&) = default;
};

/// One principal's entries, by toolkit.
using token_entries = std::map<std::string, token_entry, std::less<>>;
/// Every principal's entries; "" is the server's own.
using token_book = std::map<std::string, token_entries, std::less<>>;

/// An exclusive hold on one of a token store's lock files (flock), released on destruction.
/// Every writer holds `<store>.lock` while it reads, changes and replaces the file. A renewal
/// holds `<store>.<Toolkit>.lock` from rereading the file until the renewed tokens are saved,
/// so two processes sharing a store (two desktop clients, each with its own toolgate) never
/// spend the same single-use refresh token twice: the second finds the first's new tokens.
class token_lock {
public:
    explicit token_lock(int fd)
        : fd_(fd)
    {
    }
    ~token_lock();
    token_lock(token_lock const&) = delete;
    token_lock& operator=(token_lock const&) = delete;
    int fd() const { return fd_; }

private:
    int fd_;
};

class token_file {
public:
    /// `$XDG_STATE_HOME/toolgate/tokens.json`, or `~/.local/state/toolgate/tokens.json`.
    static std::string default_path();

    /// With `keys`, the tokens in the file are sealed (state/sealing.hpp) and tokens written
    /// before a key was set are still read; without, they are plain JSON as always, and a
    /// sealed file is refused with a sentence saying to set the key.
    explicit token_file(std::string path, std::optional<state::store_keys> keys = std::nullopt)
        : path_(std::move(path))
        , keys_(keys) // trivially copyable: a move would copy too
    {
    }
    bool sealed() const { return keys_.has_value(); }
    std::string const& path() const { return path_; }

    // Per (principal, toolkit); principal "" is the server's own. Reads throw
    // std::invalid_argument when the file is open to others or not a token store; writes
    // throw std::runtime_error naming the path and the system's reason, create the directory
    // (0700) and the file (0600) when missing, take the lock themselves and keep every other
    // entry as the file holds it now.

    /// Every principal's entries; empty when the file does not exist yet.
    token_book load_all() const;
    /// One entry, or nullopt when there is none.
    std::optional<token_entry> load(std::string_view principal, std::string_view toolkit) const;
    void save(
        std::string const& principal, std::string const& toolkit, token_entry const& entry) const;
    void remove(std::string const& principal, std::string const& toolkit) const;
    /// Takes the renewal lock of one (principal, toolkit) if no other process holds it (never
    /// waits); nullptr when one does. Throws std::runtime_error when it cannot be opened.
    std::unique_ptr<token_lock> try_renewal_lock(
        std::string_view principal, std::string const& toolkit) const;

    /// The server's own entries (principal ""), and setting or (nullopt) removing one.
    token_entries load() const;
    void update(std::string const& toolkit, std::optional<token_entry> const& entry) const;
    /// The file's modification time, or nullopt when it does not exist.
    std::optional<std::timespec> modified() const;

private:
    /// Replaces one entry (nullopt: removes it) under the store's lock.
    void change(std::string const& principal, std::string const& toolkit,
        std::optional<token_entry> const& entry) const;

    std::string path_;
    std::optional<state::store_keys> keys_;
};

/// The JSON text of `book` (the file's format), and back; with `keys`, access and refresh
/// tokens sealed. The server's own entries are the `toolkits` member, as before principals
/// existed, so older files load unchanged; clients' are under `principals`. parse throws
/// std::invalid_argument on anything else, a sealed token without `keys` and one that does not
/// open (never quoting a token).
std::string serialize_tokens(token_book const& book, state::store_keys const* keys = nullptr);
token_book parse_tokens(
    std::string const& text, std::string const& path, state::store_keys const* keys = nullptr);

} // namespace toolgate::credentials
