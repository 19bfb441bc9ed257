// The list-splitting rule (see split_list.hpp).
#include "common/split_list.hpp"

#include "common/ascii.hpp"

namespace toolgate::common {

std::vector<std::string> split_list(std::string_view text, std::string_view separators)
{
    std::vector<std::string> out;
    while (true) {
        auto const cut = text.find_first_of(separators);
        if (auto item = trim_blanks(text.substr(0, cut)); !item.empty()) {
            out.emplace_back(item);
        }
        if (cut == std::string_view::npos) {
            return out;
        }
        text.remove_prefix(cut + 1);
    }
}

} // namespace toolgate::common
