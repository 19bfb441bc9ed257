// `toolgate call` (see call_cli.hpp).
#include "app/call_cli.hpp"

#include "app/app.hpp"
#include "app/controls_wiring.hpp"
#include "app/served_protocol.hpp"
#include "protocol/call_result_json.hpp"
#include "toolkits/dry_run.hpp"
#include "transport/coroutine_root.hpp"

#include <CLI/App.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>

namespace toolgate::app {
namespace {

namespace json = boost::json;

/// A call from the command line: nobody to report progress to, no client authentication.
class command_line_context final : public toolkits::call_context {
public:
    explicit command_line_context(toolkits::call_controls* controls)
        : controls_(controls)
    {
    }
    void report_progress(double, std::optional<double>, std::string_view) override { }
    void log(protocol::log_level, std::string_view, json::value) override { }
    std::string_view protocol_version() const override { return "2025-11-25"; }
    toolkits::call_controls* controls() const override { return controls_; }

private:
    toolkits::call_controls* controls_;
};

/// One line on stderr, as every command-line problem is told.
int usage_error(std::string const& message)
{
    print_error("toolgate call: " + message);
    return 2;
}

// `provider`, `tool` and `context` live in run_call_command's frame, which runs the
// io_context until this coroutine is done.
boost::asio::awaitable<protocol::call_result> call_once(toolkits::tool_provider& provider,
    protocol::tool_descriptor const& tool, json::object arguments, command_line_context& context)
{
    co_return co_await provider.call(tool, std::move(arguments), context);
}

} // namespace

void add_call_command(CLI::App& app, call_command& command)
{
    auto* call = app.add_subcommand("call",
        "call one tool and print its result as JSON (exit status 0: a result, 1: a tool "
        "error, 2: bad usage); the serving flags (--toolkits, --base-url, --audit-log, ...) "
        "apply");
    call->add_option("tool", command.tool, "the tool, e.g. KanbanApi_GetBoard")->required();
    call->add_option("arguments", command.arguments, "its arguments as a JSON object");
    call->add_flag("--dry-run", command.dry_run,
        "show the request the call would send (credentials masked) without sending it");
    call->fallthrough();
    call->callback([&command] { command.requested = true; });
}

int run_call_command(config const& cfg, boost::asio::io_context& ioc, service& svc)
{
    boost::system::error_code ec;
    auto parsed = json::parse(cfg.call.arguments, ec);
    if (ec || !parsed.is_object()) {
        return usage_error(fmt::format("the arguments must be a JSON object, e.g. "
                                       "'{{\"board_id\": \"abc\"}}'; got `{}`",
            cfg.call.arguments.substr(0, 80)));
    }
    auto arguments = std::move(parsed.get_object());
    served_protocol stack(cfg, svc);
    auto const& index = stack.dispatcher().index();
    auto const* tool = index.find(cfg.call.tool);
    if (tool == nullptr) {
        auto const close = index.suggest(cfg.call.tool);
        return usage_error(fmt::format("unknown tool `{}`{}", cfg.call.tool.substr(0, 100),
            close.empty() ? std::string("; list them with toolgate --list-tools")
                          : fmt::format(" (did you mean {}?)", fmt::join(close, ", "))));
    }
    if (cfg.call.dry_run) {
        bool const meta = tool->name == discovery::call_tool_name;
        arguments[meta ? toolkits::dry_run_call_tool_argument : toolkits::dry_run_argument] = true;
    }
    controls_wiring controls(cfg, svc.store);
    command_line_context context(controls.active() ? &controls.controls() : nullptr);
    std::optional<protocol::call_result> result;
    boost::asio::co_spawn(ioc, call_once(stack.provider(), *tool, std::move(arguments), context),
        [&result](std::exception_ptr error, protocol::call_result r) {
            transport::log_root_failure("toolgate call", error);
            if (!error) {
                result = std::move(r);
            }
        });
    ioc.run();
    if (!result) {
        return usage_error("the call failed inside toolgate; see the log above");
    }
    auto text = json::serialize(protocol::to_json(*result, "2025-11-25"));
    text += '\n';
    std::fwrite(text.data(), 1, text.size(), stdout); // a one-shot command: stdout is the user's
    std::fflush(stdout);
    return result->is_error ? 1 : 0;
}

} // namespace toolgate::app
