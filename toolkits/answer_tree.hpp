// A platform's JSON answer as an outline over its own text: one node per value (its byte span,
// its member key, its place in the nesting), plus what is shown of it. Projection (`_fields`)
// and the budget cut hide nodes and shorten strings; serialize() then copies every untouched
// value as the platform wrote it, so keys, numbers and ids keep their exact spelling (a
// Boost.JSON round trip would turn 1.5 into 1.5E0 and big integers into doubles).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toolgate::toolkits {

enum class json_kind : std::uint8_t { object, array, string, number, literal };

class answer_tree {
public:
    using index = std::uint32_t;
    static constexpr index none = UINT32_MAX;
    /// Deeper nesting is not taken as JSON (the shaper's parser stops at the same depth).
    static constexpr std::size_t max_depth = 256;

    /// The outline of `text`, which must outlive the tree; nullopt unless `text` is exactly one
    /// JSON value (surrounding white space allowed) of valid UTF-8 within max_depth.
    static std::optional<answer_tree> parse(std::string_view text);

    std::string_view text() const { return text_; }
    index size() const { return static_cast<index>(nodes_.size()); }
    static constexpr index root = 0;

    json_kind kind(index n) const { return nodes_[n].kind; }
    index parent(index n) const { return nodes_[n].parent; }
    /// Members or elements, shown or not.
    index child_count(index n) const { return nodes_[n].children; }
    /// The first child (none without children) and the one after `child` (none after the last).
    index first_child(index n) const { return nodes_[n].children == 0 ? none : n + 1; }
    index next_sibling(index child) const;
    /// The value's text as the platform wrote it.
    std::string_view raw(index n) const;
    /// A member's key as written between its quotes (escapes kept); "" for an element.
    std::string_view raw_key(index n) const;
    /// A member's key with escapes decoded.
    std::string key(index n) const;
    bool is_member(index n) const { return nodes_[n].key_end > nodes_[n].key_begin; }
    /// A string's value with escapes decoded (strings only).
    std::string string_value(index n) const;
    /// The member of object `n` named `name` (the first, if repeated), or none.
    index member(index n, std::string_view name) const;

    // --- what is shown -----------------------------------------------------------------------
    bool shown(index n) const { return shown_[n] != 0; }
    /// Shows or hides `n` and everything inside it.
    void show_subtree(index n, bool on);
    /// Shows `n` alone (its children keep their state).
    void show_node(index n) { shown_[n] = 1; }
    /// Cuts a string's content to its first `bytes` (a unit boundary: never inside a UTF-8
    /// sequence or an escape); the output ends the string with a marker naming what is gone.
    void cut_string(index n, std::size_t bytes);
    /// The content bytes a string keeps (all of them unless cut).
    std::size_t kept_string_bytes(index n) const;
    std::size_t string_content_bytes(index n) const { return raw(n).size() - 2; }
    /// The largest cut at most `bytes` long that keeps escapes and characters whole.
    std::size_t string_cut_point(index n, std::size_t bytes) const;
    /// The marker that ends a string cut to `kept` of its content bytes.
    std::string cut_marker(index n, std::size_t kept) const;

    /// Recomputes every shown node's output size after show/hide changes (whole tree).
    void measure();
    /// The output size of a shown node, as of the last measure() or adjust().
    std::uint64_t bytes(index n) const { return bytes_[n]; }
    /// Lowers the size of `n` and of every enclosing value by `delta` bytes after a change
    /// inside `n`, and marks them changed.
    void adjust(index n, std::uint64_t delta);
    /// The shown output: the platform's text for untouched values, rebuilt around the rest.
    std::string serialize() const;

private:
    struct node {
        std::uint32_t begin = 0;
        std::uint32_t end = 0;
        std::uint32_t key_begin = 0; ///< after the opening quote
        std::uint32_t key_end = 0; ///< at the closing quote; == key_begin: not a member
        index parent = none;
        index after = 0; ///< one past the last node of this subtree (pre-order)
        index children = 0;
        json_kind kind = json_kind::literal;
    };
    class parser;

    void emit(index n, std::string& out) const;

    std::string_view text_;
    std::vector<node> nodes_;
    std::vector<std::uint8_t> shown_;
    std::vector<std::uint8_t> changed_;
    std::vector<std::uint64_t> bytes_;
    std::vector<std::uint32_t> string_kept_; ///< content bytes kept; UINT32_MAX: all
};

} // namespace toolgate::toolkits
