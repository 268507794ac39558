// SPDX-License-Identifier: MIT
// The unified filter in the main window on CPS1988 with seeded noise: the split is a setting
// (locked after the first request), the gauge and the path chart show both systems — the zCDP
// side in ρ and the ex-post side in ε — plus the total ε, and each moves only when its own side
// pays: a Laplace noise reduction moves the ex-post side, a Gaussian release the zCDP side. The
// ledger and the result card give each cost in its own unit. Screenshots of the window and gauge.
#include "ui/charts/privacylosspathchart.h"
#include "ui/mainwindow.h"
#include "ui/models/ledgermodel.h"
#include "ui/panels/querybuilder.h"
#include "ui/panels/sessionpanel.h"
#include "ui/sessiondocument.h"
#include "ui/util/boundformat.h"
#include "ui/util/numberformat.h"
#include "ui/widgets/budgetgauge.h"
#include "ui/widgets/columnfitter.h"
#include "ui/widgets/resultcard.h"
#include "uitestutils.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTableView>
#include <QtTest/QtTest>

using namespace pbx;
using pbx::ui::BudgetGauge;
using pbx::ui::LedgerModel;
using pbx::ui::MainWindow;

namespace {

session::SessionSettings unifiedSettings()
{
    session::SessionSettings s; // ε = 1, δ = 1e-6, add/remove
    s.filter = filters::FilterKind::Unified;
    s.seed = 20240611;
    return s;
}

std::unique_ptr<MainWindow> makeGaugeWindow(const session::SessionSettings &settings)
{
    auto w = std::make_unique<MainWindow>();
    w->resize(1400, 900);
    if (auto opened = w->openDataset(QStringLiteral("cps1988")); !opened.ok())
        qFatal("cannot open cps1988: %s", opened.error().message.c_str());
    if (auto started = w->startNewSession(settings); !started.ok())
        qFatal("cannot start session: %s", started.error().message.c_str());
    return w;
}

} // namespace

class TestUnifiedGauge : public QObject
{
    Q_OBJECT

private:
    /// The filter's two systems now: zCDP side first, then the ex-post side.
    static std::vector<filters::BudgetSystem> systems(const MainWindow &w)
    {
        return w.document()->session().filter().systems();
    }

    /// The gauge shows exactly what the filter has spent on each side and in total.
    static void checkGaugeMatchesFilter(const MainWindow &w)
    {
        const auto s = systems(w);
        QCOMPARE(s.size(), std::size_t{2});
        const BudgetGauge *gauge = w.budgetGauge();
        QVERIFY(gauge->hasSecondSystem());
        QCOMPARE(gauge->nativeBudget(), s[0].budget);
        QCOMPARE(gauge->spent(), s[0].spent);
        QCOMPARE(gauge->secondBudget(), s[1].budget);
        QCOMPARE(gauge->secondSpent(), s[1].spent);
        QCOMPARE(gauge->epsilonSpent(), w.document()->session().filter().epsilonSpent());
        const QString readout = gauge->readout();
        QVERIFY2(readout.contains(QStringLiteral("zCDP side ρ spent %1").arg(ui::formatBound(s[0].spent))),
                 qPrintable(readout));
        QVERIFY2(readout.contains(QStringLiteral("ex-post side ε spent %1").arg(ui::formatBound(s[1].spent))),
                 qPrintable(readout));
        QVERIFY2(
            readout.contains(
                QStringLiteral("gauge: spent so far ≈ ε %1").arg(ui::formatBound(gauge->epsilonSpent()))),
            qPrintable(readout));
    }

    static void useMechanism(MainWindow &w, session::ReleaseMethod kind)
    {
        QVERIFY(w.queryBuilder()->setMechanism(kind));
        QCOMPARE(w.queryBuilder()->request().mechanism, std::optional<session::ReleaseMethod>(kind));
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void splitIsASettingUntilTheFirstRequest()
    {
        auto w = makeGaugeWindow(unifiedSettings());
        auto *panel = w->sessionPanel();
        QVERIFY(panel->expostEpsilonShareSpinBox()->isVisibleTo(panel));
        QCOMPARE(panel->expostEpsilonShareSpinBox()->value(), 5.0); // Brownian NR is routed
        QCOMPARE(panel->expostDeltaShareSpinBox()->value(), 5.0);
        // 40 % of ε to the ex-post side: a new session with that split.
        panel->expostEpsilonShareSpinBox()->setValue(40.0);
        QCOMPARE(w->document()->settings().split.expostEpsilonShare, 0.4);
        const auto s = systems(*w);
        QVERIFY(qAbs(s[1].budget - 0.4) < 1e-12);
        QVERIFY(qAbs(s[0].epsilonBudget - 0.6) < 1e-12);
        QCOMPARE(w->budgetGauge()->secondBudget(), s[1].budget);
        // The budget text explains both sides.
        const QString text = panel->budgetText();
        QVERIFY2(text.contains(ui::formatNumber(s[0].budget)), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("ε<sub>e</sub> = %1").arg(ui::formatNumber(s[1].budget))),
                 qPrintable(text));

        // Other filters hide the split.
        panel->filterComboBox()->setCurrentIndex(
            panel->filterComboBox()->findData(static_cast<int>(filters::FilterKind::Zcdp)));
        QVERIFY(!panel->expostEpsilonShareSpinBox()->isVisibleTo(panel));
        QVERIFY(!w->budgetGauge()->hasSecondSystem());
        QVERIFY(!w->pathChart()->showsExPost());
        panel->filterComboBox()->setCurrentIndex(
            panel->filterComboBox()->findData(static_cast<int>(filters::FilterKind::Unified)));
        QVERIFY(w->budgetGauge()->hasSecondSystem());

        // After a request the split is locked.
        w->queryBuilder()->setAbsoluteTarget(300.0);
        w->ask();
        QCOMPARE(w->ledgerModel()->rowCount(), 1);
        QVERIFY(!panel->expostEpsilonShareSpinBox()->isEnabled());
        QVERIFY(!panel->expostDeltaShareSpinBox()->isEnabled());
    }

    void mechanismComboFollowsTheFilter()
    {
        auto w = makeGaugeWindow(unifiedSettings());
        auto *builder = w->queryBuilder();
        auto *combo = builder->mechanismComboBox();
        auto *model = qobject_cast<QStandardItemModel *>(combo->model());
        QVERIFY(model);
        const auto item = [&](session::ReleaseMethod kind) {
            return model->item(combo->findData(static_cast<int>(kind)));
        };
        builder->setAggregate(data::Aggregate::Count);
        builder->setRelativeTarget(0.1);
        // Relative count on the unified filter: the default is Brownian noise reduction; single
        // releases need an absolute target.
        QVERIFY(combo->itemText(0).contains(QStringLiteral("Brownian")));
        QVERIFY(item(session::ReleaseMethod::LaplaceNr)->isEnabled());
        QVERIFY(!item(session::ReleaseMethod::Gaussian)->isEnabled());
        QVERIFY(!item(session::ReleaseMethod::Gaussian)->toolTip().isEmpty());
        QCOMPARE(builder->capUnit(), QStringLiteral("ρ or ex-post ε"));
        // Absolute count: the default is one Gaussian release, paid in ρ.
        builder->setAbsoluteTarget(200.0);
        QVERIFY(combo->itemText(0).contains(QStringLiteral("Gaussian")));
        QVERIFY(item(session::ReleaseMethod::Gaussian)->isEnabled());
        QCOMPARE(builder->capUnit(), QStringLiteral("ρ"));
        // Plain zCDP cannot account Laplace noise reduction: disabled, with the reason.
        w->sessionPanel()->filterComboBox()->setCurrentIndex(
            w->sessionPanel()->filterComboBox()->findData(static_cast<int>(filters::FilterKind::Zcdp)));
        builder->setRelativeTarget(0.1);
        QVERIFY(!item(session::ReleaseMethod::LaplaceNr)->isEnabled());
        QVERIFY2(item(session::ReleaseMethod::LaplaceNr)->toolTip().contains(QStringLiteral("unified")),
                 qPrintable(item(session::ReleaseMethod::LaplaceNr)->toolTip()));
        QVERIFY(!builder->setMechanism(session::ReleaseMethod::LaplaceNr));
        QVERIFY(combo->itemText(0).contains(QStringLiteral("doubling"), Qt::CaseInsensitive));
    }

    void bothSystemsAppearAndUpdate()
    {
        auto w = makeGaugeWindow(unifiedSettings());
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        auto *builder = w->queryBuilder();
        auto *model = w->ledgerModel();
        checkGaugeMatchesFilter(*w);
        QCOMPARE(w->budgetGauge()->spent(), 0.0);
        QCOMPARE(w->budgetGauge()->secondSpent(), 0.0);
        QVERIFY(w->pathChart()->showsExPost());
        w->flushViews(); // the chart's legend follows after its coalescing interval
        const QString legend = w->pathChart()->legendText();
        QVERIFY2(legend.contains(QStringLiteral("ex-post side ε")), qPrintable(legend));
        QVERIFY2(legend.contains(QStringLiteral("zCDP side ρ")), qPrintable(legend));
        QVERIFY2(legend.contains(
                     QStringLiteral("ex-post budget ε = %1").arg(ui::formatNumber(systems(*w)[1].budget))),
                 qPrintable(legend));
        // The ex-post column applies: shown, or given way for room in this small window (then the
        // ledger's fitter lists it and its header menu brings it back).
        auto *fitter = w->ledgerView()->findChild<ui::ColumnFitter *>();
        QVERIFY(fitter);
        QVERIFY(!w->ledgerView()->isColumnHidden(LedgerModel::ExPostSpent)
                || fitter->fittedAway().contains(LedgerModel::ExPostSpent));

        // 1. Laplace noise reduction on a relative count: only the ex-post side pays.
        builder->setAggregate(data::Aggregate::Count);
        builder->setWhere(QStringLiteral("region == \"south\""));
        builder->setRelativeTarget(0.1);
        useMechanism(*w, session::ReleaseMethod::LaplaceNr);
        w->ask();
        QCOMPARE(model->rowCount(), 1);
        const auto &nr = w->document()->session().events().at(0);
        QCOMPARE(nr.mechanismName(), std::string("laplace-nr"));
        QCOMPARE(nr.costKind, filters::ChargeKind::ExPost);
        QVERIFY(nr.cost > 0.0);
        checkGaugeMatchesFilter(*w);
        QCOMPARE(w->budgetGauge()->spent(), 0.0);
        QCOMPARE(w->budgetGauge()->secondSpent(), nr.cost);
        QVERIFY(w->budgetGauge()->fraction(BudgetGauge::Ring::Second) > 0.0);
        QCOMPARE(model->data(model->index(0, LedgerModel::Cost), LedgerModel::CostUnitRole).toString(),
                 QStringLiteral("ex-post ε"));
        QVERIFY(
            model->data(model->index(0, LedgerModel::Cost)).toString().contains(QStringLiteral("ex-post ε")));
        QCOMPARE(model->data(model->index(0, LedgerModel::ExPostSpent), LedgerModel::RawValueRole).toDouble(),
                 nr.expostSpentAfter);
        QVERIFY(!model->data(model->index(0, LedgerModel::Accounting)).toString().isEmpty());
        QVERIFY2(w->resultCard()->details().contains(QStringLiteral("ex-post side")),
                 qPrintable(w->resultCard()->details()));
        QVERIFY2(w->resultCard()->note().contains(QStringLiteral("Accounting:")),
                 qPrintable(w->resultCard()->note()));

        // 2. One Gaussian release on an absolute count: only the zCDP side pays.
        const double expostBefore = w->budgetGauge()->secondSpent();
        const double totalBefore = w->budgetGauge()->epsilonSpent();
        builder->setWhere(QStringLiteral("region == \"west\""));
        builder->setAbsoluteTarget(150.0);
        useMechanism(*w, session::ReleaseMethod::Gaussian);
        w->ask();
        QCOMPARE(model->rowCount(), 2);
        const auto &gaussian = w->document()->session().events().at(1);
        QCOMPARE(gaussian.mechanismName(), std::string("gaussian"));
        QCOMPARE(gaussian.costKind, filters::ChargeKind::Rho);
        checkGaugeMatchesFilter(*w);
        QCOMPARE(w->budgetGauge()->spent(), gaussian.cost);
        QCOMPARE(w->budgetGauge()->secondSpent(), expostBefore);
        QVERIFY(w->budgetGauge()->epsilonSpent() > totalBefore);
        QCOMPARE(model->data(model->index(1, LedgerModel::Cost), LedgerModel::CostUnitRole).toString(),
                 QStringLiteral("ρ"));
        QVERIFY2(w->resultCard()->details().contains(QStringLiteral("zCDP side")),
                 qPrintable(w->resultCard()->details()));

        // 3. A Laplace single release on the zCDP side (charged as ρ = ε²/2), and the default
        //    Brownian noise reduction, routed to the side reaching less noise: here the
        //    zCDP side, in ρ, without a δ; the event says which side paid.
        builder->setWhere(QStringLiteral("smsa == \"yes\""));
        builder->setAbsoluteTarget(400.0);
        useMechanism(*w, session::ReleaseMethod::Laplace);
        w->ask();
        const auto &laplace = w->document()->session().events().at(2);
        QCOMPARE(laplace.costKind, filters::ChargeKind::PureEpsilon);
        QVERIFY2(w->resultCard()->details().contains(QStringLiteral("ρ = ε²/2")),
                 qPrintable(w->resultCard()->details()));
        checkGaugeMatchesFilter(*w);

        builder->setWhere(QStringLiteral("ethnicity == \"cauc\" and education >= 12"));
        builder->setRelativeTarget(0.05);
        QVERIFY(builder->setMechanism(std::nullopt));
        w->ask();
        const auto &brownian = w->document()->session().events().at(3);
        QCOMPARE(brownian.mechanismName(), std::string("brownian"));
        QCOMPARE(brownian.costKind, filters::ChargeKind::Rho);
        QCOMPARE(brownian.costDelta, 0.0);
        QVERIFY(brownian.accounting.rfind("unified: paid by the zCDP side", 0) == 0);
        QVERIFY2(w->resultCard()->details().contains(QStringLiteral("zCDP side")),
                 qPrintable(w->resultCard()->details()));
        checkGaugeMatchesFilter(*w);

        // The path chart has one point per request, with the ex-post series.
        QTRY_COMPARE(w->pathChart()->pointCount(), 4);
        w->flushViews();
        QVERIFY(!test::saveScreenshot(*w, QStringLiteral("mainwindow_unified")).isEmpty());
        // The new controls fit: the window keeps its designed size and the right docks theirs.
        QCOMPARE(w->width(), 1400);
        QVERIFY2(w->budgetGauge()->width() >= 360, qPrintable(QString::number(w->budgetGauge()->width())));

        BudgetGauge gauge;
        const auto s = systems(*w);
        gauge.setBudget(s[0].budget, QStringLiteral("ρ"), 1.0, 1e-6);
        gauge.setSpent(s[0].spent, w->budgetGauge()->epsilonSpent());
        gauge.setSecondSystem(QStringLiteral("zCDP side"), QStringLiteral("ex-post side"), s[1].budget,
                              QStringLiteral("ε"));
        gauge.setSecondSpent(s[1].spent);
        gauge.resize(380, 300);
        gauge.show();
        QVERIFY(QTest::qWaitForWindowExposed(&gauge));
        QVERIFY(!test::saveScreenshot(gauge, QStringLiteral("budgetgauge_unified")).isEmpty());
        // The filled part of each arc has its threshold colour; the empty part the track colour.
        const QImage image = gauge.grab().toImage();
        const auto pixel = [&](QPointF p) { return image.pixelColor(p.toPoint()); };
        const double second = gauge.fraction(BudgetGauge::Ring::Second);
        QVERIFY(second > 0.05);
        QVERIFY(test::closeColour(pixel(gauge.pointOnRing(BudgetGauge::Ring::Second, second / 2)),
                                  BudgetGauge::colourForFraction(second)));
        QVERIFY(test::closeColour(pixel(gauge.pointOnRing(BudgetGauge::Ring::Second, (1 + second) / 2)),
                                  QColor(0xe3, 0xe6, 0xea)));
        const double first = gauge.fraction(BudgetGauge::Ring::Native);
        QVERIFY(test::closeColour(pixel(gauge.pointOnRing(BudgetGauge::Ring::Native, first / 2)),
                                  BudgetGauge::colourForFraction(first)));
    }

    void reopenedTranscriptKeepsBothSystems()
    {
        auto w = makeGaugeWindow(unifiedSettings());
        auto *builder = w->queryBuilder();
        builder->setRelativeTarget(0.1);
        useMechanism(*w, session::ReleaseMethod::LaplaceNr);
        w->ask();
        builder->setAbsoluteTarget(200.0);
        useMechanism(*w, session::ReleaseMethod::Gaussian);
        w->ask();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("unified.json"));
        QVERIFY(w->saveSessionTo(path).ok());
        MainWindow reopened;
        // The first window still holds the journal (locked): reopen a copy of the saved files.
        const QString copy = dir.filePath(QStringLiteral("unified-copy.json"));
        for (const QString &suffix : {QString(), QStringLiteral(".journal"), QStringLiteral(".journal.tail")})
            QVERIFY(QFile::copy(path + suffix, copy + suffix));
        auto opened = reopened.openSessionFile(copy);
        QVERIFY2(opened.ok(), opened.ok() ? "" : opened.error().message.c_str());
        QCOMPARE(reopened.document()->settings().filter, filters::FilterKind::Unified);
        checkGaugeMatchesFilter(reopened);
        QCOMPARE(reopened.budgetGauge()->secondSpent(), w->budgetGauge()->secondSpent());
        QCOMPARE(reopened.budgetGauge()->spent(), w->budgetGauge()->spent());
    }
};

QTEST_MAIN(TestUnifiedGauge)
#include "tst_unifiedgauge.moc"
