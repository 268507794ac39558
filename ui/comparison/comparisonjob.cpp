// SPDX-License-Identifier: MIT
#include "ui/comparison/comparisonjob.h"

#include "core/accounting/evaluation.h"
#include "core/accounting/pld_accountant.h"
#include "core/accounting/rdp_accountant.h"
#include "core/privacy/rdp_conversion.h"
#include "ui/util/numberformat.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

namespace pbx::ui {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kProgressMax = 1000;

QString tr(const char *text)
{
    return QCoreApplication::translate("pbx::ui::ComparisonJob", text);
}

/// Progress on [0, 1000] over weighted phases; answers "stop?" for the core's callbacks.
class Progress
{
public:
    explicit Progress(QPromise<ComparisonResult> &promise) : m_promise(promise)
    {
        m_promise.setProgressRange(0, kProgressMax);
    }

    bool cancelled() const { return m_promise.isCanceled(); }

    /// Reports that `fraction` of the span [from, to] (per mille) is done.
    void report(double from, double to, double fraction, const QString &text)
    {
        const int value = static_cast<int>(from + (to - from) * std::clamp(fraction, 0.0, 1.0));
        if (value == m_value && text == m_text)
            return;
        m_value = std::max(m_value, value);
        m_text = text;
        m_promise.setProgressValueAndText(m_value, text);
    }

private:
    QPromise<ComparisonResult> &m_promise;
    int m_value = -1;
    QString m_text;
};

accounting::PldOptions pldOptions(double interval, bool optimistic,
                                  accounting::ProgressCallback progress)
{
    accounting::PldOptions o;
    o.interval = interval;
    o.optimistic = optimistic;
    o.progress = std::move(progress);
    return o;
}

/// The PMF of one direction rebinned to about `bins` bins over the range holding all but 1e-9
/// of the finite mass.
void histogram(const accounting::PldPmf &pmf, int bins, ComparisonResult &out)
{
    out.pldLoss.clear();
    out.pldMass.clear();
    out.pldInfinityMass = pmf.infinityMass;
    out.pldInterval = pmf.interval;
    const std::size_t n = pmf.probs.size();
    if (n == 0)
        return;
    double total = 0.0;
    for (double p : pmf.probs)
        total += p;
    const double cut = total * 5e-10;
    std::size_t lo = 0;
    for (double acc = 0.0; lo + 1 < n && acc + pmf.probs[lo] <= cut; ++lo)
        acc += pmf.probs[lo];
    std::size_t hi = n - 1;
    for (double acc = 0.0; hi > lo && acc + pmf.probs[hi] <= cut; --hi)
        acc += pmf.probs[hi];
    const std::size_t span = hi - lo + 1;
    const std::size_t per = std::max<std::size_t>(1, (span + static_cast<std::size_t>(bins) - 1)
                                                         / static_cast<std::size_t>(bins));
    out.pldBinWidth = static_cast<double>(per) * pmf.interval;
    for (std::size_t start = lo; start <= hi; start += per) {
        const std::size_t end = std::min(hi + 1, start + per);
        double mass = 0.0;
        for (std::size_t j = start; j < end; ++j)
            mass += pmf.probs[j];
        // The bin [ℓ_start, ℓ_start + per·d): plotted at its centre.
        out.pldLoss.push_back(pmf.lossAt(start) + 0.5 * static_cast<double>(per - 1) * pmf.interval);
        out.pldMass.push_back(mass);
    }
}

} // namespace

accounting::Ledger ledgerPrefix(const accounting::Ledger &ledger, std::int64_t steps)
{
    accounting::Ledger prefix;
    prefix.neighbours = ledger.neighbours;
    for (const auto &e : ledger.events) {
        if (steps <= 0)
            break;
        prefix.events.push_back(e);
        prefix.events.back().count = std::min(e.count, steps);
        steps -= prefix.events.back().count;
    }
    return prefix;
}

void runComparison(QPromise<ComparisonResult> &promise, const ComparisonInput &input)
{
    QElapsedTimer clock;
    clock.start();
    Progress progress(promise);
    ComparisonResult result;
    if (auto valid = accounting::validateLedger(input.ledger); !valid) {
        result.error = toQString(valid.error().message);
        promise.addResult(result);
        return;
    }

    const std::vector<std::string> names = accounting::allStrategyNames();
    const double nStrategies = static_cast<double>(names.size());
    // Phases (per mille): strategies 0–400 (the PLD and a heterogeneous optimal dominate),
    // profile/RDP/histogram 400–450, ε(k) 450–1000; without prefixes the first two stretch.
    const bool curves = !input.prefixes.empty();
    const double strategiesEnd = curves ? 400.0 : 900.0;
    const double summaryEnd = curves ? 450.0 : 1000.0;

    std::vector<std::unique_ptr<accounting::CompositionStrategy>> built(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (progress.cancelled())
            return;
        const double from = strategiesEnd * static_cast<double>(i) / nStrategies;
        const double to = strategiesEnd * static_cast<double>(i + 1) / nStrategies;
        const QString label = tr("Accounting: %1").arg(toQString(names[i]));
        progress.report(from, to, 0.0, label);
        const auto onCore = [&](std::int64_t done, std::int64_t total) {
            progress.report(from, to, total > 0 ? static_cast<double>(done) / static_cast<double>(total) : 0.0,
                            tr("Accounting: %1 (%2 of %3 groups)").arg(toQString(names[i])).arg(done).arg(total));
            return !progress.cancelled();
        };
        StrategyOutcome outcome;
        outcome.name = toQString(names[i]);
        auto strategy = accounting::makeStrategy(names[i], input.ledger,
                                                 pldOptions(input.pldInterval, true, onCore));
        if (!strategy) {
            if (strategy.error().code == ErrorCode::Cancelled || progress.cancelled())
                return;
            outcome.reason = toQString(strategy.error().message);
            result.strategies.push_back(outcome);
            continue;
        }
        auto atDelta = strategy.value()->epsilonForDelta(input.delta);
        auto answer = input.epsilonAtDelta ? atDelta : strategy.value()->deltaForEpsilon(input.epsilon);
        if (!atDelta || !answer) {
            outcome.reason = toQString((!answer ? answer : atDelta).error().message);
            result.strategies.push_back(outcome);
            continue;
        }
        outcome.applicable = true;
        outcome.answer = answer.value();
        outcome.epsilonAtDelta = atDelta->epsilon;
        result.strategies.push_back(outcome);
        built[i] = std::move(strategy.value());
    }

    // The δ(ε) profile over [0, ε_max]: a few times the smallest finite ε at δ, and far enough
    // to show the queried ε.
    progress.report(strategiesEnd, summaryEnd, 0.0, tr("Privacy profile δ(ε)"));
    double smallest = std::numeric_limits<double>::infinity();
    for (const auto &s : result.strategies)
        if (s.applicable && std::isfinite(s.epsilonAtDelta) && s.epsilonAtDelta > 0.0)
            smallest = std::min(smallest, s.epsilonAtDelta);
    double epsilonMax = std::isfinite(smallest) ? 2.5 * smallest : 2.0;
    if (!input.epsilonAtDelta)
        epsilonMax = std::max(epsilonMax, 1.5 * input.epsilon);
    const int points = std::max(8, input.profilePoints);
    for (int j = 0; j < points; ++j)
        result.profileEpsilons.push_back(epsilonMax * j / (points - 1));
    result.profileDeltas.assign(names.size(), std::vector<double>(result.profileEpsilons.size(), kNaN));
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (!built[i])
            continue;
        for (std::size_t j = 0; j < result.profileEpsilons.size(); ++j) {
            auto d = built[i]->deltaForEpsilon(result.profileEpsilons[j]);
            if (d)
                result.profileDeltas[i][j] = d->delta;
        }
        if (progress.cancelled())
            return;
    }

    // The RDP curve and what each order alone would certify.
    const auto indexOf = [&](const char *name) {
        return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
    };
    const std::size_t rdpIndex = indexOf("rdp");
    const std::size_t pldIndex = indexOf("pld");
    if (auto *rdp = rdpIndex < built.size()
                        ? dynamic_cast<const accounting::RdpAccountant *>(built[rdpIndex].get())
                        : nullptr) {
        result.rdpOrders = rdp->orders();
        result.rdpValues = rdp->rdp();
        for (std::size_t j = 0; j < result.rdpOrders.size(); ++j) {
            auto e = privacy::epsilonFromRdp({result.rdpOrders[j]}, {result.rdpValues[j]}, input.delta);
            result.rdpEpsilonByOrder.push_back(e ? e->value : kNaN);
        }
        result.rdpOptimalOrder = result.strategies[rdpIndex].answer.optimalOrder.value_or(0.0);
        if (!input.epsilonAtDelta) { // the table's order is for δ(ε); the chart is at δ
            auto e = privacy::epsilonFromRdp(result.rdpOrders, result.rdpValues, input.delta);
            result.rdpOptimalOrder = e ? e->optimalOrder : 0.0;
        }
    }

    // The PLD as a histogram: the direction with the larger δ at the PLD's ε.
    if (auto *pld = pldIndex < built.size()
                        ? dynamic_cast<const accounting::PldAccountant *>(built[pldIndex].get())
                        : nullptr) {
        const double eps = result.strategies[pldIndex].epsilonAtDelta;
        const double probe = std::isfinite(eps) ? eps : 0.0;
        const bool add = accounting::pmfDeltaForEpsilon(pld->pessimisticAdd(), probe)
                         > accounting::pmfDeltaForEpsilon(pld->pessimisticRemove(), probe);
        result.pldAddDirection = add;
        histogram(add ? pld->pessimisticAdd() : pld->pessimisticRemove(), input.histogramBins, result);
    }
    result.seconds = static_cast<double>(clock.elapsed()) / 1000.0;
    if (progress.cancelled())
        return;
    progress.report(strategiesEnd, summaryEnd, 1.0, tr("Privacy profile δ(ε)"));
    promise.addResult(result);
    if (!curves)
        return;

    // ε(k) at δ over the prefixes. The PLD without its optimistic twin (only the upper bound
    // is drawn); the whole ledger's values are reused for the last prefix when the grid is the
    // table's.
    result.stage = ComparisonResult::Complete;
    const double prefixInterval = input.prefixPldInterval > 0.0 ? input.prefixPldInterval : input.pldInterval;
    const bool reuseWhole = prefixInterval == input.pldInterval;
    result.prefixPldInterval = prefixInterval;
    const std::int64_t totalSteps = [&] {
        std::int64_t s = 0;
        for (const auto &e : input.ledger.events)
            s += e.count;
        return s;
    }();
    const double nPrefixes = static_cast<double>(input.prefixes.size());
    result.prefixEpsilons.assign(names.size(), {});
    for (std::size_t p = 0; p < input.prefixes.size(); ++p) {
        const auto &point = input.prefixes[p];
        result.prefixX.push_back(point.x);
        const double from = summaryEnd + (kProgressMax - summaryEnd) * static_cast<double>(p) / nPrefixes;
        const double to = summaryEnd + (kProgressMax - summaryEnd) * static_cast<double>(p + 1) / nPrefixes;
        const QString label = tr("ε(k): prefix %1 of %2").arg(p + 1).arg(input.prefixes.size());
        if (point.steps >= totalSteps && reuseWhole) {
            for (std::size_t i = 0; i < names.size(); ++i)
                result.prefixEpsilons[i].push_back(built[i] ? result.strategies[i].epsilonAtDelta : kNaN);
            progress.report(from, to, 1.0, label);
            continue;
        }
        const accounting::Ledger prefix = ledgerPrefix(input.ledger, point.steps);
        for (std::size_t i = 0; i < names.size(); ++i) {
            if (progress.cancelled())
                return;
            progress.report(from, to, static_cast<double>(i) / nStrategies, label);
            const auto onCore = [&](std::int64_t, std::int64_t) { return !progress.cancelled(); };
            double value = kNaN;
            if (prefix.events.empty()) {
                value = 0.0;
            } else if (auto s = accounting::makeStrategy(names[i], prefix,
                                                         pldOptions(prefixInterval, false, onCore))) {
                if (auto a = s.value()->epsilonForDelta(input.delta))
                    value = a->epsilon;
            } else if (s.error().code == ErrorCode::Cancelled) {
                return;
            }
            result.prefixEpsilons[i].push_back(value);
        }
    }
    result.seconds = static_cast<double>(clock.elapsed()) / 1000.0;
    progress.report(0, kProgressMax, 1.0, tr("Done"));
    promise.addResult(result);
}

QFuture<ComparisonResult> startComparison(const ComparisonInput &input)
{
    return QtConcurrent::run(
        [](QPromise<ComparisonResult> &promise, ComparisonInput in) { runComparison(promise, in); },
        input);
}

} // namespace pbx::ui
