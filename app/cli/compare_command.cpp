// SPDX-License-Identifier: MIT
#include "app/cli/compare_command.h"

#include "app/cli/options.h"
#include "core/accounting/evaluation.h"
#include "core/accounting/ledger_json.h"
#include "core/accounting/per_step_dp.h"
#include "core/util/plural.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <sstream>

namespace pbx::cli {

namespace {

constexpr double kDefaultDelta = 1e-5;
constexpr double kDefaultEpsilon = 1.0;
constexpr double kDefaultInterval = 1e-4;

void printHelp(std::ostream &out)
{
    out << "Usage: pbx-cli compare --ledger FILE [--delta D | --epsilon E] [--interval D]\n"
           "                       [--per-step-delta D | --per-step-delta auto] [--json] [--out FILE]\n"
           "\n"
           "What a ledger costs under every composition strategy, with the curves the comparison\n"
           "view draws: the δ(ε) privacy profile, ε at δ over prefixes of the ledger (ε(k)), the\n"
           "composed RDP curve over orders and the PLD as a histogram. The numbers are the view's.\n"
           "\n"
           "  --ledger FILE   JSON ledger, as for 'pbx-cli account' (see its --help); events with\n"
           "                  different partition labels compose in parallel\n"
           "  --delta D       the table reports ε at this δ (0 < D < 1; default 1e-5); the curves\n"
           "                  always use ε at δ\n"
           "  --epsilon E     the table reports δ at this ε (E ≥ 0) instead\n"
           "  --interval D    PLD discretisation interval, 0 < D ≤ 1 (default 1e-4)\n"
           "  --per-step-delta D\n"
           "                  basic, advanced and optimal composition count each Gaussian or zCDP\n"
           "                  step as (ε, D)-DP (Balle & Wang 2018; Canonne, Kamath & Steinke 2020),\n"
           "                  so they apply to such ledgers too; the k converted steps then charge\n"
           "                  Σδᵢ of the total δ by themselves. 0 < D < δ (--delta, default 1e-5).\n"
           "                  \"auto\": δ/(2k) rounded down to two significant digits, as the\n"
           "                  comparison view does (nothing to convert: off). Default: off (they\n"
           "                  report such steps as not applicable)\n"
           "  --json          print JSON (the 'pbx-cli account' object plus \"curves\") instead of text\n"
           "  --out FILE      write to FILE instead of standard output\n"
           "  --help          show this text\n"
           "\n"
           "Every ε and δ is an upper bound (\"inf\": no finite ε); \"-\" in a curve (null in JSON)\n"
           "marks a strategy that does not apply there.\n"
           "Exit status: 0 success, 1 bad input (one line naming the file, field or option),\n"
           "2 usage error.\n";
}

std::string num(double x, int digits = 6)
{
    if (std::isnan(x))
        return "-";
    if (std::isinf(x))
        return x > 0 ? "inf" : "-inf";
    std::ostringstream s;
    s << std::setprecision(digits) << x;
    return s.str();
}

/// A table with a header row; columns left-aligned to their widest cell.
void printTable(std::ostream &out, const std::vector<std::vector<std::string>> &rows)
{
    std::vector<std::size_t> width;
    for (const auto &row : rows)
        for (std::size_t c = 0; c < row.size(); ++c) {
            if (c >= width.size())
                width.push_back(0);
            width[c] = std::max(width[c], row[c].size());
        }
    for (const auto &row : rows) {
        std::string line;
        for (std::size_t c = 0; c < row.size(); ++c) {
            line += row[c];
            if (c + 1 < row.size())
                line += std::string(width[c] - row[c].size() + 2, ' ');
        }
        out << line << '\n';
    }
}

/// An upper bound (δ) with `digits` significant digits, rounded UP (as the comparison view's
/// formatBound), so that no printed δ is below the computed one; a value within 1e-12 relative of
/// the digits below it (the strategies' own upward nudge of a few ulps) prints as those digits.
std::string bound(double x, int digits = 6)
{
    if (!(x > 0.0) || !std::isfinite(x))
        return num(x, digits);
    const std::string text = num(x, digits);
    const double shown = std::strtod(text.c_str(), nullptr);
    if (shown >= x * (1.0 - 1e-12))
        return text;
    return num(shown + std::pow(10.0, std::floor(std::log10(shown)) - (digits - 1)), digits);
}

/// The per-step (ε, δ) view, as the comparison view's row detail (StrategyResultsModel::
/// perStepText) and its note when none of basic, advanced and optimal certifies anything.
void printPerStep(std::ostream &out, const accounting::ComparisonQuery &q, const accounting::Comparison &c,
                  bool automatic)
{
    const accounting::PerStepSummary *any = nullptr;
    bool allVoid = true;
    std::vector<std::vector<std::string>> rows{
        {"strategy", "sum of step deltas", "composition's share", "total delta"}};
    for (const auto &s : c.strategies) {
        if (!s.perStep || !s.answer)
            continue;
        const accounting::PerStepSummary &p = *s.perStep;
        const double total = s.answer->delta;
        const bool nothingLeft = q.epsilonAtDelta && std::isinf(s.answer->epsilon);
        any = &p;
        allVoid = allVoid && (q.epsilonAtDelta ? nothingLeft : total >= 1.0);
        if (nothingLeft)
            rows.push_back({s.name, bound(p.stepsDelta), "none left", bound(total)});
        else if (s.name == "basic" || s.answer->method.rfind("basic", 0) == 0)
            // Basic composition (also when advanced or optimal fell back to it) charges the
            // steps' δ only.
            rows.push_back({s.name, bound(p.stepsDelta), "0", bound(p.stepsDelta)});
        else
            rows.push_back(
                {s.name, bound(p.stepsDelta), bound(std::max(0.0, total - p.stepsDelta)), bound(total)});
    }
    if (!any)
        return;
    out << "\nPer-step (epsilon, delta) view: "
        << countNoun(static_cast<std::uint64_t>(any->convertedSteps), "Gaussian/zCDP step",
                     "Gaussian/zCDP steps")
        << " at delta = " << bound(any->stepDelta) << (any->convertedSteps == 1 ? "" : " each")
        << (automatic ? " (auto: delta/(2k), rounded down)" : "") << "\n";
    printTable(out, rows);
    if (!allVoid)
        return;
    const double k = static_cast<double>(any->convertedSteps);
    if (q.epsilonAtDelta)
        out << "Basic, advanced and optimal composition certify no finite epsilon: the converted steps "
               "alone charge sum of delta_i = "
            << bound(any->stepsDelta, 3) << ", not below the total delta = " << num(q.delta)
            << ". Choose a per-step delta below delta/k = " << num(q.delta / k, 2) << ".\n";
    else
        out << "Basic, advanced and optimal composition certify nothing at epsilon = " << num(q.epsilon)
            << " (delta = 1): a larger per-step delta lowers each step's epsilon; a smaller one lowers "
               "the sum of delta_i = "
            << bound(any->stepsDelta, 3) << ".\n";
}

void printText(std::ostream &out, const accounting::Ledger &ledger, const accounting::ComparisonQuery &q,
               const accounting::Comparison &c, bool perStepAuto)
{
    std::int64_t steps = 0;
    for (const auto &e : ledger.events)
        steps += e.count;
    out << "Ledger: " << countNoun(ledger.events.size(), "event", "events") << ", "
        << countNoun(static_cast<std::uint64_t>(steps), "step", "steps") << ", "
        << accounting::neighbouringName(ledger.neighbours);
    if (c.partitions > 1)
        out << ", " << c.partitions << " partition ledgers composed in parallel";
    out << "\n\n";

    const std::string head
        = q.epsilonAtDelta ? "epsilon at delta = " + num(q.delta) : "delta at epsilon = " + num(q.epsilon);
    std::vector<std::vector<std::string>> rows{{"strategy", head, "method or reason"}};
    for (const auto &s : c.strategies) {
        if (s.answer)
            rows.push_back(
                {s.name, num(q.epsilonAtDelta ? s.answer->epsilon : s.answer->delta, 10), s.answer->method});
        else
            rows.push_back({s.name, "not applicable", s.error ? s.error->message : std::string()});
    }
    printTable(out, rows);
    printPerStep(out, q, c, perStepAuto);

    if (!c.profileEpsilons.empty()) {
        out << "\nPrivacy profile delta(epsilon)\n";
        std::vector<std::vector<std::string>> profile{{"epsilon"}};
        for (const auto &s : c.strategies)
            profile[0].push_back(s.name);
        for (std::size_t j = 0; j < c.profileEpsilons.size(); ++j) {
            std::vector<std::string> row{num(c.profileEpsilons[j])};
            for (const auto &deltas : c.profileDeltas)
                row.push_back(num(deltas[j]));
            profile.push_back(std::move(row));
        }
        printTable(out, profile);
    }
    if (!c.prefixX.empty()) {
        out << "\nepsilon(k) at delta = " << num(q.delta) << " over prefixes of the ledger (PLD interval "
            << num(c.prefixPldInterval) << ")\n";
        std::vector<std::vector<std::string>> prefixes{{"k", "steps"}};
        for (const auto &s : c.strategies)
            prefixes[0].push_back(s.name);
        for (std::size_t k = 0; k < c.prefixX.size(); ++k) {
            std::vector<std::string> row{num(c.prefixX[k]), std::to_string(c.prefixSteps[k])};
            for (const auto &eps : c.prefixEpsilons)
                row.push_back(num(eps[k]));
            prefixes.push_back(std::move(row));
        }
        printTable(out, prefixes);
    }
    if (!c.rdp.orders.empty()) {
        out << "\nRDP over orders (optimal order " << num(c.rdp.optimalOrder) << ")\n";
        std::vector<std::vector<std::string>> rdp{{"order", "rdp epsilon", "epsilon at delta"}};
        for (std::size_t j = 0; j < c.rdp.orders.size(); ++j)
            rdp.push_back({num(c.rdp.orders[j]), num(c.rdp.values[j]), num(c.rdp.epsilonByOrder[j])});
        printTable(out, rdp);
    }
    if (!c.pld.loss.empty()) {
        out << "\nPLD histogram (" << (c.pld.addDirection ? "add" : "remove") << " direction, bin width "
            << num(c.pld.binWidth) << ", interval " << num(c.pld.interval) << ", mass at +inf "
            << num(c.pld.infinityMass) << ")\n";
        std::vector<std::vector<std::string>> pld{{"loss", "mass"}};
        for (std::size_t j = 0; j < c.pld.loss.size(); ++j)
            pld.push_back({num(c.pld.loss[j]), num(c.pld.mass[j])});
        printTable(out, pld);
    }
}

} // namespace

accounting::ComparisonQuery viewQuery(const accounting::Ledger &ledger, bool epsilonAtDelta, double delta,
                                      double epsilon, double pldInterval)
{
    accounting::ComparisonQuery q;
    q.epsilonAtDelta = epsilonAtDelta;
    q.delta = delta;
    q.epsilon = epsilon;
    q.pldInterval = pldInterval;
    q.prefixes = accounting::stepPrefixes(ledger);
    q.prefixPldInterval = accounting::prefixPldInterval(ledger, pldInterval);
    return q;
}

int runCompareCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    auto options = Options::parse(
        args, {"--ledger", "--delta", "--epsilon", "--interval", "--per-step-delta", "--out"},
        {"--help", "--json"});
    if (!options) {
        err << "compare: " << options.error().message << "\n";
        return 2;
    }
    if (options->has("--help")) {
        printHelp(out);
        return 0;
    }
    const auto ledgerPath = options->value("--ledger");
    if (!ledgerPath) {
        err << "compare: --ledger FILE is required (see --help)\n";
        return 2;
    }
    if (options->has("--delta") && options->has("--epsilon")) {
        err << "compare: give either --delta or --epsilon, not both\n";
        return 2;
    }
    auto delta = options->number("--delta");
    auto epsilon = options->number("--epsilon");
    auto interval = options->number("--interval");
    for (const auto *r : {&delta, &epsilon, &interval})
        if (!*r) {
            err << "compare: " << r->error().message << "\n";
            return 1;
        }
    const double d = delta->value_or(kDefaultDelta);
    const double e = epsilon->value_or(kDefaultEpsilon);
    const double pldInterval = interval->value_or(kDefaultInterval);
    if (!(d > 0.0 && d < 1.0)) {
        err << "compare: --delta must lie strictly between 0 and 1, got " << num(d, 17) << "\n";
        return 1;
    }
    if (!(e >= 0.0)) {
        err << "compare: --epsilon must be a finite number ≥ 0, got " << num(e, 17) << "\n";
        return 1;
    }
    if (!(pldInterval > 0.0 && pldInterval <= 1.0)) {
        err << "compare: --interval must lie in (0, 1], got " << num(pldInterval, 17) << "\n";
        return 1;
    }
    // The per-step (ε, δ) view: a δ below the total δ (each converted step charges it), or "auto".
    const bool perStepAuto = options->value("--per-step-delta") == std::optional<std::string>("auto");
    double perStepDelta = 0.0;
    if (options->has("--per-step-delta") && !perStepAuto) {
        auto value = options->number("--per-step-delta");
        if (!value) {
            err << "compare: " << value.error().message << " (or \"auto\")\n";
            return 1;
        }
        perStepDelta = value->value_or(0.0);
        if (!(perStepDelta > 0.0 && perStepDelta < d)) {
            err << "compare: --per-step-delta must lie strictly between 0 and delta = " << num(d)
                << " (or be \"auto\"), got " << num(perStepDelta, 10) << "\n";
            return 1;
        }
    }

    std::ifstream in(*ledgerPath, std::ios::binary);
    if (!in) {
        err << "compare: cannot read ledger file \"" << *ledgerPath << "\"\n";
        return 1;
    }
    std::ostringstream text;
    text << in.rdbuf();
    auto ledger = accounting::parseLedgerJson(text.str());
    if (!ledger) {
        err << "compare: invalid ledger \"" << *ledgerPath << "\": " << ledger.error().message << "\n";
        return 1;
    }
    accounting::ComparisonQuery query = viewQuery(*ledger, !epsilon->has_value(), d, e, pldInterval);
    // auto: the comparison view's rule (0, i.e. off, when there is nothing to convert).
    query.perStepDelta
        = perStepAuto ? accounting::autoPerStepDelta(d, accounting::convertibleSteps(*ledger)) : perStepDelta;
    auto comparison = accounting::compareStrategies(*ledger, query);
    if (!comparison) {
        err << "compare: \"" << *ledgerPath << "\": " << comparison.error().message << "\n";
        return 1;
    }

    std::ostringstream report;
    if (options->has("--json"))
        report << accounting::comparisonToJson(*comparison, query).dump(2) << '\n';
    else
        printText(report, *ledger, query, *comparison, perStepAuto);
    if (const auto outPath = options->value("--out")) {
        std::ofstream file(*outPath, std::ios::binary | std::ios::trunc);
        file << report.str();
        file.close();
        if (!file) {
            err << "compare: cannot write \"" << *outPath << "\"\n";
            return 1;
        }
        return 0;
    }
    out << report.str();
    return 0;
}

} // namespace pbx::cli
