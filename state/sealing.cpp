// AES-256-GCM sealing of stored tokens (see sealing.hpp), on OpenSSL's EVP interface.
#include "state/sealing.hpp"

#include "common/base64.hpp"
#include "common/random.hpp"
#include "state/store_options.hpp"

#include <fmt/format.h>
#include <openssl/evp.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace toolgate::state {
namespace {

constexpr std::string_view prefix = "tg1:";
constexpr std::size_t id_size = 4;
constexpr std::size_t nonce_size = 12;
constexpr std::size_t tag_size = 16;

using cipher_ctx = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

/// A key's id: the first bytes of its SHA-256, to tell which key sealed a value.
std::string key_id(store_key const& key)
{
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest {};
    unsigned int length = 0;
    EVP_Digest(key.data(), key.size(), digest.data(), &length, EVP_sha256(), nullptr);
    return std::string(reinterpret_cast<char const*>(digest.data()), id_size);
}

unsigned char const* bytes(std::string_view s)
{
    return reinterpret_cast<unsigned char const*>(s.data());
}

int hex_value(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) {
        s.remove_prefix(1);
    }
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) {
        s.remove_suffix(1);
    }
    return s;
}

/// The key file's text, after checking it is a regular file private to its owner.
common::checked<std::string> read_key_file(std::string const& path)
{
    int const fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        return common::problem_of(
            fmt::format("--store-key-file {}: cannot be opened: {}", path, std::strerror(errno)));
    }
    std::unique_ptr<int, void (*)(int*)> guard(new int(fd), [](int* f) {
        ::close(*f);
        delete f;
    });
    struct stat st { };
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        return common::problem_of(fmt::format("--store-key-file {}: not a regular file", path));
    }
    if ((st.st_mode & 077) != 0) {
        return common::problem_of(fmt::format("--store-key-file {}: its mode {:o} lets other "
                                              "users read it; chmod 600 it",
            path, st.st_mode & 0777));
    }
    std::string text(4096, '\0');
    auto const n = ::read(fd, text.data(), text.size());
    if (n < 0) {
        return common::problem_of(fmt::format("--store-key-file {}: cannot be read", path));
    }
    text.resize(static_cast<std::size_t>(n));
    return text;
}

/// Keys from the file's lines: the current one, then optionally the previous one.
common::checked<store_keys> keys_of_file(std::string const& path)
{
    auto text = read_key_file(path);
    if (!text) {
        return text.error();
    }
    std::string_view rest = *text;
    std::vector<std::string_view> lines;
    while (!rest.empty()) {
        auto const end = std::min(rest.find('\n'), rest.size());
        if (auto line = trimmed(rest.substr(0, end)); !line.empty()) {
            lines.push_back(line);
        }
        rest.remove_prefix(std::min(end + 1, rest.size()));
    }
    auto const bad = common::problem_of(fmt::format("--store-key-file {}: expected one line of "
                                                    "64 hex characters (`openssl rand -hex 32`), "
                                                    "and optionally a second with the previous key",
        path));
    if (lines.empty() || lines.size() > 2) {
        return bad;
    }
    store_keys keys;
    auto current = parse_store_key(lines[0]);
    if (!current) {
        return bad;
    }
    keys.current = *current;
    if (lines.size() == 2) {
        keys.previous = parse_store_key(lines[1]);
        if (!keys.previous) {
            return bad;
        }
    }
    return keys;
}

} // namespace

std::optional<store_key> parse_store_key(std::string_view text)
{
    text = trimmed(text);
    if (text.size() != 64) {
        return std::nullopt;
    }
    store_key key {};
    for (std::size_t i = 0; i < key.size(); ++i) {
        int const high = hex_value(text[2 * i]);
        int const low = hex_value(text[2 * i + 1]);
        if (high < 0 || low < 0) {
            return std::nullopt;
        }
        key[i] = static_cast<std::uint8_t>(high * 16 + low);
    }
    return key;
}

common::checked<std::optional<store_keys>> load_store_keys(
    store_options const& options, char const* env_key, char const* env_previous)
{
    if (!options.key_file.empty()) {
        auto keys = keys_of_file(options.key_file);
        if (!keys) {
            return keys.error();
        }
        return std::optional<store_keys>(*keys);
    }
    if (env_key == nullptr || *env_key == '\0') {
        return std::optional<store_keys>();
    }
    store_keys keys;
    auto current = parse_store_key(env_key);
    if (!current) {
        return common::problem_of("TOOLGATE_STORE_KEY: expected 64 hex characters "
                                  "(`openssl rand -hex 32`)");
    }
    keys.current = *current;
    if (env_previous != nullptr && *env_previous != '\0') {
        keys.previous = parse_store_key(env_previous);
        if (!keys.previous) {
            return common::problem_of("TOOLGATE_STORE_KEY_PREVIOUS: expected 64 hex characters");
        }
    }
    return std::optional<store_keys>(keys);
}

bool is_sealed(std::string_view text)
{
    return text.starts_with(prefix);
}

std::string seal(store_keys const& keys, std::string_view plain, std::string_view context)
{
    std::string out = key_id(keys.current);
    auto const nonce = common::random_bytes(nonce_size);
    out += nonce;
    cipher_ctx ctx(EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free);
    std::string cipher(plain.size() + tag_size, '\0');
    auto* c = reinterpret_cast<unsigned char*>(cipher.data());
    int len = 0;
    int done = 0;
    bool ok = ctx && EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, nullptr, nullptr)
        && EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_IVLEN, int(nonce_size), nullptr)
        && EVP_EncryptInit_ex(ctx.get(), nullptr, nullptr, keys.current.data(), bytes(nonce))
        && EVP_EncryptUpdate(ctx.get(), nullptr, &len, bytes(context), int(context.size()))
        && EVP_EncryptUpdate(ctx.get(), c, &len, bytes(plain), int(plain.size()));
    done = len;
    ok = ok && EVP_EncryptFinal_ex(ctx.get(), c + done, &len);
    done += len;
    ok = ok && EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, int(tag_size), c + done);
    if (!ok) {
        throw std::runtime_error("AES-256-GCM sealing failed");
    }
    cipher.resize(static_cast<std::size_t>(done) + tag_size);
    out += cipher;
    return std::string(prefix) + common::base64_encode(out);
}

common::checked<std::string> unseal(
    store_keys const& keys, std::string_view sealed, std::string_view context)
{
    auto const raw
        = is_sealed(sealed) ? common::base64_decode(sealed.substr(prefix.size())) : std::nullopt;
    if (!raw || raw->size() < id_size + nonce_size + tag_size) {
        return common::problem_of("a stored token is not a sealed value");
    }
    auto const id = std::string_view(*raw).substr(0, id_size);
    store_key const* key = nullptr;
    if (id == key_id(keys.current)) {
        key = &keys.current;
    } else if (keys.previous && id == key_id(*keys.previous)) {
        key = &*keys.previous;
    } else {
        return common::problem_of("a stored token was sealed with a key this server does not "
                                  "have (set the key it was sealed with as the previous key)");
    }
    auto const nonce = std::string_view(*raw).substr(id_size, nonce_size);
    auto const body = std::string_view(*raw).substr(id_size + nonce_size);
    auto const cipher = body.substr(0, body.size() - tag_size);
    std::string tag(body.substr(cipher.size()));
    std::string plain(cipher.size(), '\0');
    cipher_ctx ctx(EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free);
    int len = 0;
    bool ok = ctx && EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, nullptr, nullptr)
        && EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_IVLEN, int(nonce_size), nullptr)
        && EVP_DecryptInit_ex(ctx.get(), nullptr, nullptr, key->data(), bytes(nonce))
        && EVP_DecryptUpdate(ctx.get(), nullptr, &len, bytes(context), int(context.size()))
        && EVP_DecryptUpdate(ctx.get(), reinterpret_cast<unsigned char*>(plain.data()), &len,
            bytes(cipher), int(cipher.size()))
        && EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, int(tag_size), tag.data());
    int final_len = 0;
    ok = ok
        && EVP_DecryptFinal_ex(
               ctx.get(), reinterpret_cast<unsigned char*>(plain.data()) + len, &final_len)
            == 1;
    if (!ok) {
        return common::problem_of("a stored token did not open: altered, or not stored for "
                                  "this principal and toolkit");
    }
    return plain;
}

} // namespace toolgate::state
