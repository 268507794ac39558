// SPDX-License-Identifier: MIT
#include "app/cli/account_command.h"

#include "core/accounting/evaluation.h"
#include "core/accounting/ledger_json.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <ostream>
#include <sstream>

namespace {

constexpr double kDefaultDelta = 1e-5;

void printHelp(std::ostream &out)
{
    out << "Usage: pbx-cli account --ledger FILE [--delta D | --epsilon E] [--strategies LIST]\n"
           "                       [--interval D]\n"
           "\n"
           "Evaluates a privacy ledger under several composition strategies and prints JSON.\n"
           "\n"
           "  --ledger FILE       JSON ledger: {\"neighbours\": \"add-remove\"|\"replace\",\n"
           "                      \"events\": [{\"mechanism\": \"gaussian\", \"sigma\": 1.1, \"sensitivity\": 1,\n"
           "                      \"count\": 1000, \"sampling\": {\"kind\": \"poisson\", \"rate\": 0.01}}, ...]}\n"
           "                      mechanisms: gaussian (sigma), laplace (scale), pure (epsilon),\n"
           "                      approx (epsilon, delta), zcdp (rho), randomized-response (epsilon),\n"
           "                      post-processing; optional count, sensitivity, sampling, partition.\n"
           "                      Events with different partition labels touch disjoint records:\n"
           "                      add-remove takes the worst part; replace takes the worst pair of\n"
           "                      parts (a replaced record can leave one part and enter another).\n"
           "  --delta D           report ε at this δ (0 < D < 1); the default is δ = 1e-5\n"
           "  --epsilon E         report δ at this ε (E ≥ 0) instead\n"
           "  --strategies LIST   comma-separated subset of basic,advanced,optimal,zcdp,rdp,pld\n"
           "                      (default: all)\n"
           "  --interval D        PLD discretisation interval (default 1e-4)\n"
           "  --help              show this text\n"
           "\n"
           "Each strategy reports {\"applicable\": true, \"epsilon\", \"delta\", \"method\", ...} or\n"
           "{\"applicable\": false, \"reason\"}. Every number is an upper bound (\"inf\" = no finite ε).\n"
           "A strategy that would exceed its memory or time limit (e.g. PLD on a huge grid) reports\n"
           "{\"applicable\": false, \"resourceLimit\": true, \"reason\"}; when no requested strategy can\n"
           "answer, the reasons are printed, one line each, and the exit status is 1.\n"
           "Exit status: 0 success, 1 invalid ledger, evaluation error or every strategy over its\n"
           "limit, 2 usage error.\n";
}

bool parseDouble(const std::string &text, double *value)
{
    if (text.empty())
        return false;
    char *end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || !std::isfinite(v))
        return false;
    *value = v;
    return true;
}

std::vector<std::string> splitList(const std::string &text)
{
    std::vector<std::string> items;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ','))
        if (!item.empty())
            items.push_back(item);
    return items;
}

} // namespace

int runAccountCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    std::string ledgerPath;
    bool haveDelta = false, haveEpsilon = false;
    double delta = kDefaultDelta, epsilon = 0.0;
    std::vector<std::string> strategies = pbx::accounting::allStrategyNames();
    pbx::accounting::PldOptions pldOptions;

    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        if (a == "--help" || a == "-h") {
            printHelp(out);
            return 0;
        }
        const bool takesValue = a == "--ledger" || a == "--delta" || a == "--epsilon" || a == "--strategies"
                                || a == "--interval";
        if (!takesValue) {
            err << "account: unknown argument \"" << a << "\" (see --help)\n";
            return 2;
        }
        if (i + 1 >= args.size()) {
            err << "account: " << a << " needs a value\n";
            return 2;
        }
        const std::string &v = args[++i];
        if (a == "--ledger") {
            ledgerPath = v;
        } else if (a == "--delta") {
            if (!parseDouble(v, &delta) || !(delta > 0.0 && delta < 1.0)) {
                err << "account: --delta must be a number strictly between 0 and 1, got \"" << v << "\"\n";
                return 2;
            }
            haveDelta = true;
        } else if (a == "--epsilon") {
            if (!parseDouble(v, &epsilon) || !(epsilon >= 0.0)) {
                err << "account: --epsilon must be a finite number ≥ 0, got \"" << v << "\"\n";
                return 2;
            }
            haveEpsilon = true;
        } else if (a == "--interval") {
            if (!parseDouble(v, &pldOptions.interval)
                || !(pldOptions.interval > 0.0 && pldOptions.interval <= 1.0)) {
                err << "account: --interval must lie in (0, 1], got \"" << v << "\"\n";
                return 2;
            }
        } else {
            strategies = splitList(v);
            const auto known = pbx::accounting::allStrategyNames();
            for (const auto &s : strategies) {
                if (std::find(known.begin(), known.end(), s) == known.end()) {
                    err << "account: unknown strategy \"" << s
                        << "\" (known: basic, advanced, optimal, zcdp, rdp, pld)\n";
                    return 2;
                }
            }
            if (strategies.empty()) {
                err << "account: --strategies needs at least one name\n";
                return 2;
            }
        }
    }
    if (ledgerPath.empty()) {
        err << "account: --ledger FILE is required (see --help)\n";
        return 2;
    }
    if (haveDelta && haveEpsilon) {
        err << "account: give either --delta or --epsilon, not both\n";
        return 2;
    }

    std::ifstream in(ledgerPath, std::ios::binary);
    if (!in) {
        err << "account: cannot read ledger file \"" << ledgerPath << "\"\n";
        return 1;
    }
    std::ostringstream text;
    text << in.rdbuf();
    auto ledger = pbx::accounting::parseLedgerJson(text.str());
    if (!ledger) {
        err << "account: invalid ledger \"" << ledgerPath << "\": " << ledger.error().message << "\n";
        return 1;
    }
    pbx::accounting::AccountingQuery query;
    query.epsilonAtDelta = !haveEpsilon;
    query.value = haveEpsilon ? epsilon : delta;
    auto report = pbx::accounting::evaluateLedger(ledger.value(), query, strategies, pldOptions);
    if (!report) {
        err << "account: " << report.error().message << "\n";
        return 1;
    }
    // Nothing answered and something refused for its resource limit: a one-line refusal per such
    // strategy, exit 1 (a strategy that answered is the fallback otherwise).
    bool anyAnswer = false;
    std::vector<std::string> limits;
    for (const std::string &name : strategies) {
        const auto &entry = report.value()[name];
        if (entry.value("applicable", false))
            anyAnswer = true;
        else if (entry.value("resourceLimit", false))
            limits.push_back(name + ": " + entry.value("reason", std::string()));
    }
    if (!anyAnswer && !limits.empty()) {
        for (const std::string &line : limits)
            err << "account: " << line << "\n";
        return 1;
    }
    out << report->dump(2) << "\n";
    return 0;
}
