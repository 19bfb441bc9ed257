// Edit-distance suggestions over catalogue-sized inputs (1150 names). Over-long names get none;
// a letter-count bound skips most candidates in linear time, and the comparison itself keeps
// to a band around the diagonal and stops once the distance must exceed the threshold.
#include "protocol/suggest.hpp"

#include "common/ascii.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>
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

/// A lower bound of the edit distance between `name` and other names, from letter counts
/// (case-insensitive, '.' and '_' alike): each edit changes the counts by at most two, so a
/// candidate whose counts differ by more than twice the limit is skipped in O(length) instead
/// of a full comparison.
class letter_bound {
public:
    explicit letter_bound(std::string_view name)
        : size_(static_cast<std::ptrdiff_t>(name.size()))
    {
        for (char c : name) {
            ++counts_[bucket(c)];
        }
    }

    std::size_t operator()(std::string_view other)
    {
        std::ptrdiff_t differ = size_;
        for (char c : other) {
            auto& n = counts_[bucket(c)];
            differ += n > 0 ? -1 : 1;
            --n;
        }
        for (char c : other) {
            ++counts_[bucket(c)];
        }
        return static_cast<std::size_t>(differ + 1) / 2;
    }

private:
    static std::size_t bucket(char c)
    {
        auto const l = static_cast<unsigned char>(lower(c));
        return l == '.' ? static_cast<std::size_t>('_') : l;
    }

    std::array<std::ptrdiff_t, 256> counts_ {};
    std::ptrdiff_t size_;
};

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
    // Only cells within `limit` of the diagonal can lead to a distance within `limit`
    // (Ukkonen's band): O(|a| * limit) instead of O(|a| * |b|) (security review 3, item 6).
    std::size_t const over = limit + 1;
    std::vector<std::size_t> prev(b.size() + 2, over);
    std::vector<std::size_t> cur(b.size() + 2, over);
    for (std::size_t j = 0; j <= std::min(b.size(), limit); ++j) {
        prev[j] = j;
    }
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t const lo = i > limit ? i - limit : 0;
        std::size_t const hi = std::min(b.size(), i + limit);
        std::size_t smallest = over;
        if (lo == 0) {
            cur[0] = i;
            smallest = i;
        } else {
            cur[lo - 1] = over;
        }
        for (std::size_t j = std::max<std::size_t>(lo, 1); j <= hi; ++j) {
            std::size_t const cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
            cur[j] = std::min({ prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost, over });
            smallest = std::min(smallest, cur[j]);
        }
        cur[hi + 1] = over; // the next row reads one cell past this band
        if (smallest > limit) {
            return over;
        }
        std::swap(prev, cur);
    }
    return std::min(prev[b.size()], over);
}

std::vector<std::string> suggest_names(
    std::string_view name, std::span<const std::string_view> candidates, std::size_t max)
{
    if (name.size() > longest_suggestible) {
        return {};
    }
    std::vector<std::pair<std::size_t, std::string>> scored;
    auto const limit = threshold(name);
    letter_bound bound(name);
    for (auto c : candidates) {
        if (length_gap(name, c) > limit || bound(c) > limit) {
            continue;
        }
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
    letter_bound bound(name);
    for (auto const& t : tools) {
        // Compare like with like: a qualified name against qualified names (either spelling),
        // a bare tool name against the tool parts.
        if (bound(qualified ? std::string_view(t.name) : tool_part(t.name)) > limit) {
            continue;
        }
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
