// SPDX-License-Identifier: MIT
// `pbx-cli odp svt | svt-figure | iqr | table1`.
#include "app/cli/odp_cli_support.h"

#include "core/data/predicate.h"
#include "core/data/rows.h"
#include "core/odp/column_counts.h"
#include "core/odp/crossover.h"
#include "core/odp/ptr_iqr.h"
#include "core/odp/sparse_vector.h"
#include "resources/dataset_catalog.h"

#include <cmath>
#include <sstream>

namespace pbx::cli::odpcli {

namespace {

using io::json::Json;

constexpr const char *kSvtUsage
    = "Usage: pbx-cli odp svt --threshold T --c N --epsilon E [--column C] [--dataset NAME-or-CSV]\n"
      "                   [--svt-share 0.5] [--sensitivity 1] [--epsilon1 E1 --epsilon2 E2]\n"
      "                   [--seed S] [--out FILE]\n"
      "The vector is the column's counts (one per category, or per whole number within a numeric\n"
      "column's declared bounds; default column education). Sparse vector (exact discrete Laplace)\n"
      "flags the counts ≥ T, stopping at the c-th; it costs E(j) = ε₁ + j·ε₂/c (Hartmann et al. 2023, Lemma 8). The j\n"
      "flagged counts are then released with Laplace scale j·Δ/(ε − E(j)). Lyu et al.'s split of\n"
      "ε·svt-share unless --epsilon1/--epsilon2 are given. --seed: reproducible teaching noise.\n"
      "Public data only (an embedded dataset, or a CSV whose metadata says \"public\": true): a side\n"
      "command has no budget to charge; on private data ask an 'svt' request in a session (pbx-cli run).\n";

constexpr const char *kFigureUsage
    = "Usage: pbx-cli odp svt-figure [--entries 100] [--large 1000] [--threshold 500] [--c 10]\n"
      "                   [--epsilon 1] [--svt-share 0.5] [--sensitivity 1] [--counts 0,1,2,3,5,8,10]\n"
      "                   [--mc R --seed S] [--format json|csv] [--out FILE]\n"
      "Exact expected noise (standard deviation) of the released entries against the number L of\n"
      "large entries, under the DP, filter and ODP analyses, with P(j = 0).\n";

constexpr const char *kIqrUsage
    = "Usage: pbx-cli odp iqr --neighbours replace [--column wage] [--where PREDICATE]\n"
      "                   [--dataset NAME-or-CSV] [--epsilon 0.5] [--delta-f 1e-6] [--mode noisy|bin]\n"
      "                   [--order random|fixed] [--accounting entries|lemma10|cells3|dp]\n"
      "                   [--width W] [--seed S] [--out FILE]\n"
      "Propose-test-release IQR (Hartmann et al. 2023, Lemma 10) with two log-scale discretisations. Needs the\n"
      "replace-one relation (n public). Prints γ of both discretisations (teaching: γ is computed\n"
      "from the data) and the cost of the realised case under every accounting. Public data only (an\n"
      "embedded dataset, or a CSV whose metadata says \"public\": true); on private data ask a 'ptr-iqr'\n"
      "request in a session (pbx-cli run), which takes no --where (the subgroup's size is private).\n";

constexpr const char *kTableUsage
    = "Usage: pbx-cli odp table1 [--eps0 0.01,0.05,0.1,0.25,0.5,1,2] [--delta 1e-3,…,1e-9]\n"
      "                   [--companions] [--format json|csv] [--out FILE]\n"
      "k_min(ε₀, δ): the smallest k for which Kairouz et al.'s Thm 3.3 (optimal composition) beats basic composition kε₀.\n";

data::Table loadTable(const Options &o)
{
    auto table = resources::loadDataset(o.value("--dataset").value_or("cps1988"));
    if (!table)
        throw Exit{1, "--dataset: " + table.error().message};
    return std::move(*table);
}

/// The rows of a public table (door (b) of core/data/rows.h): a side command has no session to
/// charge, so on data not declared public it refuses, from the public flag alone, before reading
/// anything.
data::Rows publicRowsOrExit(const data::Table &table, const std::string &command)
{
    auto rows = data::publicRows(table, "this command");
    if (!rows)
        throw Exit{1, rows.error().message + "; in a session it is the request kind '"
                          + (command == "iqr" ? "ptr-iqr" : command) + "'"};
    return *rows;
}

/// The column's counts and a label per count.
void columnCounts(const data::Rows &t, const std::string &name, std::vector<std::int64_t> &counts,
                  std::vector<std::string> &labels)
{
    auto c = odp::columnCounts(t, name);
    if (!c)
        throw Exit{1, "--" + c.error().message};
    counts = std::move(c->counts);
    labels = std::move(c->labels);
}

Json cellsJson(const odp::OdpGuarantee &g, const char *key)
{
    Json cells = Json::array();
    for (const auto &c : g.cells)
        cells.push_back({{key, c.id}, {"epsilon", c.epsilon}});
    return cells;
}

} // namespace

int svt(const std::vector<std::string> &args, std::ostream &out)
{
    const Options o
        = parseOrExit(args, {"--threshold", "--c", "--epsilon", "--column", "--dataset", "--svt-share",
                             "--sensitivity", "--epsilon1", "--epsilon2", "--seed"});
    if (printHelp(o, out, kSvtUsage))
        return 0;
    const double threshold = requiredNumber(o, "--threshold");
    const std::int64_t c = integer(o, "--c", -1);
    if (!o.has("--c"))
        throw Exit{2, "--c is required (see --help)"};
    const double epsilon = requiredNumber(o, "--epsilon");
    const double share = number(o, "--svt-share", 0.5);
    if (!(share > 0.0 && share < 1.0))
        throw Exit{1, "--svt-share must lie in (0, 1)"};
    if (c < 1 || c > 1000000)
        throw Exit{1, "--c must be an integer in [1, 10^6]"};
    if (!(epsilon > 0.0))
        throw Exit{1, "--epsilon must be > 0"};
    if (std::abs(threshold) > 1e15 || threshold != std::floor(threshold))
        throw Exit{1, "--threshold must be a whole number (the counts are integers)"};
    odp::SvtParameters p;
    p.cutoff = static_cast<int>(c);
    p.sensitivity = number(o, "--sensitivity", 1.0);
    if (o.has("--epsilon1") != o.has("--epsilon2"))
        throw Exit{2, "--epsilon1 and --epsilon2 go together"};
    if (o.has("--epsilon1")) {
        p.epsilon1 = number(o, "--epsilon1", 0.0);
        p.epsilon2 = number(o, "--epsilon2", 0.0);
    } else {
        const auto split = valueOrExit(odp::lyuSplit(epsilon * share, p.cutoff));
        p.epsilon1 = split.epsilon1;
        p.epsilon2 = split.epsilon2;
    }
    const auto guarantee = valueOrExit(odp::svtGuarantee(p));
    const data::Table table = loadTable(o);
    const data::Rows rows = publicRowsOrExit(table, "svt");
    std::vector<std::int64_t> counts;
    std::vector<std::string> labels;
    columnCounts(rows, o.value("--column").value_or("education"), counts, labels);
    auto bits = randomSource(o);
    const auto run = valueOrExit(
        odp::releaseLargeEntries(counts, static_cast<std::int64_t>(threshold), p, epsilon, *bits));
    const double epsilonRelease = epsilon - (p.epsilon1 + p.epsilon2);
    Json releases = Json::array();
    for (std::size_t k = 0; k < run.flagged.size(); ++k)
        releases.push_back(
            {{"index", run.flagged[k]}, {"label", labels[run.flagged[k]]}, {"value", run.released[k]}});
    Json answers = Json::array();
    for (bool a : run.answers)
        answers.push_back(a);
    Json doc = {
        {"mechanism", "svt"},
        {"epsilon", epsilon},
        {"epsilon1", p.epsilon1},
        {"epsilon2", p.epsilon2},
        {"c", p.cutoff},
        {"sensitivity", p.sensitivity},
        {"threshold", threshold},
        {"answers", answers},
        {"j", run.j},
        {"cost", run.svtCost},
        {"worst_epsilon", guarantee.worstEpsilon()},
        {"cells", cellsJson(guarantee, "j")},
        {"releases", releases},
        {"release_scale", run.releaseScale},
        {"release_epsilon", run.releaseEpsilon},
        {"dp_release_scale", odp::releaseScale(odp::ReleaseAnalysis::Dp, p, epsilonRelease, p.cutoff)},
        {"epsilon_spent", run.svtCost + run.releaseEpsilon},
        {"epsilon_returned", std::max(0.0, epsilon - run.svtCost - run.releaseEpsilon)},
        {"noise", bits->isReproducible() ? "seeded (teaching; not for release)" : "operating-system CSPRNG"}};
    emit(o, doc, {}, out);
    return 0;
}

int svtFigure(const std::vector<std::string> &args, std::ostream &out)
{
    const Options o = parseOrExit(args, {"--entries", "--large", "--threshold", "--c", "--epsilon",
                                         "--svt-share", "--sensitivity", "--counts", "--mc", "--seed"});
    if (printHelp(o, out, kFigureUsage))
        return 0;
    const auto entries = integer(o, "--entries", 100);
    const double big = number(o, "--large", 1000.0);
    const double threshold = number(o, "--threshold", 500.0);
    const auto c = integer(o, "--c", 10);
    const double epsilon = number(o, "--epsilon", 1.0);
    const double share = number(o, "--svt-share", 0.5);
    const auto mc = integer(o, "--mc", 0);
    if (entries < 1 || entries > 100000)
        throw Exit{1, "--entries must lie in [1, 100000]"};
    if (c < 1 || c > 10000)
        throw Exit{1, "--c must lie in [1, 10000]"};
    if (!(share > 0.0 && share < 1.0) || !(epsilon > 0.0))
        throw Exit{1, "--epsilon must be > 0 and --svt-share in (0, 1)"};
    if (mc < 0 || mc > 10000000)
        throw Exit{1, "--mc must lie in [0, 10^7]"};
    const auto split = valueOrExit(odp::lyuSplit(epsilon * share, static_cast<int>(c)));
    const odp::SvtParameters p{split.epsilon1, split.epsilon2, static_cast<int>(c),
                               number(o, "--sensitivity", 1.0)};
    const double epsilonRelease = epsilon * (1.0 - share);
    const auto counts = numberList(o, "--counts", {0, 1, 2, 3, 5, 8, 10, 12, 15, 20});
    std::unique_ptr<mechanisms::RandomBits> bits;
    if (mc > 0)
        bits = randomSource(o);
    Json rows = Json::array();
    std::string csv = "L,p_nothing,expected_j,dp_std,filter_std,odp_std,odp_std_if_exact";
    csv += mc > 0 ? ",mc_odp_std,mc_se\n" : "\n";
    for (double l : counts) {
        if (l != std::floor(l) || l < 0 || l > static_cast<double>(entries))
            throw Exit{1, "--counts: each L must be a whole number in [0, entries]"};
        const auto row = valueOrExit(odp::svtFigureRow(static_cast<int>(entries), static_cast<int>(l), big,
                                                       threshold, p, epsilonRelease));
        Json r
            = {{"L", row.large},
               {"p_nothing", row.pNothing},
               {"expected_j", row.expectedJ},
               {"dp_std", row.dpStd},
               {"filter_std", row.filterStd},
               {"odp_std", row.odpStd},
               {"odp_std_if_exact", std::isnan(row.odpStdIfExact) ? Json(nullptr) : Json(row.odpStdIfExact)}};
        Json pmf = Json::array();
        for (double q : row.pmf)
            pmf.push_back(q);
        r["pmf"] = pmf;
        csv += std::to_string(row.large) + "," + csvNumber(row.pNothing) + "," + csvNumber(row.expectedJ)
               + "," + csvNumber(row.dpStd) + "," + csvNumber(row.filterStd) + "," + csvNumber(row.odpStd)
               + "," + (std::isnan(row.odpStdIfExact) ? std::string() : csvNumber(row.odpStdIfExact));
        if (mc > 0) {
            const auto e = valueOrExit(odp::svtFigureMonteCarlo(static_cast<int>(entries),
                                                                static_cast<int>(l), big, threshold, p,
                                                                epsilonRelease, static_cast<int>(mc), *bits));
            r["mc_odp_std"] = e.mean;
            r["mc_se"] = e.standardError;
            csv += "," + csvNumber(e.mean) + "," + csvNumber(e.standardError);
        }
        csv += "\n";
        rows.push_back(r);
    }
    Json doc = {{"entries", entries},
                {"large", big},
                {"threshold", threshold},
                {"c", c},
                {"epsilon", epsilon},
                {"epsilon1", p.epsilon1},
                {"epsilon2", p.epsilon2},
                {"epsilon_release", epsilonRelease},
                {"rows", rows}};
    emit(o, doc, csv, out);
    return 0;
}

int iqr(const std::vector<std::string> &args, std::ostream &out)
{
    const Options o
        = parseOrExit(args, {"--neighbours", "--column", "--where", "--dataset", "--epsilon", "--delta-f",
                             "--mode", "--order", "--accounting", "--width", "--seed"});
    if (printHelp(o, out, kIqrUsage))
        return 0;
    const std::string neighbours = choice(o, "--neighbours", "add-remove", {"add-remove", "replace"});
    const std::string mode = choice(o, "--mode", "noisy", {"noisy", "bin"});
    const std::string order = choice(o, "--order", "random", {"random", "fixed"});
    const std::string accounting
        = choice(o, "--accounting", "entries", {"entries", "lemma10", "cells3", "dp"});
    if (neighbours != "replace")
        throw Exit{1, "PTR-IQR needs the replace-one relation (n public): pass --neighbours replace"};
    const double epsilon = number(o, "--epsilon", 0.5);
    const double deltaF = number(o, "--delta-f", 1e-6);
    const data::Table table = loadTable(o);
    // Public data only: n, γ and the pass probabilities below are computed from the rows, and with
    // --where the subgroup's size (hence the bin width and quartile ranks) depends on them too.
    const data::Rows rows = publicRowsOrExit(table, "iqr");
    const std::string column = o.value("--column").value_or("wage");
    const auto col = table.columnIndex(column);
    if (!col)
        throw Exit{1, "--column: unknown column '" + column + "'"};
    const auto &info = table.columnInfo(*col);
    if (info.type != data::ColumnType::Numeric || !info.declaredBounds)
        throw Exit{1, "--column: '" + column + "' must be numeric with declared bounds"};
    const auto predicate
        = valueOrExit(data::Predicate::compile(o.value("--where").value_or(""), table), "--where");
    std::vector<std::uint8_t> mask;
    predicate.evaluate(rows, mask);
    std::vector<double> values;
    for (std::size_t i = 0; i < rows.rowCount(); ++i)
        if (mask[i])
            values.push_back(rows.numeric(*col)[i]);
    const auto data = valueOrExit(
        odp::IqrData::create(std::move(values), info.declaredBounds->lower, info.declaredBounds->upper));
    odp::PtrIqrParameters p;
    p.epsilon = epsilon;
    p.failureProbability = deltaF;
    p.width = number(o, "--width", 0.0);
    p.mode = mode == "bin" ? odp::IqrReleaseMode::Bin : odp::IqrReleaseMode::Noisy;
    p.randomOrder = order == "random";
    auto bits = randomSource(o);
    const auto run = valueOrExit(odp::runPtrIqr(data, p, *bits));
    const std::map<std::string, odp::PtrAccounting> kinds{{"entries", odp::PtrAccounting::Entries},
                                                          {"lemma10", odp::PtrAccounting::Lemma10},
                                                          {"cells3", odp::PtrAccounting::Cells3},
                                                          {"dp", odp::PtrAccounting::Dp}};
    Json costs = Json::object();
    for (const auto &[name, kind] : kinds) {
        const auto cc = odp::ptrCaseCosts(kind, p.mode, epsilon, run.failureProbability);
        costs[name] = {{"epsilon", {cc.epsilon[0], cc.epsilon[1], cc.epsilon[2]}},
                       {"delta", {cc.delta[0], cc.delta[1], cc.delta[2]}},
                       {"worst_epsilon", cc.worstEpsilon},
                       {"admission_delta", cc.admissionDelta}};
    }
    const auto chosen = odp::ptrCaseCosts(kinds.at(accounting), p.mode, epsilon, run.failureProbability);
    Json doc
        = {{"mechanism", "ptr-iqr"},
           {"n", data.size()},
           {"epsilon", epsilon},
           {"width", run.width},
           {"t", run.threshold},
           {"delta_f", run.failureProbability},
           {"offsets", {run.offsets[0], run.offsets[1]}},
           {"gamma", {run.gamma[0], run.gamma[1]}},
           {"pass_probability",
            {odp::ptrPassProbability(static_cast<double>(run.gamma[0]), epsilon, run.threshold),
             odp::ptrPassProbability(static_cast<double>(run.gamma[1]), epsilon, run.threshold)}},
           {"case", run.outcome},
           {"output", run.released ? Json(*run.released) : Json(nullptr)},
           {"accounting", accounting},
           {"cost", chosen.epsilon[run.outcome - 1]},
           {"delta", chosen.delta[run.outcome - 1]},
           {"costs", costs},
           {"note", "teaching: gamma and pass_probability are computed from the data and are not private"}};
    emit(o, doc, {}, out);
    return 0;
}

int table1(const std::vector<std::string> &args, std::ostream &out)
{
    const Options o = parseOrExit(args, {"--eps0", "--delta"}, {"--companions"});
    if (printHelp(o, out, kTableUsage))
        return 0;
    const auto eps0 = numberList(o, "--eps0", {0.01, 0.05, 0.1, 0.25, 0.5, 1, 2});
    const auto deltas = numberList(o, "--delta", {1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9});
    const bool companions = o.has("--companions");
    Json rows = Json::array();
    std::string csv = companions ? "eps0,delta,k_min,kov_analytic,drv,ten_percent\n" : "eps0,delta,k_min\n";
    auto opt = [](const std::optional<std::int64_t> &k) { return k ? Json(*k) : Json("never"); };
    for (double e : eps0)
        for (double d : deltas) {
            const auto k = valueOrExit(odp::crossoverK(e, d));
            Json r
                = {{"eps0", e}, {"delta", d}, {"k_min", k}, {"first_rung_delta", odp::firstRungDelta(e, k)}};
            csv += csvNumber(e) + "," + csvNumber(d) + "," + std::to_string(k);
            if (companions) {
                const auto c = valueOrExit(odp::crossoverCompanions(e, d));
                r["kov_analytic"] = opt(c.kovAnalytic);
                r["drv"] = opt(c.drv);
                r["ten_percent"] = opt(c.tenPercent);
                auto s = [](const std::optional<std::int64_t> &k2) {
                    return k2 ? std::to_string(*k2) : std::string("never");
                };
                csv += "," + s(c.kovAnalytic) + "," + s(c.drv) + "," + s(c.tenPercent);
            }
            csv += "\n";
            rows.push_back(r);
        }
    emit(o, Json{{"table", "crossover"}, {"rows", rows}}, csv, out);
    return 0;
}

} // namespace pbx::cli::odpcli
