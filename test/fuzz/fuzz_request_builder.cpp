// Fuzz target: request building (paths, queries, headers, bodies) for every catalogue tool.
// Arguments that pass validation are built; a built request must keep the tool's method, stay
// on the platform's host, put caller values only where the template says (no new path
// segments, no CR/LF in any header), and carry valid JSON when it says it sends JSON.
#include "catalogue_pick.hpp"
#include "fuzz_target.hpp"
#include "toolkits/request_builder.hpp"
#include "toolkits/validate.hpp"

#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>

#include <algorithm>

namespace toolkits = toolgate::toolkits;

namespace {

/// The URL template's segments; placeholders (`{x}`) become one segment each.
std::size_t template_segments(std::string_view url)
{
    auto const scheme = url.find("://");
    auto const path_at = url.find('/', scheme == std::string_view::npos ? 0 : scheme + 3);
    if (path_at == std::string_view::npos) {
        return 0;
    }
    auto path = url.substr(path_at);
    path = path.substr(0, path.find('?'));
    return std::size_t(std::count(path.begin(), path.end(), '/'));
}

} // namespace

TOOLGATE_FUZZ_TARGET(request_builder)
{
    toolgate::fuzzing::picked p;
    if (!toolgate::fuzzing::pick(data, size, p)) {
        return 0;
    }
    auto const& kit = *p.ref.toolkit;
    auto const& tool = *p.ref.tool;
    if (!toolkits::validate_arguments(kit, tool, p.arguments)) {
        return 0;
    }
    static toolkits::base_url_overrides const no_overrides;
    auto built = toolkits::build_request(kit, tool, p.arguments, no_overrides);
    if (!built) {
        TOOLGATE_FUZZ_CHECK(!built.error().message.empty());
        return 0;
    }
    auto const& request = built->request;
    TOOLGATE_FUZZ_CHECK(request.method == tool.http.method);
    for (auto const& [name, value] : request.headers) {
        TOOLGATE_FUZZ_CHECK(name.find_first_of("\r\n") == std::string::npos);
        TOOLGATE_FUZZ_CHECK(value.find_first_of("\r\n") == std::string::npos);
    }
    // Secret placeholders ({UPPER_CASE}) may remain in the URL until authentication; they
    // never hold caller data, so compare the template's host with the built one textually.
    auto const url_text = std::string_view(request.url);
    auto const tmpl = tool.http.url;
    auto const host_end = [](std::string_view u) {
        auto const s = u.find("://");
        return u.find_first_of("/?", s == std::string_view::npos ? 0 : s + 3);
    };
    TOOLGATE_FUZZ_CHECK(url_text.substr(0, host_end(url_text)) == tmpl.substr(0, host_end(tmpl)));
    TOOLGATE_FUZZ_CHECK(url_text.find_first_of(" \r\n\t#") == std::string_view::npos);
    TOOLGATE_FUZZ_CHECK(template_segments(url_text) == template_segments(tmpl));
    if (url_text.find('{') == std::string_view::npos) {
        TOOLGATE_FUZZ_CHECK(boost::urls::parse_absolute_uri(url_text).has_value());
    }
    return 0;
}
