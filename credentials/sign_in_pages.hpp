// The pages a browser sees during a sign-in from the conversation: tiny, our own HTML with
// every interpolated text escaped, no script, style or external resource, and headers that
// forbid caching, framing and referrers (the page's URL holds the link's state).
#pragma once

#include "transport/http_types.hpp"

#include <string>
#include <string_view>

namespace toolgate::credentials {

/// One answer to a browser.
struct web_page {
    unsigned status = 200;
    transport::header_list headers;
    std::string body;
};

/// `text` with `& < > " '` as HTML character references.
std::string html_escaped(std::string_view text);

/// The headers of every sign-in answer. `form_target`: the origin the consent form's POST
/// may be redirected to (the authorization endpoint's), allowed beside our own.
transport::header_list page_headers(std::string_view form_target = {});

/// What the consent page says and where its one button posts.
struct consent {
    std::string_view toolkit; ///< e.g. "StoreApi"
    std::string_view platform; ///< what it wraps, e.g. "file and folder storage platform"
    std::string_view principal; ///< the client's principal ("" without client authentication)
    std::string_view client_name; ///< the MCP client's name ("" unknown)
    std::string_view form_action; ///< the link's own path and query
    std::string_view form_target; ///< the authorization endpoint's origin
    std::string_view expires; ///< when the link stops working, as people read it
};
/// GET on a link: names the platform and the client the account will be connected to, with
/// one button (a form POST to the same URL). Nothing starts until it is pressed.
web_page consent_page(consent const& c);
/// After the callback stored the tokens: return to the client.
web_page done_page(std::string_view toolkit, std::string_view client_name);
/// A refusal or failure: `status`, a title and a sentence, nothing stored.
web_page problem_page(unsigned status, std::string_view title, std::string_view text);
/// The consent form's answer: 302 to the platform's authorization endpoint.
web_page redirect_to(std::string const& location, std::string_view form_target);

} // namespace toolgate::credentials
