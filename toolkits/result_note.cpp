// The note after a cut or projected answer (see result_note.hpp). Sentences are short and
// each says something the model can act on; the next call is given as JSON it can copy.
#include "toolkits/result_note.hpp"

#include <boost/json/serialize.hpp>
#include <fmt/format.h>

namespace toolgate::toolkits {
namespace {

namespace json = boost::json;

std::uint64_t tokens_of(std::size_t bytes)
{
    return (bytes + bytes_per_token - 1) / bytes_per_token;
}

/// A list's name at the start of a sentence.
std::string list_name(std::string const& path)
{
    return path.empty() ? std::string("The list") : "`" + path + "`";
}

std::string join(std::vector<std::string> const& items, std::string_view quote)
{
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i) {
        out += i == 0 ? "" : (i + 1 == items.size() ? " and " : ", ");
        out += quote;
        out += items[i];
        out += quote;
    }
    return out;
}

std::string raise_budget(note_facts const& f)
{
    if (f.cap != 0 && f.budget.tokens >= f.cap) {
        return "";
    }
    return f.cap == 0 ? std::string(", or raise `_max_tokens`")
                      : fmt::format(", or raise `_max_tokens` (up to {})", grouped(f.cap));
}

std::string narrowing(note_facts const& f)
{
    std::string out = "list only the parts you need with `_fields`";
    if (!f.fields_example.empty()) {
        out += ", e.g. " + f.fields_example;
    }
    if (!f.own_narrowing.empty()) {
        out += ", or use this tool's own " + join(f.own_narrowing, "`");
    }
    return out + raise_budget(f);
}

void cut_sentences(note_facts const& f, std::string& out)
{
    out += fmt::format(" Cut to fit this call's budget of {} tokens", grouped(f.budget.tokens));
    if (f.budget.capped) {
        out += fmt::format(" (the {} asked for is over the server's cap)", grouped(f.budget.asked));
    }
    out += fmt::format(
        "; the whole answer is about {} tokens.", grouped(tokens_of(f.answer_bytes)));
    if (f.text_answer) {
        out += fmt::format(" The text ends after {} of its {} bytes.", grouped(f.shown_bytes),
            grouped(f.answer_bytes));
        return;
    }
    for (auto const& list : f.cut->lists) {
        if (f.page && list.node == f.page->list) {
            continue; // said with the paging below
        }
        out += fmt::format(" {} shows {} of its {} elements.", list_name(list.path),
            grouped(list.shown), grouped(list.of));
    }
    if (f.cut->strings > 0) {
        out += fmt::format(" {} long text{} shortened where marked […N more bytes].",
            f.cut->strings, f.cut->strings == 1 ? " was" : "s were");
    }
    if (!f.cut->fits) {
        out += " Even without its lists the answer was too large, so its text was cut and is not "
               "complete JSON.";
    }
}

void page_sentences(note_facts const& f, std::string& out)
{
    auto const& page = *f.page;
    auto const first = page.start + 1;
    auto const last = page.start + (f.next ? f.next->keep : page.shown);
    out += fmt::format(" {} shows elements {} to {} of the {} on this page", list_name(f.list_path),
        grouped(first), grouped(last), grouped(page.length));
    if (f.next && f.next->total) {
        out += fmt::format(" ({} in all)", grouped(*f.next->total));
    }
    out += '.';
    if (f.next == nullptr) {
        out += " This tool cannot continue the list: " + narrowing(f) + ".";
        return;
    }
    switch (f.next->outcome) {
    case next_call::kind::more:
        out += " Next call, starting with the first element not shown: "
            + json::serialize(f.next->arguments) + ".";
        out += " To get more per call, " + narrowing(f) + ".";
        return;
    case next_call::kind::end:
        out += " That is the end of the list.";
        return;
    case next_call::kind::stuck:
        out += " Not one element fits: " + narrowing(f) + ".";
        return;
    }
}

void projection_sentences(note_facts const& f, std::string& out)
{
    auto const& p = *f.projection;
    if (p.unmatched.empty()) {
        return;
    }
    out += fmt::format(" `_fields`: {} matched nothing in this answer", join(p.unmatched, "`"));
    if (!p.hints.empty()) {
        out += " (" + join(p.hints, "") + ")";
    }
    out += '.';
    if (!f.members.empty()) {
        out += " Its top-level members are " + join(f.members, "`") + ".";
    }
}

} // namespace

std::string grouped(std::uint64_t n)
{
    auto digits = std::to_string(n);
    for (auto i = digits.size(); i > 3; i -= 3) {
        digits.insert(i - 3, 1, ',');
    }
    return digits;
}

std::string note_text(note_facts const& f)
{
    std::string out;
    bool const cut = f.text_answer || (f.cut != nullptr && (f.cut->cut() || !f.cut->fits));
    if (cut) {
        cut_sentences(f, out);
    }
    if (f.page) {
        page_sentences(f, out);
    } else if (cut && !f.text_answer) {
        out += " To get the rest, " + narrowing(f) + ".";
    }
    if (f.projection != nullptr) {
        projection_sentences(f, out);
    }
    if (out.empty()) {
        return out;
    }
    return "[toolgate]" + out;
}

json::object truncated_meta(note_facts const& f)
{
    json::object meta;
    meta["budget_tokens"] = f.budget.tokens;
    meta["answer_tokens"] = tokens_of(f.answer_bytes);
    meta["shown_tokens"] = tokens_of(f.shown_bytes);
    if (f.text_answer) {
        meta["text_bytes_shown"] = f.shown_bytes;
        meta["text_bytes"] = f.answer_bytes;
        return meta;
    }
    json::array lists;
    for (auto const& list : f.cut->lists) {
        json::object l;
        l["path"] = list.path;
        l["shown"] = f.page && list.node == f.page->list && f.next ? f.next->keep : list.shown;
        l["of"] = list.of;
        lists.push_back(std::move(l));
    }
    meta["lists"] = std::move(lists);
    meta["strings_shortened"] = f.cut->strings;
    if (f.next != nullptr) {
        if (f.next->total) {
            meta["total"] = *f.next->total;
        }
        if (f.next->outcome == next_call::kind::more) {
            meta["next_arguments"] = f.next->arguments;
        }
        meta["complete"] = f.next->outcome == next_call::kind::end;
    }
    return meta;
}

} // namespace toolgate::toolkits
