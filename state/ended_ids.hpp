// Ended session ids in bounded memory: a fixed-size record per id (a 16-byte digest and the
// second its id stops being valid anyway), at most a fixed number of them; at the bound the
// oldest are folded into a floor below which every id counts as ended (docs/operations.md
// "Sessions").
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace toolgate::state {

/// A session id's digest (SHA-256, first 16 bytes): what is remembered, never the id itself.
struct id_digest {
    std::array<std::uint8_t, 16> bytes {};
    friend bool operator==(id_digest const&, id_digest const&) = default;
};

id_digest digest_of(std::string_view id);
/// The digest as 32 lowercase hex characters (the shared store's key).
std::string hex_of(id_digest const& digest);

/// An open-addressing table of ended ids (linear probing, 20 bytes a slot, grown by doubling
/// up to a load of three quarters). Not thread-safe: the owner locks.
class ended_id_table {
public:
    /// The default bound: 98,304 ids, 2.5 MiB of slots at most.
    static constexpr std::size_t default_bound = 98'304;

    explicit ended_id_table(std::size_t bound = default_bound);

    /// Remembers `digest` as ended until `until` (Unix seconds, the id's own expiry). At the
    /// bound the oldest eighth (by expiry) is dropped first and the floor rises to the latest
    /// expiry dropped: no ended id is ever forgotten before its expiry, only generalised.
    void add(id_digest const& digest, std::int64_t until);
    /// Whether an id with `digest`, whose validity ends at `until`, counts as ended: it was
    /// added, or it expires no later than the floor.
    bool contains(id_digest const& digest, std::int64_t until) const;
    /// Forgets the ids whose expiry is before `now` (they are refused by their age alone).
    void forget_expired(std::int64_t now);

    std::size_t size() const { return size_; }
    std::size_t bound() const { return bound_; }
    /// Expiry at or below which every id counts as ended; 0 until the bound was first reached.
    std::int64_t floor() const { return floor_; }
    /// Bytes of slots held (the table's whole memory but for the object itself).
    std::size_t bytes() const { return slots_.capacity() * sizeof(slot); }

private:
    struct slot {
        std::array<std::uint8_t, 16> digest;
        std::uint32_t until; ///< Unix seconds; 0: an empty slot
    };
    static_assert(sizeof(slot) == 20);

    std::size_t home_of(std::array<std::uint8_t, 16> const& digest) const;
    /// Puts a record into `slots_` (no growth, no duplicate check beyond its own probe).
    void place(slot const& s);
    /// Rebuilds the table with `capacity` slots from the records that pass `keep`.
    template <class Keep> void rebuild(std::size_t capacity, Keep keep);
    /// Drops the oldest eighth of the records and raises the floor (at the bound).
    void fold_oldest();

    std::size_t bound_;
    std::size_t size_ = 0;
    std::int64_t floor_ = 0;
    std::vector<slot> slots_;
};

} // namespace toolgate::state
