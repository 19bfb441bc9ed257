#include "gunzip.hpp"

#include <zlib.h>

namespace toolgate::testing {

std::optional<std::string> gunzip(std::string const& member)
{
    z_stream zs {};
    if (inflateInit2(&zs, 16 + 15) != Z_OK) { // 16: expect the gzip wrapper
        return std::nullopt;
    }
    std::string out;
    std::string chunk(64 * 1024, '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(member.data()));
    zs.avail_in = static_cast<uInt>(member.size());
    int rc = Z_OK;
    while (rc == Z_OK) {
        zs.next_out = reinterpret_cast<Bytef*>(chunk.data());
        zs.avail_out = static_cast<uInt>(chunk.size());
        rc = inflate(&zs, Z_NO_FLUSH);
        out.append(chunk.data(), chunk.size() - zs.avail_out);
    }
    auto const left = zs.avail_in;
    inflateEnd(&zs);
    if (rc != Z_STREAM_END || left != 0) {
        return std::nullopt;
    }
    return out;
}

} // namespace toolgate::testing
