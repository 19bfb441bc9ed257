// common::random_bytes and fill_random: the one source of keys, nonces, tokens and ids.
#include "common/random.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <vector>

using namespace toolgate;

TEST_CASE("random bytes: the size asked for, different at each draw", "[common]")
{
    CHECK(common::random_bytes(0).empty());
    CHECK(common::random_bytes(1).size() == 1);
    CHECK(common::random_bytes(100'000).size() == 100'000);
    // Two equal 32-byte draws would take 2^256 tries: equal means not random.
    auto const a = common::random_bytes(32);
    auto const b = common::random_bytes(32);
    CHECK(a != b);
    CHECK(a != std::string(32, '\0'));
}

TEST_CASE("random bytes: every byte of a buffer is drawn, every value comes up", "[common]")
{
    // 64 KiB, well past the 256 bytes getrandom(2) always returns whole: each of the 256
    // values is expected 256 times (standard deviation 16). A buffer filled only in part, or
    // from a counter or a constant, leaves values far outside 150 to 370.
    std::vector<unsigned char> buffer(65'536, 0);
    common::fill_random(buffer);
    std::array<std::size_t, 256> seen {};
    for (auto byte : buffer) {
        ++seen[byte];
    }
    auto const [fewest, most] = std::minmax_element(seen.begin(), seen.end());
    CHECK(*fewest >= 150);
    CHECK(*most <= 370);
    // The last bytes too (a fill that stopped after one short read would leave zeros there).
    CHECK(std::count(buffer.end() - 1024, buffer.end(), 0) < 30);
}
