// answer_tree: a strict one-pass JSON reader that records spans instead of building values,
// and the output side (sizes, serialisation) of what is shown.
#include "toolkits/answer_tree.hpp"

#include "common/json_scan.hpp"
#include "common/utf8.hpp"

#include <algorithm>
#include <limits>

namespace toolgate::toolkits {
namespace {

constexpr std::uint32_t whole_string = std::numeric_limits<std::uint32_t>::max();

bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

int hex_value(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

std::uint32_t hex4(std::string_view s, std::size_t i)
{
    std::uint32_t v = 0;
    for (std::size_t k = 0; k < 4; ++k) {
        v = (v << 4) | static_cast<std::uint32_t>(hex_value(s[i + k]));
    }
    return v;
}

/// The length of the unit (escape, surrogate pair of escapes, UTF-8 character) at `i` of a
/// string's checked content.
std::size_t unit_length(std::string_view content, std::size_t i)
{
    if (content[i] != '\\') {
        return std::max<std::size_t>(1, common::utf8_sequence_length(content, i));
    }
    if (content[i + 1] != 'u') {
        return 2;
    }
    auto const high = hex4(content, i + 2);
    bool const pair = high >= 0xD800 && high <= 0xDBFF && i + 12 <= content.size()
        && content[i + 6] == '\\' && content[i + 7] == 'u';
    return pair ? 12 : 6;
}

void append_utf8(std::string& out, std::uint32_t code)
{
    if (code < 0x80) {
        out += static_cast<char>(code);
    } else if (code < 0x800) {
        out += static_cast<char>(0xC0 | (code >> 6));
        out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
        out += static_cast<char>(0xE0 | (code >> 12));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (code >> 18));
        out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (code & 0x3F));
    }
}

/// A checked string's content with its escapes decoded.
std::string decode(std::string_view content)
{
    std::string out;
    out.reserve(content.size());
    for (std::size_t i = 0; i < content.size();) {
        if (content[i] != '\\') {
            out += content[i++];
            continue;
        }
        char const e = content[i + 1];
        if (e != 'u') {
            static constexpr std::string_view from = "bfnrt";
            static constexpr std::string_view to = "\b\f\n\r\t";
            auto const at = from.find(e);
            out += at == std::string_view::npos ? e : to[at];
            i += 2;
            continue;
        }
        std::uint32_t code = hex4(content, i + 2);
        auto const length = unit_length(content, i);
        if (length == 12) {
            auto const low = hex4(content, i + 8);
            if (low >= 0xDC00 && low <= 0xDFFF) {
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
            }
        }
        append_utf8(out, code);
        i += length == 12 && code >= 0x10000 ? 12 : 6;
    }
    return out;
}

} // namespace

/// Reads one value into pre-ordered nodes; every check of RFC 8259's grammar, plus UTF-8.
class answer_tree::parser {
public:
    parser(std::string_view text, std::vector<node>& nodes)
        : s_(text)
        , nodes_(nodes)
    {
    }

    bool document()
    {
        skip_space();
        if (!value(none, 0, 0, 0)) {
            return false;
        }
        skip_space();
        return pos_ == s_.size();
    }

private:
    void skip_space()
    {
        while (pos_ < s_.size() && is_space(s_[pos_])) {
            ++pos_;
        }
    }

    bool value(index parent, std::uint32_t key_begin, std::uint32_t key_end, std::size_t depth)
    {
        if (pos_ >= s_.size() || depth >= max_depth) {
            return false;
        }
        auto const self = static_cast<index>(nodes_.size());
        auto const begin = static_cast<std::uint32_t>(pos_);
        auto const first = s_[pos_];
        if (first != '{' && first != '[') {
            // A scalar (most values): read first, then recorded whole in one write.
            auto const kind = scalar();
            if (!kind) {
                return false;
            }
            nodes_.push_back({ begin, static_cast<std::uint32_t>(pos_), key_begin, key_end, parent,
                self + 1, 0, *kind });
        } else {
            nodes_.push_back({ begin, 0, key_begin, key_end, parent, 0, 0,
                first == '{' ? json_kind::object : json_kind::array });
            if (!(first == '{' ? object(self, depth) : array(self, depth))) {
                return false;
            }
            auto& done = nodes_[self];
            done.end = static_cast<std::uint32_t>(pos_);
            done.after = static_cast<index>(nodes_.size());
        }
        if (parent != none) {
            ++nodes_[parent].children;
        }
        return true;
    }

    std::optional<json_kind> scalar()
    {
        bool ok = false;
        json_kind kind = json_kind::literal;
        switch (s_[pos_]) {
        case '"':
            kind = json_kind::string;
            ok = string();
            break;
        case 't':
            ok = literal("true");
            break;
        case 'f':
            ok = literal("false");
            break;
        case 'n':
            ok = literal("null");
            break;
        default:
            kind = json_kind::number;
            ok = number();
        }
        return ok ? std::optional(kind) : std::nullopt;
    }

    bool object(index self, std::size_t depth)
    {
        ++pos_;
        skip_space();
        if (pos_ < s_.size() && s_[pos_] == '}') {
            ++pos_;
            return true;
        }
        while (true) {
            skip_space();
            if (pos_ >= s_.size() || s_[pos_] != '"') {
                return false;
            }
            auto const key_begin = static_cast<std::uint32_t>(pos_ + 1);
            if (!string()) {
                return false;
            }
            auto const key_end = static_cast<std::uint32_t>(pos_ - 1);
            skip_space();
            if (pos_ >= s_.size() || s_[pos_] != ':') {
                return false;
            }
            ++pos_;
            skip_space();
            if (!value(self, key_begin, key_end, depth + 1)) {
                return false;
            }
            skip_space();
            if (pos_ < s_.size() && s_[pos_] == ',') {
                ++pos_;
                continue;
            }
            if (pos_ < s_.size() && s_[pos_] == '}') {
                ++pos_;
                return true;
            }
            return false;
        }
    }

    bool array(index self, std::size_t depth)
    {
        ++pos_;
        skip_space();
        if (pos_ < s_.size() && s_[pos_] == ']') {
            ++pos_;
            return true;
        }
        while (true) {
            skip_space();
            if (!value(self, 0, 0, depth + 1)) {
                return false;
            }
            skip_space();
            if (pos_ < s_.size() && s_[pos_] == ',') {
                ++pos_;
                continue;
            }
            if (pos_ < s_.size() && s_[pos_] == ']') {
                ++pos_;
                return true;
            }
            return false;
        }
    }

    bool string()
    {
        ++pos_; // the opening quote
        auto const size = s_.size();
        char const* const data = s_.data();
        while (pos_ < size) {
            // Most bytes of most answers are plain ASCII: skipped eight at a time.
            pos_ = static_cast<std::size_t>(
                common::find_string_special(data + pos_, data + size) - data);
            if (pos_ >= size) {
                break;
            }
            auto const c = static_cast<unsigned char>(data[pos_]);
            if (c == '"') {
                ++pos_;
                return true;
            }
            if (c < 0x20) {
                return false;
            }
            if (c == '\\') {
                if (!escape()) {
                    return false;
                }
                continue;
            }
            auto const length = common::utf8_sequence_length(s_, pos_);
            if (length == 0) {
                return false;
            }
            pos_ += length;
        }
        return false;
    }

    bool escape()
    {
        if (pos_ + 1 >= s_.size()) {
            return false;
        }
        char const e = s_[pos_ + 1];
        if (std::string_view("\"\\/bfnrt").find(e) != std::string_view::npos) {
            pos_ += 2;
            return true;
        }
        if (e != 'u' || pos_ + 6 > s_.size()) {
            return false;
        }
        for (std::size_t k = 2; k < 6; ++k) {
            if (hex_value(s_[pos_ + k]) < 0) {
                return false;
            }
        }
        pos_ += 6;
        return true;
    }

    bool literal(std::string_view word)
    {
        if (s_.substr(pos_, word.size()) != word) {
            return false;
        }
        pos_ += word.size();
        return true;
    }

    bool digits()
    {
        auto const start = pos_;
        while (pos_ < s_.size() && is_digit(s_[pos_])) {
            ++pos_;
        }
        return pos_ > start;
    }

    bool number()
    {
        if (s_[pos_] == '-') {
            ++pos_;
        }
        if (pos_ < s_.size() && s_[pos_] == '0') {
            ++pos_;
        } else if (!digits()) {
            return false;
        }
        if (pos_ < s_.size() && s_[pos_] == '.') {
            ++pos_;
            if (!digits()) {
                return false;
            }
        }
        if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
            ++pos_;
            if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) {
                ++pos_;
            }
            if (!digits()) {
                return false;
            }
        }
        return true;
    }

    std::string_view s_;
    std::vector<node>& nodes_;
    std::size_t pos_ = 0;
};

std::optional<answer_tree> answer_tree::parse(std::string_view text)
{
    if (text.size() >= std::numeric_limits<std::uint32_t>::max()) {
        return std::nullopt;
    }
    answer_tree tree;
    tree.text_ = text;
    // Compact answers hold about one value per 8 to 16 bytes: room for the denser kind, so
    // that a large answer's nodes are not copied when the vector grows.
    tree.nodes_.reserve(text.size() / 8 + 4);
    parser p(text, tree.nodes_);
    if (!p.document()) {
        return std::nullopt;
    }
    auto const n = tree.nodes_.size();
    tree.shown_.assign(n, 1);
    tree.changed_.assign(n, 0);
    tree.string_kept_.assign(n, whole_string);
    tree.bytes_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        tree.bytes_[i] = tree.nodes_[i].end - tree.nodes_[i].begin;
    }
    return tree;
}

answer_tree::index answer_tree::next_sibling(index child) const
{
    auto const p = nodes_[child].parent;
    auto const next = nodes_[child].after;
    return p == none || next >= nodes_[p].after ? none : next;
}

std::string_view answer_tree::raw(index n) const
{
    return text_.substr(nodes_[n].begin, nodes_[n].end - nodes_[n].begin);
}

std::string_view answer_tree::raw_key(index n) const
{
    return text_.substr(nodes_[n].key_begin, nodes_[n].key_end - nodes_[n].key_begin);
}

std::string answer_tree::key(index n) const
{
    auto const k = raw_key(n);
    return k.find('\\') == std::string_view::npos ? std::string(k) : decode(k);
}

std::string answer_tree::string_value(index n) const
{
    auto const r = raw(n);
    return decode(r.substr(1, r.size() - 2));
}

answer_tree::index answer_tree::member(index n, std::string_view name) const
{
    if (kind(n) != json_kind::object) {
        return none;
    }
    for (auto c = first_child(n); c != none; c = next_sibling(c)) {
        auto const k = raw_key(c);
        if (k == name || (k.find('\\') != std::string_view::npos && decode(k) == name)) {
            return c;
        }
    }
    return none;
}

void answer_tree::show_subtree(index n, bool on)
{
    std::fill(shown_.begin() + n, shown_.begin() + nodes_[n].after, on ? 1 : 0);
}

void answer_tree::cut_string(index n, std::size_t bytes)
{
    string_kept_[n] = static_cast<std::uint32_t>(bytes);
}

std::size_t answer_tree::kept_string_bytes(index n) const
{
    return string_kept_[n] == whole_string ? string_content_bytes(n) : string_kept_[n];
}

std::size_t answer_tree::string_cut_point(index n, std::size_t bytes) const
{
    auto const r = raw(n);
    auto const content = r.substr(1, r.size() - 2);
    std::size_t at = 0;
    while (at < content.size()) {
        auto const next = at + unit_length(content, at);
        if (next > bytes) {
            break;
        }
        at = next;
    }
    return at;
}

std::string answer_tree::cut_marker(index n, std::size_t kept) const
{
    return "[\u2026" + std::to_string(string_content_bytes(n) - kept) + " more bytes]";
}

void answer_tree::measure()
{
    for (auto n = size(); n-- > 0;) {
        if (!shown_[n]) {
            bytes_[n] = 0;
            continue;
        }
        auto const& nd = nodes_[n];
        if (nd.kind == json_kind::string && string_kept_[n] != whole_string) {
            bytes_[n] = 2 + string_kept_[n] + cut_marker(n, string_kept_[n]).size();
            changed_[n] = 1;
            continue;
        }
        if (nd.kind != json_kind::object && nd.kind != json_kind::array) {
            bytes_[n] = nd.end - nd.begin;
            changed_[n] = 0;
            continue;
        }
        std::uint64_t sum = 0;
        std::uint64_t count = 0;
        bool changed = false;
        for (auto c = first_child(n); c != none; c = next_sibling(c)) {
            if (!shown_[c]) {
                changed = true;
                continue;
            }
            changed = changed || changed_[c] != 0;
            sum += bytes_[c];
            if (nd.kind == json_kind::object) {
                sum += nodes_[c].key_end - nodes_[c].key_begin + 3; // "key":
            }
            ++count;
        }
        changed_[n] = changed ? 1 : 0;
        bytes_[n] = changed ? 2 + sum + (count > 0 ? count - 1 : 0) : nd.end - nd.begin;
    }
}

void answer_tree::adjust(index n, std::uint64_t delta)
{
    for (auto a = n; a != none; a = nodes_[a].parent) {
        bytes_[a] -= std::min(delta, bytes_[a]);
        changed_[a] = 1;
    }
}

std::string answer_tree::serialize() const
{
    std::string out;
    out.reserve(bytes_[root]);
    emit(root, out);
    return out;
}

void answer_tree::emit(index n, std::string& out) const
{
    auto const& nd = nodes_[n];
    if (!changed_[n]) {
        out.append(text_.data() + nd.begin, nd.end - nd.begin);
        return;
    }
    if (nd.kind == json_kind::string) {
        auto const kept = kept_string_bytes(n);
        out.append(text_.data() + nd.begin, kept + 1);
        out += cut_marker(n, kept);
        out += '"';
        return;
    }
    bool const object = nd.kind == json_kind::object;
    out += object ? '{' : '[';
    bool first = true;
    for (auto c = first_child(n); c != none; c = next_sibling(c)) {
        if (!shown_[c]) {
            continue;
        }
        if (!first) {
            out += ',';
        }
        first = false;
        if (object) {
            out += '"';
            out += raw_key(c);
            out += "\":";
        }
        emit(c, out);
    }
    out += object ? '}' : ']';
}

} // namespace toolgate::toolkits
