// Fuzz target: the Streamable HTTP request path, end to end in one process. The bytes go over
// a loopback socket to the real listener (Beast parsing, header/body limits) and the MCP
// endpoint (Host/Origin, Content-Type, Accept, session and version headers, JSON-RPC dispatch,
// batches) with a small echo tool set behind it. `@SID@` in the input becomes the id of a live
// 2025-06-18 session, so session paths are reachable. Any response must be well-formed HTTP,
// and a JSON body must parse.
#include "fuzz_target.hpp"
#include "mcp/http_endpoint.hpp"
#include "mcp/router.hpp"
#include "mcp/session_registry.hpp"
#include "transport/http_listener.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <cstdlib>
#include <thread>

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace json = boost::json;
namespace mcp = toolgate::mcp;
namespace protocol = toolgate::protocol;
namespace transport = toolgate::transport;

namespace {

class echo_tools final : public toolgate::toolkits::tool_provider {
public:
    echo_tools()
    {
        for (char const* name : { "Echo", "Fail" }) {
            protocol::tool_descriptor d;
            d.name = std::string("Fuzz_") + name;
            d.dotted_name = std::string("Fuzz.") + name;
            d.own_texts(name, "fuzz tool", R"({"type":"object"})");
            tools_.push_back(std::move(d));
        }
    }
    std::span<const protocol::tool_descriptor> tools() const override { return tools_; }
    asio::awaitable<protocol::call_result> call(protocol::tool_descriptor const& tool,
        json::object arguments, toolgate::toolkits::call_context& context) override
    {
        context.report_progress(1, 2, "half");
        context.log(protocol::log_level::info, "fuzz", json::value("log"));
        if (tool.name == "Fuzz_Fail") {
            co_return protocol::call_result::error("failed");
        }
        co_return protocol::call_result::text(json::serialize(arguments));
    }

private:
    std::vector<protocol::tool_descriptor> tools_;
};

struct server_under_test {
    asio::io_context ioc { 1 };
    echo_tools tools;
    protocol::server_identity identity = [] {
        protocol::server_identity id;
        id.version = "0.0.0-fuzz";
        return id;
    }();
    protocol::tool_pages pages { tools.tools(), protocol::tool_naming::wire, 1, identity };
    protocol::tool_index index { tools.tools() };
    protocol::dispatcher dispatcher { identity, pages, index };
    mcp::router router { tools, dispatcher, { 16, 8, 32 } };
    mcp::session_registry sessions { ioc.get_executor(), transport::session_signer("fuzz-key"),
        std::chrono::seconds(3600), std::chrono::seconds(3600) };
    mcp::mcp_http_endpoint endpoint { router, sessions, transport::origin_policy(),
        mcp::endpoint_options { "/mcp", true, nullptr } };
    transport::http_listener listener { ioc, "127.0.0.1", 0, endpoint, limits() };
    std::string session_id;
    std::thread thread;

    static transport::http_limits limits()
    {
        transport::http_limits l;
        l.max_header_bytes = 2048;
        l.max_body_bytes = 8192;
        l.header_timeout = std::chrono::seconds(2);
        l.body_timeout = std::chrono::seconds(2);
        l.idle_timeout = std::chrono::seconds(2);
        l.max_connections = 64;
        return l;
    }

    server_under_test()
    {
        spdlog::set_level(spdlog::level::off);
        sessions.set_max_sessions(256);
        listener.start();
        refresh_session();
        thread = std::thread([this] { ioc.run(); });
    }

    /// A live legacy session for `@SID@` (a DELETE in an input may have ended the last one).
    void refresh_session()
    {
        if (!session_id.empty() && sessions.find(session_id)) {
            return;
        }
        auto conv = sessions.make_conversation();
        conv->adopt("2025-06-18");
        session_id = sessions.open(conv, "2025-06-18");
    }
};

/// How the request bytes end, as Beast's own parser sees them with the server's limits.
enum class framing { complete, incomplete, broken };

framing frame_of(std::string const& bytes, bool& head)
{
    http::request_parser<http::string_body> parser;
    parser.header_limit(2048);
    parser.body_limit(8192);
    parser.eager(true);
    beast::error_code ec;
    parser.put(asio::buffer(bytes), ec);
    if (ec == http::error::need_more) {
        return framing::incomplete;
    }
    if (ec) {
        return framing::broken;
    }
    head = parser.get().method() == http::verb::head;
    return parser.is_done() ? framing::complete : framing::incomplete;
}

void check_response(http::response<http::string_body> const& res)
{
    auto const status = res.result_int();
    TOOLGATE_FUZZ_CHECK(status >= 200 && status < 600);
    auto const type = res[http::field::content_type];
    if (type == "application/json" && !res.body().empty()) {
        boost::system::error_code ec;
        json::parse(res.body(), ec);
        TOOLGATE_FUZZ_CHECK(!ec);
    }
}

std::string substitute_session(std::string bytes, std::string const& id)
{
    for (auto at = bytes.find("@SID@"); at != std::string::npos; at = bytes.find("@SID@", at)) {
        bytes.replace(at, 5, id);
        at += id.size();
    }
    return bytes;
}

server_under_test* running = nullptr;

void stop_server()
{
    if (running && running->thread.joinable()) {
        running->ioc.stop();
        running->thread.join();
    }
}

} // namespace

TOOLGATE_FUZZ_TARGET(http)
{
    // Lives for the whole run; at exit its thread is stopped before static destruction.
    static server_under_test* const srv = [] {
        auto* s = new server_under_test;
        std::atexit([] { stop_server(); });
        return s;
    }();
    running = srv;
    srv->refresh_session();
    auto const bytes = substitute_session(
        std::string(reinterpret_cast<char const*>(data), size), srv->session_id);
    bool head = false;
    auto const how = frame_of(bytes, head);

    // The client side runs on its own io_context with asynchronous operations and a deadline,
    // not blocking calls with SO_RCVTIMEO: libFuzzer's -timeout alarm interrupts a blocking recv
    // that has a receive timeout (signal(7): never restarted), which looked like a server that
    // did not answer.
    asio::io_context client_ioc;
    beast::tcp_stream stream(client_ioc);
    boost::system::error_code ec;
    stream.connect({ asio::ip::make_address("127.0.0.1"), srv->listener.port() }, ec);
    if (ec) {
        // Seen once (2026-11-27, after ~7,600 inputs) and not reproduced from the saved input:
        // say which error, so the next find tells whether the client or the server ran out.
        std::fprintf(stderr, "fuzz_http: connect to the server failed: %s\n", ec.message().c_str());
    }
    TOOLGATE_FUZZ_CHECK(!ec);
    stream.expires_after(std::chrono::seconds(3)); // the server must answer or close by then
    beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.body_limit(16 * 1024 * 1024);
    parser.skip(head);
    asio::async_write(stream, asio::buffer(bytes), [&](boost::system::error_code wec, std::size_t) {
        if (wec) {
            return; // the server may close early on a request it refuses; the read tells
        }
        if (how == framing::incomplete) {
            boost::system::error_code ignored;
            stream.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
        }
    });
    http::async_read(
        stream, buffer, parser, [&](boost::system::error_code rec, std::size_t) { ec = rec; });
    client_ioc.run();
    if (!ec) {
        check_response(parser.get());
    } else {
        // Only a request the server could not read may go unanswered.
        if (how == framing::complete) {
            std::fprintf(stderr, "no answer to a complete request: %s\n", ec.message().c_str());
        }
        TOOLGATE_FUZZ_CHECK(how != framing::complete);
    }
    stream.socket().close(ec);
    return 0;
}
