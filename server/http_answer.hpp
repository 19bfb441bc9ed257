// Answering one JSON-RPC request over HTTP: a JSON body, or an SSE stream as soon as a
// notification (progress, log) has to go out before the response (H6, PG5, LG7).
#pragma once

#include "server/router.hpp"
#include "transport/http_types.hpp"

#include <memory>

namespace toolgate::server {

/// A sink that drops everything (requests whose answers carry no notifications).
std::shared_ptr<transport::message_sink> discard_sink();

/// Runs `msg` through the router and writes its answer to `out`. With `sse_allowed`, the
/// first notification switches the answer to text/event-stream; otherwise notifications are
/// dropped (an application/json answer cannot carry them).
boost::asio::awaitable<void> answer_request(router& r, protocol::message msg,
                                            std::shared_ptr<conversation> conv,
                                            transport::http_responder& out, bool sse_allowed,
                                            transport::header_list extra_headers);

} // namespace toolgate::server
