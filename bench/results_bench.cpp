// bench_results (`make bench-results`): what the result budget does to the main list tools of
// every toolkit. A simulated platform serves a long list of realistic elements (shapes from the
// platforms' public API documentation, our own data), paged as the tool's descriptor says; each
// tool is called with the defaults, with `_fields`, and followed to the end through the notes
// (and the platform's own paging when an answer fits, as a model does). Prints a Markdown table:
// tokens before and after, calls needed, elements lost or repeated (must be 0).
#include "toolkits/catalogue.hpp"
#include "toolkits/catalogue_provider.hpp"
#include "toolkits/result_limits.hpp"
#include "toolkits/result_note.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/stream_parser.hpp>
#include <fmt/format.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace asio = boost::asio;
namespace json = boost::json;
using namespace toolgate::toolkits;
using toolgate::protocol::call_result;

namespace {

// --- realistic elements ------------------------------------------------------------------------

std::string words(std::size_t i, std::size_t length)
{
    static constexpr std::string_view text
        = "the quarterly review covers spend by team, open renewals, the vendor audit and the "
          "migration of the shared drive; owners confirm dates and flag risks before Friday. ";
    std::string out;
    while (out.size() < length) {
        out += text.substr((i * 7 + out.size()) % 40);
    }
    return out.substr(0, length);
}

std::string uuid(std::size_t i, unsigned salt)
{
    return fmt::format("{:08x}-{:04x}-4{:03x}-a{:03x}-{:012x}", 0x1b2c3d4e + i * 131, salt,
        i % 4096, (i * 7) % 4096, 0x9a8b7c6d5e4f + i);
}

json::object store_item(std::size_t i)
{
    return json::object { { "type", "file" }, { "id", std::to_string(120000000 + i) },
        { "etag", "1" }, { "sha1", fmt::format("{:040x}", i * 7919) },
        { "name", fmt::format("Quarterly report {:04} (final).pdf", i) },
        { "size", 1024 * (i % 900 + 17) }, { "sequence_id", "1" },
        { "file_version", { { "type", "file_version" }, { "id", std::to_string(900000000 + i) } } },
        { "created_at", fmt::format("2026-03-{:02}T10:{:02}:00-07:00", i % 28 + 1, i % 60) },
        { "modified_at", fmt::format("2026-04-{:02}T11:{:02}:00-07:00", i % 28 + 1, i % 60) },
        { "path_collection",
            { { "total_count", 2 },
                { "entries",
                    json::array { { { "type", "folder" }, { "id", "0" }, { "name", "All Files" } },
                        { { "type", "folder" }, { "id", "118000000" },
                            { "name", "Finance" } } } } } },
        { "created_by",
            { { "type", "user" }, { "id", "33000001" }, { "name", "Ana Ortega" },
                { "login", "ana@example.com" } } },
        { "item_status", "active" } };
}

json::object engine_tool(std::size_t i)
{
    json::array parameters;
    for (int p = 0; p < 3; ++p) {
        parameters.push_back({ { "name", fmt::format("param_{}", p) }, { "required", p == 0 },
            { "description", words(i + p, 90) },
            { "value_schema", { { "val_type", p == 1 ? "integer" : "string" } } } });
    }
    return json::object { { "fully_qualified_name",
                              fmt::format("Toolkit{}.Tool{}@1.2.0", i % 9, i) },
        { "qualified_name", fmt::format("Toolkit{}.Tool{}", i % 9, i) },
        { "name", fmt::format("Tool{}", i) }, { "description", words(i, 260) },
        { "toolkit", { { "name", fmt::format("Toolkit{}", i % 9) }, { "version", "1.2.0" } } },
        { "input", { { "parameters", std::move(parameters) } } },
        { "output",
            { { "available_modes", json::array { "value", "error" } },
                { "value_schema", { { "val_type", "json" } } } } },
        { "requirements", { { "authorization", { { "provider_type", "oauth2" } } } } } };
}

json::object search_item(std::size_t i)
{
    return json::object { { "id", fmt::format("witem_{:024x}", i * 104729) },
        { "object", "webset_item" }, { "source", "search" }, { "websetId", "webset_01j8" },
        { "properties",
            { { "type", "company" }, { "url", fmt::format("https://company{}.example.com", i) },
                { "description", words(i, 400) },
                { "company",
                    { { "name", fmt::format("Company {} Ltd", i) }, { "location", "Lisbon" },
                        { "employees", 40 + i % 900 }, { "industry", "software" },
                        { "about", words(i + 3, 500) } } } } },
        { "evaluations",
            json::array { { { "criterion", "builds developer tools" },
                { "reasoning", words(i + 5, 300) }, { "satisfied", "yes" },
                { "references",
                    json::array { fmt::format("https://news{}.example.org/a", i) } } } } },
        { "createdAt", "2026-05-01T09:00:00.000Z" }, { "updatedAt", "2026-05-01T09:02:11.000Z" } };
}

json::object ledger_invoice(std::size_t i)
{
    json::array lines;
    for (int l = 0; l < 3; ++l) {
        lines.push_back({ { "Description", words(i + l, 80) }, { "Quantity", 2.0 },
            { "UnitAmount", 120.5 + l }, { "ItemCode", fmt::format("SRV-{}", l) },
            { "AccountCode", "200" }, { "LineItemID", uuid(i, 0x100 + l) }, { "TaxType", "OUTPUT" },
            { "TaxAmount", 24.1 }, { "LineAmount", 241.0 + 2 * l } });
    }
    return json::object { { "Type", "ACCREC" }, { "InvoiceID", uuid(i, 0x200) },
        { "InvoiceNumber", fmt::format("INV-{:05}", i + 1) }, { "Reference", words(i, 30) },
        { "Contact",
            { { "ContactID", uuid(i % 50, 0x300) },
                { "Name", fmt::format("Client {}", i % 50) } } },
        { "DateString", "2026-04-01T00:00:00" }, { "DueDateString", "2026-05-01T00:00:00" },
        { "Status", i % 3 == 0 ? "PAID" : "AUTHORISED" }, { "LineAmountTypes", "Exclusive" },
        { "LineItems", std::move(lines) }, { "SubTotal", 729.0 }, { "TotalTax", 72.3 },
        { "Total", 801.3 }, { "AmountDue", i % 3 == 0 ? 0.0 : 801.3 }, { "CurrencyCode", "EUR" },
        { "UpdatedDateUTC", "/Date(1743500000000+0000)/" } };
}

json::object desk_ticket(std::size_t i)
{
    return json::object { { "id", 10000 + i },
        { "subject", fmt::format("VPN drops on laptop {}", i) }, { "group_id", 7000 + i % 5 },
        { "department_id", 6000 + i % 7 }, { "category", "Network" }, { "sub_category", "VPN" },
        { "requester_id", 5000 + i % 90 }, { "responder_id", 4000 + i % 12 },
        { "due_by", "2026-06-03T17:00:00Z" }, { "fr_due_by", "2026-06-02T12:00:00Z" },
        { "is_escalated", false }, { "priority", 2 }, { "status", 2 }, { "source", 1 },
        { "type", "Incident" }, { "created_at", "2026-06-01T08:12:00Z" },
        { "updated_at", "2026-06-01T09:40:00Z" },
        { "cc_emails", json::array { "it-team@example.com" } }, { "to_emails", nullptr },
        { "description", "<div>" + words(i, 700) + "</div>" },
        { "description_text", words(i, 650) },
        { "custom_fields", { { "asset_tag", fmt::format("LT-{:05}", i) }, { "site", "Porto" } } },
        { "workspace_id", 2 } };
}

json::object kanban_card(std::size_t i)
{
    return json::object { { "id", fmt::format("{:024x}", 0x5f1e00000000ULL + i) },
        { "name", fmt::format("Follow up with supplier {}", i) }, { "desc", words(i, 90) },
        { "closed", false }, { "idBoard", "5f1e8a2b3c4d5e6f7a8b9c0d" },
        { "idList", fmt::format("{:024x}", 0x6a00 + i % 6) }, { "pos", 16384 * (i + 1) },
        { "due", nullptr }, { "dateLastActivity", "2026-05-20T10:11:12.000Z" },
        { "idMembers", json::array { "5e0f0a0b0c0d0e0f10111213" } }, { "idLabels", json::array {} },
        { "shortUrl", fmt::format("https://kanban.example/c/{:08x}", i) } };
}

json::object kanban_notification(std::size_t i)
{
    return json::object { { "id", fmt::format("{:024x}", 0x7fff00000000ULL - i) },
        { "unread", i % 4 == 0 }, { "type", "commentCard" }, { "date", "2026-05-20T10:11:12.000Z" },
        { "data",
            { { "text", words(i, 180) },
                { "card",
                    { { "id", fmt::format("{:024x}", 0x5f1e00000000ULL + i) },
                        { "name", "Launch checklist" } } },
                { "board", { { "id", "5f1e8a2b3c4d5e6f7a8b9c0d" }, { "name", "Q3 launch" } } } } },
        { "idMemberCreator", "5e0f0a0b0c0d0e0f10111213" },
        { "memberCreator",
            { { "id", "5e0f0a0b0c0d0e0f10111213" }, { "fullName", "Rui Costa" },
                { "username", "ruicosta" } } } };
}

json::object vector_object(std::size_t i)
{
    json::array vector;
    for (int d = 0; d < 1536; ++d) {
        // Four decimals, as an embedding's floats are commonly written.
        auto const k = static_cast<std::int64_t>(((i * 1536 + d) * 2654435761ULL) % 20001);
        vector.emplace_back(static_cast<double>(k - 10000) / 10000);
    }
    return json::object { { "class", "Article" }, { "id", uuid(i, 0x400) },
        { "creationTimeUnix", 1746000000000 + i }, { "lastUpdateTimeUnix", 1746000000000 + i },
        { "properties",
            { { "title", fmt::format("Release notes {}", i) }, { "body", words(i, 240) } } },
        { "vector", std::move(vector) } };
}

json::object deploy_deployment(std::size_t i)
{
    auto const created = 1'750'000'000'000 - static_cast<std::int64_t>(i) * 60'000;
    return json::object { { "uid", fmt::format("dpl_{:024x}", i * 2654435761ULL) },
        { "name", "web" }, { "url", fmt::format("web-{:09x}-acme.example.app", i * 977) },
        { "created", created }, { "createdAt", created }, { "buildingAt", created + 900 },
        { "ready", created + 41000 }, { "source", "git" }, { "state", "READY" },
        { "readyState", "READY" }, { "type", "LAMBDAS" },
        { "target", i % 5 ? nullptr : json::value("production") },
        { "creator",
            { { "uid", "usr_8f2a" }, { "email", "ops@example.com" }, { "username", "ops" } } },
        { "inspectorUrl", fmt::format("https://deploy.example/acme/web/{:x}", i * 31) },
        { "meta",
            { { "githubCommitSha", fmt::format("{:040x}", i * 104729) },
                { "githubCommitMessage", words(i, 120) }, { "githubCommitAuthorName", "Ines" },
                { "githubCommitRef", "main" }, { "githubRepo", "web" }, { "githubOrg", "acme" } } },
        { "isRollbackCandidate", i % 5 == 0 }, { "projectId", "prj_4b2c" } };
}

// --- the lists ---------------------------------------------------------------------------------

struct list_case {
    std::string tool; ///< Toolkit.Tool
    std::string label; ///< what the list holds
    std::size_t count; ///< elements the platform holds
    json::object (*element)(std::size_t);
    json::object first; ///< the first call's arguments
    json::array fields; ///< a typical `_fields`
};

std::vector<list_case> cases()
{
    auto const obj = [](std::string_view text) { return json::parse(text).as_object(); };
    auto const arr = [](std::string_view text) { return json::parse(text).as_array(); };
    return {
        { "StoreApi.RetrieveFolderItems", "folder items, offset", 2400, store_item,
            obj(R"({"folder_identifier":"0","max_items_per_page":1000})"),
            arr(R"(["entries[].id","entries[].name","entries[].size"])") },
        { "StoreApi.RetrieveFolderItems", "folder items, marker", 2400, store_item,
            obj(R"({"folder_identifier":"0","max_items_per_page":1000,"use_marker_based_pagination":true})"),
            arr(R"(["entries[].id","entries[].name","entries[].size"])") },
        { "CoreEngineApi.GetToolsList", "tool definitions", 350, engine_tool,
            obj(R"({"items_per_page":100})"),
            arr(R"(["items[].qualified_name","items[].description"])") },
        { "SearchApi.ListWebsetItems", "webset items", 300, search_item,
            obj(R"({"webset_identifier":"webset_01j8","result_limit":100})"),
            arr(R"(["data[].id","data[].properties.url","data[].properties.company.name"])") },
        { "LedgerApi.RetrieveInvoices", "invoices", 450, ledger_invoice,
            obj(R"({"ledger_tenant_id":"t-1","records_per_page":100})"),
            arr(R"(["Invoices[].InvoiceNumber","Invoices[].Status","Invoices[].AmountDue"])") },
        { "DeskApi.ListDeskTickets", "tickets", 250, desk_ticket,
            obj(R"({"entries_per_page":100})"),
            arr(R"(["tickets[].id","tickets[].subject","tickets[].status"])") },
        { "KanbanApi.GetMemberNotifications", "notifications", 600, kanban_notification,
            obj(R"({"member_identifier":"me","notification_limit":1000})"),
            arr(R"(["[].id","[].type","[].data.card.name"])") },
        { "KanbanApi.GetOpenCardsOnBoard", "open cards (no paging)", 2000, kanban_card,
            obj(R"({"board_id":"5f1e8a2b3c4d5e6f7a8b9c0d"})"), arr(R"(["[].id","[].name"])") },
        { "VectorDbApi.ListDataObjects", "objects with 1,536-float vectors", 120, vector_object,
            obj(R"({"collection_name":"Article","maximum_items_per_page":50})"),
            arr(R"(["objects[].id","objects[].properties.title"])") },
        { "DeployApi.ListDeployDeployments", "deployments", 300, deploy_deployment,
            obj(R"({"maximum_deployments_to_list":100})"),
            arr(R"(["deployments[].uid","deployments[].state","deployments[].url"])") },
    };
}

// --- the simulated platform --------------------------------------------------------------------

std::optional<std::uint64_t> number_of(json::value const* v)
{
    if (v == nullptr || v->is_null()) {
        return std::nullopt;
    }
    if (v->is_int64() || v->is_uint64() || v->is_double()) {
        return v->to_number<std::uint64_t>();
    }
    std::uint64_t n = 0;
    auto const& s = v->as_string();
    std::from_chars(s.data(), s.data() + s.size(), n);
    return n;
}

json::value nest(std::string_view path, json::value inner)
{
    while (!path.empty()) {
        auto const dot = path.rfind('.');
        json::object o;
        o[dot == std::string_view::npos ? path : path.substr(dot + 1)] = std::move(inner);
        inner = std::move(o);
        path = dot == std::string_view::npos ? std::string_view() : path.substr(0, dot);
    }
    return inner;
}

class list_platform final : public tool_executor {
public:
    list_case const* current = nullptr;
    std::vector<json::object> elements;
    std::size_t last_page_bytes = 0;

    void serve(list_case const& c)
    {
        current = &c;
        elements.clear();
        for (std::size_t i = 0; i < c.count; ++i) {
            elements.push_back(c.element(i));
            elements.back()["n"] = i; // the bench's own mark, to count what was seen
        }
    }

    asio::awaitable<call_result> execute(
        toolkit_spec const&, tool_spec const& tool, json::object args, call_context&) override
    {
        auto const text = page(tool, args);
        last_page_bytes = text.size();
        auto result = call_result::text(text);
        result.json_answer = true;
        co_return result;
    }

private:
    std::string page(tool_spec const& tool, json::object const& args) const;
};

std::string list_platform::page(tool_spec const& tool, json::object const& args) const
{
    json::array list;
    if (tool.paging == nullptr) {
        for (auto const& e : elements) {
            list.push_back(e);
        }
        return json::serialize(list);
    }
    auto const& spec = *tool.paging;
    auto const* style = &spec.styles.front();
    for (auto const& s : spec.styles) {
        if (args.contains(s.param) || (!s.with_param.empty() && args.contains(s.with_param))) {
            style = &s;
            break;
        }
    }
    auto size = spec.size_param.empty()
        ? spec.default_size
        : number_of(args.if_contains(spec.size_param)).value_or(spec.default_size);
    auto const* given = args.if_contains(style->param);
    std::size_t from = 0;
    if (style->kind == paging_kind::offset) {
        from = number_of(given).value_or(style->first) - style->first;
    } else if (style->kind == paging_kind::page) {
        from = (number_of(given).value_or(style->first) - style->first) * size;
    } else if (style->kind == paging_kind::cursor && given != nullptr) {
        from = std::stoul(std::string(given->as_string()).substr(2));
    } else if (style->kind == paging_kind::key && given != nullptr) {
        while (from < elements.size() && elements[from].at(style->answer) != *given) {
            ++from;
        }
        ++from;
    }
    auto const to = std::min<std::size_t>(elements.size(), from + size);
    for (auto i = from; i < to; ++i) {
        list.push_back(elements[i]);
    }
    json::value answer = nest(spec.items, std::move(list));
    if (answer.is_object()) {
        auto& o = answer.as_object();
        if (!spec.total.empty()) {
            o[spec.total] = elements.size();
        }
        if (style->kind == paging_kind::cursor) {
            o[style->answer]
                = to < elements.size() ? json::value(fmt::format("c-{}", to)) : nullptr;
        }
    }
    return json::serialize(answer);
}

class null_context final : public call_context {
public:
    void report_progress(double, std::optional<double>, std::string_view) override { }
    void log(log_level, std::string_view, json::value) override { }
    std::string_view protocol_version() const override { return "2025-11-25"; }
};

call_result call(catalogue_provider& provider, std::string const& name, json::object args)
{
    null_context ctx;
    asio::io_context io;
    std::optional<call_result> out;
    asio::co_spawn(io, provider.call(*provider.find(name), std::move(args), ctx),
        [&](std::exception_ptr, call_result r) { out = std::move(r); });
    io.run();
    return std::move(*out);
}

// --- following a list as a model does ---------------------------------------------------------

std::size_t text_bytes(call_result const& r)
{
    std::size_t n = 0;
    for (auto const& b : r.content) {
        n += b.text.size();
    }
    return n;
}

std::optional<json::object> next_from_note(call_result const& r)
{
    static constexpr std::string_view lead
        = "Next call, starting with the first element not shown: ";
    if (r.content.size() < 2) {
        return std::nullopt;
    }
    auto const& note = r.content[1].text;
    auto const at = note.find(lead);
    if (at == std::string::npos) {
        return std::nullopt;
    }
    json::stream_parser p;
    boost::system::error_code ec;
    p.write_some(note.data() + at + lead.size(), note.size() - at - lead.size(), ec);
    return p.release().as_object();
}

json::array const& list_in(json::value const& answer, tool_spec const& tool)
{
    json::value const* at = &answer;
    std::string_view path = tool.paging ? tool.paging->items : std::string_view();
    while (!path.empty()) {
        auto const dot = path.find('.');
        at = &at->as_object().at(path.substr(0, dot));
        path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
    }
    return at->as_array();
}

/// The platform's own next call after an answer that fitted (no note), or nullopt at the end.
std::optional<json::object> native_next(
    tool_spec const& tool, json::object args, json::value const& answer, std::size_t shown);

struct walk_result {
    std::size_t calls = 0;
    std::size_t tokens = 0; ///< read in all
    std::size_t largest = 0; ///< the largest answer, bytes
    std::size_t over_budget = 0; ///< answers larger than their call's budget
    std::size_t lost = 0;
    std::size_t repeated = 0;
};

/// The budget a call had, in bytes: its `_max_tokens` up to the cap, else the default.
std::size_t budget_of(json::object const& args, result_options const& options)
{
    auto const asked = number_of(args.if_contains("_max_tokens"));
    return budget_for(options, asked).bytes();
}

walk_result walk(catalogue_provider& provider, list_case const& c, tool_spec const& tool)
{
    walk_result w;
    std::vector<int> seen(c.count, 0);
    auto args = c.first;
    bool narrowed = false;
    while (w.calls < 2000) {
        ++w.calls;
        auto const r = call(provider, c.tool, args);
        auto const bytes = text_bytes(r);
        w.tokens += bytes / bytes_per_token;
        w.largest = std::max(w.largest, bytes);
        w.over_budget += bytes > budget_of(args, result_options {}) ? 1 : 0;
        auto const answer = json::parse(r.content.at(0).text);
        auto const& list = list_in(answer, tool);
        for (auto const& e : list) {
            ++seen.at(static_cast<std::size_t>(e.at("n").as_int64()));
        }
        std::optional<json::object> next;
        if (r.content.size() > 1) {
            next = next_from_note(r);
            if (!next && tool.paging == nullptr && !narrowed) {
                // A tool that cannot page: as its note says, fewer fields and a larger budget.
                next = c.first;
                auto fields = c.fields;
                fields.emplace_back("[].n"); // the bench's own mark, to count what was seen
                (*next)["_fields"] = std::move(fields);
                (*next)["_max_tokens"] = 50000;
                narrowed = true;
                std::fill(seen.begin(), seen.end(), 0);
            }
        } else if (tool.paging != nullptr) {
            next = native_next(tool, args, answer, list.size());
        }
        if (!next) {
            break;
        }
        args = std::move(*next);
    }
    for (auto s : seen) {
        w.lost += s == 0 ? 1 : 0;
        w.repeated += s > 1 ? static_cast<std::size_t>(s - 1) : 0;
    }
    return w;
}

std::optional<json::object> native_next(
    tool_spec const& tool, json::object args, json::value const& answer, std::size_t shown)
{
    auto const& spec = *tool.paging;
    auto const* style = &spec.styles.front();
    for (auto const& s : spec.styles) {
        if (args.contains(s.param) || (!s.with_param.empty() && args.contains(s.with_param))) {
            style = &s;
            break;
        }
    }
    auto const size = spec.size_param.empty()
        ? spec.default_size
        : number_of(args.if_contains(spec.size_param)).value_or(spec.default_size);
    if (shown < size) {
        return std::nullopt;
    }
    auto const& list = list_in(answer, tool);
    switch (style->kind) {
    case paging_kind::offset:
        args[style->param]
            = number_of(args.if_contains(style->param)).value_or(style->first) + shown;
        break;
    case paging_kind::page:
        args[style->param] = number_of(args.if_contains(style->param)).value_or(style->first) + 1;
        break;
    case paging_kind::cursor: {
        auto const* next = answer.as_object().if_contains(style->answer);
        if (next == nullptr || next->is_null()) {
            return std::nullopt;
        }
        args[style->param] = *next;
        break;
    }
    case paging_kind::key:
        args[style->param] = list.back().at(style->answer);
        break;
    }
    return args;
}

/// CPU time of the shaping step alone on a folder listing of about 1 MB (make bench measures
/// the whole call, TLS and HTTP included).
double cut_cpu_ms(result_options const& options, std::size_t& answer_bytes)
{
    json::array entries;
    for (std::size_t i = 0; i < 1750; ++i) {
        entries.push_back(store_item(i));
    }
    auto const text = json::serialize(
        json::object { { "total_count", 1750 }, { "entries", std::move(entries) } });
    answer_bytes = text.size();
    auto const* tool = find_tool("StoreApi.RetrieveFolderItems")->tool;
    json::object args { { "folder_identifier", "0" } };
    call_options const none;
    constexpr int runs = 50;
    auto const start = std::clock();
    for (int i = 0; i < runs; ++i) {
        auto result = call_result::text(text);
        result.json_answer = true;
        auto cut = limit_result(std::move(result), options, { nullptr, tool, &args, &none });
        if (cut.content.size() != 2) {
            return -1;
        }
    }
    return 1000.0 * static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC / runs;
}

std::string k(std::size_t tokens)
{
    return tokens >= 10000 ? fmt::format("{:.0f}k", tokens / 1000.0)
                           : fmt::format("{:.1f}k", tokens / 1000.0);
}

} // namespace

int main(int argc, char** argv)
{
    // --notes: also print each default call's note and _meta (what docs/results.md shows).
    bool const notes = argc > 1 && std::string_view(argv[1]) == "--notes";
    result_options options; // the defaults: 8,000 tokens, cap 50,000
    list_platform platform;
    catalogue_provider provider(selection {}, platform, options);
    std::string table = "| tool | list | first page as sent | default call | with `_fields` | "
                        "paged to the end: calls, tokens read | largest answer | lost | repeated "
                        "|\n|---|---|---|---|---|---|---|---|---|\n";
    bool all_good = true;
    for (auto const& c : cases()) {
        auto const ref = find_tool(c.tool);
        platform.serve(c);
        auto const plain = call(provider, c.tool, c.first);
        if (plain.is_error) {
            std::fprintf(stderr, "bench_results: %s: %s\n", c.tool.c_str(),
                plain.content.at(0).text.c_str());
            return 1;
        }
        auto const sent = platform.last_page_bytes / bytes_per_token;
        auto const shown = list_in(json::parse(plain.content.at(0).text), *ref->tool).size();
        if (notes && plain.content.size() > 1) {
            std::printf("%s\n%s\n%s\n\n", c.tool.c_str(), plain.content[1].text.c_str(),
                plain.meta ? json::serialize(*plain.meta).c_str() : "");
        }
        auto with_fields = c.first;
        with_fields["_fields"] = c.fields;
        auto const narrow = call(provider, c.tool, with_fields);
        auto const w = walk(provider, c, *ref->tool);
        all_good = all_good && w.lost == 0 && w.repeated == 0 && w.over_budget == 0;
        table += fmt::format(
            "| `{}` | {} ({}) | {} tokens | {} tokens, {} shown | {} tokens | {}, {} "
            "| {} tokens | {} | {} |\n",
            c.tool, c.label, c.count, k(sent), k(text_bytes(plain) / bytes_per_token), shown,
            k(text_bytes(narrow) / bytes_per_token), w.calls, k(w.tokens),
            k(w.largest / bytes_per_token), w.lost, w.repeated);
    }
    std::size_t big = 0;
    auto const cpu = cut_cpu_ms(options, big);
    table += fmt::format("\nThe shaping step alone on a {} byte answer: {:.2f} ms CPU per cut.\n",
        grouped(big), cpu);
    auto const now = std::time(nullptr);
    char date[16];
    std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
    std::printf("%s\nBudget %s tokens (bytes / 4), cap %s; %s.\n", table.c_str(),
        grouped(options.max_result_tokens).c_str(), grouped(options.max_result_tokens_cap).c_str(),
        date);
    if (!all_good) {
        std::fputs("bench_results: an element was lost or repeated, or an answer was over its "
                   "budget\n",
            stderr);
        return 1;
    }
    return 0;
}
