// The token file as a token backend (see token_backend.hpp).
#include "credentials/token_backend.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace toolgate::credentials {
namespace asio = boost::asio;

namespace {

asio::awaitable<common::checked<token_entries>> read_file(token_file file)
{
    try {
        co_return file.load();
    } catch (std::exception const& e) {
        co_return common::problem_of(e.what());
    }
}

asio::awaitable<lock_attempt> try_lock_and_read(token_file file, std::string toolkit)
{
    lock_attempt out;
    try {
        std::shared_ptr<token_lock> held = file.try_renewal_lock(toolkit);
        if (held) {
            out.stored = file.load();
            out.held = std::move(held);
        }
    } catch (std::exception const& e) {
        out.stored = common::problem_of(e.what());
    }
    co_return out;
}

asio::awaitable<common::checked<void>> write_file(
    token_file file, std::string toolkit, std::optional<token_entry> entry)
{
    try {
        file.update(toolkit, entry);
        co_return common::checked<void> {};
    } catch (std::exception const& e) {
        co_return common::problem_of(e.what());
    }
}

class file_backend final : public token_backend {
public:
    explicit file_backend(token_file file)
        : file_(std::move(file))
    {
    }
    ~file_backend() override { files_.join(); }

    std::string where() const override { return "token store " + file_.path(); }
    asio::awaitable<common::checked<token_entries>> read() override
    {
        co_return co_await asio::co_spawn(files_, read_file(file_), asio::use_awaitable);
    }
    asio::awaitable<lock_attempt> try_hold(std::string toolkit) override
    {
        co_return co_await asio::co_spawn(
            files_, try_lock_and_read(file_, std::move(toolkit)), asio::use_awaitable);
    }
    asio::awaitable<common::checked<void>> write(std::string toolkit, token_entry entry) override
    {
        co_return co_await asio::co_spawn(
            files_, write_file(file_, std::move(toolkit), std::move(entry)), asio::use_awaitable);
    }
    asio::awaitable<common::checked<void>> erase(std::string toolkit) override
    {
        co_return co_await asio::co_spawn(
            files_, write_file(file_, std::move(toolkit), std::nullopt), asio::use_awaitable);
    }
    std::chrono::seconds patience() const override { return std::chrono::seconds(70); }
    bool renews_after_patience() const override { return true; }

private:
    token_file file_;
    /// File reads and writes happen here, off the threads that serve requests.
    asio::thread_pool files_ { 1 };
};

} // namespace

std::shared_ptr<token_backend> make_file_backend(token_file file)
{
    return std::make_shared<file_backend>(std::move(file));
}

} // namespace toolgate::credentials
