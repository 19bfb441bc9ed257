// gzip_splice: the assembled members must inflate (with zlib's own gzip decoder, CRC and length
// checked) to exactly head + page + tail, for any sizes; Accept-Encoding is read as RFC 9110
// says; the cache compresses each text once.
#include "gunzip.hpp"
#include "transport/gzip_splice.hpp"

#include <catch2/catch.hpp>

#include <random>
#include <string>

using namespace toolgate::transport;

namespace {

/// Inflates one gzip member; fails the test unless zlib reaches the end of the stream with the
/// trailer's CRC and length verified.
std::string gunzip(std::string const& member)
{
    auto content = toolgate::testing::gunzip(member);
    REQUIRE(content.has_value());
    return *content;
}

std::string json_like(std::size_t n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::string const words[] = { R"({"name":"StoreApi_ListFiles",)", R"("type":"string",)",
        R"("description":"x",)", "\"required\":[],", "}", "\n", "\xc3\xa9" };
    std::string out;
    while (out.size() < n) {
        out += words[rng() % std::size(words)];
    }
    out.resize(n);
    return out;
}

std::string random_bytes(std::size_t n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::string out(n, '\0');
    for (auto& c : out) {
        c = static_cast<char>(rng() & 0xff);
    }
    return out;
}

} // namespace

TEST_CASE("gzip_around inflates to head + page + tail", "[gzip]")
{
    struct shape {
        std::size_t head, page, tail;
    };
    auto const s = GENERATE(shape { 40, 900'000, 3 }, shape { 0, 20'000, 0 }, shape { 0, 0, 0 },
        shape { 70'000, 10'000, 2 }, shape { 5, 1, 140'000 }, shape { 65'535, 65'535, 65'535 });
    CAPTURE(s.head, s.page, s.tail);
    auto const head = json_like(s.head, 1);
    auto const page = json_like(s.page, 2);
    auto const tail = json_like(s.tail, 3);
    auto const segment = deflate_segment_of(page);
    CHECK(segment.length == page.size());
    auto const member = gzip_around(head, segment, tail);
    CHECK(gunzip(member) == head + page + tail);
    if (s.page > 10'000) {
        CHECK(segment.blocks.size() < page.size() / 4); // it did compress
    }
}

TEST_CASE("gzip_around keeps binary and incompressible pages intact", "[gzip]")
{
    auto const page = random_bytes(300'000, 7);
    auto const segment = deflate_segment_of(page);
    auto const member = gzip_around("{\"id\":1,", segment, "}");
    CHECK(gunzip(member) == "{\"id\":1," + page + "}");
}

TEST_CASE("one segment serves many envelopes", "[gzip]")
{
    auto const page = json_like(50'000, 9);
    auto const segment = deflate_segment_of(page);
    for (int id = 0; id < 5; ++id) {
        auto const head = R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"result":)";
        CHECK(gunzip(gzip_around(head, segment, "}")) == head + page + "}");
    }
}

TEST_CASE("a damaged member fails the decoder's checks (the tests' decoder is strict)", "[gzip]")
{
    auto const page = json_like(10'000, 4);
    auto member = gzip_around("a", deflate_segment_of(page), "b");
    REQUIRE(toolgate::testing::gunzip(member).has_value());
    member[member.size() - 6] ^= 0x01; // a CRC byte
    CHECK_FALSE(toolgate::testing::gunzip(member).has_value());
    member[member.size() - 6] ^= 0x01;
    member.pop_back(); // truncated length
    CHECK_FALSE(toolgate::testing::gunzip(member).has_value());
}

TEST_CASE("Accept-Encoding decides gzip as RFC 9110 reads it", "[gzip]")
{
    struct row {
        char const* value;
        bool gzip;
    };
    auto const r = GENERATE(row { "gzip", true }, row { "GZIP", true }, row { "x-gzip", true },
        row { "gzip, deflate", true }, row { "gzip, deflate, br", true },
        row { "deflate, gzip;q=0.5", true }, row { "gzip;q=0.001", true },
        row { "gzip;q=1.0", true }, row { " gzip ; q=0.8 ", true }, row { "*", true },
        row { "*;q=0.1", true }, row { "gzip;q=0", false }, row { "gzip; q=0.0", false },
        row { "gzip;Q=0.000", false }, row { "*;q=0", false }, row { "*, gzip;q=0", false },
        row { "gzip;q=0, *", false }, row { "identity", false }, row { "br", false },
        row { "deflate", false }, row { "", false }, row { "gzipx", false },
        row { "br, *;q=0.5", true });
    CAPTURE(r.value);
    CHECK(accepts_gzip(r.value) == r.gzip);
}

TEST_CASE("gzip_cache compresses each text once and stays bounded", "[gzip]")
{
    gzip_cache cache(2);
    std::string const a = json_like(20'000, 5);
    std::string const b = json_like(20'000, 6);
    std::string const c = json_like(20'000, 8);
    auto const first = cache.segment(1, a);
    REQUIRE(first);
    CHECK(cache.segment(1, a) == first); // the same object, not a second compression
    auto const second = cache.segment(2, b);
    REQUIRE(second);
    CHECK(second != first);
    CHECK(cache.segment(0, c) == nullptr); // no identity: not compressed
    // Full: the least recently used entry (a's, b's being the newer) makes room.
    CHECK(cache.segment(2, b) == second);
    auto const third = cache.segment(3, c);
    REQUIRE(third);
    CHECK(cache.size() == 2);
    CHECK(cache.segment(2, b) == second);
    CHECK(cache.segment(1, a) != first); // compressed again
    CHECK(gunzip(gzip_around("[", *second, "]")) == "[" + b + "]");
    CHECK(gunzip(gzip_around("[", *third, "]")) == "[" + c + "]");
}

TEST_CASE("gzip_cache keys texts by identity, not by where they lie (third review 9)", "[gzip]")
{
    gzip_cache cache;
    // Two texts of one length at one address, one after the other, as a freed listing page
    // and the next one built in its place.
    std::string text = json_like(20'000, 5);
    auto const first = cache.segment(41, text);
    std::string const other = json_like(20'000, 6);
    REQUIRE(other.size() == text.size());
    text.replace(0, text.size(), other);
    auto const second = cache.segment(42, text);
    REQUIRE(second);
    CHECK(gunzip(gzip_around("", *second, "")) == other);
    CHECK(gunzip(gzip_around("", *first, "")) != other);
}
