// SPDX-License-Identifier: MIT
// File ▸ Open dataset on a database table: the dialog offers CSV, SQLite and
// PostgreSQL and builds the descriptor; opening CPS1988 in SQLite through it shows where the data
// live in the dataset panel; a count answered there equals the in-memory session's (same seed);
// a quantile is refused with nothing spent; the window looked at offscreen at 1024×768. On a
// database session the Query menu offers disabled what the source cannot answer, with the core's
// line (session::sourceRefusal), before Ask; the labs that read rows say plainly that the rows are
// not in memory (public metadata) or run on a synthetic table from the metadata (private).
#include "tests/sources/sqlite_cps.h"
#include "tests/testutils.h"
#include "ui/lab/labdialog.h"
#include "ui/mainwindow.h"
#include "ui/panels/datasetpanel.h"
#include "ui/panels/querybuilder.h"
#include "ui/sessiondocument.h"
#include "ui/sources/opendatasetdialog.h"
#include "ui/strategies/strategieslabdialog.h"
#include "ui/strategies/strategyrequestdialog.h"
#include "uitestutils.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest/QtTest>

using namespace pbx;
using pbx::ui::LabDialog;
using pbx::ui::MainWindow;
using pbx::ui::OpenDatasetDialog;

namespace {

session::SessionSettings seeded()
{
    session::SessionSettings s;
    s.epsilon = 5.0;
    s.seed = 30;
    return s;
}

session::QueryRequest countSouth()
{
    session::QueryRequest r;
    r.query.aggregate = data::Aggregate::Count;
    r.query.where = "region == \"south\"";
    r.target = {session::TargetKind::Absolute, 50.0, 0.95};
    return r;
}

/// The action named `objectName` of `window` (nullptr: none).
QAction *actionNamed(const MainWindow &window, const QString &objectName)
{
    return window.findChild<QAction *>(objectName);
}

/// The metadata file a saved session records (its header's dataset.metadata_path).
QString recordedMetadataPath(const QString &transcript)
{
    QFile file(transcript);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll())
        .object()[QStringLiteral("dataset")]
        .toObject()[QStringLiteral("metadata_path")]
        .toString();
}

/// The refusal's common tail for an SQLite source (core/session/source_support.cpp).
const QString kSqliteAnswers = QStringLiteral(
    ": a SQLite source answers counts, sums and means and histograms of a categorical column, computed "
    "in the database; load the table as a CSV file for this request");

} // namespace

class TestOpenDatabase : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_db = m_dir.filePath(QStringLiteral("cps.db"));
        QVERIFY(test::writeCps(m_db.toStdString(), test::cpsTable()));
        m_metadata = m_dir.filePath(QStringLiteral("cps.json"));
        QVERIFY(QFile::copy(QStringLiteral(PBX_SOURCE_DIR "/resources/datasets/cps1988.json"), m_metadata));
        QFile publicFile(m_metadata);
        QVERIFY(publicFile.open(QIODevice::ReadOnly));
        QByteArray text = publicFile.readAll();
        QVERIFY(text.contains("\"public\": true"));
        text.replace("\"public\": true", "\"public\": false");
        m_privateMetadata = m_dir.filePath(QStringLiteral("cps-private.json"));
        QFile privateFile(m_privateMetadata);
        QVERIFY(privateFile.open(QIODevice::WriteOnly));
        QVERIFY(privateFile.write(text) == text.size());
    }

    // The three kinds: CSV is a path; SQLite a file and a table, percent-encoded into a
    // descriptor; PostgreSQL a descriptor as typed. Only database kinds ask for metadata.
    void dialogBuildsTheDescriptor()
    {
        OpenDatasetDialog dialog;
        QCOMPARE(dialog.kindBox()->count(), 3);
        QCOMPARE(dialog.kindBox()->itemText(2), QStringLiteral("PostgreSQL table"));
        dialog.pathField()->setText(QStringLiteral("/data/people.csv"));
        QCOMPARE(dialog.dataset(), QStringLiteral("/data/people.csv"));
        QVERIFY(dialog.metadataField()->isHidden());
        QCOMPARE(dialog.metadataPath(), QString());

        dialog.setKind(OpenDatasetDialog::Kind::Sqlite);
        dialog.pathField()->setText(QStringLiteral("/data/q?a&b.db"));
        dialog.tableField()->setText(QStringLiteral("wages 1988"));
        dialog.metadataField()->setText(QStringLiteral("/data/wages.json"));
        QVERIFY(!dialog.tableField()->isHidden());
        QCOMPARE(dialog.dataset(), QStringLiteral("sqlite:/data/q%3Fa%26b.db?table=wages 1988"));
        QCOMPARE(dialog.metadataPath(), QStringLiteral("/data/wages.json"));

        dialog.setKind(OpenDatasetDialog::Kind::Postgres);
        QVERIFY(dialog.tableField()->isHidden());
        dialog.pathField()->setText(QStringLiteral("postgresql://ana@db:5432/survey?table=wages"));
        QCOMPARE(dialog.dataset(), QStringLiteral("postgresql://ana@db:5432/survey?table=wages"));
    }

    // Through the menu action and the dialog: the panel says where the data live and the declared
    // row count; the same seed gives the in-memory session's answer; a quantile is refused.
    void opensAnSqliteTableFromTheMenu()
    {
        MainWindow w;
        w.resize(1024, 768);
        w.show();
        QAction *open = nullptr;
        for (QAction *action : w.findChildren<QAction *>())
            if (action->text().startsWith(QStringLiteral("Open &dataset")))
                open = action;
        QVERIFY(open);
        QVERIFY(open->text().contains(QStringLiteral("SQLite")));
        bool filled = false;
        QTimer::singleShot(0, this, [&] {
            auto *dialog = qobject_cast<OpenDatasetDialog *>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            dialog->setKind(OpenDatasetDialog::Kind::Sqlite);
            dialog->pathField()->setText(m_db);
            dialog->tableField()->setText(QStringLiteral("cps"));
            dialog->metadataField()->setText(m_metadata);
            QVERIFY(test::saveScreenshot(*dialog, QStringLiteral("open-dataset-sqlite")).size() > 0);
            filled = true;
            dialog->accept();
        });
        open->trigger();
        QVERIFY(filled);
        QVERIFY(w.document()->hasSession());
        QCOMPARE(w.document()->dataSource()->kind(), data::SourceKind::Sqlite);
        const QString location = w.datasetPanel()->sourceLabel()->text();
        QCOMPARE(location, QStringLiteral("SQLite file %1, table cps").arg(m_db));
        QCOMPARE(w.datasetPanel()->rowsLabel()->text(), QStringLiteral("28,155"));
        QCOMPARE(w.datasetPanel()->columnsTable()->rowCount(), 7);
        QVERIFY(test::saveScreenshot(w, QStringLiteral("open-database-1024x768")).size() > 0);

        QVERIFY(w.startNewSession(seeded()).ok());
        auto onSqlite = w.document()->ask(countSouth());
        QVERIFY2(onSqlite.ok(), onSqlite.ok() ? "" : onSqlite.error().message.c_str());
        auto inMemory
            = session::Session::create(std::make_shared<const data::Table>(test::cpsTable()), seeded());
        auto expected = (*inMemory)->ask(countSouth());
        QCOMPARE(onSqlite->answer, expected->answer);
        QCOMPARE(onSqlite->cost, expected->cost);

        session::QueryRequest quantile;
        quantile.query.column = "wage";
        quantile.target = {session::TargetKind::Absolute, 400.0, 0.95};
        session::StrategyRequestSpec spec;
        spec.kind = session::StrategyRequestKind::Quantile;
        quantile.spec = spec;
        const double spent = w.document()->session().filter().spent();
        PBX_VERIFY_ERROR(w.document()->ask(quantile), Unsupported, "a quantile needs an in-memory table");
        QCOMPARE(w.document()->session().filter().spent(), spent);
        QCOMPARE(w.document()->session().events().size(), std::size_t{1});
    }

    // Query ▸ Histogram, quantile…: quantile and workload are offered disabled with the core's
    // reason; a histogram of a numeric column or a subsampled one is refused on the status line,
    // word for word what Session::ask answers, and Ask is disabled; a categorical histogram is
    // asked and released. The sparse-vector and growing-stream actions are disabled with theirs.
    void queryMenuSaysWhatADatabaseCannotAnswer()
    {
        MainWindow w;
        w.resize(1024, 768);
        w.show();
        QVERIFY(w.openDataset(descriptor(), m_metadata).ok());
        QVERIFY(w.startNewSession(seeded()).ok());
        QAction *strategyAction = actionNamed(w, QStringLiteral("strategyRequestAction"));
        QVERIFY(strategyAction);
        strategyAction->trigger();
        auto *dialog = w.findChild<ui::StrategyRequestDialog *>(QStringLiteral("strategyRequestDialog"));
        QVERIFY(dialog);
        const auto *kinds = qobject_cast<QStandardItemModel *>(dialog->kindBox()->model());
        QVERIFY(kinds);
        QVERIFY(kinds->item(0)->isEnabled()); // histogram
        QVERIFY(!kinds->item(1)->isEnabled());
        QCOMPARE(kinds->item(1)->toolTip(),
                 QStringLiteral("a quantile needs an in-memory table (the exponential mechanism scores every "
                                "candidate over the sorted rows)")
                     + kSqliteAnswers);
        QVERIFY(kinds->item(2)->isEnabled()); // derived
        QVERIFY(!kinds->item(3)->isEnabled());
        QCOMPARE(kinds->item(3)->toolTip(),
                 QStringLiteral(
                     "a range workload needs an in-memory table (its unit cells are counted row by row)")
                     + kSqliteAnswers);

        dialog->setKind(session::StrategyRequestKind::Histogram);
        dialog->setColumn(QStringLiteral("wage"));
        dialog->setTargetError(200.0);
        const QString numeric
            = QStringLiteral("a histogram of a numeric column needs an in-memory table (its bins are counted "
                             "row by row)")
              + kSqliteAnswers;
        QCOMPARE(dialog->statusText(), numeric);
        QVERIFY(!dialog->askButton()->isEnabled());
        session::QueryRequest wage;
        wage.query.column = "wage";
        wage.target = {session::TargetKind::Absolute, 200.0, 0.95};
        wage.spec = session::StrategyRequestSpec{};
        PBX_VERIFY_ERROR(w.document()->ask(wage), Unsupported, numeric.toStdString());
        auto refused = w.document()->ask(wage);
        QCOMPARE(QString::fromStdString(refused.error().message), numeric); // the same line, whole

        dialog->setColumn(QStringLiteral("region"));
        QVERIFY(dialog->askButton()->isEnabled());
        QVERIFY(dialog->statusText().startsWith(QStringLiteral("One charge for the whole request")));
        dialog->setTransform(QString(), 1, 0.5);
        QCOMPARE(
            dialog->statusText(),
            QStringLiteral("a Poisson-subsampled histogram needs an in-memory table (the sample is drawn "
                           "row by row)")
                + kSqliteAnswers);
        QVERIFY(!dialog->askButton()->isEnabled());
        dialog->setTransform(QString(), 1, 1.0);
        QVERIFY(dialog->askButton()->isEnabled());
        const auto histogram = dialog->request();
        QVERIFY(histogram.ok());
        dialog->askButton()->click();      // the categorical histogram: one GROUP BY, released
        QVERIFY(w.document()->isAsking()); // off the GUI thread, as Ask (ui.asyncask)
        QTRY_VERIFY(!w.document()->isAsking());
        QCOMPARE(w.document()->session().events().size(), std::size_t{1});
        const session::LedgerEvent &released = w.document()->session().events()[0];
        QCOMPARE(released.status, session::EventStatus::Released);
        QCOMPARE(released.strategyRecord()->values.size(), std::size_t{4});
        // The same cells and charge as the in-memory copy's (same seed).
        auto inMemory
            = session::Session::create(std::make_shared<const data::Table>(test::cpsTable()), seeded());
        auto expected = (*inMemory)->ask(*histogram);
        QVERIFY(expected.ok());
        QCOMPARE(released.strategyRecord()->values, expected->strategyRecord()->values);
        QCOMPARE(released.cost, expected->cost);

        session::SessionSettings odp = seeded();
        odp.filter = filters::FilterKind::Odp;
        QVERIFY(w.startNewSession(odp).ok());
        QAction *svt = actionNamed(w, QStringLiteral("svtRequestAction"));
        QVERIFY(svt);
        QVERIFY(!svt->isEnabled());
        QCOMPARE(
            svt->toolTip(),
            QStringLiteral("an output-DP request needs an in-memory table (its mechanism runs over each row)")
                + kSqliteAnswers);

        session::SessionSettings replace = seeded();
        replace.neighbours = data::Neighbouring::Replace;
        QVERIFY(w.startNewSession(replace).ok());
        QAction *growing = actionNamed(w, QStringLiteral("growingRequestAction"));
        QVERIFY(growing);
        QVERIFY(!growing->isEnabled());
        QCOMPARE(growing->toolTip(),
                 QStringLiteral("a growing-database stream needs an in-memory table (it replays the rows one "
                                "arrival at a time)")
                     + kSqliteAnswers);

        // The same window on the in-memory copy offers every kind.
        QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
        QVERIFY(w.startNewSession(replace).ok());
        QVERIFY(growing->isEnabled());
        strategyAction->trigger();
        for (int i = 0; i < 4; ++i)
            QVERIFY(kinds->item(i)->isEnabled());
    }

    // Labs on a database session (a database source is private unless its metadata
    // says "public": true). Public: its rows are not in memory, and both labs say so instead of
    // "No dataset". Private: the relative-error lab runs on a synthetic table drawn from the
    // metadata with the declared 28,155 rows; the strategies lab refuses it as private.
    void labsOnADatabaseSession()
    {
        MainWindow w;
        QVERIFY(w.openDataset(descriptor(), m_metadata).ok());
        LabDialog *lab = w.relativeErrorLab();
        const QString where
            = QStringLiteral("the rows of SQLite file %1, table cps stay in the database").arg(m_db);
        QVERIFY2(lab->datasetLabel()->text().contains(QStringLiteral("Not available on this dataset")),
                 qPrintable(lab->datasetLabel()->text()));
        QVERIFY(lab->datasetLabel()->text().contains(where));
        QVERIFY(lab->datasetLabel()->text().contains(QStringLiteral("declares them public")));
        QVERIFY(!lab->runButton()->isEnabled());
        ui::StrategiesLabDialog *strategies = w.strategiesLab();
        QVERIFY2(strategies->bannerText().contains(QStringLiteral("Needs the rows in memory")),
                 qPrintable(strategies->bannerText()));
        QVERIFY(strategies->bannerText().contains(where));
        QVERIFY(!strategies->tabs()->widget(2)->isEnabled());

        // The same table with metadata that does not declare it public.
        QVERIFY(w.openDataset(descriptor(), m_privateMetadata).ok());
        QVERIFY(!w.document()->dataSource()->isPublic());
        QVERIFY2(lab->datasetLabel()->text().contains(QStringLiteral("not declared public")),
                 qPrintable(lab->datasetLabel()->text()));
        QVERIFY(lab->datasetLabel()->text().contains(QStringLiteral("synthetic cps1988")));
        QVERIFY(lab->datasetLabel()->text().contains(QStringLiteral("28,155 rows")));
        QVERIFY(lab->runButton()->isEnabled());
        simulation::LabSettings small;
        small.repetitions = 2;
        small.queriesPerRepetition = 20;
        lab->setSettings(small);
        QSignalSpy finished(lab, &LabDialog::runFinished);
        lab->run();
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.first().first().toBool(), true);
        QVERIFY(!lab->results().empty());
        QVERIFY(strategies->bannerText().contains(QStringLiteral("is not declared public")));
        QVERIFY(!strategies->tabs()->widget(2)->isEnabled());
    }

    // A database table whose metadata declares no "rows". Public metadata ("public": true): the
    // table's own count plans (issue 30 §1), so the cost line is that of the same metadata with
    // "rows": 28155, counted once on first use (not at open; the first cost line); the dataset
    // panel shows the count. Private: the query builder's cost line says the release will be
    // refused, with the line Session::ask refuses it with, before Ask; nothing is counted.
    void costLineOnATableWithoutDeclaredRows()
    {
        const auto withoutRows = [&](const QString &from, const QString &name) {
            QFile in(from);
            if (!in.open(QIODevice::ReadOnly))
                return QString();
            QByteArray text = in.readAll();
            if (!text.contains("\"rows\": 28155,"))
                return QString();
            text.replace("\"rows\": 28155,", "");
            const QString path = m_dir.filePath(name);
            QFile out(path);
            return out.open(QIODevice::WriteOnly) && out.write(text) == text.size() ? path : QString();
        };
        const QString publicNoRows = withoutRows(m_metadata, QStringLiteral("cps-no-rows.json"));
        const QString privateNoRows
            = withoutRows(m_privateMetadata, QStringLiteral("cps-private-no-rows.json"));
        QVERIFY(!publicNoRows.isEmpty() && !privateNoRows.isEmpty());
        QString declaredCost;
        {
            MainWindow w;
            QVERIFY(w.openDataset(descriptor(), m_metadata).ok());
            QVERIFY(w.startNewSession(seeded()).ok());
            auto *builder = w.queryBuilder();
            builder->setAggregate(data::Aggregate::Count);
            builder->setAbsoluteTarget(50.0);
            declaredCost = builder->costPreview();
            QVERIFY2(declaredCost.startsWith(QStringLiteral("This request ")), qPrintable(declaredCost));
        }
        {
            auto opened = ui::SessionDocument::loadSource(descriptor(), publicNoRows);
            QVERIFY(opened.ok());
            QVERIFY(!(*opened)->declaredRowCount());
            QVERIFY(!(*opened)->knownPublicRowCount()); // not counted at open
            MainWindow w;
            QVERIFY(w.openDataset(descriptor(), publicNoRows).ok());
            QVERIFY(w.startNewSession(seeded()).ok());
            QVERIFY(!w.document()->dataSource()->declaredRowCount());
            // The first session's cost line counted the table off the GUI thread; the panel shows the
            // count once it is known.
            QTRY_COMPARE(w.datasetPanel()->rowsLabel()->text(), QStringLiteral("28,155"));
            QCOMPARE(*w.document()->dataSource()->knownPublicRowCount(), std::size_t{28155});
            auto *builder = w.queryBuilder();
            builder->setAggregate(data::Aggregate::Count);
            builder->setAbsoluteTarget(50.0);
            QCOMPARE(builder->costPreview(), declaredCost);
            auto asked = w.document()->ask(builder->request());
            QVERIFY2(asked.ok(), asked.ok() ? "" : asked.error().message.c_str());
            QCOMPARE(asked->status, session::EventStatus::Released);
            QVERIFY(w.document()->session().filter().spent() > 0.0);
        }
        MainWindow w;
        QVERIFY(w.openDataset(descriptor(), privateNoRows).ok());
        QVERIFY(w.startNewSession(seeded()).ok());
        QVERIFY(!w.document()->dataSource()->declaredRowCount());
        QCOMPARE(w.datasetPanel()->rowsLabel()->text(),
                 QStringLiteral("not declared (its metadata gives no \"rows\")"));
        auto *builder = w.queryBuilder();
        builder->setAggregate(data::Aggregate::Count);
        builder->setAbsoluteTarget(50.0);
        const QString refusal = QStringLiteral(
            "rows: the dataset's metadata declares no row count, which a release needs to bound its sensitivity; "
            "declare \"rows\" in the metadata");
        QCOMPARE(builder->costPreview(), QStringLiteral("It will be refused: ") + refusal);
        auto asked = w.document()->ask(builder->request());
        QVERIFY(!asked.ok());
        QCOMPARE(QString::fromStdString(asked.error().message), refusal);
        QCOMPARE(w.document()->session().filter().spent(), 0.0);
        QVERIFY(!w.document()->dataSource()->knownPublicRowCount());
    }

    // File ▸ Open session of a session recorded on SQLite whose metadata file has moved since: the
    // document asks its chooser where the file is now, naming the missing one; the file chosen
    // must be the recorded one (its SHA-256): then the session opens and goes on, from its journal
    // and from the transcript alone; a changed file is refused in one line, and so is a cancelled
    // choice, with the current session unchanged. The app's chooser is a file dialog whose title
    // names the missing file (driven offscreen).
    void openSessionWhoseMetadataMoved()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("before"))
                && QDir(dir.path()).mkpath(QStringLiteral("after")));
        const QString recorded = dir.filePath(QStringLiteral("before/cps.json"));
        const QString moved = dir.filePath(QStringLiteral("after/cps.json"));
        const QString changed = dir.filePath(QStringLiteral("after/cps-changed.json"));
        const QString transcript = dir.filePath(QStringLiteral("session.json"));
        QVERIFY(QFile::copy(m_metadata, recorded));
        double spent = 0.0;
        {
            MainWindow w;
            QVERIFY(w.openDataset(descriptor(), recorded).ok());
            QVERIFY(w.startNewSession(seeded()).ok());
            QVERIFY(w.document()->ask(countSouth()).ok());
            spent = w.document()->session().filter().spent();
            QVERIFY(spent > 0.0);
            QVERIFY(w.saveSessionTo(transcript).ok());
        }
        QVERIFY(QFile::rename(recorded, moved));
        {
            QFile in(moved);
            QVERIFY(in.open(QIODevice::ReadOnly));
            QByteArray text = in.readAll();
            text.replace("\"public\": true", "\"public\": false");
            QFile out(changed);
            QVERIFY(out.open(QIODevice::WriteOnly) && out.write(text) == text.size());
        }

        // No chooser (what code that must not show dialogs gets): refused, naming the missing file.
        MainWindow w;
        auto refused = w.openSessionFile(transcript);
        QVERIFY(!refused.ok());
        QVERIFY2(
            QString::fromStdString(refused.error().message)
                .endsWith(QStringLiteral("the metadata file %1 recorded in the session is missing (moved or "
                                         "deleted)")
                              .arg(recorded)),
            refused.error().message.c_str());
        QVERIFY(!w.document()->hasSession());

        QStringList asked;
        QString answer;
        w.document()->setMetadataChooser([&](const QString &missing) {
            asked << missing;
            return answer;
        });
        // Cancelled: refused in one line, nothing opened.
        refused = w.openSessionFile(transcript);
        QVERIFY(!refused.ok());
        QVERIFY2(
            QString::fromStdString(refused.error().message)
                .endsWith(QStringLiteral("the metadata file %1 recorded in the session is missing (moved or "
                                         "deleted); no other file was chosen")
                              .arg(recorded)),
            refused.error().message.c_str());
        QVERIFY(refused.error().message.find('\n') == std::string::npos);
        QCOMPARE(asked, QStringList{recorded});
        QVERIFY(!w.document()->hasSession());

        // Another metadata file (its text changed): refused, naming the SHA-256 mismatch.
        answer = changed;
        refused = w.openSessionFile(transcript);
        QVERIFY(!refused.ok());
        QVERIFY2(
            QString::fromStdString(refused.error().message)
                .contains(QStringLiteral("the metadata file %1 is not the one the session was run on (its "
                                         "SHA-256 differs from the recorded ")
                              .arg(changed)),
            refused.error().message.c_str());
        QVERIFY(refused.error().message.find('\n') == std::string::npos);
        QVERIFY(!w.document()->hasSession());

        // The same file at its new place: the session opens (from its journal) and goes on.
        answer = moved;
        asked.clear();
        auto opened = w.openSessionFile(transcript);
        QVERIFY2(opened.ok(), opened.ok() ? "" : opened.error().message.c_str());
        QCOMPARE(asked, QStringList{recorded});
        QCOMPARE(w.document()->eventCount(), 1);
        QCOMPARE(w.document()->session().filter().spent(), spent);
        QCOMPARE(w.document()->dataSource()->schema().files()->metadataPath, moved.toStdString());
        QCOMPARE(w.datasetPanel()->sourceLabel()->text(),
                 QStringLiteral("SQLite file %1, table cps").arg(m_db));
        auto next = w.document()->ask(countSouth());
        QVERIFY2(next.ok(), next.ok() ? "" : next.error().message.c_str());
        QCOMPARE(next->status, session::EventStatus::Released);
        QVERIFY(w.saveSessionTo(transcript).ok());
        w.document()->close();

        // The saved transcript records the file's new place. Moved once more, and opened from the
        // transcript alone (no journal beside it): the same question, the same checks.
        QCOMPARE(recordedMetadataPath(transcript), moved);
        QVERIFY(QFile::remove(transcript + QStringLiteral(".journal")));
        const QString movedAgain = dir.filePath(QStringLiteral("cps-again.json"));
        QVERIFY(QFile::rename(moved, movedAgain));
        MainWindow fresh;
        answer = changed;
        asked.clear();
        fresh.document()->setMetadataChooser([&](const QString &missing) {
            asked << missing;
            return answer;
        });
        refused = fresh.openSessionFile(transcript);
        QVERIFY(!refused.ok());
        QVERIFY2(QString::fromStdString(refused.error().message)
                     .contains(QStringLiteral("the metadata file %1 is not the one the session was run on")
                                   .arg(changed)),
                 refused.error().message.c_str());
        answer = movedAgain;
        opened = fresh.openSessionFile(transcript);
        QVERIFY2(opened.ok(), opened.ok() ? "" : opened.error().message.c_str());
        QCOMPARE(asked, (QStringList{moved, moved}));
        QCOMPARE(fresh.document()->eventCount(), 2);
        QVERIFY(fresh.document()->ask(countSouth()).ok());

        // The app's chooser: a file dialog whose title says which file is missing.
        QString title;
        QTimer::singleShot(0, this, [&] {
            auto *dialog = qobject_cast<QFileDialog *>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            title = dialog->windowTitle();
            dialog->selectFile(movedAgain);
            static_cast<QDialog *>(dialog)->accept(); // QFileDialog::accept(), as the Open button
        });
        QCOMPARE(ui::SessionDocument::askForMovedMetadata(&fresh, recorded), movedAgain);
        QCOMPARE(title,
                 QStringLiteral("The session's metadata file %1 is missing: where is it now?").arg(recorded));
    }

private:
    QString descriptor() const { return QStringLiteral("sqlite:%1?table=cps").arg(m_db); }

    QTemporaryDir m_dir;
    QString m_db;
    QString m_metadata;
    QString m_privateMetadata;
};

QTEST_MAIN(TestOpenDatabase)
#include "tst_opendatabase.moc"
