// SPDX-License-Identifier: MIT
// Ask on a database source runs off the GUI thread (issue 30, the GUI): on an SQLite view whose
// predicate column takes about 45 ms a row to compute, the window's event loop keeps running (a
// timer fires), the Ask button says "Asking…", the result card shows a busy bar and Cancel, and
// nothing else can ask or change the session; Cancel stops the statement within a moment and the
// card says nothing was spent; the journal, the ledger and the gauge agree. On the plain table the
// same Ask gives the in-memory session's numbers. The cost line of a public table without declared
// rows counts them off the GUI thread ("counting the table's rows first…").
#include "core/io/session_journal.h"
#include "core/session/planned_cap.h"
#include "tests/sources/sqlite_cps.h"
#include "tests/testutils.h"
#include "ui/mainwindow.h"
#include "ui/models/ledgermodel.h"
#include "ui/panels/querybuilder.h"
#include "ui/panels/sessionpanel.h"
#include "ui/sessiondocument.h"
#include "ui/widgets/budgetgauge.h"
#include "ui/widgets/resultcard.h"
#include "uitestutils.h"

#include <QAction>
#include <QElapsedTimer>
#include <QFile>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest/QtTest>

#include <atomic>
#include <chrono>
#include <thread>

using namespace pbx;
using pbx::ui::MainWindow;
using pbx::ui::ResultCard;
using pbx::ui::SessionDocument;

namespace asyncask {

session::SessionSettings seededSettings()
{
    session::SessionSettings s;
    s.epsilon = 5.0;
    s.seed = 30;
    return s;
}

/// The query builder asks a count of the south with an absolute error of 50 at 95 %.
void buildCountSouth(ui::QueryBuilder &builder)
{
    builder.setAggregate(data::Aggregate::Count);
    builder.whereEdit()->setText(QStringLiteral("region == \"south\""));
    builder.setAbsoluteTarget(50.0);
}

session::QueryRequest countSouthRequest()
{
    session::QueryRequest r;
    r.query.aggregate = data::Aggregate::Count;
    r.query.where = "region == \"south\"";
    r.target = {session::TargetKind::Absolute, 50.0, 0.95};
    return r;
}

/// The journal's events (read without locking it, as pbx-cli verify does).
std::vector<session::LedgerEvent> journalEvents(const QString &path)
{
    auto read = io::readSessionJournal(path.toStdString());
    if (!read.ok())
        qFatal("%s", read.error().message.c_str());
    return read->events;
}

/// CPS1988 in memory answering as a database whose statement cannot be interrupted: each
/// aggregate takes 400 ms and a cancel is only counted, so a Cancel comes too late (the request
/// is charged). The kind is SQLite, so the document asks it off the GUI thread.
class UninterruptibleSource final : public data::Source
{
public:
    explicit UninterruptibleSource(std::shared_ptr<const data::Table> table) : m_inner(std::move(table)) {}
    const data::Table &schema() const override { return m_inner.schema(); }
    data::SourceKind kind() const override { return data::SourceKind::Sqlite; }
    std::string location() const override { return "a test database that cannot be interrupted"; }
    std::optional<std::size_t> declaredRowCount() const override { return m_inner.declaredRowCount(); }
    void setCancelRequested(bool requested) const override
    {
        if (requested)
            ++cancels;
    }
    mutable std::atomic<int> cancels{0};

private:
    Result<data::QueryStatistics> computeStatistics(const data::CompiledQuery &query) const override
    {
        std::this_thread::sleep_for(std::chrono::milliseconds(400));
        auto aggregates = data::publicAggregates(m_inner, "a test");
        if (!aggregates)
            return aggregates.error();
        return aggregates->statistics(query);
    }
    Result<data::CategoryCounts> computeCategoryCounts(std::size_t column,
                                                       const data::Predicate &where) const override
    {
        auto aggregates = data::publicAggregates(m_inner, "a test");
        if (!aggregates)
            return aggregates.error();
        return aggregates->categoryCounts(m_inner.schema().columnInfo(column).name, where);
    }

    data::TableSource m_inner;
};

} // namespace asyncask

class TestAsyncAsk : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_db = m_dir.filePath(QStringLiteral("cps.db"));
        QVERIFY(test::writeCps(m_db.toStdString(), test::cpsTable()));
        {
            // The region of every row costs a 4-MB zeroblob's hex (about 45 ms; the 0 * education
            // keeps SQLite from computing it once): COUNT(*) stays instant (the declared rows are
            // checked at open), a predicate on region runs for about 20 minutes.
            test::Writer writer(m_db.toStdString());
            QVERIFY2(
                writer.exec("CREATE VIEW slowregion AS SELECT wage, education, experience, ethnicity, smsa, "
                            "CASE WHEN length(hex(zeroblob(4000000 + 0 * education))) > 0 THEN region END "
                            "AS region, parttime FROM cps"),
                writer.error().c_str());
            // 28,155 × 100,000 rows: its COUNT(*) runs far beyond any timeout.
            QVERIFY2(
                writer.exec("CREATE VIEW hugecps AS SELECT cps.* FROM cps, (WITH RECURSIVE c(v) AS "
                            "(SELECT 1 UNION ALL SELECT v + 1 FROM c WHERE v < 100000) SELECT v FROM c)"),
                writer.error().c_str());
        }
        m_metadata = m_dir.filePath(QStringLiteral("cps.json"));
        QVERIFY(QFile::copy(QStringLiteral(PBX_SOURCE_DIR "/resources/datasets/cps1988.json"), m_metadata));
        QFile in(m_metadata);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray text = in.readAll();
        QVERIFY(text.contains("\"rows\": 28155,") && text.contains("\"public\": true"));
        text.replace("\"rows\": 28155,", "");
        m_publicNoRows = m_dir.filePath(QStringLiteral("cps-no-rows.json"));
        QFile out(m_publicNoRows);
        QVERIFY(out.open(QIODevice::WriteOnly) && out.write(text) == text.size());
    }

    // A slow Ask: the event loop runs (a 20-ms timer ticks), the busy state shows, nothing else
    // asks or changes the session; Cancel stops the statement in well under a second; the card
    // says nothing was spent; no event in the ledger, the journal or the gauge; Ask works again.
    void slowAskKeepsTheWindowResponsiveAndCancels()
    {
        MainWindow w;
        w.resize(1024, 768);
        w.show();
        QVERIFY(w.openDataset(QStringLiteral("sqlite:%1?table=slowregion").arg(m_db), m_metadata).ok());
        QVERIFY(w.startNewSession(asyncask::seededSettings()).ok());
        SessionDocument *doc = w.document();
        asyncask::buildCountSouth(*w.queryBuilder());
        QVERIFY2(w.queryBuilder()->costPreview().startsWith(QStringLiteral("This request ")),
                 qPrintable(w.queryBuilder()->costPreview()));
        QAction *askAction = w.findChild<QAction *>(QStringLiteral("askAction"));
        QVERIFY(askAction && askAction->isEnabled());

        int ticks = 0;
        QTimer ticker;
        connect(&ticker, &QTimer::timeout, this, [&] { ++ticks; });
        ticker.start(20);
        QSignalSpy finished(&w, &MainWindow::askFinished);
        QSignalSpy asking(doc, &SessionDocument::askingChanged);
        QElapsedTimer clock;
        clock.start();
        w.ask();
        // ask() returned at once: the statement (minutes on the GUI thread) runs on a worker. The
        // bounds here are generous: CI runs two tests at a time on two cores.
        QVERIFY2(clock.elapsed() < 3000, qPrintable(QString::number(clock.elapsed())));
        QVERIFY(doc->isAsking());
        QCOMPARE(asking.count(), 1);
        QCOMPARE(finished.count(), 0);

        // The busy state.
        QCOMPARE(w.queryBuilder()->askButton()->text(), QStringLiteral("Asking…"));
        QVERIFY(!w.queryBuilder()->askButton()->isEnabled());
        QCOMPARE(w.resultCard()->state(), ResultCard::State::Asking);
        QVERIFY(w.resultCard()->busyBar()->isVisible());
        QVERIFY(w.resultCard()->cancelButton()->isVisible() && w.resultCard()->cancelButton()->isEnabled());
        QVERIFY(
            w.resultCard()->details().contains(QStringLiteral("SQLite file %1, table slowregion").arg(m_db)));
        QVERIFY(test::saveScreenshot(w, QStringLiteral("asking-database-1024x768")).size() > 0);
        QVERIFY(!askAction->isEnabled());
        QVERIFY(!w.sessionPanel()->isEnabled());
        for (const char *name : {"importCsvAction", "lessonsAction"}) {
            QAction *action = w.findChild<QAction *>(QString::fromLatin1(name));
            QVERIFY2(action && !action->isEnabled(), name);
        }
        // Nothing else asks or changes the session meanwhile.
        const QString busy = QStringLiteral("a request is running: wait for its answer or cancel it first");
        QCOMPARE(doc->busyReason(), busy);
        PBX_VERIFY_ERROR(doc->ask(asyncask::countSouthRequest()), InvalidArgument, busy.toStdString());
        PBX_VERIFY_ERROR(doc->startAsk(asyncask::countSouthRequest(), {}), InvalidArgument,
                         busy.toStdString());
        PBX_VERIFY_ERROR(w.startNewSession(asyncask::seededSettings()), InvalidArgument, busy.toStdString());
        PBX_VERIFY_ERROR(w.openDataset(QStringLiteral("cps1988")), InvalidArgument, busy.toStdString());
        PBX_VERIFY_ERROR(doc->saveTranscript(m_dir.filePath(QStringLiteral("busy.json"))), InvalidArgument,
                         busy.toStdString());
        PBX_VERIFY_ERROR(doc->flushJournal(), InvalidArgument, busy.toStdString());
        w.ask(); // refused on the status line, nothing started
        QCOMPARE(w.statusBar()->currentMessage(), QStringLiteral("Not asked: ") + busy);
        QCOMPARE(asking.count(), 1);

        // The event loop runs while the statement does.
        QTest::qWait(600);
        QVERIFY(doc->isAsking());
        QVERIFY2(ticks >= 3, qPrintable(QString::number(ticks))); // blocked, it would be 0 or 1
        QCOMPARE(finished.count(), 0);

        clock.restart();
        w.resultCard()->cancelButton()->click();
        QCOMPARE(w.resultCard()->cancelButton()->text(), QStringLiteral("Cancelling…"));
        QVERIFY(!w.resultCard()->cancelButton()->isEnabled());
        QVERIFY(finished.wait(5000));
        QVERIFY2(clock.elapsed() < 3000, qPrintable(QString::number(clock.elapsed())));
        QVERIFY(!doc->isAsking());
        QCOMPARE(asking.count(), 2);
        QCOMPARE(asking.at(1).at(0).toBool(), false);

        // The card says nothing was spent; the ledger, the gauge and the journal agree.
        QCOMPARE(w.resultCard()->state(), ResultCard::State::Cancelled);
        QCOMPARE(w.resultCard()->headline(), QStringLiteral("Cancelled"));
        QVERIFY2(
            w.resultCard()->details().contains(
                QStringLiteral("sqlite (%1): the query was cancelled; nothing was computed. Stopped "
                               "before the charge: nothing was charged or recorded, and the budget is as "
                               "it was.")
                    .arg(m_db)),
            qPrintable(w.resultCard()->details()));
        QVERIFY(!w.resultCard()->cancelButton()->isVisible());
        QCOMPARE(w.statusBar()->currentMessage(), QStringLiteral("Cancelled: nothing was spent"));
        QVERIFY(test::saveScreenshot(w, QStringLiteral("asking-cancelled-1024x768")).size() > 0);
        QCOMPARE(doc->eventCount(), 0);
        QCOMPARE(doc->session().filter().spent(), 0.0);
        QCOMPARE(w.budgetGauge()->spent(), 0.0);
        QCOMPARE(w.ledgerModel()->rowCount(), 0);
        QVERIFY(!doc->isModified());
        QVERIFY(!doc->journalPath().isEmpty()); // its header was written before the request
        QCOMPARE(asyncask::journalEvents(doc->journalPath()).size(), std::size_t{0});

        // Everything is back.
        QCOMPARE(w.queryBuilder()->askButton()->text(), QStringLiteral("Ask"));
        QVERIFY(w.queryBuilder()->askButton()->isEnabled());
        QVERIFY(askAction->isEnabled());
        QVERIFY(w.sessionPanel()->isEnabled());
        QVERIFY(w.findChild<QAction *>(QStringLiteral("importCsvAction"))->isEnabled());
        QVERIFY(doc->busyReason().isEmpty());
    }

    // On the plain table the same Ask, off the GUI thread, gives the in-memory session's answers
    // and costs (same seed), one after the other; the ledger, the gauge and the journal agree.
    void askOnADatabaseGivesTheInMemoryNumbers()
    {
        MainWindow w;
        QVERIFY(w.openDataset(QStringLiteral("sqlite:%1?table=cps").arg(m_db), m_metadata).ok());
        QVERIFY(w.startNewSession(asyncask::seededSettings()).ok());
        SessionDocument *doc = w.document();
        auto inMemory = session::Session::create(std::make_shared<const data::Table>(test::cpsTable()),
                                                 asyncask::seededSettings());
        QVERIFY(inMemory.ok());
        QSignalSpy finished(&w, &MainWindow::askFinished);
        QSignalSpy appended(doc, &SessionDocument::eventAppended);
        asyncask::buildCountSouth(*w.queryBuilder());
        for (int k = 0; k < 3; ++k) {
            const auto request = session::withPlannedCap(w.queryBuilder()->request(), doc->session().filter(),
                                                         std::size_t(w.queryBuilder()->plannedQueries()));
            auto expected = (*inMemory)->ask(request);
            QVERIFY(expected.ok());
            w.ask();
            QVERIFY(doc->isAsking());
            QVERIFY(finished.wait(20000));
            QCOMPARE(finished.count(), k + 1);
            QCOMPARE(appended.count(), k + 1);
            QCOMPARE(doc->eventCount(), k + 1);
            const auto &event = doc->session().events().back();
            QCOMPARE(event.answer, expected->answer);
            QCOMPARE(event.cost, expected->cost);
            QCOMPARE(doc->session().filter().spent(), (*inMemory)->filter().spent());
            QCOMPARE(w.budgetGauge()->spent(), doc->session().filter().spent());
            QCOMPARE(w.resultCard()->state(), ResultCard::State::Released);
            QCOMPARE(w.ledgerModel()->rowCount(), k + 1);
        }
        QCOMPARE(doc->session().events().at(0).request.id, std::string("q1"));
        const auto journaled = asyncask::journalEvents(doc->journalPath());
        QCOMPARE(journaled.size(), std::size_t{3});
        for (std::size_t i = 0; i < journaled.size(); ++i) {
            QCOMPARE(journaled[i].answer, doc->session().events()[i].answer);
            QCOMPARE(journaled[i].cost, doc->session().events()[i].cost);
        }
        QVERIFY(doc->isModified());
        QVERIFY(doc->isOnDisk());
    }

    // A Cancel that reaches the request after its charge changes nothing: the event is recorded,
    // shown, journaled and in the gauge, and the status line says it was too late (never
    // under-reported). The answer and cost are the in-memory session's (same seed).
    void cancelAfterTheChargeKeepsTheRecord()
    {
        auto table = std::make_shared<const data::Table>(test::cpsTable());
        auto source = std::make_shared<const asyncask::UninterruptibleSource>(table);
        MainWindow w;
        w.show();
        QVERIFY(
            w.document()->start(source, QStringLiteral("uninterruptible"), asyncask::seededSettings()).ok());
        asyncask::buildCountSouth(*w.queryBuilder());
        const auto request
            = session::withPlannedCap(w.queryBuilder()->request(), w.document()->session().filter(),
                                      std::size_t(w.queryBuilder()->plannedQueries()));
        auto inMemory = session::Session::create(table, asyncask::seededSettings());
        auto expected = (*inMemory)->ask(request);
        QVERIFY(expected.ok());
        QSignalSpy finished(&w, &MainWindow::askFinished);
        w.ask();
        QVERIFY(w.document()->isAsking());
        QTest::qWait(100);
        w.resultCard()->cancelButton()->click();
        QCOMPARE(source->cancels.load(), 1);
        QVERIFY(finished.wait(5000));
        QCOMPARE(w.document()->eventCount(), 1);
        const auto &event = w.document()->session().events().front();
        QCOMPARE(event.status, session::EventStatus::Released);
        QCOMPARE(event.answer, expected->answer);
        QCOMPARE(event.cost, expected->cost);
        QVERIFY(w.document()->session().filter().spent() > 0.0);
        QCOMPARE(w.budgetGauge()->spent(), w.document()->session().filter().spent());
        QCOMPARE(w.resultCard()->state(), ResultCard::State::Released);
        QCOMPARE(w.ledgerModel()->rowCount(), 1);
        QCOMPARE(
            w.statusBar()->currentMessage(),
            QStringLiteral("Too late to cancel: q1 was charged before the cancel reached it; it is spent "
                           "and recorded"));
        const auto journaled = asyncask::journalEvents(w.document()->journalPath());
        QCOMPARE(journaled.size(), std::size_t{1});
        QCOMPARE(journaled.front().cost, event.cost);
        QCOMPARE(journaled.front().answer, event.answer);
        QVERIFY(w.document()->isModified());
        QVERIFY(w.queryBuilder()->askButton()->isEnabled());
    }

    // Closing the window while a slow request runs cancels it and waits: the window closes at
    // once, nothing spent, the journal holds the session (no event).
    void closingWhileAskingCancelsAndKeepsTheRecord()
    {
        MainWindow w;
        w.show();
        QVERIFY(w.openDataset(QStringLiteral("sqlite:%1?table=slowregion").arg(m_db), m_metadata).ok());
        QVERIFY(w.startNewSession(asyncask::seededSettings()).ok());
        asyncask::buildCountSouth(*w.queryBuilder());
        w.ask();
        QVERIFY(w.document()->isAsking());
        QTest::qWait(200);
        QElapsedTimer clock;
        clock.start();
        QVERIFY(w.close());
        QVERIFY2(clock.elapsed() < 5000, qPrintable(QString::number(clock.elapsed())));
        QVERIFY(!w.document()->isAsking());
        QCOMPARE(w.document()->eventCount(), 0);
        QCOMPARE(asyncask::journalEvents(w.document()->journalPath()).size(), std::size_t{0});
    }

    // A public table without declared rows: the cost line never counts on the GUI thread. It says
    // "counting the table's rows first…" while the COUNT(*) runs on a worker (the event loop
    // ticks), then the cost (the plain table) or the refusal (a view beyond the 2-s timeout).
    // Ask while counting waits for the count, then asks.
    void costLineCountsRowsOffTheGuiThread()
    {
        {
            MainWindow w;
            QVERIFY(w.openDataset(QStringLiteral("sqlite:%1?table=hugecps&statement_timeout=2000").arg(m_db),
                                  m_publicNoRows)
                        .ok());
            int ticks = 0;
            QTimer ticker;
            connect(&ticker, &QTimer::timeout, this, [&] { ++ticks; });
            ticker.start(20);
            QElapsedTimer clock;
            clock.start();
            QVERIFY(w.startNewSession(asyncask::seededSettings()).ok());
            asyncask::buildCountSouth(*w.queryBuilder());
            QVERIFY2(clock.elapsed() < 1500, qPrintable(QString::number(clock.elapsed()))); // the count: 2 s
            QCOMPARE(w.queryBuilder()->costPreview(),
                     QStringLiteral("Cost: counting the table's rows first…"));
            QSignalSpy settled(w.document(), &SessionDocument::publicRowCountSettled);
            QVERIFY(settled.wait(5000));
            QVERIFY2(ticks >= 5, qPrintable(QString::number(ticks)));
            QCOMPARE(w.queryBuilder()->costPreview(),
                     QStringLiteral("It will be refused: rows: cannot count the rows of table 'hugecps' (its "
                                    "metadata says the data are public but declares no \"rows\"; a release "
                                    "plans with the table's count): sqlite (%1): the query ran over the "
                                    "statement timeout (2000 ms) and was stopped; nothing was computed")
                         .arg(m_db));
            QCOMPARE(w.document()->publicRowCountState(), SessionDocument::RowCount::Failed);
            QCOMPARE(w.document()->eventCount(), 0);
        }
        MainWindow w;
        QVERIFY(w.openDataset(QStringLiteral("sqlite:%1?table=cps").arg(m_db), m_publicNoRows).ok());
        QVERIFY(w.startNewSession(asyncask::seededSettings()).ok());
        asyncask::buildCountSouth(*w.queryBuilder());
        // The plain table counts in a few milliseconds: under load the count may already have
        // come back while the query was typed, and then the line shows the cost.
        if (w.document()->publicRowCountState() == SessionDocument::RowCount::Counting)
            QCOMPARE(w.queryBuilder()->costPreview(),
                     QStringLiteral("Cost: counting the table's rows first…"));
        QSignalSpy finished(&w, &MainWindow::askFinished);
        w.askInteractive(); // waits for the count, then asks
        QCOMPARE(finished.count(), 0);
        QVERIFY(finished.wait(20000));
        QCOMPARE(w.document()->eventCount(), 1);
        QCOMPARE(*w.document()->dataSource()->knownPublicRowCount(), std::size_t{28155});
        QVERIFY2(w.queryBuilder()->costPreview().startsWith(QStringLiteral("This request ")),
                 qPrintable(w.queryBuilder()->costPreview()));
        auto inMemory = session::Session::create(std::make_shared<const data::Table>(test::cpsTable()),
                                                 asyncask::seededSettings());
        auto expected = (*inMemory)->ask(w.document()->session().events().front().request);
        QCOMPARE(w.document()->session().events().front().answer, expected->answer);
        QCOMPARE(w.document()->session().events().front().cost, expected->cost);
    }

private:
    QTemporaryDir m_dir;
    QString m_db;
    QString m_metadata;
    QString m_publicNoRows;
};

QTEST_MAIN(TestAsyncAsk)
#include "tst_asyncask.moc"
