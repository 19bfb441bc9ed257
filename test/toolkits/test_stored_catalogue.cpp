// The stored catalogue the generator wrote (toolkits/stored_catalogue.hpp): every text and
// every list of every row lies inside its toolkit's block and arrays, so that the expansion
// never reads outside them.
#include "toolkits/stored_catalogue.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <string>

namespace toolgate::toolkits {
#define TOOLGATE_TOOLKIT(symbol) extern const stored::toolkit symbol;
#include "toolkit_list.inc"
#undef TOOLGATE_TOOLKIT
} // namespace toolgate::toolkits

using namespace toolgate::toolkits;

namespace {

const std::array stored_kits {
#define TOOLGATE_TOOLKIT(symbol) &(toolgate::toolkits::symbol),
#include "toolkit_list.inc"
#undef TOOLGATE_TOOLKIT
};

/// Counts the texts and lists of `kit` that lie outside its block or arrays.
class bounds_check {
public:
    explicit bounds_check(stored::toolkit const& kit)
        : kit_(kit)
    {
    }
    void text(stored::text t) { outside += std::uint64_t(t.offset) + t.size > kit_.texts_size; }
    void list(stored::range r, std::size_t size)
    {
        outside += std::uint64_t(r.first) + r.count > size;
    }
    std::size_t outside = 0;

private:
    stored::toolkit const& kit_;
};

} // namespace

TEST_CASE("stored catalogue: every text and list lies inside its toolkit's block and arrays")
{
    REQUIRE(stored_kits.size() == 8);
    for (auto const* kit : stored_kits) {
        bounds_check b(*kit);
        for (auto t :
            { kit->name, kit->version, kit->platform, kit->capabilities, kit->auth_kind }) {
            b.text(t);
        }
        for (auto r : { kit->scopes, kit->secrets, kit->base_urls }) {
            b.list(r, kit->strings.size());
        }
        for (auto const& s : kit->strings) {
            b.text(s);
        }
        for (auto const& p : kit->params) {
            for (auto t : { p.name, p.wire_name, p.description, p.schema }) {
                b.text(t);
            }
            b.list(p.enum_values, kit->strings.size());
        }
        for (auto const& h : kit->headers) {
            b.text(h.name);
            b.text(h.value);
        }
        for (auto const& s : kit->styles) {
            for (auto t : { s.param, s.answer, s.with_param, s.with_value }) {
                b.text(t);
            }
        }
        for (auto const& p : kit->pagings) {
            for (auto t : { p.items, p.total, p.size_param }) {
                b.text(t);
            }
            b.list(p.styles, kit->styles.size());
        }
        for (auto const& t : kit->tools) {
            for (auto x : { t.name, t.title, t.description, t.operation_id, t.method, t.url,
                     t.body_content_type, t.request_body_schema, t.input_schema }) {
                b.text(x);
            }
            b.list(t.headers, kit->headers.size());
            b.list(t.params, kit->params.size());
            b.list(t.secrets, kit->strings.size());
            b.outside += t.paging != stored::no_paging && t.paging >= kit->pagings.size();
        }
        for (auto const& t : kit->transmission) {
            for (auto x : { t.secret, t.in, t.name, t.format }) {
                b.text(x);
            }
        }
        INFO(std::string(kit->texts + kit->name.offset, kit->name.size));
        CHECK(b.outside == 0);
        CHECK(kit->texts[kit->texts_size] == '\0');
    }
}
