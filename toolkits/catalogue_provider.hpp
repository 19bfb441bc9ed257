// The shipped tool provider: the compiled-in catalogue, narrowed by a selection. Calls are
// validated here and then handed to a tool_executor (request building and sending).
#pragma once

#include "toolkits/catalogue.hpp"
#include "toolkits/executor.hpp"
#include "toolkits/result_options.hpp"
#include "toolkits/selection.hpp"
#include "toolkits/tool_provider.hpp"

#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace toolgate::toolkits {

class catalogue_provider final : public tool_provider {
public:
    /// Builds every descriptor once (wire name `Toolkit_Tool`, dotted name, title,
    /// description, input schema, hints). `executor` must outlive the provider. `results`:
    /// the answers' budget (toolkits/result_limits.hpp).
    catalogue_provider(selection const& sel, tool_executor& executor, result_options results = {});

    std::span<const protocol::tool_descriptor> tools() const override;

    /// Takes out and checks the reserved arguments (`_fields`, `_max_tokens`), then validates
    /// the rest; on a problem returns an error result naming the argument and nothing reaches
    /// the executor. Otherwise returns what the executor returns, fitted to the call's budget.
    boost::asio::awaitable<protocol::call_result> call(protocol::tool_descriptor const& tool,
        boost::json::object arguments, call_context& context) override;

    /// A served tool by either spelling (`StoreApi_DeleteFolder`, `StoreApi.DeleteFolder`).
    protocol::tool_descriptor const* find(std::string_view name) const;

    /// The catalogue entry behind one of this provider's descriptors (or one with its name).
    std::optional<tool_ref> spec_of(protocol::tool_descriptor const& tool) const;

private:
    std::vector<protocol::tool_descriptor> descriptors_;
    std::vector<tool_ref> refs_; ///< parallel to descriptors_
    std::unordered_map<std::string_view, std::size_t> by_name_; ///< both spellings
    tool_executor& executor_;
    result_options results_;
};

} // namespace toolgate::toolkits
