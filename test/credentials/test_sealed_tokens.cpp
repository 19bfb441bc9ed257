// Tokens encrypted at rest in the token file (issue 27 item 4): with a key they are sealed
// and read back; a file written before the key is read and sealed at its next write; a sealed
// file without the key is refused with a sentence saying so; the previous key still reads
// (rotation); and a shared store without a key refuses to start.
#include "credentials/credential_hub.hpp"
#include "credentials/token_store.hpp"
#include "credentials_support.hpp"
#include "state/redis_client.hpp"
#include "transport/https_client.hpp"

#include <boost/asio/io_context.hpp>
#include <catch2/catch.hpp>

#include <stdexcept>

using namespace toolgate::credentials;
using namespace toolgate::testing;

namespace {

toolgate::state::store_keys keys_of(char const* current, char const* previous = nullptr)
{
    toolgate::state::store_keys k;
    k.current = *toolgate::state::parse_store_key(current);
    if (previous) {
        k.previous = toolgate::state::parse_store_key(previous);
    }
    return k;
}

constexpr char const* key_a = "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf";
constexpr char const* key_b = "c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf";

token_entry sign_in()
{
    token_entry e;
    e.grant = "authorization_code";
    e.access_token = "zqAccess-plain-value-1";
    e.refresh_token = "zqRefresh-plain-value-1";
    e.obtained_at = 1'700'000'000;
    e.expires_at = 1'700'003'600;
    return e;
}

} // namespace

TEST_CASE("with a key the token file holds sealed tokens only, and reads them back",
    "[auth][credentials][sealing]")
{
    temp_dir dir;
    auto const path = dir.file("tokens.json");
    token_file sealed(path, keys_of(key_a));
    sealed.update("StoreApi", sign_in());
    auto const text = read_file(path);
    CHECK(text.find("zqAccess-plain-value-1") == std::string::npos);
    CHECK(text.find("zqRefresh-plain-value-1") == std::string::npos);
    CHECK(text.find("tg1:") != std::string::npos);
    CHECK(text.find("\"expires_at\":1700003600") != std::string::npos); // the rest stays legible
    CHECK(sealed.load().at("StoreApi") == sign_in());
    CHECK(file_mode(path) == 0600);

    try {
        token_file(path).load();
        FAIL("a sealed file was read without its key");
    } catch (std::invalid_argument const& e) {
        CHECK(std::string(e.what()).find("TOOLGATE_STORE_KEY") != std::string::npos);
        CHECK(std::string(e.what()).find("zqAccess") == std::string::npos);
    }
    // Rotation: the new key reads what the previous one sealed, and seals what it writes.
    token_file rotated(path, keys_of(key_b, key_a));
    CHECK(rotated.load().at("StoreApi") == sign_in());
    rotated.update("LedgerApi", sign_in());
    CHECK(token_file(path, keys_of(key_b)).load().size() == 2);
    CHECK_THROWS_AS(token_file(path, keys_of(key_a)).load(), std::invalid_argument);
}

TEST_CASE("a plain token file is read with a key and sealed at its next write",
    "[auth][credentials][sealing]")
{
    temp_dir dir;
    auto const path = dir.file("tokens.json");
    token_file(path).update("StoreApi", sign_in()); // before the operator set a key
    CHECK(read_file(path).find("zqAccess-plain-value-1") != std::string::npos);
    token_file keyed(path, keys_of(key_a));
    CHECK(keyed.load().at("StoreApi") == sign_in());
    keyed.update("LedgerApi", sign_in());
    CHECK(read_file(path).find("zqAccess-plain-value-1") == std::string::npos);
    CHECK(keyed.load().size() == 2);
}

TEST_CASE("a shared store without a key refuses to start", "[auth][credentials][sealing]")
{
    boost::asio::io_context io;
    toolgate::transport::https_client client(io, {});
    credential_settings settings;
    settings.store = toolgate::state::redis_client::make(io.get_executor(),
        toolgate::state::parse_redis_url("redis://127.0.0.1:1", nullptr).value(), {});
    try {
        credential_hub hub(settings, client);
        FAIL("a shared store started without a key");
    } catch (std::invalid_argument const& e) {
        CHECK(std::string(e.what()).find("TOOLGATE_STORE_KEY") != std::string::npos);
        CHECK(std::string(e.what()).find("--store-key-file") != std::string::npos);
    }
}
