// Edit-distance suggestions. Catalogue-sized inputs (1150 names) make a plain O(n*m) DP cheap,
// and this only runs on an error path.
#include "protocol/suggest.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

namespace toolgate::protocol {

namespace {

char lower(char c)
{
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

std::size_t threshold(std::string_view name)
{
    return std::max<std::size_t>(2, name.size() / 3);
}

std::vector<std::string> best(std::vector<std::pair<std::size_t, std::string>> scored,
                              std::size_t max)
{
    std::sort(scored.begin(), scored.end());
    std::vector<std::string> out;
    for (auto& [d, s] : scored) {
        if (out.size() == max) {
            break;
        }
        if (std::find(out.begin(), out.end(), s) == out.end()) {
            out.push_back(std::move(s));
        }
    }
    return out;
}

std::string_view tool_part(std::string_view name)
{
    auto cut = name.find_first_of("._");
    return cut == std::string_view::npos ? name : name.substr(cut + 1);
}

} // namespace

std::size_t edit_distance(std::string_view a, std::string_view b)
{
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) {
        row[j] = j;
    }
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t up = row[j];
            std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + cost});
            diag = up;
        }
    }
    return row[b.size()];
}

std::vector<std::string> suggest_names(std::string_view name,
                                       std::span<const std::string_view> candidates,
                                       std::size_t max)
{
    std::vector<std::pair<std::size_t, std::string>> scored;
    for (auto c : candidates) {
        auto d = edit_distance(name, c);
        if (d <= threshold(name)) {
            scored.emplace_back(d, std::string(c));
        }
    }
    return best(std::move(scored), max);
}

std::vector<std::string> suggest_tools(std::string_view name,
                                       std::span<const protocol::tool_descriptor> tools,
                                       std::size_t max)
{
    bool qualified = name.find_first_of("._") != std::string_view::npos;
    std::vector<std::pair<std::size_t, std::string>> scored;
    for (auto const& t : tools) {
        // Compare like with like: a qualified name against qualified names (either spelling),
        // a bare tool name against the tool parts.
        std::size_t d = qualified ? std::min(edit_distance(name, t.name),
                                             edit_distance(name, t.dotted_name))
                                  : edit_distance(name, tool_part(t.name));
        if (d <= threshold(qualified ? tool_part(name) : name)) {
            scored.emplace_back(d, t.name);
        }
    }
    return best(std::move(scored), max);
}

} // namespace toolgate::protocol
