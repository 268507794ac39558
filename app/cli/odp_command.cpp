// SPDX-License-Identifier: MIT
#include "app/cli/odp_command.h"

#include "app/cli/odp_cli_support.h"

#include <map>

namespace pbx::cli {

namespace {

constexpr const char *kOdpUsage
    = "Usage: pbx-cli odp <subcommand> [options]   (output differential privacy)\n"
      "Subcommands:\n"
      "  svt         sparse vector over a column's counts, charged ε₁ + j·ε₂/c (Hartmann et al. 2023, Lemma 8),\n"
      "              then the flagged counts released with the budget that is left\n"
      "  svt-figure  noise of the released entries against the number of large entries\n"
      "  iqr         propose-test-release IQR with two discretisations (Hartmann et al. 2023, Lemma 10)\n"
      "  early-stop  ODP costs of an early-stopped iterative mechanism (Hartmann et al. 2023, Lemma 11, Theorem 15)\n"
      "  thm15       the exact δ of given stopping-point costs (Hartmann et al. 2023, Theorem 15)\n"
      "  recover     budget recovery: private logistic regression with a private test (Hartmann et al. 2023, Algorithm 5)\n"
      "  table1      smallest k where optimal composition beats basic composition\n"
      "Common options: --out FILE (default stdout), --format json|csv (csv: tables only), --help.\n"
      "Exit codes: 0 success, 1 bad input or refusal, 2 usage.\n"
      "Run 'pbx-cli odp <subcommand> --help' for its options.\n";

} // namespace

int runOdpCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
        out << kOdpUsage;
        return args.empty() ? 2 : 0;
    }
    using Sub = int (*)(const std::vector<std::string> &, std::ostream &);
    const std::map<std::string, Sub> subs{{"svt", odpcli::svt},      {"svt-figure", odpcli::svtFigure},
                                          {"iqr", odpcli::iqr},      {"early-stop", odpcli::earlyStop},
                                          {"thm15", odpcli::thm15},  {"recover", odpcli::recover},
                                          {"table1", odpcli::table1}};
    const auto it = subs.find(args[0]);
    if (it == subs.end()) {
        err << "pbx-cli odp: unknown subcommand '" << args[0] << "' (see --help)\n";
        return 2;
    }
    try {
        return it->second({args.begin() + 1, args.end()}, out);
    } catch (const odpcli::Exit &e) {
        if (!e.message.empty())
            err << "pbx-cli odp " << args[0] << ": " << e.message << '\n';
        return e.code;
    }
}

} // namespace pbx::cli
