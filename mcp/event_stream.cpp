// SSE framing for the HTTP endpoint's event streams (see event_stream.hpp).
#include "mcp/event_stream.hpp"

namespace toolgate::mcp {

std::string sse_event(std::string_view data)
{
    std::string out = "event: message\ndata: ";
    out += data;
    out += "\n\n";
    return out;
}

transport::header_list sse_headers(transport::header_list extra)
{
    extra.emplace_back("Content-Type", "text/event-stream");
    extra.emplace_back("Cache-Control", "no-cache");
    extra.emplace_back("X-Accel-Buffering", "no"); // H10: proxies must not buffer the stream
    return extra;
}

} // namespace toolgate::mcp
