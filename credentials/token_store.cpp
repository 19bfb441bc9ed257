// Token store file: format, private permissions, atomic replacement under a lock.
#include "credentials/token_store.hpp"

#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <random>
#include <stdexcept>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace toolgate::credentials {
namespace json = boost::json;
namespace {

constexpr std::string_view format_name = "toolgate-tokens/1";
constexpr std::string_view what = "--token-store";

std::string system_error(std::string const& action, std::string const& path)
{
    return fmt::format("token store: cannot {} {}: {}", action, path, std::strerror(errno));
}

/// A file descriptor closed on every path.
class fd_guard {
public:
    explicit fd_guard(int fd)
        : fd_(fd)
    {
    }
    fd_guard(fd_guard const&) = delete;
    fd_guard& operator=(fd_guard const&) = delete;
    ~fd_guard()
    {
        if (fd_ >= 0) {
            ::close(fd_);
        }
    }
    int get() const { return fd_; }

private:
    int fd_;
};

std::string directory_of(std::string const& path)
{
    auto const slash = path.rfind('/');
    if (slash == std::string::npos) {
        return ".";
    }
    return slash == 0 ? "/" : path.substr(0, slash);
}

/// Creates `dir` and its missing parents; new ones are private (0700).
void make_directories(std::string const& dir)
{
    struct stat st { };
    if (dir.empty() || ::stat(dir.c_str(), &st) == 0) {
        return;
    }
    make_directories(directory_of(dir));
    if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
        throw std::runtime_error(system_error("create the directory", dir));
    }
}

void write_all(int fd, std::string const& text, std::string const& path)
{
    std::size_t done = 0;
    while (done < text.size()) {
        auto const n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            throw std::runtime_error(system_error("write", path));
        }
        done += static_cast<std::size_t>(n);
    }
}

/// The directory holding the store must be safe from other users: one they can write to
/// lets them replace the tokens or plant links (security review 3, item 12). Owned by the
/// user running toolgate (or root) and writable by its owner only. False when it does not
/// exist (no sign-in yet).
bool check_directory(std::string const& dir)
{
    struct stat st { };
    if (::stat(dir.c_str(), &st) != 0) {
        if (errno == ENOENT) {
            return false;
        }
        throw std::invalid_argument(
            fmt::format("{}: the directory {}: {}", what, dir, std::strerror(errno)));
    }
    if (!S_ISDIR(st.st_mode)) {
        throw std::invalid_argument(fmt::format("{}: {} is not a directory", what, dir));
    }
    if (st.st_uid != ::geteuid() && st.st_uid != 0) {
        throw std::invalid_argument(fmt::format(
            "{}: the directory {} belongs to another user (uid {}), who could replace the "
            "tokens; keep the store in a directory of your own",
            what, dir, st.st_uid));
    }
    if ((st.st_mode & 022) != 0) {
        throw std::invalid_argument(fmt::format(
            "{}: the directory {} is writable by other users (mode {:04o}), who could replace "
            "the tokens; chmod 700 {}",
            what, dir, st.st_mode & 07777, dir));
    }
    return true;
}

/// Checks an open store or lock file: a regular file of the user running toolgate, private to
/// it. `fd` was opened with O_NOFOLLOW, so it is the file itself, not a link's target.
void check_open_file(int fd, std::string const& path)
{
    struct stat st { };
    if (::fstat(fd, &st) != 0) {
        throw std::invalid_argument(fmt::format("{} {}: {}", what, path, std::strerror(errno)));
    }
    if (!S_ISREG(st.st_mode)) {
        throw std::invalid_argument(fmt::format("{} {}: not a regular file", what, path));
    }
    if (st.st_uid != ::geteuid()) {
        throw std::invalid_argument(fmt::format(
            "{} {}: the file belongs to another user (uid {}, toolgate runs as uid {}); tokens "
            "must be the signed-in user's own",
            what, path, st.st_uid, ::geteuid()));
    }
    if ((st.st_mode & 077) != 0) {
        throw std::invalid_argument(fmt::format(
            "{} {}: the file is open to other users (mode {:04o}); it holds secrets, so it must "
            "be readable by its owner only: chmod 600 {}",
            what, path, st.st_mode & 07777, path));
    }
}

/// Opens `path` without following a symbolic link there; a link gets a clear refusal.
int open_no_follow(std::string const& path, int flags, std::string const& action)
{
    int const fd = ::open(path.c_str(), flags | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0 && errno == ELOOP) {
        throw std::invalid_argument(fmt::format("{} {}: a symbolic link, not a file of its own; "
                                                "remove it (toolgate never follows links here)",
            what, path));
    }
    if (fd < 0 && errno != ENOENT) {
        throw std::runtime_error(system_error(action, path));
    }
    return fd;
}

/// The store's text, or nullopt when there is no store yet. Opened once and checked through
/// the open descriptor, so nothing can be swapped in between the check and the read.
std::optional<std::string> read_store(std::string const& path)
{
    if (!check_directory(directory_of(path))) {
        return std::nullopt;
    }
    fd_guard fd(open_no_follow(path, O_RDONLY, "read"));
    if (fd.get() < 0) {
        return std::nullopt;
    }
    check_open_file(fd.get(), path);
    std::string text;
    char buffer[8192];
    for (;;) {
        auto const n = ::read(fd.get(), buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            throw std::runtime_error(system_error("read", path));
        }
        if (n == 0) {
            return text;
        }
        text.append(buffer, static_cast<std::size_t>(n));
    }
}

std::string str(json::object const& o, std::string_view key)
{
    auto const* v = o.if_contains(key);
    return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

/// What a sealed token of the file is bound to: its toolkit and field, and a client's
/// principal (so one person's sealed token does not open as another's). The server's own
/// ("") keep the context they had before principals existed.
std::string seal_context(
    std::string_view principal, std::string_view toolkit, std::string_view field)
{
    if (principal.empty()) {
        return fmt::format("toolgate-token-file/1\n{}\n{}", toolkit, field);
    }
    return fmt::format("toolgate-token-file/1\n{}\n{}\n{}", toolkit, field, principal);
}

std::string sealed_or_plain(state::store_keys const* keys, std::string const& value,
    std::string_view principal, std::string_view toolkit, std::string_view field)
{
    return keys ? state::seal(*keys, value, seal_context(principal, toolkit, field)) : value;
}

/// A token as stored: opened when sealed (a plain one, written before a key was set, is read
/// as it is and sealed at the next write).
std::string opened(state::store_keys const* keys, std::string value, std::string_view principal,
    std::string_view toolkit, std::string_view field, std::string const& path)
{
    if (!state::is_sealed(value)) {
        return value;
    }
    if (keys == nullptr) {
        throw std::invalid_argument(fmt::format("{} {}: its tokens are encrypted; set "
                                                "TOOLGATE_STORE_KEY or --store-key-file to the "
                                                "key that sealed them",
            what, path));
    }
    auto plain = state::unseal(*keys, value, seal_context(principal, toolkit, field));
    if (!plain) {
        throw std::invalid_argument(
            fmt::format("{} {}: {}: {}", what, path, toolkit, plain.error().message));
    }
    return std::move(*plain);
}

std::int64_t num(json::object const& o, std::string_view key)
{
    auto const* v = o.if_contains(key);
    return v && v->is_int64() ? v->get_int64() : 0;
}

} // namespace

std::string token_file::default_path()
{
    if (char const* state = std::getenv("XDG_STATE_HOME"); state && *state == '/') {
        return std::string(state) + "/toolgate/tokens.json";
    }
    char const* home = std::getenv("HOME");
    return std::string(home && *home ? home : ".") + "/.local/state/toolgate/tokens.json";
}

namespace {

/// One principal's entries as the file holds them, tokens sealed with `keys` when given.
json::object entries_object(
    std::string_view principal, token_entries const& entries, state::store_keys const* keys)
{
    json::object kits;
    for (auto const& [name, e] : entries) {
        json::object o;
        o["grant"] = e.grant;
        o["access_token"] = sealed_or_plain(keys, e.access_token, principal, name, "access_token");
        if (!e.refresh_token.empty()) {
            o["refresh_token"]
                = sealed_or_plain(keys, e.refresh_token, principal, name, "refresh_token");
        }
        o["expires_at"] = e.expires_at;
        o["obtained_at"] = e.obtained_at;
        if (!e.scope.empty()) {
            o["scope"] = e.scope;
        }
        if (!e.subject_type.empty()) {
            o["subject_type"] = e.subject_type;
            o["subject_id"] = e.subject_id;
        }
        kits[name] = std::move(o);
    }
    return kits;
}

/// The entries of one `toolkits` object; false when it is not one.
bool read_entries(json::value const& kits, std::string_view principal, std::string const& path,
    state::store_keys const* keys, token_entries& out)
{
    if (!kits.is_object()) {
        return false;
    }
    for (auto const& [name, value] : kits.get_object()) {
        if (!value.is_object()) {
            return false;
        }
        auto const& o = value.get_object();
        token_entry e;
        e.grant = str(o, "grant");
        std::string_view const toolkit = name;
        e.access_token
            = opened(keys, str(o, "access_token"), principal, toolkit, "access_token", path);
        e.refresh_token
            = opened(keys, str(o, "refresh_token"), principal, toolkit, "refresh_token", path);
        e.expires_at = num(o, "expires_at");
        e.obtained_at = num(o, "obtained_at");
        e.scope = str(o, "scope");
        e.subject_type = str(o, "subject_type");
        e.subject_id = str(o, "subject_id");
        out.emplace(std::string(name), std::move(e));
    }
    return true;
}

/// Lock file names carry no principal name (it may hold characters a file name cannot): a
/// digest of it instead.
std::string principal_file_tag(std::string_view principal)
{
    std::uint64_t h = 1469598103934665603ULL; // FNV-1a, 64 bits
    for (unsigned char c : principal) {
        h = (h ^ c) * 1099511628211ULL;
    }
    return fmt::format("{:016x}", h);
}

} // namespace

std::string serialize_tokens(token_book const& book, state::store_keys const* keys)
{
    json::object doc;
    doc["format"] = format_name;
    auto const own = book.find("");
    doc["toolkits"] = own == book.end() ? json::object() : entries_object("", own->second, keys);
    json::object clients;
    for (auto const& [principal, entries] : book) {
        if (!principal.empty() && !entries.empty()) {
            clients[principal] = entries_object(principal, entries, keys);
        }
    }
    if (!clients.empty()) {
        doc["principals"] = std::move(clients);
    }
    return json::serialize(doc) + "\n";
}

token_book parse_tokens(
    std::string const& text, std::string const& path, state::store_keys const* keys)
{
    boost::system::error_code ec;
    auto doc = json::parse(text, ec);
    auto const bad = [&] {
        // Never quotes the contents: they are tokens.
        return std::invalid_argument(fmt::format(
            "{} {}: not a toolgate token store (expected JSON with \"format\": \"{}\"); move it "
            "away and sign in again",
            what, path, format_name));
    };
    if (ec || !doc.is_object() || str(doc.get_object(), "format") != format_name) {
        throw bad();
    }
    auto const* kits = doc.get_object().if_contains("toolkits");
    token_book out;
    if (!kits || !read_entries(*kits, "", path, keys, out[""])) {
        throw bad();
    }
    if (auto const* clients = doc.get_object().if_contains("principals")) {
        if (!clients->is_object()) {
            throw bad();
        }
        for (auto const& [principal, entries] : clients->get_object()) {
            if (principal.empty()
                || !read_entries(entries, principal, path, keys, out[std::string(principal)])) {
                throw bad();
            }
        }
    }
    return out;
}

token_book token_file::load_all() const
{
    auto text = read_store(path_);
    return text ? parse_tokens(*text, path_, keys_ ? &*keys_ : nullptr) : token_book {};
}

std::optional<token_entry> token_file::load(
    std::string_view principal, std::string_view toolkit) const
{
    auto const book = load_all();
    auto const entries = book.find(principal);
    if (entries == book.end()) {
        return std::nullopt;
    }
    auto const entry = entries->second.find(toolkit);
    if (entry == entries->second.end()) {
        return std::nullopt;
    }
    return entry->second;
}

token_entries token_file::load() const
{
    auto book = load_all();
    auto own = book.find("");
    return own == book.end() ? token_entries {} : std::move(own->second);
}

void token_file::save(
    std::string const& principal, std::string const& toolkit, token_entry const& entry) const
{
    change(principal, toolkit, entry);
}

void token_file::remove(std::string const& principal, std::string const& toolkit) const
{
    change(principal, toolkit, std::nullopt);
}

void token_file::update(std::string const& toolkit, std::optional<token_entry> const& entry) const
{
    change("", toolkit, entry);
}

std::optional<std::timespec> token_file::modified() const
{
    struct stat st { };
    if (::stat(path_.c_str(), &st) != 0) {
        return std::nullopt;
    }
    return st.st_mtim;
}

token_lock::~token_lock()
{
    if (fd_ >= 0) {
        ::close(fd_); // releases the flock
    }
}

/// A lock file beside the store: never through a link planted there (O_NOFOLLOW), and only
/// a private regular file of our own.
static std::unique_ptr<token_lock> open_lock(std::string const& lock_path)
{
    check_directory(directory_of(lock_path));
    int const fd = open_no_follow(lock_path, O_RDWR | O_CREAT, "open the lock file");
    if (fd < 0) {
        throw std::runtime_error(system_error("open the lock file", lock_path));
    }
    auto held = std::make_unique<token_lock>(fd);
    check_open_file(fd, lock_path);
    return held;
}

std::unique_ptr<token_lock> token_file::try_renewal_lock(
    std::string_view principal, std::string const& toolkit) const
{
    make_directories(directory_of(path_));
    // The server's own lock keeps its name from before principals, so an older process
    // sharing the store still excludes this one.
    auto const lock_path = principal.empty()
        ? path_ + "." + toolkit + ".lock"
        : path_ + "." + toolkit + "." + principal_file_tag(principal) + ".lock";
    auto held = open_lock(lock_path);
    while (::flock(held->fd(), LOCK_EX | LOCK_NB) != 0) {
        if (errno == EWOULDBLOCK) {
            return nullptr;
        }
        if (errno != EINTR) {
            throw std::runtime_error(system_error("lock", lock_path));
        }
    }
    return held;
}

void token_file::change(std::string const& principal, std::string const& toolkit,
    std::optional<token_entry> const& entry) const
{
    auto const dir = directory_of(path_);
    make_directories(dir);
    // The lock file serialises writers (a sign-in and a running server, or two servers): each
    // reads the current file under it, changes one entry and replaces the file, so no writer
    // loses another's entry. The data file itself cannot carry the lock: rename replaces it.
    // Writers hold it for a read and a write only, so waiting for it is short.
    auto const lock = open_lock(path_ + ".lock");
    while (::flock(lock->fd(), LOCK_EX) != 0) {
        if (errno != EINTR) {
            throw std::runtime_error(system_error("lock", path_ + ".lock"));
        }
    }
    auto book = load_all();
    if (entry) {
        book[principal][toolkit] = *entry;
    } else if (auto it = book.find(principal); it != book.end()) {
        it->second.erase(toolkit);
    }
    auto const text = serialize_tokens(book, keys_ ? &*keys_ : nullptr);

    std::random_device random;
    auto const temp = fmt::format("{}.{}.{:08x}.tmp", path_, ::getpid(), random());
    {
        fd_guard out(::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
        if (out.get() < 0) {
            throw std::runtime_error(system_error("create", temp));
        }
        try {
            write_all(out.get(), text, temp);
            if (::fsync(out.get()) != 0) {
                throw std::runtime_error(system_error("flush", temp));
            }
        } catch (...) {
            ::unlink(temp.c_str());
            throw;
        }
    }
    if (::rename(temp.c_str(), path_.c_str()) != 0) {
        auto const error = system_error("replace", path_);
        ::unlink(temp.c_str());
        throw std::runtime_error(error);
    }
    // The rename itself reaches the disk with the directory.
    fd_guard directory(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (directory.get() >= 0) {
        ::fsync(directory.get());
    }
}

} // namespace toolgate::credentials
