// gzip for answers that are mostly one large immutable part (a full tools/list page) inside a
// small per-request envelope (the JSON-RPC id). The large part is deflated once and kept; each
// answer is then assembled without compressing anything: a gzip header, the envelope's head as
// a stored deflate block, the kept segment, the tail as the final stored block, and a CRC
// combined from the three parts' CRCs (RFC 1951 §3.2.4, RFC 1952).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
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

/// Compressed forms of a few immutable texts, made on first use and kept while the cache
/// lives. Texts are known by address and size, so each must stay alive and unchanged for as
/// long as the cache (the tools/list pages do: they live as long as the server). Thread-safe.
class gzip_cache {
public:
    explicit gzip_cache(std::size_t max_entries = 64)
        : max_entries_(max_entries)
    {
    }

    /// The segment for `text`, or null when the cache is full (answer uncompressed then).
    std::shared_ptr<deflate_segment const> segment(std::string_view text);

private:
    std::size_t max_entries_;
    std::mutex mutex_;
    std::map<std::pair<char const*, std::size_t>, std::shared_ptr<deflate_segment const>> entries_;
};

} // namespace toolgate::transport
