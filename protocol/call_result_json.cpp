// CallToolResult serialisation, following docs/decisions.md "structuredContent".
#include "protocol/call_result_json.hpp"

#include "protocol/versions.hpp"

#include <boost/json/array.hpp>

namespace toolgate::protocol {
namespace json = boost::json;

namespace {

json::object block_to_json(content_block const& block)
{
    json::object out;
    switch (block.type) {
    case content_block::kind::text:
        out["type"] = "text";
        out["text"] = block.text;
        break;
    case content_block::kind::image:
        out["type"] = "image";
        out["data"] = block.text;
        out["mimeType"] = block.mime_type;
        break;
    case content_block::kind::resource: {
        json::object resource;
        resource["uri"] = block.uri;
        resource["mimeType"] = block.mime_type;
        resource["blob"] = block.text;
        out["type"] = "resource";
        out["resource"] = std::move(resource);
        break;
    }
    }
    return out;
}

} // namespace

json::object to_json(call_result const& result, std::string_view version)
{
    json::object out;
    json::array content;
    content.reserve(result.content.size());
    for (auto const& block : result.content) {
        content.push_back(block_to_json(block));
    }
    out["content"] = std::move(content);
    if (result.structured && !result.is_error) {
        auto const policy = structured_content_policy(version);
        if (policy == structured_policy::any_value
            || (policy == structured_policy::objects_only && result.structured->is_object())) {
            out["structuredContent"] = *result.structured;
        }
    }
    if (result.is_error) {
        out["isError"] = true;
    }
    if (result.meta && !result.meta->empty()) {
        out["_meta"] = *result.meta;
    }
    return out;
}

} // namespace toolgate::protocol
