// Expansion of the stored catalogue (stored_catalogue.hpp) into the tool_spec.hpp structs.
#include "toolkits/stored_catalogue.hpp"

#include "toolkits/catalogue.hpp"

#include <string_view>
#include <vector>

namespace toolgate::toolkits {
namespace {

/// One toolkit's structs, in arrays of their own; never freed (the catalogue lives as long as
/// the program), and never moved once built: the specs point into one another.
class expanded_toolkit {
public:
    explicit expanded_toolkit(stored::toolkit const& kit)
        : texts_(kit.texts)
    {
        strings_.reserve(kit.strings.size());
        headers_.reserve(kit.headers.size());
        styles_.reserve(kit.styles.size());
        pagings_.reserve(kit.pagings.size());
        transmission_.reserve(kit.transmission.size());
        for (auto const& s : kit.strings) {
            strings_.push_back(text(s));
        }
        for (auto const& h : kit.headers) {
            headers_.push_back({ text(h.name), text(h.value) });
        }
        for (auto const& s : kit.styles) {
            styles_.push_back({ s.kind, text(s.param), text(s.answer), text(s.with_param),
                text(s.with_value), s.first });
        }
        for (auto const& p : kit.pagings) {
            pagings_.push_back({ text(p.items), text(p.total), text(p.size_param), p.default_size,
                p.max_size, slice(styles_, p.styles) });
        }
        params_.reserve(kit.params.size());
        for (auto const& p : kit.params) {
            params_.push_back(param(p));
        }
        tools_.reserve(kit.tools.size());
        for (auto const& t : kit.tools) {
            tools_.push_back(tool(t));
        }
        for (auto const& t : kit.transmission) {
            transmission_.push_back({ text(t.secret), text(t.in), text(t.name), text(t.format) });
        }
        spec_ = { text(kit.name), text(kit.version), text(kit.platform), text(kit.capabilities),
            text(kit.auth_kind), slice(strings_, kit.scopes), slice(strings_, kit.secrets),
            transmission_, slice(strings_, kit.base_urls), tools_ };
    }

    toolkit_spec const& spec() const { return spec_; }

private:
    std::string_view text(stored::text t) const { return { texts_ + t.offset, t.size }; }

    template <class T> static std::span<const T> slice(std::vector<T> const& all, stored::range r)
    {
        return r.count == 0 ? std::span<const T> {}
                            : std::span<const T>(all).subspan(r.first, r.count);
    }

    param_spec param(stored::param const& p) const
    {
        return { text(p.name), text(p.wire_name), text(p.description), p.type, p.item_type, p.in,
            p.array_fmt, p.required, p.required_when_executing, slice(strings_, p.enum_values),
            p.has_minimum, p.has_maximum, p.minimum, p.maximum, p.max_length, p.format,
            p.min_length, text(p.schema) };
    }

    tool_spec tool(stored::tool const& t) const
    {
        return { text(t.name), text(t.title), text(t.description), text(t.operation_id),
            { text(t.method), text(t.url), slice(headers_, t.headers), text(t.body_content_type) },
            slice(params_, t.params), t.m_tool, text(t.request_body_schema), text(t.input_schema),
            t.read_only, t.destructive, t.idempotent, slice(strings_, t.secrets),
            t.paging == stored::no_paging ? nullptr : &pagings_[t.paging] };
    }

    toolkit_spec spec_; ///< first: expand()'s pointer is the object's own
    char const* texts_;
    std::vector<std::string_view> strings_;
    std::vector<header_spec> headers_;
    std::vector<paging_style> styles_;
    std::vector<paging_spec> pagings_;
    std::vector<param_spec> params_;
    std::vector<tool_spec> tools_;
    std::vector<secret_transmission> transmission_;
};

} // namespace

std::vector<toolkit_spec const*> expand(std::span<stored::toolkit const* const> kits)
{
    std::vector<toolkit_spec const*> out;
    for (auto const* kit : kits) {
        // Deliberately never deleted: everything the catalogue hands out lives as long as the
        // program, threads still running at exit included.
        out.push_back(&(new expanded_toolkit(*kit))->spec());
    }
    return out;
}

} // namespace toolgate::toolkits
