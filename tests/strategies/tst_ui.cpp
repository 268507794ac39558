// SPDX-License-Identifier: MIT
// The strategies GUI: Query ▸ Histogram… releases all cells for one charge and draws them as bars
// with error bars, a derived answer costs nothing; Labs ▸ Strategies & inference runs every panel
// off the GUI thread and shows the numbers of docs/strategies-inference.md. Screenshots of every screen go to
// PBX_SCREENSHOT_DIR (strategies-*.png).
#include "core/session/session.h"
#include "tests/ui/uitestutils.h"
#include "ui/charts/strategycharts.h"
#include "ui/mainwindow.h"
#include "ui/models/ledgermodel.h"
#include "ui/sessiondocument.h"
#include "ui/strategies/selectionlabpanel.h"
#include "ui/strategies/strategieslabdialog.h"
#include "ui/strategies/strategyrequestdialog.h"
#include "ui/widgets/attemptsview.h"

#include <QAction>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>

#include <algorithm>

using namespace pbx;
using namespace pbx::ui;

class TestStrategiesUi : public QObject
{
    Q_OBJECT

private slots:
    void requestDialogReleasesAHistogram()
    {
        SessionDocument document;
        auto table = SessionDocument::loadTable(QStringLiteral("cps1988"));
        QVERIFY(table.ok());
        session::SessionSettings settings;
        settings.epsilon = 2.0;
        settings.filter = filters::FilterKind::Basic;
        settings.seed = 4;
        QVERIFY(document.start(*table, QStringLiteral("cps1988"), settings).ok());
        StrategyRequestDialog dialog;
        dialog.setSession(&document.session());
        connect(&dialog, &StrategyRequestDialog::askRequested, &dialog, [&](const session::QueryRequest &r) {
            auto e = document.ask(r);
            QVERIFY(e.ok());
            dialog.showEvent(*e);
        });
        dialog.setKind(session::StrategyRequestKind::Histogram);
        dialog.setColumn(QStringLiteral("region"));
        dialog.setTargetError(25.0);
        QVERIFY(dialog.askButton()->isEnabled());
        dialog.askButton()->click();
        QCOMPARE(document.session().events().size(), std::size_t{1});
        const auto &h = document.session().events()[0];
        QCOMPARE(h.strategyRecord()->values.size(), std::size_t{4});
        QCOMPARE(dialog.chart()->barCount(), 4);
        QCOMPARE(dialog.chart()->errorBarCount(), 4);
        dialog.show();
        QVERIFY(!test::saveScreenshot(dialog, QStringLiteral("strategies-histogram-request")).isEmpty());
        // A derived share of the south: free.
        dialog.setKind(session::StrategyRequestKind::Derived);
        dialog.setDerived(QString::fromStdString(h.request.id), QStringLiteral("share"), QStringLiteral("2"),
                          QStringLiteral("0, 1, 2, 3"));
        dialog.setTargetError(0.05);
        QVERIFY(dialog.askButton()->isEnabled());
        const double spent = document.session().filter().spent();
        dialog.askButton()->click();
        QCOMPARE(document.session().events().size(), std::size_t{2});
        QCOMPARE(document.session().filter().spent(), spent);
        QVERIFY(dialog.resultText().contains(QStringLiteral("post-processing")));
        QVERIFY(!test::saveScreenshot(dialog, QStringLiteral("strategies-derived-request")).isEmpty());
        // A bad request is refused before anything is spent: bins not increasing.
        dialog.setKind(session::StrategyRequestKind::Quantile);
        dialog.setColumn(QStringLiteral("region")); // categorical: no quantile
        QVERIFY(!dialog.askButton()->isEnabled());
    }

    /// Mode ▸ the most frequent region: the dialog states the bounded-range charge before Ask
    /// (zCDP: ρ = ε²/8), the result names the category and the ledger's answer column shows it,
    /// never a count; report-noisy-max's top 2 is charged as pure ε.
    void requestDialogSelectsTheMode()
    {
        SessionDocument document;
        auto table = SessionDocument::loadTable(QStringLiteral("cps1988"));
        QVERIFY(table.ok());
        session::SessionSettings settings;
        settings.filter = filters::FilterKind::Zcdp;
        settings.seed = 4;
        QVERIFY(document.start(*table, QStringLiteral("cps1988"), settings).ok());
        StrategyRequestDialog dialog;
        dialog.setSession(&document.session());
        connect(&dialog, &StrategyRequestDialog::askRequested, &dialog, [&](const session::QueryRequest &r) {
            auto e = document.ask(r);
            dialog.showEvent(*e);
        });
        dialog.setKind(session::StrategyRequestKind::Mode);
        dialog.setColumn(QStringLiteral("region"));
        dialog.setTargetError(300.0);
        QVERIFY(dialog.askButton()->isEnabled());
        // ε = ln(4/0.05)/300 = 0.0146068 per pick; ρ = ε²/8 = 2.667e-05.
        QVERIFY2(dialog.statusText().contains(QStringLiteral("ρ = 2.667e-05")),
                 qPrintable(dialog.statusText()));
        QVERIFY(dialog.statusText().contains(QStringLiteral("bounded-range")));
        dialog.askButton()->click();
        QCOMPARE(document.session().events().size(), std::size_t{1});
        const auto &m = document.session().events()[0];
        QCOMPARE(m.costKind, filters::ChargeKind::BoundedRange);
        QVERIFY(std::fabs(document.session().filter().spent() - m.cost * m.cost / 8.0) < 1e-15);
        QVERIFY2(dialog.resultText().contains(QStringLiteral("south")), qPrintable(dialog.resultText()));
        dialog.show();
        QVERIFY(!test::saveScreenshot(dialog, QStringLiteral("strategies-mode-request")).isEmpty());
        // Report-noisy-max, top 2: two distinct regions, charged k·ε as one pure ε.
        dialog.setSelection(strategies::SelectionMechanism::ReportNoisyMax, 2);
        QVERIFY(dialog.statusText().contains(QStringLiteral("not bounded-range")));
        dialog.askButton()->click();
        QCOMPARE(document.session().events().size(), std::size_t{2});
        const auto &t = document.session().events()[1];
        QCOMPARE(t.costKind, filters::ChargeKind::PureEpsilon);
        QCOMPARE(t.strategyRecord()->labels.size(), std::size_t{2});
        QVERIFY(dialog.resultText().contains(QStringLiteral("1. south")));
        // The attempts view names them too: the attempt's value, then each pick.
        AttemptsView attempts;
        attempts.setEvent(&document.session().events()[1], QStringLiteral("ε"));
        QVERIFY(attempts.topLevelItem(0)->text(1).startsWith(QStringLiteral("1. south, 2. ")));
        QCOMPARE(attempts.topLevelItem(0)->child(0)->text(1), QStringLiteral("south"));
        // The ledger names the categories in its answer column.
        LedgerModel ledger;
        ledger.setEvents(document.session().events());
        QCOMPARE(ledger.index(0, LedgerModel::Answer).data().toString(), QStringLiteral("south"));
        QVERIFY(ledger.index(1, LedgerModel::Answer)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("1. south, 2. ")));
    }

    void requestDialogWorkloadTransformAndCsv()
    {
        SessionDocument document;
        auto table = SessionDocument::loadTable(QStringLiteral("cps1988"));
        QVERIFY(table.ok());
        session::SessionSettings settings;
        settings.epsilon = 5.0;
        settings.filter = filters::FilterKind::Basic;
        settings.seed = 6;
        QVERIFY(document.start(*table, QStringLiteral("cps1988"), settings).ok());
        StrategyRequestDialog dialog;
        dialog.setSession(&document.session());
        connect(&dialog, &StrategyRequestDialog::askRequested, &dialog, [&](const session::QueryRequest &r) {
            auto e = document.ask(r);
            QVERIFY(e.ok());
            dialog.showEvent(*e);
        });
        QVERIFY(!dialog.exportButton()->isEnabled());
        // Prefixes of education by the b=3 tree + LS, then PAVA and clipping (free).
        dialog.setKind(session::StrategyRequestKind::Workload);
        dialog.setColumn(QStringLiteral("education"));
        dialog.setWorkload(2, QStringLiteral("prefixes"));
        dialog.setPost(true, true);
        dialog.setTargetError(80.0);
        QVERIFY(dialog.askButton()->isEnabled());
        dialog.askButton()->click();
        QCOMPARE(document.session().events().size(), std::size_t{1});
        const auto &w = document.session().events()[0];
        QVERIFY(w.request.strategy()->post.isotonicPrefix && w.request.strategy()->post.nonNegative);
        QCOMPARE(w.strategyRecord()->unprojected.size(), std::size_t{21});
        for (std::size_t i = 1; i < 21; ++i)
            QVERIFY(w.strategyRecord()->values[i] >= w.strategyRecord()->values[i - 1]);
        QCOMPARE(dialog.chart()->barCount(), 21);
        QVERIFY(dialog.resultText().contains(QStringLiteral("isotonic regression")));
        dialog.show();
        QVERIFY(!test::saveScreenshot(dialog, QStringLiteral("strategies-workload-request")).isEmpty());
        const QSize defaultSize = dialog.size();
        dialog.resize(1024, 700);
        QVERIFY(
            !test::saveScreenshot(dialog, QStringLiteral("strategies-workload-request-1024x700")).isEmpty());
        dialog.resize(defaultSize);
        // The released values as CSV: a header and one row per prefix.
        QVERIFY(dialog.exportButton()->isEnabled());
        const QString csvPath = QDir::temp().filePath(
            QStringLiteral("pbx-strategies-ui-%1.csv").arg(QCoreApplication::applicationPid()));
        QVERIFY(dialog.exportCsv(csvPath).ok());
        QFile csv(csvPath);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QStringList lines
            = QString::fromUtf8(csv.readAll()).split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
        csv.close();
        QFile::remove(csvPath);
        QCOMPARE(lines.size(), 22);
        QCOMPARE(lines[0], QStringLiteral("id,label,value,half_width,confidence,variance,before_projection"));
        QVERIFY(lines[1].startsWith(QString::fromStdString(w.request.id) + QStringLiteral(",\"[0, 0]\",")));

        // A histogram of flat-mapped rows (k = 3) on a 20 % Poisson sample: charged
        // ln(1 + 0.2(e^{3ε} − 1)).
        dialog.setKind(session::StrategyRequestKind::Histogram);
        dialog.setColumn(QStringLiteral("region"));
        dialog.setTransform(QStringLiteral("flat-map"), 3, 0.2);
        dialog.setTargetError(25.0);
        QVERIFY(dialog.askButton()->isEnabled());
        dialog.askButton()->click();
        QCOMPARE(document.session().events().size(), std::size_t{2});
        const auto &h = document.session().events()[1];
        const double cell = h.attempts[0].releases[0].cost;
        QVERIFY(h.cost >= std::log1p(0.2 * std::expm1(3.0 * cell)));
        QVERIFY(h.cost < std::log1p(0.2 * std::expm1(3.0 * cell)) * (1 + 1e-12));
        QVERIFY(dialog.resultText().contains(QStringLiteral("stability 3")));
        QVERIFY(!test::saveScreenshot(dialog, QStringLiteral("strategies-transform-request")).isEmpty());
        // An unbounded self-join is refused before anything is spent.
        dialog.setTransform(QStringLiteral("self-join"), 1, 1.0);
        QVERIFY(!dialog.askButton()->isEnabled());
    }

    void labPanels()
    {
        auto table = SessionDocument::loadTable(QStringLiteral("cps1988"));
        QVERIFY(table.ok());
        StrategiesLabDialog lab;
        lab.setTable(*table);
        lab.show();
        lab.waitForJob(); // stability runs at once
        QVERIFY(lab.resultTable(1)->rowCount() >= 9);
        lab.tabs()->setCurrentIndex(1);
        QVERIFY(!test::saveScreenshot(lab, QStringLiteral("strategies-lab-stability")).isEmpty());

        lab.tabs()->setCurrentIndex(0);
        lab.run(0);
        lab.waitForJob();
        QCOMPARE(lab.resultTable(0)->rowCount(), 5);
        QCOMPARE(lab.resultTable(0)->item(0, 2)->text(), QStringLiteral("128"));
        QCOMPARE(lab.resultTable(0)->item(1, 2)->text(), QStringLiteral("32"));
        QCOMPARE(lab.resultTable(0)->item(2, 2)->text(), QStringLiteral("12"));
        QVERIFY(!test::saveScreenshot(lab, QStringLiteral("strategies-lab-bmi")).isEmpty());

        lab.tabs()->setCurrentIndex(2);
        lab.run(2);
        lab.waitForJob();
        QCOMPARE(lab.resultTable(2)->rowCount(), 5);
        QCOMPARE(lab.resultTable(2)->item(0, StrategiesLabDialog::RangeAverage)->text(),
                 QStringLiteral("50"));
        QCOMPARE(lab.resultTable(2)->item(0, StrategiesLabDialog::RangeEpsilon)->text(), QStringLiteral("1"));
        QVERIFY(lab.statusText().contains(QStringLiteral("simulation mode")));
        QVERIFY(!test::saveScreenshot(lab, QStringLiteral("strategies-lab-ranges")).isEmpty());
        // At 1024 × 700 the legend still names every strategy (it wraps below the plot).
        lab.resize(1024, 700);
        QVERIFY(!test::saveScreenshot(lab, QStringLiteral("strategies-lab-ranges-1024x700")).isEmpty());
        lab.resize(980, 900);

        lab.tabs()->setCurrentIndex(3);
        lab.run(3);
        lab.waitForJob();
        QCOMPARE(lab.resultTable(3)->item(6, 1)->text(), QStringLiteral("0")); // runs worse
        // Run by run (before, after, after + moved) and the first run's vectors are drawn.
        int inferenceCurves = 0;
        for (const auto *c : lab.tabs()->widget(3)->findChildren<CurvesChart *>())
            inferenceCurves += c->curveCount();
        QCOMPARE(inferenceCurves, 6);
        QVERIFY(!test::saveScreenshot(lab, QStringLiteral("strategies-lab-inference")).isEmpty());

        lab.tabs()->setCurrentIndex(4);
        lab.run(4);
        lab.waitForJob();
        QVERIFY(lab.statusText().contains(QStringLiteral("522.32")));
        QVERIFY(!test::saveScreenshot(lab, QStringLiteral("strategies-lab-quantile")).isEmpty());
        for (auto *b : lab.findChildren<QPushButton *>())
            if (b->text() == QStringLiteral("Smooth sensitivity of the median"))
                b->click();
        lab.waitForJob();
        QVERIFY(lab.statusText().contains(QStringLiteral("Non-private diagnostic")));
        QVERIFY(lab.statusText().contains(QStringLiteral("at k = 231")));
        // The noise laws next to it: Cauchy and Laplace densities per unit of S*.
        const auto charts = lab.findChildren<CurvesChart *>();
        QVERIFY(std::any_of(charts.begin(), charts.end(),
                            [](const CurvesChart *c) { return c->isVisible() && c->curveCount() == 2; }));
        QVERIFY(!test::saveScreenshot(lab, QStringLiteral("strategies-lab-smooth-sensitivity")).isEmpty());

        // Mode (selection): CPS1988's region at ε = 0.1 per pick, add/remove — the true counts and
        // each mechanism's exact probabilities; south (the largest count) is picked with probability
        // 1 to 6 digits, and the summary states ε²/8 against ε²/2.
        lab.tabs()->setCurrentIndex(StrategiesLabDialog::kSelectionTab);
        lab.run(StrategiesLabDialog::kSelectionTab);
        lab.waitForJob();
        auto *selection
            = lab.tabs()->widget(StrategiesLabDialog::kSelectionTab)->findChild<SelectionLabPanel *>();
        QVERIFY(selection);
        QCOMPARE(selection->table()->rowCount(), 4);
        QCOMPARE(selection->table()->item(2, 0)->text(), QStringLiteral("south"));
        QCOMPARE(selection->table()->item(2, 2)->text(), QStringLiteral("1"));
        QCOMPARE(selection->table()->item(2, 3)->text(), QStringLiteral("1"));
        QVERIFY2(selection->summaryText().contains(QStringLiteral("ρ = 0.00125 per pick (ε²/8")),
                 qPrintable(selection->summaryText()));
        QVERIFY(selection->summaryText().contains(QStringLiteral("ρ = 0.005 per pick (ε²/2")));
        QVERIFY(!test::saveScreenshot(lab, QStringLiteral("strategies-lab-selection")).isEmpty());

        // Cancel: a running job stops and shows nothing new.
        lab.run(2);
        QVERIFY(lab.isRunning());
        QPushButton *cancel = nullptr;
        for (auto *b : lab.findChildren<QPushButton *>())
            if (b->text() == QStringLiteral("Cancel"))
                cancel = b;
        QVERIFY(cancel && cancel->isEnabled());
        cancel->click();
        lab.waitForJob();
        QVERIFY(lab.statusText().startsWith(QStringLiteral("Cancelled")));
    }

    // A lesson step sets the Range strategies tab to its own workload (LessonRunner::configureLab):
    // CPS 1988's weekly wage in the 1,024 cells 0 … 1,023, all 1,024 prefixes, ε = 0.5. Identity
    // adds the Lap(2) noise of up to 1,024 cells, 2·2²·L: the longest prefix has variance 8,192 and
    // its 95 % Chebyshev bar √(8192/0.05) = 404.8, the average over the prefixes 4·(1024 + 1) = 4,100.
    void labRangesFollowASetup()
    {
        auto table = SessionDocument::loadTable(QStringLiteral("cps1988"));
        QVERIFY(table.ok());
        StrategiesLabDialog lab;
        lab.setTable(*table);
        lab.waitForJob(); // stability, at once
        lab.run(0);       // the BMI example: the setup's run waits for it while it runs
        RangesSetup wage;
        wage.column = QStringLiteral("wage");
        wage.bounds = std::pair{0.0, 1023.0};
        wage.workload = QStringLiteral("prefixes");
        wage.epsilon = 0.5;
        QVERIFY(lab.runRanges(wage).ok());
        // Waiting or running, the tab is greyed until its results are drawn.
        const auto rangeCharts
            = lab.tabs()->widget(StrategiesLabDialog::kRangesTab)->findChildren<ChartFrame *>();
        QVERIFY(!rangeCharts.isEmpty());
        for (const ChartFrame *chart : rangeCharts)
            QVERIFY(chart->isComputing());
        lab.waitForJob();
        for (const ChartFrame *chart : rangeCharts)
            QVERIFY(!chart->isComputing());
        QCOMPARE(lab.resultTable(0)->rowCount(), 5); // both ran
        const QTableWidget *t = lab.resultTable(StrategiesLabDialog::kRangesTab);
        QCOMPARE(t->rowCount(), 5);
        QCOMPARE(t->item(0, StrategiesLabDialog::RangeStrategyName)->text(), QStringLiteral("identity"));
        QCOMPARE(t->item(0, StrategiesLabDialog::RangeEpsilon)->text(), QStringLiteral("0.5"));
        QCOMPARE(t->item(0, StrategiesLabDialog::RangeAverage)->text(), QStringLiteral("4100"));
        QCOMPARE(t->item(0, StrategiesLabDialog::RangeMax)->text(), QStringLiteral("8192"));
        QCOMPARE(t->item(0, StrategiesLabDialog::RangeWidestBar)->text(), QStringLiteral("± 405"));
        QCOMPARE(t->item(2, StrategiesLabDialog::RangeStrategyName)->text(), QStringLiteral("tree b=2 + LS"));
        QCOMPARE(t->item(2, StrategiesLabDialog::RangePadded)->text(), QStringLiteral("1,024"));
        QVERIFY2(lab.rangesSummary().contains(QStringLiteral("wage from 0 to 1,023, 1,024 cells"))
                     && lab.rangesSummary().contains(
                         QStringLiteral("workload: 1,024 prefixes; error bars at 95 %")),
                 qPrintable(lab.rangesSummary()));
        // The fields say so, and a new table of the same data keeps them.
        lab.setTable(*table);
        const RangesSetup shown = lab.rangesSetup();
        QCOMPARE(shown.column, wage.column);
        QCOMPARE(shown.bounds, wage.bounds);
        QCOMPARE(shown.workload, wage.workload);
        QCOMPARE(shown.epsilon, 0.5);
        QCOMPARE(shown.confidence, 0.95);
        // What the tab cannot run is refused with nothing changed.
        RangesSetup bad = wage;
        bad.column = QStringLiteral("region");
        QVERIFY(!lab.runRanges(bad).ok());
        bad = wage;
        bad.bounds = std::pair{0.0, 5000.0};
        QVERIFY(!lab.runRanges(bad).ok());
        bad = wage;
        bad.workload = QStringLiteral("explicit");
        QVERIFY(!lab.runRanges(bad).ok());
        QCOMPARE(lab.rangesSetup().bounds, wage.bounds);
        QVERIFY(!lab.isRunning());
        // Fields set without a run (the user's back after a lesson): the run still going is not
        // shown beside them.
        QVERIFY(lab.runRanges(wage).ok());
        RangesSetup user;
        user.column = QStringLiteral("education");
        QVERIFY(lab.setRanges(user).ok());
        lab.waitForJob();
        QCOMPARE(t->rowCount(), 0);
        QCOMPARE(lab.rangesSetup().bounds, (std::pair{0.0, 20.0}));
        QCOMPARE(lab.rangesSetup().epsilon, 1.0);
        // Chosen by hand, a wide column opens on its first 1,024 declared cells.
        auto *column = lab.tabs()->widget(StrategiesLabDialog::kRangesTab)->findChild<QComboBox *>();
        column->setCurrentText(QStringLiteral("education"));
        QCOMPARE(lab.rangesSetup().bounds, (std::pair{0.0, 20.0}));
        column->setCurrentText(QStringLiteral("wage"));
        QCOMPARE(lab.rangesSetup().bounds, (std::pair{0.0, 1023.0}));
        lab.tabs()->setCurrentIndex(StrategiesLabDialog::kRangesTab);
        lab.resize(1024, 768);
        QVERIFY(
            !test::saveScreenshot(lab, QStringLiteral("strategies-lab-ranges-lesson-1024x768")).isEmpty());
        // Cancel drops a run that waits.
        lab.run(0);
        lab.run(StrategiesLabDialog::kRangesTab);
        for (auto *b : lab.findChildren<QPushButton *>())
            if (b->text() == QStringLiteral("Cancel"))
                b->click();
        lab.waitForJob();
        QVERIFY(!lab.isRunning());
        QVERIFY(lab.statusText().startsWith(QStringLiteral("Cancelled")));
        for (const ChartFrame *chart : rangeCharts)
            QVERIFY(!chart->isComputing());
    }

    void menusAreInstalled()
    {
        MainWindow window;
        QVERIFY(window.findChild<QAction *>(QStringLiteral("strategyRequestAction")));
        QAction *lab = window.findChild<QAction *>(QStringLiteral("strategiesLabAction"));
        QVERIFY(lab);
        lab->trigger();
        auto *dialog = window.findChild<StrategiesLabDialog *>(QStringLiteral("strategiesLabDialog"));
        QVERIFY(dialog);
        dialog->waitForJob();
    }
};

QTEST_MAIN(TestStrategiesUi)
#include "tst_ui.moc"
