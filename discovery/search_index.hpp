// Ranked search over the served tools' texts (the discovery meta-tool `toolgate_search_tools`):
// BM25F over name words (stemmed, and as written), title, description and parameter texts
// with field weights, query words widened by a small synonym table of our own,
// identifier-aware tokens (CamelCase, snake_case, acronyms) and a light stemmer; the action a
// request asks for and the toolkit it names lift the tools that match them. Built once at
// start-up; a search touches only the postings of the query's words.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace toolgate::discovery {

/// The texts of one tool, as the index reads them.
struct search_entry {
    std::string name; ///< `ToolName` (CamelCase, split into words)
    std::string title;
    std::string description;
    std::string params; ///< parameter names and descriptions, joined
    std::string group; ///< the toolkit: tools of the best-matching one rank a little higher
    std::string platform; ///< what the toolkit wraps, in words: evidence for its group
};

/// Lower-cased, identifier-split, stopword-free, stemmed words ("GetFolderItems" -> get folder
/// item). Shared by the index and its tests.
std::vector<std::string> search_tokens(std::string_view text);

class search_index {
public:
    /// One document per entry; a hit's `position` is the entry's index.
    explicit search_index(std::vector<search_entry> const& entries);

    struct hit {
        std::size_t position;
        double score;
    };

    /// Up to `limit` entries best matching `query`, best first; only positions `keep` accepts
    /// are considered. Ties go to the tool with the shorter name (the more general one), then
    /// by name. Empty when no word of the query occurs in any kept entry.
    std::vector<hit> search(std::string_view query, std::function<bool(std::size_t)> const& keep,
        std::size_t limit) const;

    std::size_t size() const { return names_.size(); }

private:
    /// Every kept entry holding a word of `widened`, with its summed weighted score.
    std::vector<hit> matches(std::vector<std::pair<std::string, double>> const& widened,
        std::function<bool(std::size_t)> const& keep) const;
    /// The group (toolkit) the request is most likely about; group_count_ when none.
    std::uint32_t likeliest_group(
        std::vector<hit> const& hits, std::unordered_map<std::string, double> const& weights) const;

    struct posting {
        std::uint32_t document;
        float weight; ///< idf × saturated field-weighted frequency
    };
    std::unordered_map<std::string, std::uint32_t> terms_; ///< word -> index into postings_
    std::vector<std::vector<posting>> postings_;
    std::vector<std::string> names_; ///< for tie-breaks
    std::vector<std::size_t> name_words_;
    std::vector<std::uint8_t> actions_; ///< what each tool's name says it does (action class)
    std::vector<std::uint32_t> groups_; ///< each tool's group, numbered
    std::uint32_t group_count_ = 0;
    std::vector<std::vector<std::string>> group_words_; ///< per group: its platform's own words
};

} // namespace toolgate::discovery
