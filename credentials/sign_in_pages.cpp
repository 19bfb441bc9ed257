// Sign-in pages (see sign_in_pages.hpp). The Content-Security-Policy allows nothing but the
// form: no script, style, image or frame; `form-action` names our own origin and the
// platform's, because browsers apply it to the redirect that follows the POST too.
#include "credentials/sign_in_pages.hpp"

#include <fmt/format.h>

namespace toolgate::credentials {

namespace {

std::string document(std::string_view title, std::string const& body)
{
    return fmt::format("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                       "<meta name=\"referrer\" content=\"no-referrer\">"
                       "<meta name=\"viewport\" content=\"width=device-width\">"
                       "<title>{}</title></head>\n<body>\n{}</body></html>\n",
        html_escaped(title), body);
}

/// "client static:alice (Claude Code)", "Claude Code", or "your MCP client".
std::string client_label(std::string_view principal, std::string_view client_name)
{
    if (principal.empty() && client_name.empty()) {
        return "your MCP client";
    }
    if (principal.empty()) {
        return "<strong>" + html_escaped(client_name) + "</strong>";
    }
    auto out
        = "the client signed in to toolgate as <strong>" + html_escaped(principal) + "</strong>";
    if (!client_name.empty()) {
        out += " (" + html_escaped(client_name) + ")";
    }
    return out;
}

} // namespace

std::string html_escaped(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

transport::header_list page_headers(std::string_view form_target)
{
    std::string policy = "default-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
                         "form-action 'self'";
    if (!form_target.empty()) {
        policy += " ";
        policy += form_target;
    }
    return { { "Content-Type", "text/html; charset=utf-8" }, { "Cache-Control", "no-store" },
        { "Pragma", "no-cache" }, { "Content-Security-Policy", std::move(policy) },
        { "X-Frame-Options", "DENY" }, { "X-Content-Type-Options", "nosniff" },
        { "Referrer-Policy", "no-referrer" } };
}

web_page consent_page(consent const& c)
{
    auto const body = fmt::format(
        "<h1>Connect your {0} account</h1>\n"
        "<p>toolgate will sign in to {0} ({1}) for {2}. Its tools will then act as you.</p>\n"
        "<p>Continue only if you started this from that client yourself. If someone sent you "
        "this link, close this page: the account would be connected to their client.</p>\n"
        "<form method=\"post\" action=\"{3}\"><button type=\"submit\">Sign in to {0}</button>"
        "</form>\n<p>This link works once, until {4}.</p>\n",
        html_escaped(c.toolkit), html_escaped(c.platform), client_label(c.principal, c.client_name),
        html_escaped(c.form_action), html_escaped(c.expires));
    return { 200, page_headers(c.form_target),
        document(fmt::format("Connect {} - toolgate", c.toolkit), body) };
}

web_page done_page(std::string_view toolkit, std::string_view client_name)
{
    auto const body = fmt::format(
        "<h1>{0} is connected</h1>\n<p>toolgate keeps the sign-in and renews it. You can close "
        "this page and return to {1}; call the tool again if it did not continue by itself.</p>\n",
        html_escaped(toolkit),
        client_name.empty() ? std::string("your client") : html_escaped(client_name));
    return { 200, page_headers(), document(fmt::format("{} connected - toolgate", toolkit), body) };
}

web_page problem_page(unsigned status, std::string_view title, std::string_view text)
{
    auto const body
        = fmt::format("<h1>{}</h1>\n<p>{}</p>\n", html_escaped(title), html_escaped(text));
    return { status, page_headers(), document(title, body) };
}

web_page redirect_to(std::string const& location, std::string_view form_target)
{
    auto headers = page_headers(form_target);
    headers.emplace_back("Location", location);
    return { 302, std::move(headers), {} };
}

} // namespace toolgate::credentials
