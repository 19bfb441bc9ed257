// The token file as a token backend (see token_backend.hpp).
#include "credentials/token_backend.hpp"

#include "common/thread_name.hpp"
#include "transport/run_on.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace toolgate::credentials {
namespace asio = boost::asio;

namespace {

/// `principal`'s entries in the file as it is now.
token_entries entries_of(token_file const& file, std::string const& principal)
{
    auto book = file.load_all();
    auto it = book.find(principal);
    return it == book.end() ? token_entries {} : std::move(it->second);
}

asio::awaitable<common::checked<token_entries>> read_file(token_file file, std::string principal)
{
    try {
        co_return entries_of(file, principal);
    } catch (std::exception const& e) {
        co_return common::problem_of(e.what());
    }
}

asio::awaitable<lock_attempt> try_lock_and_read(
    token_file file, std::string principal, std::string toolkit)
{
    lock_attempt out;
    try {
        std::shared_ptr<token_lock> held = file.try_renewal_lock(principal, toolkit);
        if (held) {
            out.stored = entries_of(file, principal);
            out.held = std::move(held);
        }
    } catch (std::exception const& e) {
        out.stored = common::problem_of(e.what());
    }
    co_return out;
}

asio::awaitable<common::checked<void>> write_file(
    token_file file, std::string principal, std::string toolkit, std::optional<token_entry> entry)
{
    try {
        if (entry) {
            file.save(principal, toolkit, *entry);
        } else {
            file.remove(principal, toolkit);
        }
        co_return common::checked<void> {};
    } catch (std::exception const& e) {
        co_return common::problem_of(e.what());
    }
}

class file_backend final : public token_backend {
public:
    /// File reads and writes happen on `files`, off the threads that serve requests; the
    /// backends of every principal of one file share it.
    file_backend(token_file file, std::string principal, std::shared_ptr<asio::thread_pool> files)
        : file_(std::move(file))
        , principal_(std::move(principal))
        , files_(std::move(files))
    {
    }

    std::shared_ptr<token_backend> for_principal(std::string principal) const override
    {
        return std::make_shared<file_backend>(file_, std::move(principal), files_);
    }
    std::string where() const override { return "token store " + file_.path(); }
    asio::awaitable<common::checked<token_entries>> read() override
    {
        co_return co_await transport::run_on(files_->get_executor(), read_file(file_, principal_));
    }
    asio::awaitable<lock_attempt> try_hold(std::string toolkit) override
    {
        co_return co_await transport::run_on(
            files_->get_executor(), try_lock_and_read(file_, principal_, std::move(toolkit)));
    }
    asio::awaitable<common::checked<void>> write(std::string toolkit, token_entry entry) override
    {
        co_return co_await transport::run_on(files_->get_executor(),
            write_file(file_, principal_, std::move(toolkit), std::move(entry)));
    }
    asio::awaitable<common::checked<void>> erase(std::string toolkit) override
    {
        co_return co_await transport::run_on(files_->get_executor(),
            write_file(file_, principal_, std::move(toolkit), std::nullopt));
    }
    std::chrono::seconds patience() const override { return std::chrono::seconds(70); }
    bool renews_after_patience() const override { return true; }

private:
    token_file file_;
    std::string principal_;
    std::shared_ptr<asio::thread_pool> files_;
};

/// Joins the file thread when the last backend using it goes.
void join_and_delete(asio::thread_pool* pool)
{
    pool->join();
    delete pool; // NOLINT(cppcoreguidelines-owning-memory): a shared_ptr deleter
}

} // namespace

std::shared_ptr<token_backend> make_file_backend(token_file file, std::string principal)
{
    std::shared_ptr<asio::thread_pool> files(new asio::thread_pool(1), join_and_delete);
    asio::post(*files, [] { common::name_this_thread("toolgate-files"); });
    return std::make_shared<file_backend>(std::move(file), std::move(principal), std::move(files));
}

} // namespace toolgate::credentials
