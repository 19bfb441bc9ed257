// gzip for answers that are mostly one large immutable part (a full tools/list page) inside a
// small per-request envelope (the JSON-RPC id). The large part is deflated once and kept; each
// answer is then assembled without compressing anything: a gzip header, the envelope's head as
// a stored deflate block, the kept segment, the tail as the final stored block, and a CRC
// combined from the three parts' CRCs (RFC 1951 §3.2.4, RFC 1952).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>

namespace toolgate::transport {

/// Deflate blocks for one piece of data that start with an empty window and end on a byte
/// boundary without a final block, so that they can sit between other blocks of a stream.
struct deflate_segment {
    std::string blocks;
    std::uint32_t crc = 0; ///< CRC-32 of the uncompressed data
    std::size_t length = 0; ///< uncompressed length
};

deflate_segment deflate_segment_of(std::string_view data, int level = 6);

/// The bytes around a kept segment that make one gzip member whose uncompressed content is
/// head + middle's data + tail: `before` + middle.blocks + `after`. Written as three parts,
/// the segment itself is never copied per answer.
struct gzip_frame {
    std::string before; ///< gzip header, `head` as stored blocks
    std::string after; ///< `tail` as the final stored block, CRC-32, length
};
gzip_frame gzip_frame_around(
    std::string_view head, deflate_segment const& middle, std::string_view tail);

/// The same member joined into one string.
std::string gzip_around(
    std::string_view head, deflate_segment const& middle, std::string_view tail);

/// Whether an Accept-Encoding value (RFC 9110 §12.5.3) accepts gzip: `gzip` or `x-gzip` with a
/// non-zero weight, or `*` with a non-zero weight when gzip is not listed itself.
bool accepts_gzip(std::string_view accept_encoding);

/// Compressed forms of a few immutable texts, made on first use. Texts are known by an
/// identity their owner gives them and never gives another text (protocol::listed_page::id):
/// an address is not one, since a freed text's address is reused by the next (security review
/// 3, item 9). Least recently used entries make room for new ones. Thread-safe.
class gzip_cache {
public:
    explicit gzip_cache(std::size_t max_entries = 64, std::size_t max_bytes = 16 * 1024 * 1024)
        : max_entries_(max_entries)
        , max_bytes_(max_bytes)
    {
    }

    /// The segment for `text`, whose identity is `id` (0: none, so not compressed: null).
    /// The caller keeps the returned segment alive as long as it writes it. `at_first_use`
    /// false: a text is compressed only when asked for a second time (null the first time),
    /// so texts asked for once each (one per-connection choice after another) cost no
    /// compression at all.
    std::shared_ptr<deflate_segment const> segment(
        std::uint64_t id, std::string_view text, bool at_first_use = true);

    std::size_t size() const;

private:
    struct entry {
        std::shared_ptr<deflate_segment const> segment;
        std::list<std::uint64_t>::iterator used; ///< its place in `recent_`
    };
    std::size_t max_entries_;
    std::size_t max_bytes_;
    mutable std::mutex mutex_;
    std::map<std::uint64_t, entry> entries_;
    std::list<std::uint64_t> recent_; ///< most recently used first
    std::size_t bytes_ = 0;
    /// Identities asked for once with `at_first_use` false, oldest first (bounded).
    std::deque<std::uint64_t> seen_order_;
    std::unordered_set<std::uint64_t> seen_;
};

} // namespace toolgate::transport
