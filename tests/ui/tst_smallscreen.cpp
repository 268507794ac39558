// SPDX-License-Identifier: MIT
// Everything usable on a 1024×700 projector. The main window, its docks and the
// docked comparison fit; fields keep their preferred width (or sit inside a scroll area).
#include "core/session/session.h"
#include "ui/charts/privacylosspathchart.h"
#include "ui/growing/growinglabdialog.h"
#include "ui/growing/growingrequestdialog.h"
#include "ui/help/glossarydialog.h"
#include "ui/lab/labdialog.h"
#include "ui/mainwindow.h"
#include "ui/models/ledgermodel.h"
#include "ui/odp/odplabdialog.h"
#include "ui/odp/svtrequestdialog.h"
#include "ui/panels/datasetpanel.h"
#include "ui/panels/querybuilder.h"
#include "ui/panels/sessionpanel.h"
#include "ui/risk/privacyriskview.h"
#include "ui/strategies/strategieslabdialog.h"
#include "ui/strategies/strategyrequestdialog.h"
#include "ui/widgets/attemptsview.h"
#include "ui/widgets/budgetgauge.h"
#include "ui/widgets/resultcard.h"
#include "uitestutils.h"

#include <QAbstractScrollArea>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QLayout>
#include <QRegularExpression>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QTableView>
#include <QtTest/QtTest>

using pbx::ui::MainWindow;
namespace test = pbx::test;

namespace {

bool insideScrollArea(const QWidget *widget)
{
    for (const QWidget *w = widget->parentWidget(); w; w = w->parentWidget())
        if (qobject_cast<const QAbstractScrollArea *>(w))
            return true;
    return false;
}

/// Not squashed: at least its minimum size hint wide, and at its size hint unless it scrolls.
void verifyNotSquashed(const QWidget *widget, const char *name)
{
    QVERIFY2(widget->isVisible(), name);
    const int width = widget->width();
    QVERIFY2(width >= widget->minimumSizeHint().width(),
             qPrintable(QStringLiteral("%1: %2 px < minimum %3")
                            .arg(QLatin1String(name))
                            .arg(width)
                            .arg(widget->minimumSizeHint().width())));
    QVERIFY2(width >= widget->sizeHint().width() || insideScrollArea(widget),
             qPrintable(QStringLiteral("%1: %2 px < size hint %3 outside a scroll area")
                            .arg(QLatin1String(name))
                            .arg(width)
                            .arg(widget->sizeHint().width())));
}

} // namespace

class TestSmallScreen : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    /// Before the fix the main window could not be narrower than 1167 px.
    void mainWindowFits1024x700()
    {
        MainWindow w;
        QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
        w.resize(1024, 700);
        w.show();
        QTest::qWait(100);
        QVERIFY2(w.minimumSizeHint().width() <= 1024,
                 qPrintable(QString::number(w.minimumSizeHint().width())));
        QVERIFY2(w.minimumSizeHint().height() <= 700,
                 qPrintable(QString::number(w.minimumSizeHint().height())));
        QCOMPARE(w.size(), QSize(1024, 700));
        verifyNotSquashed(w.queryBuilder(), "query builder");
        verifyNotSquashed(w.findChild<pbx::ui::SessionPanel *>(), "privacy settings");
        verifyNotSquashed(w.findChild<pbx::ui::DatasetPanel *>(), "dataset panel");
        verifyNotSquashed(w.findChild<pbx::ui::BudgetGauge *>(), "gauge");
        verifyNotSquashed(w.findChild<pbx::ui::PrivacyLossPathChart *>(), "path chart");
        verifyNotSquashed(w.findChild<pbx::ui::ResultCard *>(), "result card");
        // At 1024 px the query and the privacy settings fit without scrolling sideways.
        for (QWidget *panel : {static_cast<QWidget *>(w.queryBuilder()),
                               static_cast<QWidget *>(w.findChild<pbx::ui::SessionPanel *>())}) {
            QAbstractScrollArea *area = nullptr;
            for (QWidget *p = panel->parentWidget(); p && !area; p = p->parentWidget())
                area = qobject_cast<QAbstractScrollArea *>(p);
            QVERIFY(area);
            QVERIFY2(!area->horizontalScrollBar()->isVisible(), panel->metaObject()->className());
        }
        QVERIFY(!test::saveScreenshot(w, QStringLiteral("smallscreen_fit_1024")).isEmpty());
    }

    /// At 1024 px the query's combo boxes show their whole text, the hints beside them are not cut
    /// and the attempts' headers are whole ("Attempt / releas").
    void queryAndAttemptsNotCut()
    {
        MainWindow w;
        QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
        w.resize(1024, 700);
        w.show();
        QTest::qWait(100);
        for (QComboBox *combo : w.queryBuilder()->findChildren<QComboBox *>()) {
            QStyleOptionComboBox option;
            option.initFrom(combo);
            const int room
                = combo->style()
                      ->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, combo)
                      .width();
            for (int i = 0; i < combo->count(); ++i)
                QVERIFY2(combo->fontMetrics().horizontalAdvance(combo->itemText(i)) <= room,
                         qPrintable(QStringLiteral("'%1' in %2 px").arg(combo->itemText(i)).arg(room)));
        }
        for (QLabel *label : w.queryBuilder()->findChildren<QLabel *>())
            if (label->isVisible() && !label->wordWrap() && !label->text().isEmpty())
                QVERIFY2(label->width() >= label->sizeHint().width(), qPrintable(label->text()));
        auto *attempts = w.findChild<pbx::ui::AttemptsView *>();
        QVERIFY(attempts);
        for (int c = 0; c < attempts->columnCount() - 1; ++c)
            QVERIFY2(attempts->columnWidth(c) >= attempts->header()->sectionSizeHint(c),
                     qPrintable(attempts->headerItem()->text(c)));
    }

    /// A window squeezed to 1024×700 (a 1024×768 screen less a window manager's title bar and
    /// panel), as lesson 1 leaves it: 40 counts (the ledger's vertical scroll bar takes its
    /// width) and a noise-reduction session (costs "0.01845 ex-post ε", attempts costed in
    /// ex-post ε). Neither the ledger nor the attempts scroll sideways, and no cost is elided;
    /// in presentation mode too. Before: the ledger scrolled (its columns sized for
    /// "12,345,678" answers), the ex-post costs read "0.01845 e…" and the attempts scrolled.
    void ledgerFitsLongAndExPostSessions()
    {
        for (const bool exPost : {false, true}) {
            MainWindow w;
            QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
            w.resize(1024, 700);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            pbx::session::SessionSettings settings;
            settings.seed = 7;
            settings.epsilon = 2.0;
            settings.filter = pbx::filters::FilterKind::Basic;
            QVERIFY(w.startNewSession(settings).ok());
            auto *builder = w.queryBuilder();
            builder->setWhere(QStringLiteral("region == \"south\""));
            if (exPost) {
                builder->setRelativeTarget(0.05);
                QVERIFY(builder->setMechanism(pbx::session::ReleaseMethod::LaplaceNr));
            } else {
                builder->setAbsoluteTarget(100.0);
            }
            const int asks = exPost ? 3 : 40;
            for (int i = 0; i < asks; ++i)
                w.ask();
            QTRY_COMPARE(w.ledgerModel()->rowCount(), asks);
            auto *ledger = w.findChild<QTableView *>(QStringLiteral("ledgerView"));
            auto *attempts = w.findChild<pbx::ui::AttemptsView *>();
            QVERIFY(ledger && attempts);
            for (const bool presentation : {false, true}) {
                auto *action = w.findChild<QAction *>(QStringLiteral("presentationModeAction"));
                QVERIFY(action);
                action->setChecked(presentation);
                QTest::qWait(200);
                const QString what
                    = QStringLiteral("ex-post %1, presentation %2").arg(exPost).arg(presentation);
                QVERIFY2(ledger->horizontalScrollBar()->maximum() == 0,
                         qPrintable(QStringLiteral("%1: the ledger scrolls over %2 px in %3")
                                        .arg(what)
                                        .arg(ledger->horizontalScrollBar()->maximum())
                                        .arg(ledger->viewport()->width())));
                const int cost = pbx::ui::LedgerModel::Cost;
                QVERIFY(!ledger->isColumnHidden(cost));
                for (int row = 0; row < w.ledgerModel()->rowCount(); ++row) {
                    const QString text = w.ledgerModel()->index(row, cost).data().toString();
                    QVERIFY2(!exPost || text.contains(QStringLiteral("ex-post")), qPrintable(text));
                    // Whole: as wide as its cell asks (text, margins), not elided.
                    QVERIFY2(ledger->sizeHintForIndex(w.ledgerModel()->index(row, cost)).width()
                                 <= ledger->columnWidth(cost),
                             qPrintable(QStringLiteral("%1: '%2' in %3 px")
                                            .arg(what, text)
                                            .arg(ledger->columnWidth(cost))));
                }
                QVERIFY2(attempts->horizontalScrollBar()->maximum() == 0,
                         qPrintable(QStringLiteral("%1: the attempts scroll over %2 px")
                                        .arg(what)
                                        .arg(attempts->horizontalScrollBar()->maximum())));
                // A new answer is on screen, however short the query's area: it scrolls to the
                // card (before, in presentation mode the headline was cut under the fields).
                if (presentation && !exPost) {
                    w.ask();
                    QTest::qWait(50);
                    QWidget *card = w.resultCard();
                    QScrollArea *area = nullptr;
                    for (QWidget *p = card->parentWidget(); p && !area; p = p->parentWidget())
                        area = qobject_cast<QScrollArea *>(p);
                    QVERIFY(area);
                    const QRect shown = area->viewport()->rect();
                    const QRect at(card->mapTo(area->viewport(), QPoint(0, 0)), card->size());
                    QVERIFY2(at.top() >= shown.top()
                                 && std::min(at.bottom(), at.top() + shown.height() - 1) <= shown.bottom(),
                             qPrintable(QStringLiteral("card at y %1..%2 in a %3-px area")
                                            .arg(at.top())
                                            .arg(at.bottom())
                                            .arg(shown.height())));
                }
                QVERIFY(!pbx::test::saveScreenshot(
                             w, QStringLiteral("smallscreen_ledger_%1_%2")
                                    .arg(exPost ? QStringLiteral("expost") : QStringLiteral("forty"),
                                         presentation ? QStringLiteral("presentation")
                                                      : QStringLiteral("normal")))
                             .isEmpty());
            }
            w.findChild<QAction *>(QStringLiteral("presentationModeAction"))->setChecked(false);
        }
    }

    /// Screenshots at a projector's 1024×700 and at 1600×1000: the main window with the
    /// noise-reduction view raised and the relative-error lab (look for cut labels).
    void screenshots()
    {
        for (const QSize size : {QSize(1024, 700), QSize(1600, 1000)}) {
            MainWindow w;
            QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
            w.resize(size);
            w.show();
            QTest::qWait(100);
            QCOMPARE(w.size(), size);
            const QString suffix = QStringLiteral("_%1").arg(size.width());
            QVERIFY(!test::saveScreenshot(w, QStringLiteral("smallscreen_mainwindow") + suffix).isEmpty());
            auto *noiseReduction = w.findChild<QDockWidget *>(QStringLiteral("noiseReductionDock"));
            QVERIFY(noiseReduction);
            noiseReduction->raise();
            QVERIFY(
                !test::saveScreenshot(w, QStringLiteral("smallscreen_noisereduction") + suffix).isEmpty());
            QWidget *lab = w.relativeErrorLab();
            lab->resize(lab->sizeHint().boundedTo(size));
            lab->show();
            QVERIFY2(lab->minimumSizeHint().width() <= 1024 && lab->minimumSizeHint().height() <= 700,
                     qPrintable(QStringLiteral("%1x%2")
                                    .arg(lab->minimumSizeHint().width())
                                    .arg(lab->minimumSizeHint().height())));
            QVERIFY(!test::saveScreenshot(*lab, QStringLiteral("smallscreen_lab") + suffix).isEmpty());
            lab->close();
        }
    }

    /// The privacy settings cite theorems with their paper and never a file the user does not have
    /// ("Theorem 3" alone, "accuracy-first.md §7.2").
    void settingsCiteTheirPapers()
    {
        MainWindow w;
        QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
        const QRegularExpression bareTheorem(QStringLiteral("(?<![0-9]{4}, )Theorem [0-9]+"));
        int looked = 0;
        for (auto kind : {pbx::filters::FilterKind::Basic, pbx::filters::FilterKind::Zcdp,
                          pbx::filters::FilterKind::ExPost, pbx::filters::FilterKind::Unified,
                          pbx::filters::FilterKind::BrownianZcdp, pbx::filters::FilterKind::Odp}) {
            pbx::session::SessionSettings settings;
            settings.filter = kind;
            QVERIFY(w.startNewSession(settings).ok());
            auto *panel = w.findChild<pbx::ui::SessionPanel *>();
            QStringList texts;
            for (QLabel *label : panel->findChildren<QLabel *>())
                texts << label->text() << label->toolTip();
            for (QComboBox *combo : panel->findChildren<QComboBox *>())
                for (int i = 0; i < combo->count(); ++i)
                    texts << combo->itemText(i) << combo->itemData(i, Qt::ToolTipRole).toString()
                          << combo->toolTip();
            for (const QString &text : std::as_const(texts)) {
                ++looked;
                QVERIFY2(!bareTheorem.match(text).hasMatch(), qPrintable(text));
                QVERIFY2(!text.contains(QStringLiteral(".md")) && !text.contains(u'§'), qPrintable(text));
            }
        }
        QVERIFY(looked > 50);
    }

    /// The labs' explanations cite papers, never a file the user does not have (item 13:
    /// "docs/accuracy-first.md §5.2", "See docs/strategies-inference.md").
    void labsCiteTheirPapers()
    {
        pbx::ui::LabDialog relativeError;
        pbx::ui::StrategiesLabDialog strategies;
        pbx::ui::OdpLabDialog odp;
        pbx::ui::GrowingLabDialog growing;
        int looked = 0;
        for (QWidget *lab : std::initializer_list<QWidget *>{&relativeError, &strategies, &odp, &growing}) {
            QStringList texts;
            for (QLabel *label : lab->findChildren<QLabel *>())
                texts << label->text();
            for (QWidget *widget : lab->findChildren<QWidget *>())
                texts << widget->toolTip();
            for (const QString &text : std::as_const(texts)) {
                ++looked;
                // A paper's own section ("Cummings et al. 2018, §3") is a fine reference; a file is not.
                QVERIFY2(!text.contains(QStringLiteral(".md")) && !text.contains(QStringLiteral("docs/")),
                         qPrintable(text));
            }
        }
        QVERIFY(looked > 100);
    }

    /// Every dialog and lab opens inside its screen and can be made as small as a 1024×700
    /// projector (the growing lab's minimum width was 1100 px, and six dialogs
    /// asked for up to 900 px of height whatever the screen).
    void dialogsOpenInsideTheScreen()
    {
        pbx::ui::LabDialog relativeError;
        pbx::ui::StrategiesLabDialog strategies;
        pbx::ui::OdpLabDialog odp;
        pbx::ui::GrowingLabDialog growing;
        pbx::ui::GlossaryDialog glossary;
        pbx::ui::PrivacyRiskView risk;
        pbx::ui::SvtRequestDialog svt;
        pbx::ui::StrategyRequestDialog strategy;
        pbx::ui::GrowingRequestDialog growingRequest;
        const QSize screen = QGuiApplication::primaryScreen()->availableGeometry().size();
        QStringList problems;
        for (QWidget *dialog :
             std::initializer_list<QWidget *>{&relativeError, &strategies, &odp, &growing, &glossary, &risk,
                                              &svt, &strategy, &growingRequest}) {
            const QSize smallest = dialog->minimumSizeHint().expandedTo(dialog->minimumSize());
            const QString name = QString::fromLatin1(dialog->metaObject()->className());
            if (smallest.width() > 1024 || smallest.height() > 700)
                problems << QStringLiteral("%1 cannot be smaller than %2x%3")
                                .arg(name)
                                .arg(smallest.width())
                                .arg(smallest.height());
            else if (dialog->width() > screen.width() || dialog->height() > screen.height())
                problems << QStringLiteral("%1 opens at %2x%3 on a %4x%5 screen")
                                .arg(name)
                                .arg(dialog->width())
                                .arg(dialog->height())
                                .arg(screen.width())
                                .arg(screen.height());
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QStringLiteral("; "))));
    }

    /// Docking the comparison view must not push the window past 1024×700.
    void dockedComparisonFits()
    {
        MainWindow w;
        QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
        w.resize(1024, 700);
        w.show();
        auto *dock = w.findChild<QDockWidget *>(QStringLiteral("comparisonDock"));
        QVERIFY(dock);
        dock->show();
        dock->setFloating(false);
        w.addDockWidget(Qt::BottomDockWidgetArea, dock);
        QTest::qWait(200);
        QVERIFY2(w.minimumSizeHint().width() <= 1024,
                 qPrintable(QString::number(w.minimumSizeHint().width())));
        QVERIFY2(w.minimumSizeHint().height() <= 700,
                 qPrintable(QString::number(w.minimumSizeHint().height())));
        QCOMPARE(w.size(), QSize(1024, 700));
        QVERIFY(!test::saveScreenshot(w, QStringLiteral("smallscreen_comparison_docked_1024")).isEmpty());
        w.resize(1600, 1000);
        QTest::qWait(200);
        QVERIFY(!test::saveScreenshot(w, QStringLiteral("smallscreen_comparison_docked_1600")).isEmpty());
    }

    /// Status messages are not cut by the session's mode in the status bar.
    void statusMessageNotCutByMode()
    {
        MainWindow w;
        QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
        w.resize(1024, 700);
        w.show();
        QTest::qWait(50);
        auto *mode = w.findChild<QLabel *>(QStringLiteral("modeStatus"));
        QVERIFY(mode);
        QVERIFY(mode->isVisible());
        QVERIFY(!mode->text().isEmpty());
        const QString message = QStringLiteral("q12 refused: the request would spend more than the remaining "
                                               "budget of the zCDP filter (ρ = 0.0123 left)");
        w.statusBar()->showMessage(message, 5000);
        QTest::qWait(20);
        QVERIFY(!mode->isVisible());
        QVERIFY(w.statusBar()->width() > w.statusBar()->fontMetrics().horizontalAdvance(message) + 20);
        w.statusBar()->clearMessage();
        QTest::qWait(20);
        QVERIFY(mode->isVisible());
        QCOMPARE(mode->toolTip(), mode->text());
    }

    /// Toggling the seed does not change the left panel's width.
    void seedToggleKeepsPanelWidth()
    {
        MainWindow w;
        QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
        w.resize(1024, 700);
        w.show();
        QTest::qWait(50);
        auto *panel = w.findChild<pbx::ui::SessionPanel *>();
        auto *seed = panel->findChild<QCheckBox *>();
        QVERIFY(seed);
        seed->setChecked(false);
        QTest::qWait(50);
        const int minimum = panel->minimumSizeHint().width();
        const int width = panel->width();
        seed->setChecked(true);
        QTest::qWait(50);
        QCOMPARE(panel->minimumSizeHint().width(), minimum);
        QCOMPARE(panel->width(), width);
    }

    /// The accounting combo shows each filter's whole name (no "Unified… (Theorem" cut).
    void filterNamesFitTheCombo()
    {
        MainWindow w;
        QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
        w.resize(1024, 700);
        w.show();
        QTest::qWait(50);
        auto *panel = w.findChild<pbx::ui::SessionPanel *>();
        QComboBox *filter = nullptr;
        for (auto *combo : panel->findChildren<QComboBox *>())
            if (combo->count() >= 6)
                filter = combo;
        QVERIFY(filter);
        QStyleOptionComboBox option;
        option.initFrom(filter);
        const int room
            = filter->style()
                  ->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, filter)
                  .width();
        for (int i = 0; i < filter->count(); ++i) {
            const QString text = filter->itemText(i);
            QVERIFY2(filter->fontMetrics().horizontalAdvance(text) <= room,
                     qPrintable(QStringLiteral("'%1' needs %2 px, has %3")
                                    .arg(text)
                                    .arg(filter->fontMetrics().horizontalAdvance(text))
                                    .arg(room)));
            QVERIFY2(!text.contains(QStringLiteral("Theorem")), qPrintable(text));
        }
    }
};

QTEST_MAIN(TestSmallScreen)
#include "tst_smallscreen.moc"
