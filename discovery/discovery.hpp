// Progressive disclosure: three meta-tools that let a model with a small context find, read
// and call any served tool (docs/decisions.md "Discovery"): toolgate_search_tools (ranked search in
// plain words), toolgate_describe_tools (full definitions by name) and toolgate_call_tool (a
// call by name, answered exactly as a direct tools/call). Every catalogue tool stays callable
// by its own name too; which tools are *listed* is the server's choice (tool modes).
#pragma once

#include "discovery/index_builder.hpp"
#include "discovery/search_index.hpp"
#include "toolkits/catalogue_provider.hpp"
#include "toolkits/result_options.hpp"
#include "toolkits/tool_provider.hpp"

#include <functional>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace toolgate::discovery {

// The meta-tools are a tool provider over another one: the tool model is toolkits'.
using toolkits::call_context;
using toolkits::catalogue_provider;
using toolkits::tool_provider;

inline constexpr std::string_view search_tools_name = "toolgate_search_tools";
inline constexpr std::string_view describe_tools_name = "toolgate_describe_tools";
inline constexpr std::string_view call_tool_name = "toolgate_call_tool";

/// The texts of a catalogue provider's tools for the search index, in its tools() order:
/// name, title, description, parameter names and descriptions, and what the toolkit wraps.
std::vector<search_entry> search_entries(catalogue_provider const& provider);
/// Texts for tools known only by their descriptors (test providers): name, title, description.
std::vector<search_entry> search_entries(std::span<const protocol::tool_descriptor> tools);

/// `inner`'s tools (same positions) followed by the three meta-tools. Calls to inner tools go
/// to `inner` unchanged; the meta-tools are answered here, within the request's view.
class discovery_provider final : public tool_provider {
public:
    /// `inner` must outlive this provider; `texts` gives the entries that describe
    /// inner.tools() in order. `results`: the budget of the search and describe answers (calls
    /// to inner tools get inner's).
    discovery_provider(
        tool_provider& inner, search_texts texts, toolkits::result_options results = {});
    discovery_provider(tool_provider& inner, std::vector<search_entry> entries,
        toolkits::result_options results = {});

    std::span<const protocol::tool_descriptor> tools() const override { return tools_; }

    boost::asio::awaitable<protocol::call_result> call(protocol::tool_descriptor const& tool,
        boost::json::object arguments, call_context& context) override;
    /// The inner provider's answer for its tool, or for the one toolgate_call_tool names.
    bool may_ask_client(
        protocol::tool_descriptor const& tool, boost::json::object const& arguments) const override;

    /// How many of tools() are the inner provider's (the meta-tools follow them).
    std::size_t catalogue_size() const { return inner_count_; }
    /// The ranked search behind toolgate_search_tools: positions of tools() that `keep`
    /// accepts, best first.
    std::vector<search_index::hit> search(std::string_view query,
        std::function<bool(std::size_t)> const& keep, std::size_t limit) const;

private:
    protocol::call_result search_tools(
        boost::json::object const& arguments, call_context const& context) const;
    protocol::call_result describe_tools(
        boost::json::object const& arguments, call_context const& context) const;
    protocol::tool_descriptor const* find(std::string_view name) const;
    bool visible(std::size_t position, call_context const& context) const;

    tool_provider& inner_;
    std::size_t inner_count_;
    std::vector<protocol::tool_descriptor> tools_;
    std::unordered_map<std::string_view, std::size_t> by_name_; ///< both spellings
    /// Built on a thread of its own that yields to the server (tens of milliseconds for the
    /// whole catalogue), so the first listing does not wait for it; the first search does, if
    /// it comes that soon.
    std::unique_ptr<index_builder> index_;
    std::vector<std::string> toolkits_; ///< served toolkit names (the search filter's values)
    toolkits::result_options results_;
};

} // namespace toolgate::discovery
