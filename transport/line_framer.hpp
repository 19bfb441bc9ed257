// Cuts a byte stream into newline-delimited messages (MCP stdio transport). Pure, no I/O.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace toolgate::transport {

struct frame {
    std::string text; ///< the line without its `\n` (and a trailing `\r`)
    bool oversize = false; ///< the line passed the limit; `text` is empty
};

class line_framer {
public:
    /// Lines longer than `max_line` bytes are dropped and reported as one oversize frame.
    explicit line_framer(std::size_t max_line)
        : max_line_(max_line)
    {
    }

    /// Appends bytes (any split, partial lines kept) and returns the complete frames.
    /// Blank lines yield nothing.
    std::vector<frame> feed(std::string_view bytes);

    /// True while an unterminated line is buffered (or being skipped as oversize).
    bool has_partial() const { return !buffer_.empty() || skipping_; }

private:
    std::size_t max_line_;
    std::string buffer_;
    bool skipping_ = false; ///< inside an oversize line: drop bytes until its newline
};

} // namespace toolgate::transport
