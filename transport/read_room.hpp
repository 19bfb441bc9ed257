// Free room for Beast's reads, made before a body is read and given back afterwards.
//
// Beast reads as much as its buffer has free room, and after the headers that is about 512
// bytes. A 1 MB body then came in some 2,000 reads, each a pass through the scheduler with
// its epoll_wait, and under TLS each also a zero-byte socket read (Asio's SSL stream
// completes a read of already decrypted bytes that way): about 6 ms of CPU per MB on the
// 2-core machine of bench/README.md. Both HTTP ends make room before reading a body, and an
// idle connection holds none.
#pragma once

#include <boost/beast/core/flat_buffer.hpp>

#include <cstddef>

namespace toolgate::transport {

/// At least `room` bytes free for the next reads.
inline void make_read_room(boost::beast::flat_buffer& buffer, std::size_t room)
{
    if (buffer.capacity() - buffer.size() < room) {
        buffer.reserve(buffer.size() + room);
    }
}

/// Frees the buffer's memory once it holds nothing and has grown past `kept` bytes.
inline void give_back_read_room(boost::beast::flat_buffer& buffer, std::size_t kept = 0)
{
    if (buffer.size() == 0 && buffer.capacity() > kept) {
        buffer.shrink_to_fit();
    }
}

} // namespace toolgate::transport
