#include "transport/gzip_splice.hpp"

#include "common/ascii.hpp"
#include "common/split_list.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <zlib.h>

namespace toolgate::transport {
using common::to_lower_ascii;
using common::trim_ows;

namespace {

constexpr std::size_t max_stored_block = 65535; // LEN is 16 bits

void put_le16(std::string& out, std::uint32_t v)
{
    out += static_cast<char>(v & 0xff);
    out += static_cast<char>((v >> 8) & 0xff);
}

void put_le32(std::string& out, std::uint32_t v)
{
    put_le16(out, v & 0xffff);
    put_le16(out, v >> 16);
}

/// `data` as stored (uncompressed) blocks; the last one carries BFINAL when `final` is set.
/// A final block is written even for empty data, since the stream must end with one.
void put_stored(std::string& out, std::string_view data, bool final)
{
    do {
        auto const n = std::min(data.size(), max_stored_block);
        bool const last = n == data.size();
        // BFINAL in bit 0, BTYPE 00 (stored) in bits 1-2, then padding to the byte boundary:
        // the stream is byte-aligned here, so the block header is exactly one byte.
        out += static_cast<char>(final && last ? 1 : 0);
        put_le16(out, static_cast<std::uint32_t>(n));
        put_le16(out, static_cast<std::uint32_t>(~n & 0xffff));
        out.append(data.data(), n);
        data.remove_prefix(n);
    } while (!data.empty());
}

std::uint32_t crc_of(std::string_view data)
{
    auto const* bytes = reinterpret_cast<Bytef const*>(data.data());
    return static_cast<std::uint32_t>(crc32_z(crc32_z(0, nullptr, 0), bytes, data.size()));
}

/// The weight of one list member's parameters ("q=0.5"); 1 when absent. A malformed weight
/// counts as acceptable: refusing compression is never wrong, but the client asked for it.
bool weight_is_zero(std::string_view params)
{
    while (!params.empty()) {
        auto const semi = params.find(';');
        auto param = trim_ows(params.substr(0, semi));
        params = semi == std::string_view::npos ? std::string_view() : params.substr(semi + 1);
        if (param.size() < 2 || (param[0] != 'q' && param[0] != 'Q')) {
            continue;
        }
        param = trim_ows(param.substr(1));
        if (param.empty() || param[0] != '=') {
            continue;
        }
        auto value = trim_ows(param.substr(1));
        // "0", "0.", "0.0", "0.000": zero; anything else (1, 0.001, ...) is not.
        if (value.empty() || value[0] != '0') {
            return false;
        }
        value.remove_prefix(1);
        if (value.empty()) {
            return true;
        }
        if (value[0] != '.') {
            return false;
        }
        value.remove_prefix(1);
        return std::all_of(value.begin(), value.end(), [](char c) { return c == '0'; });
    }
    return false;
}

} // namespace

deflate_segment deflate_segment_of(std::string_view data, int level)
{
    z_stream zs {};
    // Raw deflate (negative window bits): no zlib or gzip wrapper, those are ours to write.
    if (deflateInit2(&zs, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        throw std::runtime_error("zlib: deflateInit2 failed");
    }
    deflate_segment out;
    out.blocks.resize(deflateBound(&zs, data.size()) + 16);
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    zs.avail_in = static_cast<uInt>(data.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.blocks.data());
    zs.avail_out = static_cast<uInt>(out.blocks.size());
    // A full flush ends on a byte boundary (an empty stored block) without BFINAL and without
    // back-references into anything before or after, which is what splicing needs.
    int rc = deflate(&zs, Z_FULL_FLUSH);
    while (rc == Z_OK && zs.avail_out == 0) {
        auto const used = out.blocks.size();
        out.blocks.resize(used * 2);
        zs.next_out = reinterpret_cast<Bytef*>(out.blocks.data() + used);
        zs.avail_out = static_cast<uInt>(out.blocks.size() - used);
        rc = deflate(&zs, Z_FULL_FLUSH);
    }
    auto const produced = out.blocks.size() - zs.avail_out;
    deflateEnd(&zs);
    if (rc != Z_OK && rc != Z_BUF_ERROR) {
        throw std::runtime_error("zlib: deflate failed");
    }
    out.blocks.resize(produced);
    // Kept for long: without this the string keeps its worst-case capacity (about the input's
    // size, 13 times the compressed one for a listing page).
    out.blocks.shrink_to_fit();
    out.crc = crc_of(data);
    out.length = data.size();
    return out;
}

gzip_frame gzip_frame_around(
    std::string_view head, deflate_segment const& middle, std::string_view tail)
{
    gzip_frame out;
    out.before.reserve(10 + head.size() + 16);
    // ID1 ID2, CM = deflate, no flags, no modification time, no extra flags, OS unknown.
    out.before.append("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff", 10);
    if (!head.empty()) {
        put_stored(out.before, head, false);
    }
    out.after.reserve(tail.size() + 16);
    put_stored(out.after, tail, true);
    auto crc = crc32_combine(crc_of(head), middle.crc, static_cast<z_off_t>(middle.length));
    crc = crc32_combine(crc, crc_of(tail), static_cast<z_off_t>(tail.size()));
    put_le32(out.after, static_cast<std::uint32_t>(crc));
    put_le32(out.after, static_cast<std::uint32_t>(head.size() + middle.length + tail.size()));
    return out;
}

std::string gzip_around(std::string_view head, deflate_segment const& middle, std::string_view tail)
{
    auto frame = gzip_frame_around(head, middle, tail);
    return frame.before + middle.blocks + frame.after;
}

bool accepts_gzip(std::string_view accept_encoding)
{
    std::optional<bool> gzip;
    bool any = false;
    for (auto const& member_text : common::split_list(accept_encoding)) {
        std::string_view const member = member_text;
        auto const semi = member.find(';');
        auto const coding = to_lower_ascii(trim_ows(member.substr(0, semi)));
        auto const params
            = semi == std::string_view::npos ? std::string_view() : member.substr(semi + 1);
        if (coding == "gzip" || coding == "x-gzip") {
            gzip = !weight_is_zero(params);
        } else if (coding == "*") {
            any = !weight_is_zero(params);
        }
    }
    return gzip ? *gzip : any;
}

std::shared_ptr<deflate_segment const> gzip_cache::segment(
    std::uint64_t id, std::string_view text, bool at_first_use)
{
    if (id == 0) {
        return nullptr;
    }
    std::lock_guard lock(mutex_);
    if (auto it = entries_.find(id); it != entries_.end()) {
        recent_.splice(recent_.begin(), recent_, it->second.used);
        return it->second.segment;
    }
    if (!at_first_use && seen_.insert(id).second) {
        seen_order_.push_back(id);
        if (seen_order_.size() > 4 * max_entries_) {
            seen_.erase(seen_order_.front());
            seen_order_.pop_front();
        }
        return nullptr;
    }
    // Compressed under the lock: it happens once per text, and a second request for the same
    // text waits for this one rather than compressing it again.
    auto made = std::make_shared<deflate_segment const>(deflate_segment_of(text));
    recent_.push_front(id);
    entries_.emplace(id, entry { made, recent_.begin() });
    bytes_ += made->blocks.size();
    while (entries_.size() > 1 && (entries_.size() > max_entries_ || bytes_ > max_bytes_)) {
        auto const oldest = entries_.find(recent_.back());
        bytes_ -= oldest->second.segment->blocks.size();
        entries_.erase(oldest);
        recent_.pop_back();
    }
    return made;
}

std::size_t gzip_cache::size() const
{
    std::lock_guard lock(mutex_);
    return entries_.size();
}

} // namespace toolgate::transport
