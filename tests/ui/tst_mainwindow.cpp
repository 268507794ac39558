// SPDX-License-Identifier: MIT
// The main window end to end on the embedded CPS1988 data with seeded noise: type a query, ask,
// watch the ledger, gauge and chart move; exhaust the budget until a refusal; save the transcript
// and reopen it through File ▸ Open session's code path; screenshots of the window.
#include "core/filters/odometer_filter.h"
#include "core/session/cost_preview.h"
#include "tests/testutils.h"
#include "ui/appsettings.h"
#include "ui/charts/privacylosspathchart.h"
#include "ui/mainwindow.h"
#include "ui/models/ledgermodel.h"
#include "ui/panels/datasetpanel.h"
#include "ui/panels/querybuilder.h"
#include "ui/panels/sessionpanel.h"
#include "ui/sessiondocument.h"
#include "ui/util/boundformat.h"
#include "ui/util/numberformat.h"
#include "ui/widgets/attemptsview.h"
#include "ui/widgets/budgetgauge.h"
#include "ui/widgets/resultcard.h"
#include "ui/widgets/scientificspinbox.h"
#include "ui/widgets/segmentlabel.h"
#include "uitestutils.h"

#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace pbx;
using pbx::ui::LedgerModel;
using pbx::ui::MainWindow;
using pbx::ui::ResultCard;

namespace {

constexpr std::uint64_t kMainWindowSeed = 20240601;

session::SessionSettings seededSettings()
{
    session::SessionSettings s; // ε = 1, δ = 1e-6, add/remove, zCDP
    s.seed = kMainWindowSeed;
    return s;
}

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT

private:
    /// A window on CPS1988 with seeded noise, shown at the size the layout is designed for.
    static std::unique_ptr<MainWindow> makeWindow()
    {
        auto w = std::make_unique<MainWindow>();
        w->resize(1400, 900);
        auto opened = w->openDataset(QStringLiteral("cps1988"));
        if (!opened.ok())
            qFatal("cannot open cps1988: %s", opened.error().message.c_str());
        auto started = w->startNewSession(seededSettings());
        if (!started.ok())
            qFatal("cannot start session: %s", started.error().message.c_str());
        return w;
    }

    static void typeWhere(MainWindow &w, const QString &text)
    {
        QLineEdit *edit = w.queryBuilder()->whereEdit();
        edit->clear();
        QTest::keyClicks(edit, text);
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void showsDataset()
    {
        auto w = makeWindow();
        const auto *table = w->document()->table();
        QVERIFY(table);
        QCOMPARE(table->rowCount(), std::size_t{28155});
        QCOMPARE(w->datasetPanel()->columnsTable()->rowCount(), static_cast<int>(table->columnCount()));
        QCOMPARE(w->datasetPanel()->columnsTable()->item(0, 0)->text(), QStringLiteral("wage"));
        QVERIFY(w->datasetPanel()->columnsTable()->item(0, 2)->text().contains(QStringLiteral("5,000")));
        QVERIFY(w->windowTitle().contains(QStringLiteral("cps1988")));
        QVERIFY(!w->isWindowModified());
        QVERIFY(w->datasetPanel()->disclosureWarning()->isHidden()); // all declared in metadata
    }

    // A CSV without metadata shows types and categories inferred from its rows; the panel
    // must warn that this discloses values, and mark the columns. Declared metadata removes it.
    void warnsWhenCategoriesComeFromTheData()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString csv = dir.filePath(QStringLiteral("clinic.csv"));
        QFile file(csv);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("diagnosis,age\nflu,30\nflu,41\nrare-disease-x,52\n");
        file.close();
        MainWindow w;
        QVERIFY(w.openDataset(csv).ok());
        auto *panel = w.datasetPanel();
        QVERIFY(!panel->disclosureWarning()->isHidden());
        QVERIFY(panel->disclosureWarning()->text().contains(QStringLiteral("diagnosis")));
        QVERIFY(panel->disclosureWarning()->text().contains(QStringLiteral("discloses values")));
        QVERIFY(panel->columnsTable()->item(0, 2)->text().contains(QStringLiteral("from the data")));

        QFile sidecar(dir.filePath(QStringLiteral("clinic.json")));
        QVERIFY(sidecar.open(QIODevice::WriteOnly));
        sidecar.write(R"({"format": "pbx-dataset-metadata", "version": 1, "columns": [
            {"name": "diagnosis", "type": "categorical", "categories": ["flu", "rare-disease-x", "other"]},
            {"name": "age", "type": "numeric", "bounds": [0, 120]}]})");
        sidecar.close();
        MainWindow declared;
        QVERIFY(declared.openDataset(csv).ok());
        QVERIFY(declared.datasetPanel()->disclosureWarning()->isHidden());
    }

    void costPreviewIsWhatAskCharges()
    {
        auto w = makeWindow();
        auto *builder = w->queryBuilder();
        builder->setAggregate(data::Aggregate::Count);
        typeWhere(*w, QStringLiteral("region == \"south\""));
        builder->setAbsoluteTarget(100.0);
        // zCDP filter, one Gaussian release: the exact ρ, computed without reading the data.
        const auto preview = session::previewCost(w->document()->session(), builder->request());
        QVERIFY(preview.ok());
        QVERIFY(preview->exact.has_value());
        const QString shown = builder->costPreview();
        QVERIFY2(shown.startsWith(QStringLiteral("This request costs ρ = ")), qPrintable(shown));
        QVERIFY2(shown.contains(ui::formatNumber(*preview->exact, 3)), qPrintable(shown));
        QVERIFY2(shown.contains(ui::formatPercent(preview->shareOfRemaining)), qPrintable(shown));
        QTest::mouseClick(builder->askButton(), Qt::LeftButton);
        QCOMPARE(w->document()->session().events().back().cost, *preview->exact);
        // Tighter target: the preview follows as it is typed, and says when it will be refused.
        builder->setAbsoluteTarget(2.0);
        QVERIFY2(builder->costPreview().contains(QStringLiteral("it will be refused")),
                 qPrintable(builder->costPreview()));
        // A relative target: noise reduction or doubling, bounded by the workload-aware cap.
        builder->setRelativeTarget(0.05);
        QVERIFY2(builder->costPreview().contains(QStringLiteral("costs at most")),
                 qPrintable(builder->costPreview()));
        // An invalid predicate shows no cost.
        typeWhere(*w, QStringLiteral("region == "));
        QVERIFY(builder->costPreview().isEmpty());
    }

    // Above the user's threshold (default 25 % of what remains) Ask first asks for confirmation:
    // nothing is spent until Confirm (the Ask button) is pressed on the unchanged request; an edit
    // withdraws it.
    void askConfirmsExpensiveRequests()
    {
        ui::AppSettings::setConfirmCostShare(0.25);
        auto w = makeWindow();
        auto *builder = w->queryBuilder();
        builder->setAggregate(data::Aggregate::Count);
        typeWhere(*w, QStringLiteral("region == \"south\""));
        // A target costing between 30 % and 90 % of the fresh budget.
        double expensive = 0.0;
        for (double alpha : {2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0, 32.0, 48.0, 64.0}) {
            builder->setAbsoluteTarget(alpha);
            const auto preview = session::previewCost(w->document()->session(), builder->request());
            QVERIFY(preview.ok());
            if (preview->shareOfRemaining > 0.3 && preview->shareOfRemaining < 0.9) {
                expensive = alpha;
                break;
            }
        }
        QVERIFY(expensive > 0.0);
        const std::size_t before = w->document()->session().events().size();
        QTest::mouseClick(builder->askButton(), Qt::LeftButton);
        QCOMPARE(w->document()->session().events().size(), before); // nothing spent yet
        QVERIFY2(builder->askButton()->text() == QStringLiteral("Confirm"),
                 qPrintable(builder->askButton()->text()));
        QVERIFY2(builder->costPreview().contains(QStringLiteral("press Confirm to spend it")),
                 qPrintable(builder->costPreview()));
        // An edit withdraws the confirmation.
        builder->setAbsoluteTarget(expensive * 1.01);
        QCOMPARE(builder->askButton()->text(), QStringLiteral("Ask"));
        QTest::mouseClick(builder->askButton(), Qt::LeftButton);
        QCOMPARE(w->document()->session().events().size(), before);
        QTest::mouseClick(builder->askButton(), Qt::LeftButton); // confirmed
        QCOMPARE(w->document()->session().events().size(), before + 1);
        QCOMPARE(builder->askButton()->text(), QStringLiteral("Ask"));
        // A cheap request goes at once; a threshold of 100 % never asks.
        builder->setAbsoluteTarget(400.0);
        QTest::mouseClick(builder->askButton(), Qt::LeftButton);
        QCOMPARE(w->document()->session().events().size(), before + 2);
        ui::AppSettings::setConfirmCostShare(1.0);
        builder->setAbsoluteTarget(expensive * 2.0);
        QTest::mouseClick(builder->askButton(), Qt::LeftButton);
        QCOMPARE(w->document()->session().events().size(), before + 3);
        ui::AppSettings::setConfirmCostShare(0.25);
    }

    void askRefuseSaveAndReopen()
    {
        auto w = makeWindow();
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        auto *builder = w->queryBuilder();
        auto *model = w->ledgerModel();
        QSignalSpy inserted(model, &QAbstractItemModel::rowsInserted);

        // 1. A count with a predicate typed by hand, ±100 at 95 %.
        builder->setAggregate(data::Aggregate::Count);
        typeWhere(*w, QStringLiteral("region == \"south\" and education >= 12"));
        QVERIFY2(builder->validationError().isEmpty(), qPrintable(builder->validationError()));
        builder->setAbsoluteTarget(100.0);
        const double spentBefore = w->budgetGauge()->spent();
        QTest::mouseClick(builder->askButton(), Qt::LeftButton);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(model->rowCount(), 1);
        QVERIFY(w->budgetGauge()->spent() > spentBefore);
        QTRY_COMPARE(w->pathChart()->pointCount(), 1);
        // Hovering the path's point names the request (ui.charthover tests the hover itself).
        QCOMPARE(w->pathChart()->requestLabel(1),
                 QStringLiteral("Request 1: %1 · %2")
                     .arg(QString::fromStdString(model->event(0).request.id),
                          LedgerModel::describeRequest(model->event(0).request)));
        QVERIFY(w->pathChart()->requestLabel(1).contains(QStringLiteral("south")));
        QVERIFY(w->pathChart()->requestLabel(2).isEmpty());
        QCOMPARE(w->resultCard()->state(), ResultCard::State::Released);
        QVERIFY(!model->data(model->index(0, 0), LedgerModel::RefusedRole).toBool());
        QVERIFY(w->sessionPanel()->isLocked());
        QVERIFY(!w->sessionPanel()->epsilonSpinBox()->isEnabled());
        QVERIFY(w->isWindowModified());

        // 2. More variety: a relative mean (doubling), a sum, and Enter in the predicate field.
        builder->setAggregate(data::Aggregate::Mean);
        builder->setColumn(QStringLiteral("wage"));
        typeWhere(*w, QStringLiteral("region == \"west\""));
        builder->setRelativeTarget(0.10);
        QTest::mouseClick(builder->askButton(), Qt::LeftButton);
        builder->setAggregate(data::Aggregate::Sum);
        builder->setColumn(QStringLiteral("education"));
        typeWhere(*w, QStringLiteral("parttime == \"no\""));
        builder->setAbsoluteTarget(5000.0);
        QTest::mouseClick(builder->askButton(), Qt::LeftButton);
        builder->setAggregate(data::Aggregate::Count);
        typeWhere(*w, QStringLiteral("smsa == \"yes\" and experience < 10"));
        builder->setAbsoluteTarget(150.0);
        QTest::keyClick(builder->whereEdit(), Qt::Key_Return);
        QCOMPARE(model->rowCount(), 4);
        QTRY_COMPARE(w->pathChart()->pointCount(), 4);

        // 3. A demanding target (±1 on a count) costs more than the whole budget: refused.
        builder->setAbsoluteTarget(1.0);
        typeWhere(*w, QString());
        const double spentBeforeRefusal = w->budgetGauge()->spent();
        QTest::mouseClick(builder->askButton(), Qt::LeftButton);
        QCOMPARE(model->rowCount(), 5);
        QVERIFY(model->data(model->index(4, 0), LedgerModel::RefusedRole).toBool());
        QCOMPARE(w->resultCard()->state(), ResultCard::State::Refused);
        QCOMPARE(w->budgetGauge()->spent(), spentBeforeRefusal);
        QTRY_COMPARE(w->pathChart()->refusedCount(), 1);
        w->flushViews();
        QVERIFY(!test::saveScreenshot(*w, QStringLiteral("mainwindow_queries")).isEmpty());

        // Selecting the doubling request shows its attempts (each level released and paid).
        w->ledgerView()->selectRow(1);
        const auto &doubling = w->document()->session().events().at(1);
        QCOMPARE(w->attemptsView()->topLevelItemCount(), static_cast<int>(doubling.attempts.size()));
        QVERIFY(doubling.attempts.size() >= 2);
        // Each level's cost is a privacy loss: rounded up to the ledger's four digits (issue 29 §3;
        // before, "%.3g" to nearest), so the last one never reads below the level's charge.
        for (int i = 0; i < w->attemptsView()->topLevelItemCount(); ++i) {
            const QString shown = w->attemptsView()->topLevelItem(i)->text(ui::AttemptsView::CostColumn);
            const double cost = doubling.attempts.at(static_cast<std::size_t>(i)).cost;
            QCOMPARE(shown, ui::formatBound(cost));
            QVERIFY2(QLocale().toDouble(shown) >= cost, qPrintable(shown));
        }
        w->ledgerView()->selectRow(0);
        QCOMPARE(w->attemptsView()->topLevelItem(0)->text(ui::AttemptsView::CostColumn),
                 model->data(model->index(0, LedgerModel::Cost)).toString());
        w->ledgerView()->selectRow(1);
        QVERIFY(!test::saveScreenshot(*w, QStringLiteral("mainwindow_attempts")).isEmpty());

        // 4. Modest counts until the filter refuses one: it never overspends.
        builder->setAbsoluteTarget(40.0);
        typeWhere(*w, QStringLiteral("ethnicity == \"afam\""));
        int asked = 0;
        while (asked < 200) {
            QTest::mouseClick(builder->askButton(), Qt::LeftButton);
            ++asked;
            const int last = model->rowCount() - 1;
            if (model->data(model->index(last, 0), LedgerModel::RefusedRole).toBool())
                break;
        }
        QVERIFY2(asked < 200, "the budget never ran out");
        QVERIFY(asked > 1);
        QCOMPARE(w->resultCard()->state(), ResultCard::State::Refused);
        QVERIFY(w->budgetGauge()->spent() <= w->budgetGauge()->nativeBudget());
        QVERIFY(w->budgetGauge()->fraction() > 0.5);
        QTRY_COMPARE(w->pathChart()->pointCount(), model->rowCount());
        QTRY_COMPARE(w->pathChart()->refusedCount(), 2);
        w->flushViews();
        QVERIFY(!test::saveScreenshot(*w, QStringLiteral("mainwindow_exhausted")).isEmpty());

        // 5. Save the transcript and a CSV; reopen the transcript in a fresh window.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString json = dir.filePath(QStringLiteral("session.json"));
        auto saved = w->saveSessionTo(json);
        QVERIFY2(saved.ok(), saved.ok() ? "" : saved.error().message.c_str());
        QVERIFY(!w->isWindowModified());
        QVERIFY(w->windowTitle().contains(QStringLiteral("session.json")));
        const QString csv = dir.filePath(QStringLiteral("ledger.csv"));
        QVERIFY(w->exportCsvTo(csv).ok());
        QFile csvFile(csv);
        QVERIFY(csvFile.open(QIODevice::ReadOnly));
        const QByteArray csvBytes = csvFile.readAll();
        QCOMPARE(csvBytes.count('\n'), model->rowCount() + 1);

        const auto &original = w->document()->session();
        MainWindow reopened;
        reopened.resize(1400, 900);
        // The first window still holds the journal (locked): reopen a copy of the saved files.
        const QString copy = dir.filePath(QStringLiteral("session-copy.json"));
        for (const QString &suffix : {QString(), QStringLiteral(".journal"), QStringLiteral(".journal.tail")})
            QVERIFY(QFile::copy(json + suffix, copy + suffix));
        auto opened = reopened.openSessionFile(copy);
        QVERIFY2(opened.ok(), opened.ok() ? "" : opened.error().message.c_str());
        const auto &restored = reopened.document()->session();
        QCOMPARE(restored.events().size(), original.events().size());
        QCOMPARE(restored.filter().spent(), original.filter().spent());
        QCOMPARE(restored.filter().epsilonSpent(), original.filter().epsilonSpent());
        QCOMPARE(restored.settings().seed, original.settings().seed);
        QCOMPARE(reopened.ledgerModel()->rowCount(), model->rowCount());
        QCOMPARE(reopened.budgetGauge()->spent(), w->budgetGauge()->spent());
        QTRY_COMPARE(reopened.pathChart()->pointCount(), model->rowCount());
        QVERIFY(reopened.sessionPanel()->isLocked());
        QVERIFY(!reopened.isWindowModified());
        QVERIFY(reopened.windowTitle().contains(QStringLiteral("session-copy.json")));
        reopened.show();
        QVERIFY(QTest::qWaitForWindowExposed(&reopened));
        reopened.flushViews();
        QVERIFY(!test::saveScreenshot(reopened, QStringLiteral("mainwindow_reopened")).isEmpty());

        // 6. A broken transcript is refused and the current session is untouched.
        const QString broken = dir.filePath(QStringLiteral("broken.json"));
        QFile brokenFile(broken);
        QVERIFY(brokenFile.open(QIODevice::WriteOnly));
        brokenFile.write("{\"format\": \"pbx-transcript\", \"version\": 1, \"events\": [");
        brokenFile.close();
        const auto eventsBefore = reopened.document()->eventCount();
        PBX_VERIFY_ERROR(reopened.openSessionFile(broken), Parse, "not valid JSON");
        PBX_VERIFY_ERROR(reopened.openSessionFile(dir.filePath(QStringLiteral("missing.json"))), NotFound,
                         "missing.json");
        QCOMPARE(reopened.document()->eventCount(), eventsBefore);
        QCOMPARE(reopened.ledgerModel()->rowCount(), eventsBefore);
    }

    void invalidRequestRecordsNothing()
    {
        auto w = makeWindow();
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        typeWhere(*w, QStringLiteral("regon == \"south\""));
        QVERIFY(!w->queryBuilder()->validationError().isEmpty());
        QVERIFY(w->queryBuilder()->whereStatusLabel()->text().contains(QStringLiteral("regon")));
        QTest::mouseClick(w->queryBuilder()->askButton(), Qt::LeftButton);
        QCOMPARE(w->resultCard()->state(), ResultCard::State::Invalid);
        QCOMPARE(w->ledgerModel()->rowCount(), 0);
        QCOMPARE(w->budgetGauge()->spent(), 0.0);
        QVERIFY(!w->sessionPanel()->isLocked());
        QVERIFY(!w->isWindowModified());
        w->flushViews();
        QVERIFY(!test::saveScreenshot(*w, QStringLiteral("mainwindow_invalid")).isEmpty());
    }

    // Two actions whose scopes overlap must not share a key sequence (Qt then runs neither and
    // prints "Ambiguous shortcut overload"), and no action lists a sequence twice. A window-wide
    // shortcut overlaps everything in the window; a widget-scoped one overlaps another when one's
    // widget contains the other's.
    void noAmbiguousShortcuts()
    {
        auto w = makeWindow();
        w->show();
        QList<QAction *> actions;
        for (QAction *action : w->findChildren<QAction *>())
            if (!action->shortcuts().isEmpty() && !actions.contains(action))
                actions.append(action);
        QVERIFY(actions.size() >= 10); // the menus' actions and the plan editor's
        const auto widgetsOf = [](const QAction *action) {
            QList<const QWidget *> widgets;
            for (const QObject *object : action->associatedObjects())
                if (const auto *widget = qobject_cast<const QWidget *>(object);
                    widget && !widget->inherits("QMenu") && !widget->inherits("QToolBar"))
                    widgets.append(widget);
            return widgets;
        };
        const auto overlap = [&](const QAction *a, const QAction *b) {
            const auto scoped = [](const QAction *x) {
                return x->shortcutContext() == Qt::WidgetShortcut
                       || x->shortcutContext() == Qt::WidgetWithChildrenShortcut;
            };
            if (!scoped(a) || !scoped(b))
                return true;
            for (const QWidget *p : widgetsOf(a))
                for (const QWidget *q : widgetsOf(b))
                    if (p == q || p->isAncestorOf(q) || q->isAncestorOf(p))
                        return true;
            return false;
        };
        for (const QAction *a : actions) {
            const QList<QKeySequence> keys = a->shortcuts();
            for (qsizetype i = 0; i < keys.size(); ++i)
                QVERIFY2(keys.indexOf(keys[i], i + 1) < 0,
                         qPrintable(a->text() + QStringLiteral(": ") + keys[i].toString()
                                    + QStringLiteral(" twice")));
            for (const QAction *b : actions) {
                if (a >= b || !overlap(a, b))
                    continue;
                for (const QKeySequence &key : keys)
                    QVERIFY2(!b->shortcuts().contains(key),
                             qPrintable(QStringLiteral("%1 is both '%2' and '%3'")
                                            .arg(key.toString(), a->text(), b->text())));
            }
        }
    }

    // A session saved by pbx-cli run --epsilon 1000 reopens showing ε = 1000, not a clamped 100.
    void budgetOutsideTheFieldsRangeIsShownAsIs()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("wide.json"));
        {
            auto w = std::make_unique<MainWindow>();
            QVERIFY(w->openDataset(QStringLiteral("cps1988")).ok());
            session::SessionSettings wide = seededSettings();
            wide.epsilon = 1000.0;
            QVERIFY(w->startNewSession(wide).ok());
            w->ask();
            QVERIFY(w->saveSessionTo(path).ok());
        }
        MainWindow reopened;
        auto opened = reopened.openSessionFile(path);
        QVERIFY2(opened.ok(), opened.ok() ? "" : opened.error().message.c_str());
        QCOMPARE(reopened.document()->settings().epsilon, 1000.0);
        QCOMPARE(reopened.sessionPanel()->epsilonSpinBox()->value(), 1000.0);
        QCOMPARE(reopened.sessionPanel()->settings().epsilon, 1000.0);
    }

    void settingsApplyUntilFirstRequest()
    {
        auto w = makeWindow();
        auto *panel = w->sessionPanel();
        // ε 1 → 2 through the spin box: a fresh session with the larger budget.
        const double rhoAtOne = w->budgetGauge()->nativeBudget();
        panel->epsilonSpinBox()->setValue(2.0);
        QCOMPARE(w->document()->settings().epsilon, 2.0);
        QVERIFY(w->budgetGauge()->nativeBudget() > rhoAtOne);
        QCOMPARE(w->budgetGauge()->epsilonBudget(), 2.0);
        // zCDP → pure ε: the unit changes everywhere.
        panel->filterComboBox()->setCurrentIndex(
            panel->filterComboBox()->findData(static_cast<int>(filters::FilterKind::Basic)));
        QCOMPARE(w->document()->settings().filter, filters::FilterKind::Basic);
        QCOMPARE(w->budgetGauge()->unitSymbol(), QStringLiteral("ε"));
        QCOMPARE(w->ledgerModel()->unitSymbol(), QStringLiteral("ε"));
        QCOMPARE(w->budgetGauge()->nativeBudget(), 2.0);
        // Seed kept from the seeded start.
        QCOMPARE(w->document()->settings().seed, std::optional<std::uint64_t>(kMainWindowSeed));

        // zCDP with δ = 0 is invalid: shown, not applied.
        panel->filterComboBox()->setCurrentIndex(
            panel->filterComboBox()->findData(static_cast<int>(filters::FilterKind::Zcdp)));
        panel->deltaSpinBox()->setValue(0.0);
        QVERIFY(panel->errorLabel()->isVisibleTo(panel));
        QVERIFY(w->document()->settings().delta > 0.0);
        panel->deltaSpinBox()->setValue(1e-7);
        QVERIFY(!panel->errorLabel()->isVisibleTo(panel));
        QCOMPARE(w->document()->settings().delta, 1e-7);

        // The Rényi filter keeps its gauge in ε (at the binding order), the advanced-composition
        // filter in ρ = Σε²/2 with the budget ρ(ε, δ).
        panel->filterComboBox()->setCurrentIndex(
            panel->filterComboBox()->findData(static_cast<int>(filters::FilterKind::Advanced)));
        QCOMPARE(w->document()->settings().filter, filters::FilterKind::Advanced);
        QCOMPARE(w->budgetGauge()->unitSymbol(), QStringLiteral("ρ"));
        panel->filterComboBox()->setCurrentIndex(
            panel->filterComboBox()->findData(static_cast<int>(filters::FilterKind::Rdp)));
        QCOMPARE(w->document()->settings().filter, filters::FilterKind::Rdp);
        QCOMPARE(w->budgetGauge()->unitSymbol(), QStringLiteral("ε"));
        QCOMPARE(w->budgetGauge()->nativeBudget(), 2.0);

        // After one request the settings are locked.
        w->queryBuilder()->setAbsoluteTarget(200.0);
        w->ask();
        QCOMPARE(w->ledgerModel()->rowCount(), 1);
        QVERIFY(panel->isLocked());
        QVERIFY(!panel->filterComboBox()->isEnabled());
        // The request was answered under the Rényi filter: a Gaussian count, ε spent > 0.
        QVERIFY(w->document()->session().filter().epsilonSpent() > 0.0);
        QCOMPARE(w->document()->session().filter().kind(), filters::FilterKind::Rdp);
    }

    /// --filter odometer in the GUI: no ε field, a gauge with no end of scale, every count
    /// answered past ε = 1, and the path's pre-planned line below the odometer's.
    void odometerSession()
    {
        auto w = makeWindow();
        auto *panel = w->sessionPanel();
        panel->filterComboBox()->setCurrentIndex(
            panel->filterComboBox()->findData(static_cast<int>(filters::FilterKind::Odometer)));
        QCOMPARE(w->document()->settings().filter, filters::FilterKind::Odometer);
        QVERIFY(!panel->epsilonSpinBox()->isVisibleTo(panel)); // only δ is fixed
        auto *gauge = w->budgetGauge();
        QVERIFY(gauge->isOdometer());
        QCOMPARE(gauge->fraction(), 0.0);
        QVERIFY(w->pathChart()->showsOdometer());
        auto *mode = w->findChild<ui::SegmentLabel *>(QStringLiteral("modeStatus"));
        QVERIFY(mode && mode->fullText().contains(QStringLiteral("no ε budget")));
        w->queryBuilder()->setAbsoluteTarget(20.0);
        for (int i = 0; i < 12; ++i)
            w->ask();
        QCOMPARE(w->ledgerModel()->rowCount(), 12);
        const auto &filter = dynamic_cast<const filters::OdometerFilter &>(w->document()->session().filter());
        QVERIFY(filter.epsilonSpent() > 1.0); // beyond a (1, δ) filter, still answered
        for (const auto &e : w->document()->session().events())
            QCOMPARE(e.status, session::EventStatus::Released);
        QCOMPARE(gauge->epsilonSpent(), filter.epsilonSpent());
        QCOMPARE(gauge->preplanned(), filter.preplannedEpsilon());
        QVERIFY(gauge->preplanned() < gauge->epsilonSpent());
        // No end of scale: the arc fills ε/(1 + ε).
        PBX_FUZZY_COMPARE(gauge->fraction(), filter.epsilonSpent() / (1.0 + filter.epsilonSpent()), 1e-15);
        QVERIFY(gauge->accessibleDescription().contains(QStringLiteral("odometer: ε ≤ ")));
        QVERIFY(w->resultCard()->details().contains(QStringLiteral("valid whenever you stop")));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
