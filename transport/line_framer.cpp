// Newline framing with a line-length cap: an oversize line becomes one error frame and the
// stream carries on at the next line (the session is not torn down).
#include "transport/line_framer.hpp"

namespace toolgate::transport {

std::vector<frame> line_framer::feed(std::string_view bytes)
{
    std::vector<frame> out;
    while (!bytes.empty()) {
        auto const newline = bytes.find('\n');
        auto const chunk = bytes.substr(0, newline);
        if (skipping_) {
            if (newline == std::string_view::npos) {
                return out;
            }
            skipping_ = false;
        } else if (buffer_.size() + chunk.size() > max_line_) {
            buffer_.clear();
            buffer_.shrink_to_fit();
            out.push_back({ {}, true });
            skipping_ = newline == std::string_view::npos;
        } else {
            buffer_.append(chunk);
            if (newline != std::string_view::npos) {
                if (!buffer_.empty() && buffer_.back() == '\r') {
                    buffer_.pop_back();
                }
                if (buffer_.find_first_not_of(" \t") != std::string::npos) {
                    out.push_back({ std::move(buffer_), false });
                }
                buffer_.clear();
            }
        }
        if (newline == std::string_view::npos) {
            break;
        }
        bytes.remove_prefix(newline + 1);
    }
    return out;
}

} // namespace toolgate::transport
