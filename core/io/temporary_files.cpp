// SPDX-License-Identifier: MIT
#include "core/io/temporary_files.h"

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>

#include <signal.h>
#include <unistd.h>

namespace pbx::io {

namespace {

constexpr std::size_t kSlots = 16;
constexpr std::size_t kPathBytes = 4096;

// Fixed storage: the signal handler may only touch memory that needs no allocation or lock.
struct Slot
{
    std::atomic<bool> used{false};
    std::atomic<bool> ready{false};
    char path[kPathBytes] = {};
};
std::array<Slot, kSlots> g_slots;

extern "C" void removeAndReraise(int signal)
{
    for (auto &slot : g_slots)
        if (slot.ready.load())
            ::unlink(slot.path); // async-signal-safe
    std::signal(signal, SIG_DFL);
    ::raise(signal);
}

} // namespace

void removeTemporaryFilesOnSignals()
{
    static std::atomic<bool> installed{false};
    if (installed.exchange(true))
        return;
    for (int signal : {SIGINT, SIGTERM, SIGHUP}) {
        struct sigaction action = {};
        action.sa_handler = removeAndReraise;
        sigemptyset(&action.sa_mask);
        ::sigaction(signal, &action, nullptr);
    }
}

TemporaryFileGuard::TemporaryFileGuard(const std::string &path)
{
    if (path.size() >= kPathBytes)
        return;
    for (std::size_t i = 0; i < kSlots; ++i) {
        bool expected = false;
        if (g_slots[i].used.compare_exchange_strong(expected, true)) {
            std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
            g_slots[i].ready.store(true);
            m_slot = static_cast<int>(i);
            return;
        }
    }
}

TemporaryFileGuard::~TemporaryFileGuard()
{
    if (m_slot < 0)
        return;
    g_slots[static_cast<std::size_t>(m_slot)].ready.store(false);
    g_slots[static_cast<std::size_t>(m_slot)].used.store(false);
}

std::string temporaryNameFor(const std::string &path, std::string_view marker)
{
    return path + std::string(marker) + std::to_string(::getpid());
}

void removeStaleTemporaryFiles(const std::string &path, std::string_view marker)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path target(path);
    const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
    const std::string prefix = target.filename().string() + std::string(marker);
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0)
            continue;
        const std::string digits = name.substr(prefix.size());
        if (digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos)
            continue;
        const pid_t pid = static_cast<pid_t>(std::stol(digits));
        if (pid > 0 && pid != ::getpid() && ::kill(pid, 0) != 0 && errno == ESRCH)
            fs::remove(it->path(), ec);
    }
}

} // namespace pbx::io
