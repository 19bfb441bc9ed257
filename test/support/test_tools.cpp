// The test tools. Test_Slow waits on a timer so that cancellation has something to abort;
// Test_Ask asks the person behind the client a yes/no question (form elicitation: a request
// in a 2025 session, an input_required result in 2026-07-28) and says what came back.
#include "test_tools.hpp"

#include "protocol/elicitation.hpp"
#include "protocol/names.hpp"

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/serialize.hpp>

#include <stdexcept>
#include <vector>

namespace toolgate::testing {
namespace asio = boost::asio;
namespace json = boost::json;
using protocol::call_result;
using protocol::tool_descriptor;

namespace {

constexpr char open_schema[] = R"({"type":"object"})";
constexpr char slow_schema[]
    = R"({"type":"object","properties":{"ms":{"type":"integer"},"steps":{"type":"integer"}}})";

tool_descriptor make(std::string name, std::string schema, bool read_only)
{
    tool_descriptor d;
    d.name = "Test_" + name;
    d.dotted_name = "Test." + name;
    d.own_texts("Test " + name, "Test-only tool " + name + ".", std::move(schema));
    d.hints.read_only = read_only;
    return d;
}

class test_tools final : public toolkits::tool_provider {
public:
    test_tools()
    {
        tools_.push_back(make("Echo", open_schema, true));
        tools_.push_back(make("Slow", slow_schema, true));
        tools_.push_back(make("Fail", open_schema, false));
        tools_.push_back(make("Log", open_schema, true));
        tools_.push_back(make("Throw", open_schema, false));
        tools_.push_back(make("Array", open_schema, true));
        tools_.push_back(make("Ask", open_schema, true));
    }

    bool may_ask_client(tool_descriptor const& tool, json::object const&) const override
    {
        return tool.name == "Test_Ask";
    }

    std::span<const tool_descriptor> tools() const override { return tools_; }

    asio::awaitable<call_result> call(tool_descriptor const& tool, json::object arguments,
        toolkits::call_context& context) override
    {
        if (tool.name == "Test_Echo") {
            call_result r = call_result::text(json::serialize(arguments));
            r.structured = json::value(std::move(arguments));
            co_return r;
        }
        if (tool.name == "Test_Array") {
            call_result r = call_result::text("[1,2,3]");
            r.structured = json::value(json::array { 1, 2, 3 });
            co_return r;
        }
        if (tool.name == "Test_Ask") {
            co_return co_await ask(arguments, context);
        }
        if (tool.name == "Test_Fail") {
            co_return call_result::error("Test_Fail always fails");
        }
        if (tool.name == "Test_Throw") {
            throw std::runtime_error("Test_Throw threw");
        }
        if (tool.name == "Test_Log") {
            for (int level = 0; level <= int(protocol::log_level::emergency); ++level) {
                context.log(static_cast<protocol::log_level>(level), "test",
                    json::value(json::string("level " + std::to_string(level))));
            }
            co_return call_result::text("logged");
        }
        // Test_Slow
        auto const ms = arguments.contains("ms") ? arguments.at("ms").to_number<long>() : 1000;
        auto const steps
            = arguments.contains("steps") ? arguments.at("steps").to_number<long>() : 4;
        asio::steady_timer timer(co_await asio::this_coro::executor);
        for (long i = 0; i < steps; ++i) {
            timer.expires_after(std::chrono::milliseconds(ms / std::max(1L, steps)));
            co_await timer.async_wait(asio::use_awaitable); // throws when cancelled
            context.report_progress(double(i + 1), double(steps), "step");
            context.log(protocol::log_level::info, "test", json::value("step done"));
        }
        co_return call_result::text("slow done");
    }

private:
    static json::object question_params(json::object const& arguments)
    {
        json::object schema;
        schema["type"] = "object";
        schema["properties"] = json::object { { "ok",
            json::object { { "type", "boolean" }, { "title", "Proceed?" } } } };
        schema["required"] = json::array { "ok" };
        auto const* q = arguments.if_contains("question");
        std::string message = q && q->is_string() ? std::string(q->get_string()) : "Proceed?";
        return protocol::form_elicitation_params(message, std::move(schema));
    }

    static call_result described(json::value const& answer)
    {
        auto read = protocol::read_elicit_answer(answer);
        if (!read) {
            return call_result::error("unreadable answer: " + read.error().message);
        }
        using action = protocol::elicit_answer::action;
        if (read->choice == action::accept) {
            return call_result::text("accepted " + json::serialize(read->content));
        }
        return call_result::text(read->choice == action::decline ? "declined" : "cancelled");
    }

    static asio::awaitable<call_result> ask(json::object arguments, toolkits::call_context& ctx)
    {
        auto* client = ctx.interaction();
        if (client == nullptr || !client->modes().form) {
            co_return call_result::error("Test_Ask: the client declared no form elicitation");
        }
        if (client->modern()) {
            auto const* answers = client->input_responses();
            if (client->retry_state() && answers && answers->contains("answer")) {
                auto r = described(answers->at("answer"));
                r.content.front().text += " state " + json::serialize(*client->retry_state());
                co_return r;
            }
            call_result r;
            r.input_requests = json::object { { "answer",
                protocol::input_request(
                    protocol::names::elicitation_create, question_params(arguments)) } };
            r.input_state = json::object { { "asked", true } };
            co_return r;
        }
        if (!client->can_ask()) {
            co_return call_result::error("Test_Ask: this client cannot be asked now");
        }
        auto answer = co_await client->ask(
            std::string(protocol::names::elicitation_create), question_params(arguments));
        if (!answer) {
            co_return call_result::error("Test_Ask: " + answer.error().message);
        }
        co_return described(*answer);
    }

    std::vector<tool_descriptor> tools_;
};

} // namespace

std::unique_ptr<toolkits::tool_provider> make_test_tools()
{
    return std::make_unique<test_tools>();
}

} // namespace toolgate::testing
