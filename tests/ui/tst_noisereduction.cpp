// SPDX-License-Identifier: MIT
// The noise-reduction view on CPS1988 with seeded noise: a Brownian noise reduction in the
// brownian-zcdp filter on a relative count shows one point and one error bar per released level,
// the acceptance threshold w(1+α)/α at each level, and the stopping level highlighted; the "paid"
// line shows the event's cost and the doubling baseline (Σ of each level's own cost). Laplace
// noise reduction (ex-post), doubling, a single release and a refusal get their own accounting.
// Screenshots of the view and of the main window with its dock raised.
#include "chartinspect.h"
#include "ui/charts/noisereductionchart.h"
#include "ui/charts/presentation.h"
#include "ui/mainwindow.h"
#include "ui/models/ledgermodel.h"
#include "ui/noisereduction/noisereductionview.h"
#include "ui/panels/querybuilder.h"
#include "ui/sessiondocument.h"
#include "ui/util/boundformat.h"
#include "ui/util/numberformat.h"
#include "ui/widgets/budgetgauge.h"
#include "uitestutils.h"

#include <QDockWidget>
#include <QLabel>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTableView>
#include <QtTest/QtTest>

#include <cmath>

using namespace pbx;
using pbx::ui::MainWindow;
using pbx::ui::NoiseReductionView;

namespace {

constexpr std::uint64_t kNoiseReductionSeed = 20240607;

std::unique_ptr<MainWindow> makeWindow(filters::FilterKind filter, double epsilon = 1.0,
                                       std::uint64_t seed = kNoiseReductionSeed)
{
    session::SessionSettings settings; // δ = 1e-6, add/remove
    settings.filter = filter;
    settings.epsilon = epsilon;
    settings.seed = seed;
    auto w = std::make_unique<MainWindow>();
    w->resize(1400, 900);
    if (auto opened = w->openDataset(QStringLiteral("cps1988")); !opened.ok())
        qFatal("cannot open cps1988: %s", opened.error().message.c_str());
    if (auto started = w->startNewSession(settings); !started.ok())
        qFatal("cannot start session: %s", started.error().message.c_str());
    return w;
}

/// The numbers after "= " in the paid line, in order, as shown.
QStringList paidNumbers(const NoiseReductionView &view)
{
    QStringList numbers;
    static const QRegularExpression number(QStringLiteral("= ([0-9][0-9.,e+\\-]*)"));
    auto it = number.globalMatch(view.paidText());
    while (it.hasNext())
        numbers << it.next().captured(1);
    return numbers;
}

double sumOfReleaseCosts(const session::LedgerEvent &event)
{
    double sum = 0.0;
    for (const auto &attempt : event.attempts)
        for (const auto &release : attempt.releases)
            sum += release.cost;
    return sum;
}

} // namespace

class TestNoiseReduction : public QObject
{
    Q_OBJECT

private:
    /// Asks a relative count with `mechanism` (unset: the filter's default) and returns the event.
    static session::LedgerEvent askRelativeCount(MainWindow &w, const QString &where, double alpha,
                                                 std::optional<session::ReleaseMethod> mechanism = {})
    {
        auto *builder = w.queryBuilder();
        builder->setAggregate(data::Aggregate::Count);
        builder->setWhere(where);
        builder->setRelativeTarget(alpha);
        if (!builder->setMechanism(mechanism))
            qFatal("mechanism not available");
        w.ask();
        return w.document()->session().events().back();
    }

    /// The view shows `event`: one point, bar and threshold per level, the stop highlighted.
    static void checkChartShowsLevels(const NoiseReductionView &view, const session::LedgerEvent &event)
    {
        const auto *chart = view.chart();
        const int levels = static_cast<int>(event.attempts.size());
        QCOMPARE(chart->pointCount(), levels);
        QCOMPARE(chart->errorBarCount(), levels);
        QCOMPARE(chart->thresholdPointCount(),
                 event.request.target.kind == session::TargetKind::Relative ? levels : 0);
        const auto stop = chart->stopPoint();
        QVERIFY(stop.has_value());
        QCOMPARE(stop->x(), event.attempts.back().releases.front().scale);
        QCOMPARE(stop->y(), event.attempts.back().estimate);
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void brownianInTheZcdpFilter()
    {
        auto w = makeWindow(filters::FilterKind::BrownianZcdp);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        const auto event = askRelativeCount(*w, QStringLiteral("region == \"midwest\""), 0.05);
        QCOMPARE(event.status, session::EventStatus::Released);
        QCOMPARE(event.mechanismName(), std::string("brownian"));
        QCOMPARE(event.costKind, filters::ChargeKind::Rho);
        QVERIFY2(event.attempts.size() >= 3, "expected several levels before the target is met");
        QVERIFY(event.targetMet);
        // Noisiest first: the scales shrink level by level.
        for (std::size_t k = 1; k < event.attempts.size(); ++k)
            QVERIFY(event.attempts[k].releases.front().scale < event.attempts[k - 1].releases.front().scale);

        // The new event is selected: the view shows it.
        auto *view = w->noiseReductionView();
        w->flushViews();
        QVERIFY(view->titleText().contains(QStringLiteral("q1")));
        checkChartShowsLevels(*view, event);
        QVERIFY(event.attempts.back().accepted);
        QVERIFY(view->summaryText().contains(QStringLiteral("%1 levels").arg(event.attempts.size())));
        // The last estimate clears its threshold w(1+α)/α; the one before does not.
        const auto &last = event.attempts.back();
        QVERIFY(last.estimate >= last.halfWidth * 1.05 / 0.05);

        // Paid: the event's cost, in ρ; the baseline pays every level's own cost.
        QCOMPARE(view->paidAmount(), std::optional<double>(event.cost));
        const QStringList numbers = paidNumbers(*view);
        QCOMPARE(numbers.size(), 1); // "ρ of the last level = X"
        QVERIFY2(view->paidText().startsWith(
                     QStringLiteral("paid: ρ of the last level = %1").arg(ui::formatBound(event.cost))),
                 qPrintable(view->paidText()));
        QCOMPARE(numbers.first(), ui::formatBound(event.cost));
        const double baseline = sumOfReleaseCosts(event);
        QVERIFY(view->baselineAmount().has_value());
        QVERIFY(qAbs(*view->baselineAmount() - baseline) <= 1e-12 * baseline);
        QVERIFY2(view->paidText().contains(QStringLiteral("would have paid %1 for the same levels")
                                               .arg(ui::formatBound(*view->baselineAmount()))),
                 qPrintable(view->paidText()));
        QVERIFY(*view->baselineAmount() > event.cost);
        QVERIFY(view->paidLabel()->toolTip().contains(QStringLiteral("fresh")));
        // The ρ charged telescopes to Δ²/(2σ²) of the stopping level (Δ = 1 for a count).
        const double sigma = last.releases.front().scale;
        QVERIFY(qAbs(event.cost - 1.0 / (2.0 * sigma * sigma)) <= 1e-9 * event.cost);

        // A second request, then back to the first through the ledger selection.
        askRelativeCount(*w, QStringLiteral("region == \"west\" and parttime == \"no\""), 0.1);
        w->flushViews();
        QVERIFY(view->titleText().contains(QStringLiteral("q2")));
        w->ledgerView()->selectRow(0);
        w->flushViews();
        QVERIFY(view->titleText().contains(QStringLiteral("q1")));
        checkChartShowsLevels(*view, event);

        w->noiseReductionDock()->raise();
        QTest::qWait(50);
        w->flushViews();
        QVERIFY(!test::saveScreenshot(*w, QStringLiteral("mainwindow_noisereduction")).isEmpty());

        NoiseReductionView standalone;
        standalone.setEvent(&event, filters::FilterKind::BrownianZcdp);
        standalone.resize(520, 480);
        standalone.show();
        QVERIFY(QTest::qWaitForWindowExposed(&standalone));
        standalone.flush();
        checkChartShowsLevels(standalone, event);
        QVERIFY(!test::saveScreenshot(standalone, QStringLiteral("noisereduction_brownian")).isEmpty());
    }

    void laplaceNoiseReductionIsExPost()
    {
        auto w = makeWindow(filters::FilterKind::ExPost);
        const auto event
            = askRelativeCount(*w, QStringLiteral("smsa == \"no\""), 0.05, session::ReleaseMethod::LaplaceNr);
        QCOMPARE(event.costKind, filters::ChargeKind::ExPost);
        // The ex-post filter's gauge says what its δ is for.
        QVERIFY(w->budgetGauge()->note().contains(QStringLiteral("Brownian")));
        QCOMPARE(w->budgetGauge()->spent(), event.cost);
        auto *view = w->noiseReductionView();
        w->flushViews();
        checkChartShowsLevels(*view, event);
        QVERIFY2(
            view->paidText().startsWith(
                QStringLiteral("paid: ex-post ε of the last level = %1").arg(ui::formatBound(event.cost))),
            qPrintable(view->paidText()));
        QCOMPARE(view->paidAmount(), std::optional<double>(event.cost));
        QVERIFY(*view->baselineAmount() >= event.cost);
        NoiseReductionView standalone;
        standalone.setEvent(&event, filters::FilterKind::ExPost);
        standalone.resize(520, 480);
        standalone.show();
        QVERIFY(QTest::qWaitForWindowExposed(&standalone));
        standalone.flush();
        QVERIFY(!test::saveScreenshot(standalone, QStringLiteral("noisereduction_laplace")).isEmpty());
    }

    /// The x axis' scale labels are never elided nor overlapping, however narrow the view (a
    /// dock at 1024×768 under a window manager gives the chart ~240 px for three decades of noise
    /// scales; 1-2-5 ticks read "2…", "1…" there), nor at the projector's presentation font.
    void scaleLabelsFitNarrowCharts()
    {
        // Lesson 1 step 2's small count: 24 levels from b ≈ 2,000 down to 1.23 (three decades).
        std::vector<ui::NoiseReductionChart::Level> levels;
        for (int i = 0; i < 24; ++i) {
            const double b = 1.23 * std::pow(1.0 / 0.72, 23 - i);
            levels.push_back({b, 190.0 + (i % 2 ? b : -b), b * std::log(20.0)});
        }
        QVERIFY(levels.front().scale > 1000.0);
        for (const bool presentation : {false, true}) {
            ui::Presentation::instance().setEnabled(presentation);
            // (presentation mode's larger text needs a chart of at least ~360 × 360)
            for (const int width :
                 presentation ? QList<int>{360, 480, 900} : QList<int>{260, 320, 480, 900}) {
                ui::NoiseReductionChart chart;
                chart.setLevels(levels, QStringLiteral("b"), 0.05);
                chart.resize(width, presentation ? 360 : 320);
                chart.show();
                QVERIFY(QTest::qWaitForWindowExposed(&chart));
                chart.flush();
                QTest::qWait(50);
                const QStringList problems = test::chartProblems(&chart);
                QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("presentation %1, %2 px: %3")
                                                            .arg(presentation)
                                                            .arg(width)
                                                            .arg(problems.join(u'\n'))));
            }
        }
        ui::Presentation::instance().setEnabled(false);
    }

    void doublingSingleAndRefused()
    {
        auto w = makeWindow(filters::FilterKind::Zcdp);
        auto *view = w->noiseReductionView();
        // Doubling (the zCDP filter's default for a relative count) pays every level.
        const auto doubling = askRelativeCount(*w, QStringLiteral("region == \"south\""), 0.1);
        QCOMPARE(doubling.mechanismName(), std::string("doubling-gaussian"));
        w->flushViews();
        checkChartShowsLevels(*view, doubling);
        QVERIFY2(
            view->paidText().startsWith(
                QStringLiteral("paid: every level (doubling), ρ = %1").arg(ui::formatBound(doubling.cost))),
            qPrintable(view->paidText()));
        QCOMPARE(view->paidAmount(), std::optional<double>(doubling.cost));

        // One calibrated Gaussian release: one point, no threshold (absolute target).
        auto *builder = w->queryBuilder();
        builder->setAbsoluteTarget(200.0);
        QVERIFY(builder->setMechanism(std::nullopt));
        w->ask();
        const auto single = w->document()->session().events().back();
        QCOMPARE(single.mechanismName(), std::string("gaussian"));
        w->flushViews();
        checkChartShowsLevels(*view, single);
        QVERIFY(view->paidText().startsWith(
            QStringLiteral("paid: one release, ρ = %1").arg(ui::formatBound(single.cost))));

        // A cap too small for any level: refused before any release, nothing to plot.
        builder->setRelativeTarget(0.01);
        builder->setMaxCost(1e-9);
        w->ask();
        const auto refused = w->document()->session().events().back();
        QCOMPARE(refused.status, session::EventStatus::Refused);
        QVERIFY(refused.attempts.empty());
        w->flushViews();
        QCOMPARE(view->chart()->pointCount(), 0);
        QVERIFY(!view->paidAmount().has_value());
        QVERIFY(!view->paidLabel()->isVisibleTo(view));
    }
};

QTEST_MAIN(TestNoiseReduction)
#include "tst_noisereduction.moc"
