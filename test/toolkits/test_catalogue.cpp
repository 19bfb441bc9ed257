// The compiled-in catalogue as a whole: counts, names, lookups, bindings.
#include "toolkits/catalogue.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <regex>
#include <set>
#include <string>

using namespace toolgate::toolkits;

TEST_CASE("the catalogue holds the specification's tool count for each toolkit", "[toolkits]")
{
    std::map<std::string_view, std::size_t> const expected { { "StoreApi", 188 },
        { "CoreEngineApi", 29 }, { "SearchApi", 45 }, { "LedgerApi", 153 }, { "DeskApi", 214 },
        { "KanbanApi", 246 }, { "VectorDbApi", 81 }, { "DeployApi", 194 } };
    REQUIRE(all_toolkits().size() == 8);
    for (auto const* kit : all_toolkits()) {
        INFO(kit->name);
        CHECK(kit->tools.size() == expected.at(kit->name));
    }
    CHECK(tool_count() == 1150);
}

TEST_CASE("toolkit versions are the specification's", "[toolkits]")
{
    CHECK(find_toolkit("StoreApi")->version == "0.2.0");
    CHECK(find_toolkit("CoreEngineApi")->version == "0.3.0");
    CHECK(find_toolkit("DeskApi")->version == "0.3.0");
    CHECK(find_toolkit("DeployApi")->version == "0.2.1");
}

TEST_CASE("tool names are unique, qualified as Toolkit.Tool, and valid wire names", "[toolkits]")
{
    std::set<std::string> dotted;
    std::regex const wire { "^[A-Za-z0-9_-]{1,64}$" };
    std::regex const part { "^[A-Z][A-Za-z0-9]*$" };
    for (auto const* kit : all_toolkits()) {
        for (auto const& tool : kit->tools) {
            std::string name(tool.name);
            INFO(kit->name << "." << name);
            CHECK(std::regex_match(name, part));
            CHECK(dotted.insert(std::string(kit->name) + "." + name).second);
            CHECK(std::regex_match(std::string(kit->name) + "_" + name, wire));
        }
    }
    CHECK(dotted.size() == 1150);
}

TEST_CASE("tools are found by either spelling and unknown names are not", "[toolkits]")
{
    auto dotted = find_tool("StoreApi.DeleteFolder");
    auto wire = find_tool("StoreApi_DeleteFolder");
    REQUIRE(dotted);
    REQUIRE(wire);
    CHECK(dotted->tool == wire->tool);
    CHECK(dotted->toolkit->name == "StoreApi");
    CHECK_FALSE(find_tool("StoreApi.DeleteFolders"));
    CHECK_FALSE(find_tool("NoSuchApi.DeleteFolder"));
    CHECK_FALSE(find_tool("DeleteFolder"));
    CHECK(find_toolkit("KanbanApi"));
    CHECK_FALSE(find_toolkit("kanbanapi"));
}

TEST_CASE("every URL placeholder is bound to a path parameter or a toolkit secret", "[toolkits]")
{
    std::regex const placeholder { R"(\{([^}]*)\})" };
    for (auto const* kit : all_toolkits()) {
        for (auto const& tool : kit->tools) {
            std::string url(tool.http.url);
            for (std::sregex_iterator it(url.begin(), url.end(), placeholder), end; it != end;
                 ++it) {
                std::string ph = (*it)[1];
                bool bound = false;
                for (auto const& p : tool.params) {
                    bound = bound || (p.in == param_location::path && p.wire_name == ph);
                }
                for (auto s : kit->secrets) {
                    bound = bound || s == ph;
                }
                INFO(kit->name << "." << tool.name << " {" << ph << "}");
                CHECK(bound);
            }
        }
    }
}

TEST_CASE("every URL starts with one of its toolkit's base URLs", "[toolkits]")
{
    for (auto const* kit : all_toolkits()) {
        REQUIRE_FALSE(kit->base_urls.empty());
        for (auto const& tool : kit->tools) {
            bool based = false;
            for (auto b : kit->base_urls) {
                based = based || tool.http.url.starts_with(b);
            }
            INFO(kit->name << "." << tool.name);
            CHECK(based);
        }
    }
}

TEST_CASE("the audit log tool carries its endpoint-list name", "[toolkits]")
{
    CHECK(find_tool("KanbanApi.GetEnterpriseAuditLog"));
    CHECK_FALSE(find_tool("KanbanApi.GetKanbanEnterpriseAuditLog"));
}

namespace {
param_spec const* param(std::string_view tool, std::string_view name)
{
    auto ref = find_tool(tool);
    REQUIRE(ref);
    for (auto const& p : ref->tool->params) {
        if (p.name == name) {
            return &p;
        }
    }
    return nullptr;
}
} // namespace

TEST_CASE("the repaired bindings carry their new parameters", "[toolkits]")
{
    auto const* team = param("DeployApi.GetTeamMembers", "team_id");
    REQUIRE(team);
    CHECK(team->required);
    CHECK(team->in == param_location::path);
    auto const* card = param("KanbanApi.UpdateKanbanCardCustomFields", "card_id");
    REQUIRE(card);
    CHECK(card->required_when_executing);
    CHECK(card->wire_name == "idCard");
    auto const* history = param("LedgerApi.CreateInvoiceHistory", "history_details");
    REQUIRE(history);
    CHECK_FALSE(history->required);
    auto const* monitor = param("SearchApi.CreateMonitorForWebsets", "monitor_configuration");
    REQUIRE(monitor);
    CHECK(monitor->type == json_type::object);
    CHECK(monitor->wire_name == "(entire body)");
    CHECK_FALSE(monitor->schema.empty());
    auto const* file = param("KanbanApi.AddAttachmentToKanbanCard", "file_attachment");
    REQUIRE(file);
    CHECK(file->in == param_location::form);
}

TEST_CASE("annotations follow the method and what the operation does", "[toolkits]")
{
    auto get = find_tool("StoreApi.RetrieveFolderItems")->tool;
    CHECK(get->read_only);
    CHECK(get->idempotent);
    CHECK_FALSE(get->destructive);
    auto del = find_tool("StoreApi.DeleteFolder")->tool;
    CHECK(del->destructive);
    CHECK(del->idempotent);
    CHECK_FALSE(del->read_only);
    auto search = find_tool("SearchApi.PerformSearch")->tool;
    CHECK(search->read_only);
    CHECK_FALSE(search->idempotent);
}

TEST_CASE("the engine's health and OpenAPI tools need no secret", "[toolkits]")
{
    CHECK(find_tool("CoreEngineApi.CheckEngineHealth")->tool->secrets.empty());
    auto execute = find_tool("CoreEngineApi.ExecuteTool")->tool;
    REQUIRE(execute->secrets.size() == 1);
    CHECK(execute->secrets[0] == "ENGINE_API_KEY");
}
