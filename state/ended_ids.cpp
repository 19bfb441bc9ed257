// The ended-id table (see ended_ids.hpp).
#include "state/ended_ids.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <cstring>
#include <limits>

namespace toolgate::state {
namespace {

constexpr std::size_t first_capacity = 64;

std::uint32_t seconds_of(std::int64_t unix_seconds)
{
    // 0 marks an empty slot; a time past 2106 is kept as the largest one we can hold.
    return static_cast<std::uint32_t>(
        std::clamp<std::int64_t>(unix_seconds, 1, std::numeric_limits<std::uint32_t>::max()));
}

/// The smallest power of two whose three quarters hold `records`.
std::size_t capacity_for(std::size_t records)
{
    std::size_t capacity = first_capacity;
    while (capacity / 4 * 3 < records) {
        capacity *= 2;
    }
    return capacity;
}

} // namespace

id_digest digest_of(std::string_view id)
{
    std::array<unsigned char, EVP_MAX_MD_SIZE> full {};
    unsigned int length = 0;
    EVP_Digest(id.data(), id.size(), full.data(), &length, EVP_sha256(), nullptr);
    id_digest out;
    std::memcpy(out.bytes.data(), full.data(), out.bytes.size());
    return out;
}

std::string hex_of(id_digest const& digest)
{
    static constexpr char digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(digest.bytes.size() * 2);
    for (auto const b : digest.bytes) {
        out += digits[b >> 4];
        out += digits[b & 15];
    }
    return out;
}

ended_id_table::ended_id_table(std::size_t bound)
    : bound_(std::max<std::size_t>(bound, 8))
{
}

std::size_t ended_id_table::home_of(std::array<std::uint8_t, 16> const& digest) const
{
    // The digest is a hash already: its first bytes are as good an index as any.
    std::uint64_t h = 0;
    std::memcpy(&h, digest.data(), sizeof h);
    return static_cast<std::size_t>(h) & (slots_.size() - 1);
}

void ended_id_table::place(slot const& s)
{
    auto i = home_of(s.digest);
    while (slots_[i].until != 0 && slots_[i].digest != s.digest) {
        i = (i + 1) & (slots_.size() - 1);
    }
    if (slots_[i].until == 0) {
        ++size_;
    }
    slots_[i].digest = s.digest;
    slots_[i].until = std::max(slots_[i].until, s.until);
}

template <class Keep> void ended_id_table::rebuild(std::size_t capacity, Keep keep)
{
    std::vector<slot> old(capacity, slot {});
    old.swap(slots_);
    size_ = 0;
    for (auto const& s : old) {
        if (s.until != 0 && keep(s)) {
            place(s);
        }
    }
}

void ended_id_table::fold_oldest()
{
    std::vector<std::uint32_t> expiries;
    expiries.reserve(size_);
    for (auto const& s : slots_) {
        if (s.until != 0) {
            expiries.push_back(s.until);
        }
    }
    auto const cut = expiries.begin() + static_cast<std::ptrdiff_t>(expiries.size() / 8);
    std::nth_element(expiries.begin(), cut, expiries.end());
    auto const threshold = *cut;
    floor_ = std::max<std::int64_t>(floor_, threshold);
    rebuild(slots_.size(), [threshold](slot const& s) { return s.until > threshold; });
}

void ended_id_table::add(id_digest const& digest, std::int64_t until)
{
    if (until <= floor_) {
        return; // the floor covers it already
    }
    if (size_ >= bound_) {
        fold_oldest();
    }
    if (slots_.empty() || (size_ + 1) > slots_.size() / 4 * 3) {
        rebuild(capacity_for(std::min(bound_, std::max<std::size_t>(size_ + 1, size_ * 2))),
            [](slot const&) { return true; });
    }
    place(slot { digest.bytes, seconds_of(until) });
}

bool ended_id_table::contains(id_digest const& digest, std::int64_t until) const
{
    if (until <= floor_) {
        return true;
    }
    if (slots_.empty()) {
        return false;
    }
    for (auto i = home_of(digest.bytes); slots_[i].until != 0; i = (i + 1) & (slots_.size() - 1)) {
        if (slots_[i].digest == digest.bytes) {
            return true;
        }
    }
    return false;
}

void ended_id_table::forget_expired(std::int64_t now)
{
    if (size_ == 0) {
        return;
    }
    auto const live = static_cast<std::size_t>(std::count_if(slots_.begin(), slots_.end(),
        [now](slot const& s) { return s.until != 0 && s.until >= now; }));
    if (live == size_) {
        return;
    }
    // Shrinks with the records, so memory follows the ids still remembered.
    rebuild(capacity_for(live), [now](slot const& s) { return s.until >= now; });
}

} // namespace toolgate::state
