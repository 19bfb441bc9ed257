// A small fixed tool set and a dispatcher over it, plus helpers that feed text in and read
// JSON out, for the pure protocol tests.
#pragma once

#include "protocol/dispatcher.hpp"
#include "protocol/jsonrpc.hpp"
#include "protocol/tool_index.hpp"
#include "protocol/tool_pages.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace toolgate::testing {

inline protocol::tool_descriptor make_tool(std::string toolkit, std::string tool)
{
    protocol::tool_descriptor d;
    d.name = toolkit + "_" + tool;
    d.dotted_name = toolkit + "." + tool;
    d.own_texts(toolkit + " " + tool, "Does " + tool + " on " + toolkit + ".",
        R"({"type":"object","properties":{"id":{"type":"string"}}})");
    d.hints.read_only = tool.starts_with("Get");
    return d;
}

/// Five tools in a fixed order (the order tools/list must keep).
inline std::vector<protocol::tool_descriptor> sample_tools()
{
    return { make_tool("StoreApi", "GetOrder"), make_tool("StoreApi", "DeleteOrder"),
        make_tool("KanbanApi", "GetCard"), make_tool("KanbanApi", "MoveCard"),
        make_tool("LedgerApi", "GetEntry") };
}

inline protocol::server_identity sample_identity()
{
    protocol::server_identity id;
    id.version = "9.8.7";
    return id;
}

/// A dispatcher over sample_tools() with the given page size.
struct protocol_fixture {
    explicit protocol_fixture(
        std::size_t page_size = 0, protocol::tool_naming naming = protocol::tool_naming::wire)
        : tools(sample_tools())
        , pages(tools, naming, page_size, sample_identity())
        , index(tools)
        , dispatcher(sample_identity(), pages, index)
    {
    }

    /// Parses, classifies and dispatches one message; fails the test when it is not valid.
    protocol::outcome send(std::string const& text)
    {
        auto parsed = protocol::parse_json(text);
        REQUIRE(parsed.has_value());
        auto classified = protocol::classify(std::move(*parsed));
        REQUIRE(classified.has_value());
        return dispatcher.dispatch(*classified, session);
    }

    /// send() that must produce a reply; returns it.
    protocol::reply reply_to(std::string const& text)
    {
        auto out = send(text);
        INFO(text);
        REQUIRE(std::holds_alternative<protocol::reply>(out));
        return std::get<protocol::reply>(out);
    }

    /// The parsed JSON of reply_to(text).
    boost::json::object answer(std::string const& text)
    {
        return boost::json::parse(reply_to(text).flatten()).as_object();
    }

    void initialize(std::string const& version = "2025-11-25")
    {
        auto r = reply_to(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{)"
                          R"("protocolVersion":")"
            + version + R"(","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})");
        REQUIRE(r.opened_session);
    }

    std::vector<protocol::tool_descriptor> tools;
    protocol::tool_pages pages;
    protocol::tool_index index;
    protocol::dispatcher dispatcher;
    protocol::legacy_session session;
};

/// `"_meta":{…}` for a 2026-07-28 request (without the closing of params).
inline std::string modern_meta(
    std::string const& version = "2026-07-28", std::string const& extra = "")
{
    return R"("_meta":{"io.modelcontextprotocol/protocolVersion":")" + version
        + R"(","io.modelcontextprotocol/clientCapabilities":{})" + extra + "}";
}

inline int error_code_of(boost::json::object const& answer)
{
    REQUIRE(answer.contains("error"));
    return static_cast<int>(answer.at("error").at("code").as_int64());
}

} // namespace toolgate::testing
