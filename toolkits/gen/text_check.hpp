// The catalogue's words against its facts: a toolkit's descriptions.json (titles, descriptions,
// parameter and body-field texts) checked against its catalogue.json, then merged into it for
// the generator. Build-time code only (catalogue_gen and its tests); never linked into the server.
#pragma once

#include <boost/json/object.hpp>

#include <set>
#include <string>
#include <vector>

namespace toolgate::catalogue_gen {

/// The words every M-tool shares, written once (toolkits/m_tool_descriptions.json): the note
/// after each M-tool's description and the texts of its `mode` and `request_body` parameters.
struct m_tool_words {
    std::string description_note;
    std::string mode;
    std::string request_body;
};

/// Reads toolkits/m_tool_descriptions.json; throws catalogue_error when a text is missing.
m_tool_words read_m_tool_words(boost::json::object const& document);

/// Every tool of every toolkit, to check references between tools.
struct known_tools {
    std::set<std::string> toolkits; ///< `StoreApi`, ...
    std::set<std::string> tools; ///< `StoreApi.DeleteFolder`, ...
};

/// Adds the toolkit and the tools of one catalogue.json to `known`.
void add_known_tools(known_tools& known, boost::json::object const& catalogue);

/// Every way `texts` (one toolkit's descriptions.json) and `catalogue` (its catalogue.json)
/// disagree, each reading `Tool X: reason`, `Tool X parameter p: reason` or
/// `Tool X body field f: reason`: a text for a tool, parameter or body field the catalogue
/// lacks; a tool, parameter or required body field without its text; a reference
/// (`Toolkit_Tool` or `Toolkit.Tool`) to a tool `known` lacks; a fact among the words
/// (`read_only`, `enums`, ...) or words left in the catalogue. Empty when they fit.
std::vector<std::string> check_texts(boost::json::object const& catalogue,
    boost::json::object const& texts, known_tools const& known);

/// Puts the words into `catalogue` where the generator reads them: `title` and `description`
/// of each tool (an M-tool's followed by the shared note), `description` of each parameter and
/// of each body-schema field that has a text. Precondition: check_texts found nothing.
void merge_texts(
    boost::json::object& catalogue, boost::json::object const& texts, m_tool_words const& shared);

} // namespace toolgate::catalogue_gen
