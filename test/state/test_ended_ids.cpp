// The ended-id table: fixed-size records, a bound on their number, the floor at the bound and
// memory that follows the ids still remembered.
#include "state/ended_ids.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

using toolgate::state::digest_of;
using toolgate::state::ended_id_table;

TEST_CASE("an ended id is remembered by its digest until its expiry", "[state][ended]")
{
    ended_id_table table(1000);
    auto const a = digest_of("session-a");
    CHECK(toolgate::state::hex_of(a).size() == 32);
    CHECK_FALSE(digest_of("session-b") == a);
    table.add(a, 2000);
    CHECK(table.contains(a, 2000));
    CHECK_FALSE(table.contains(digest_of("session-b"), 2000));
    CHECK(table.size() == 1);
    table.forget_expired(2000); // valid through second 2000: still remembered
    CHECK(table.contains(a, 2000));
    table.forget_expired(2001);
    CHECK(table.size() == 0);
    CHECK_FALSE(table.contains(a, 2000));
}

TEST_CASE("at the bound the oldest ids fold into a floor and none comes back", "[state][ended]")
{
    ended_id_table table(800);
    for (int i = 0; i < 800; ++i) {
        table.add(digest_of(fmt::format("id-{}", i)), 10'000 + i);
    }
    CHECK(table.size() == 800);
    CHECK(table.floor() == 0);
    table.add(digest_of("one more"), 20'000);
    CHECK(table.size() <= 800);
    CHECK(table.floor() >= 10'000 + 99); // the oldest eighth
    CHECK(table.floor() < 10'000 + 200);
    for (int i = 0; i < 800; ++i) { // every ended id still counts as ended
        CHECK(table.contains(digest_of(fmt::format("id-{}", i)), 10'000 + i));
    }
    CHECK(table.contains(digest_of("one more"), 20'000));
    // An id never ended but expiring at or below the floor counts as ended too; one expiring
    // later does not.
    CHECK(table.contains(digest_of("never ended"), table.floor()));
    CHECK_FALSE(table.contains(digest_of("never ended"), table.floor() + 1));
    for (int i = 0; i < 5000; ++i) {
        table.add(digest_of(fmt::format("more-{}", i)), 30'000 + i);
        REQUIRE(table.size() <= 800);
    }
    CHECK(table.bytes() == 2048 * 20); // the smallest power of two three quarters of which hold 800
}

TEST_CASE("a record takes 20 bytes and the table shrinks as ids expire", "[state][ended]")
{
    ended_id_table table;
    for (int i = 0; i < 20'000; ++i) {
        table.add(digest_of(fmt::format("id-{}", i)), 5000);
    }
    CHECK(table.size() == 20'000);
    CHECK(table.bytes() == 32'768 * 20); // three quarters full at most
    table.add(digest_of("later"), 9000);
    table.forget_expired(6000);
    CHECK(table.size() == 1);
    CHECK(table.bytes() == 64 * 20);
    CHECK(table.contains(digest_of("later"), 9000));
}
