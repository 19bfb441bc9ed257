// Edit-distance suggestions. Catalogue-sized inputs (1150 names) make an O(n*m) DP cheap when
// both names are short; over-long names get none, and each comparison stops once the
// distance must exceed the threshold.
#include "protocol/suggest.hpp"

#include "common/ascii.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

namespace toolgate::protocol {

namespace {

char lower(char c)
{
    return common::to_lower_ascii(c);
}

std::size_t threshold(std::string_view name)
{
    return std::max<std::size_t>(2, name.size() / 3);
}

/// A name longer than this is no typo of a catalogue name (the longest is under 80
/// characters): no suggestion is looked for, so no request can buy O(name × catalogue) work
/// on an I/O thread (security review 3).
constexpr std::size_t longest_suggestible = 128;

std::size_t length_gap(std::string_view a, std::string_view b)
{
    return a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
}

std::vector<std::string> best(
    std::vector<std::pair<std::size_t, std::string>> scored, std::size_t max)
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

std::size_t edit_distance_within(std::string_view a, std::string_view b, std::size_t limit)
{
    if (length_gap(a, b) > limit) {
        return limit + 1;
    }
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) {
        row[j] = j;
    }
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        std::size_t smallest = row[0];
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t up = row[j];
            std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
            row[j] = std::min({ row[j] + 1, row[j - 1] + 1, diag + cost });
            smallest = std::min(smallest, row[j]);
            diag = up;
        }
        if (smallest > limit) {
            return limit + 1;
        }
    }
    return row[b.size()];
}

std::vector<std::string> suggest_names(
    std::string_view name, std::span<const std::string_view> candidates, std::size_t max)
{
    if (name.size() > longest_suggestible) {
        return {};
    }
    std::vector<std::pair<std::size_t, std::string>> scored;
    auto const limit = threshold(name);
    for (auto c : candidates) {
        auto d = edit_distance_within(name, c, limit);
        if (d <= limit) {
            scored.emplace_back(d, std::string(c));
        }
    }
    return best(std::move(scored), max);
}

std::vector<std::string> suggest_tools(
    std::string_view name, std::span<const protocol::tool_descriptor> tools, std::size_t max)
{
    if (name.size() > longest_suggestible) {
        return {};
    }
    bool qualified = name.find_first_of("._") != std::string_view::npos;
    auto const limit = threshold(qualified ? tool_part(name) : name);
    std::vector<std::pair<std::size_t, std::string>> scored;
    for (auto const& t : tools) {
        // Compare like with like: a qualified name against qualified names (either spelling),
        // a bare tool name against the tool parts.
        std::size_t d = qualified ? std::min(edit_distance_within(name, t.name, limit),
                            edit_distance_within(name, t.dotted_name, limit))
                                  : edit_distance_within(name, tool_part(t.name), limit);
        if (d <= limit) {
            scored.emplace_back(d, t.name);
        }
    }
    return best(std::move(scored), max);
}

} // namespace toolgate::protocol
