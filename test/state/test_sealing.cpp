// Tokens sealed at rest: AES-256-GCM round trips, bound to their principal and toolkit, a
// second key for rotation, and the key's sources (file of mode 0600, environment).
#include "state/sealing.hpp"
#include "state/store_options.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace toolgate::state;

namespace {

constexpr char const* key_a = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
constexpr char const* key_b = "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100";

store_keys keys_of(char const* current, char const* previous = nullptr)
{
    store_keys k;
    k.current = *parse_store_key(current);
    if (previous) {
        k.previous = parse_store_key(previous);
    }
    return k;
}

std::string write_key_file(std::string const& text, mode_t mode)
{
    auto path = (std::filesystem::temp_directory_path()
        / ("toolgate-key-" + std::to_string(::getpid()) + "-" + std::to_string(mode)))
                    .string();
    {
        std::ofstream out(path, std::ios::trunc);
        out << text;
    }
    ::chmod(path.c_str(), mode);
    return path;
}

} // namespace

TEST_CASE("a sealed token opens with its key and context only", "[state][sealing]")
{
    auto const keys = keys_of(key_a);
    auto const sealed = seal(keys, "access-token-value", "alice\nStoreApi");
    CHECK(is_sealed(sealed));
    CHECK(sealed.find("access-token-value") == std::string::npos);
    CHECK(seal(keys, "access-token-value", "alice\nStoreApi") != sealed); // a fresh nonce
    auto opened = unseal(keys, sealed, "alice\nStoreApi");
    REQUIRE(opened.has_value());
    CHECK(*opened == "access-token-value");
    auto moved = unseal(keys, sealed, "mallory\nStoreApi"); // copied to another principal
    REQUIRE_FALSE(moved.has_value());
    CHECK(moved.error().message.find("did not open") != std::string::npos);
    auto altered = sealed;
    altered[altered.size() - 6] = altered[altered.size() - 6] == 'A' ? 'B' : 'A';
    CHECK_FALSE(unseal(keys, altered, "alice\nStoreApi").has_value());
    CHECK_FALSE(unseal(keys, "plain-token", "alice\nStoreApi").has_value());
    CHECK(unseal(keys, seal(keys, "", "c"), "c").value().empty());
}

TEST_CASE("rotation: the previous key opens what it sealed, and without it the error says so",
    "[state][sealing]")
{
    auto const old_sealed = seal(keys_of(key_a), "refresh-token", "ctx");
    auto const rotated = keys_of(key_b, key_a);
    auto opened = unseal(rotated, old_sealed, "ctx");
    REQUIRE(opened.has_value());
    CHECK(*opened == "refresh-token");
    auto const resealed = seal(rotated, *opened, "ctx"); // written with the current key
    CHECK(unseal(keys_of(key_b), resealed, "ctx").has_value());
    auto lost = unseal(keys_of(key_b), old_sealed, "ctx");
    REQUIRE_FALSE(lost.has_value());
    CHECK(lost.error().message.find("previous key") != std::string::npos);
}

TEST_CASE(
    "store keys come from a private file or the environment, named when wrong", "[state][sealing]")
{
    store_options options;
    CHECK_FALSE(load_store_keys(options, nullptr, nullptr).value().has_value());
    auto env = load_store_keys(options, key_a, key_b);
    REQUIRE(env.has_value());
    REQUIRE(env->has_value());
    CHECK((*env)->previous.has_value());
    auto short_key = load_store_keys(options, "abc123", nullptr);
    REQUIRE_FALSE(short_key.has_value());
    CHECK(short_key.error().message.find("TOOLGATE_STORE_KEY") != std::string::npos);

    options.key_file = write_key_file(std::string(key_a) + "\n" + key_b + "\n", 0600);
    auto from_file = load_store_keys(options, nullptr, nullptr);
    REQUIRE(from_file.has_value());
    CHECK((*from_file)->current == *parse_store_key(key_a));
    CHECK((*from_file)->previous == parse_store_key(key_b));
    std::filesystem::remove(options.key_file);

    options.key_file = write_key_file(std::string(key_a) + "\n", 0644);
    auto open_to_all = load_store_keys(options, nullptr, nullptr);
    REQUIRE_FALSE(open_to_all.has_value());
    CHECK(open_to_all.error().message.find("chmod 600") != std::string::npos);
    CHECK(open_to_all.error().message.find(key_a) == std::string::npos);
    std::filesystem::remove(options.key_file);

    options.key_file = write_key_file("not a key\n", 0600);
    auto malformed = load_store_keys(options, nullptr, nullptr);
    REQUIRE_FALSE(malformed.has_value());
    CHECK(malformed.error().message.find("64 hex characters") != std::string::npos);
    std::filesystem::remove(options.key_file);
}
