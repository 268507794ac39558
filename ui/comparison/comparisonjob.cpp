// SPDX-License-Identifier: MIT
#include "ui/comparison/comparisonjob.h"

#include "ui/util/numberformat.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>

namespace pbx::ui {

namespace {

constexpr int kProgressMax = 1000;

QString tr(const char *text)
{
    return QCoreApplication::translate("pbx::ui::ComparisonJob", text);
}

QString progressText(const accounting::ComparisonProgress &p)
{
    using Phase = accounting::ComparisonProgress::Phase;
    switch (p.phase) {
    case Phase::Strategy:
        return p.total > 0 ? tr("Accounting: %1 (%2 of %3 groups)")
                                 .arg(toQString(p.strategy))
                                 .arg(p.done)
                                 .arg(p.total)
                           : tr("Accounting: %1").arg(toQString(p.strategy));
    case Phase::Profile:
        return tr("Privacy profile δ(ε)");
    case Phase::Prefixes:
        return tr("ε(k): prefix %1 of %2").arg(p.done).arg(p.total);
    case Phase::Done:
        break;
    }
    return tr("Done");
}

/// The table's rows: the core's results with Qt strings.
std::vector<StrategyOutcome> outcomes(const accounting::Comparison &comparison)
{
    std::vector<StrategyOutcome> rows;
    for (const auto &s : comparison.strategies) {
        StrategyOutcome o;
        o.name = toQString(s.name);
        o.applicable = s.applicable();
        if (s.answer)
            o.answer = *s.answer;
        else if (s.error)
            o.reason = toQString(s.error->message);
        o.epsilonAtDelta = s.epsilonAtDelta;
        o.perStep = s.perStep;
        rows.push_back(std::move(o));
    }
    return rows;
}

} // namespace

std::optional<ComparisonInput> previewInput(const ComparisonInput &input)
{
    if (!(input.pldInterval * 10.0 <= kPreviewPldInterval * (1.0 + 1e-9)))
        return std::nullopt;
    ComparisonInput coarse = input;
    coarse.pldInterval = kPreviewPldInterval;
    coarse.pldOptimistic = false; // the bracket's lower end waits for the chosen grid
    coarse.prefixPldInterval
        = input.prefixPldInterval > 0.0 ? std::max(input.prefixPldInterval, kPreviewPldInterval) : 0.0;
    return coarse;
}

void runComparison(QPromise<ComparisonResult> &promise, const ComparisonInput &input)
{
    QElapsedTimer clock;
    clock.start();
    promise.setProgressRange(0, kProgressMax);
    int value = -1;
    QString text;
    const auto onProgress = [&](const accounting::ComparisonProgress &p) {
        const int v = static_cast<int>(std::lround(kProgressMax * p.fraction));
        const QString t = progressText(p);
        if (v != value || t != text) {
            value = std::max(value, v);
            text = t;
            promise.setProgressValueAndText(value, text);
        }
        return !promise.isCanceled();
    };
    const auto result = [&](const accounting::Comparison &comparison, ComparisonResult::Stage stage) {
        ComparisonResult r;
        r.stage = stage;
        r.strategies = outcomes(comparison);
        r.comparison = comparison;
        r.seconds = static_cast<double>(clock.elapsed()) / 1000.0;
        return r;
    };
    const std::optional<ComparisonInput> preview = previewInput(input);
    if (preview) {
        // The preview's progress is not shown (it takes tens of milliseconds); an error it meets
        // the chosen grid meets too, and is reported from there.
        const auto previewProgress
            = [&](const accounting::ComparisonProgress &) { return !promise.isCanceled(); };
        const auto coarse = accounting::compareStrategies(preview->ledger, *preview, previewProgress, {});
        if (promise.isCanceled())
            return;
        if (coarse)
            promise.addResult(result(coarse.value(), ComparisonResult::Preview));
    }
    const auto onSummary = [&](const accounting::Comparison &summary) {
        if (!promise.isCanceled() && !preview)
            promise.addResult(result(summary, ComparisonResult::Summary));
    };

    auto comparison = accounting::compareStrategies(input.ledger, input, onProgress, onSummary);
    if (!comparison) {
        if (comparison.error().code == ErrorCode::Cancelled || promise.isCanceled())
            return;
        ComparisonResult failed;
        failed.error = toQString(comparison.error().message);
        promise.addResult(failed);
        return;
    }
    if (promise.isCanceled())
        return;
    promise.addResult(result(comparison.value(), input.prefixes.empty() ? ComparisonResult::Summary
                                                                        : ComparisonResult::Complete));
}

QFuture<ComparisonResult> startComparison(const ComparisonInput &input)
{
    return QtConcurrent::run(
        [](QPromise<ComparisonResult> &promise, ComparisonInput in) { runComparison(promise, in); }, input);
}

} // namespace pbx::ui
