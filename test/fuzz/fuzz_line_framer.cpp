// Fuzz target: the stdio line framer. The input is cut into chunks at sizes taken from its
// first bytes; framing must not depend on where reads split the stream, and every frame obeys
// the limit and never holds a newline.
#include "fuzz_target.hpp"
#include "transport/line_framer.hpp"

#include <string_view>
#include <vector>

using toolgate::transport::frame;
using toolgate::transport::line_framer;

TOOLGATE_FUZZ_TARGET(line_framer)
{
    if (size < 2) {
        return 0;
    }
    std::size_t const max_line = 1 + data[0] % 64;
    std::size_t const step = 1 + data[1] % 17;
    std::string_view const bytes(reinterpret_cast<char const*>(data + 2), size - 2);

    line_framer whole(max_line);
    auto const expected = whole.feed(bytes);

    line_framer pieces(max_line);
    std::vector<frame> got;
    for (std::size_t at = 0; at < bytes.size(); at += step) {
        for (auto& f : pieces.feed(bytes.substr(at, step))) {
            got.push_back(std::move(f));
        }
    }
    TOOLGATE_FUZZ_CHECK(got.size() == expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        TOOLGATE_FUZZ_CHECK(got[i].oversize == expected[i].oversize);
        TOOLGATE_FUZZ_CHECK(got[i].text == expected[i].text);
        TOOLGATE_FUZZ_CHECK(got[i].text.size() <= max_line);
        TOOLGATE_FUZZ_CHECK(got[i].text.find('\n') == std::string::npos);
        TOOLGATE_FUZZ_CHECK(!got[i].oversize || got[i].text.empty());
    }
    TOOLGATE_FUZZ_CHECK(whole.has_partial() == pieces.has_partial());
    return 0;
}
