// SPDX-License-Identifier: MIT
// pbx-cli: the headless twin of the pbx GUI.
#include "app/cli/account_command.h"
#include "app/cli/compare_command.h"
#include "app/cli/odp_command.h"
#include "app/cli/report_command.h"
#include "app/cli/run_command.h"
#include "app/cli/simulate_command.h"
#include "app/cli/verify_command.h"
#include "core/io/standard_descriptors.h"
#include "core/io/temporary_files.h"

#include <csignal>

#include <iostream>
#include <string>
#include <vector>

namespace {
constexpr const char *kUsage
    = "Usage: pbx-cli <command> [options]\n"
      "Commands:\n"
      "  run       answer a JSON Lines file of requests and write a transcript\n"
      "  account   what a ledger of mechanisms costs under each composition strategy\n"
      "  compare   the comparison view's table and curves for a ledger, as text or JSON\n"
      "  simulate  the relative-error lab: noise reduction against doubling\n"
      "  verify    recompute every cost and the spend of a transcript or journal\n"
      "  report    a session report (HTML or PDF) of a transcript or journal\n"
      "  odp       output differential privacy: sparse vector, PTR, early stopping, recovery\n"
      "Run 'pbx-cli <command> --help' for a command's options.\n";
}

int main(int argc, char **argv)
{
    // Before any file is opened: a closed stdout must not become the journal's descriptor.
    if (!pbx::io::ensureStandardDescriptorsOpen())
        return 1;
    // A closed pipe on stdout must not kill a run before its transcript is written: writes then
    // fail (EPIPE) and the run reports it at the end. Temporary files go on SIGINT/SIGTERM/SIGHUP.
    std::signal(SIGPIPE, SIG_IGN);
    // A file-size limit (ulimit -f) must fail a write (EFBIG), reported like a full disk before
    // the answer it would record is shown, not kill the run before its transcript is written.
    std::signal(SIGXFSZ, SIG_IGN);
    pbx::io::removeTemporaryFilesOnSignals();
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
        std::cout << kUsage;
        return args.empty() ? 2 : 0;
    }
    if (args[0] == "--version") {
        std::cout << "pbx-cli " << PBX_VERSION << '\n';
        return 0;
    }
    const std::string command = args[0];
    args.erase(args.begin());
    if (command == "run")
        return pbx::cli::runRunCommand(args, std::cout, std::cerr);
    if (command == "verify")
        return pbx::cli::runVerifyCommand(args, std::cout, std::cerr);
    if (command == "report")
        return pbx::cli::runReportCommand(args, std::cout, std::cerr);
    if (command == "simulate")
        return pbx::cli::runSimulateCommand(args, std::cout, std::cerr);
    if (command == "odp")
        return pbx::cli::runOdpCommand(args, std::cout, std::cerr);
    if (command == "account")
        return runAccountCommand(args, std::cout, std::cerr);
    if (command == "compare")
        return pbx::cli::runCompareCommand(args, std::cout, std::cerr);
    std::cerr << "pbx-cli: unknown command '" << command << "' (see --help)\n";
    return 2;
}
