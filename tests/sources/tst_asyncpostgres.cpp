// SPDX-License-Identifier: MIT
// The window's Ask on a real PostgreSQL table runs off the GUI thread (issue 30, the GUI), as on
// SQLite (ui.asyncask): on a view whose region column sleeps 50 ms a row, the event loop runs while
// the statement does, and Cancel stops it on the server (PQcancel) within a moment with nothing
// spent in the ledger, the gauge or the journal; on the plain table the same Ask gives the
// in-memory session's answer and cost (same seed). The server is started as in sources.postgres
// (tests/sources/postgres_server.h).
#include "core/io/session_journal.h"
#include "core/session/planned_cap.h"
#include "tests/sources/postgres_server.h"
#include "tests/sources/source_fixtures.h"
#include "tests/test_rows.h"
#include "tests/testutils.h"
#include "ui/mainwindow.h"
#include "ui/models/ledgermodel.h"
#include "ui/panels/querybuilder.h"
#include "ui/sessiondocument.h"
#include "ui/widgets/budgetgauge.h"
#include "ui/widgets/resultcard.h"

#include <QElapsedTimer>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest/QtTest>

#include <memory>

using namespace pbx;
using pbx::ui::MainWindow;
using pbx::ui::ResultCard;
using pbx::ui::SessionDocument;

class TestAsyncPostgres : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        if (const std::string why = test::PostgresServer::missing(); !why.empty())
            QSKIP(why.c_str());
        m_server = std::make_unique<test::PostgresServer>();
        const std::string started = m_server->initialise();
        QVERIFY2(started.empty(), started.c_str());
        {
            test::PostgresAdmin admin(m_server->conninfo());
            QVERIFY2(admin.ok(), admin.error().c_str());
            QCOMPARE(admin.exec("CREATE DATABASE pbx"), std::string());
        }
        test::PostgresAdmin admin(m_server->conninfo("pbx"));
        QVERIFY2(admin.ok(), admin.error().c_str());
        QCOMPARE(admin.exec("CREATE TABLE cps (wage double precision, education integer, experience integer, "
                            "ethnicity text, smsa text, region text, parttime text)"),
                 std::string());
        const data::Table cps = test::cpsTable();
        QCOMPARE(admin.copy("cps", test::cpsCopyText(cps)), std::string());
        // COUNT(*) (the declared rows' check at open) never reads region (a STABLE function, so the
        // view is flattened and the unused column dropped); a predicate on it sleeps 50 ms a row,
        // about 23 minutes in all.
        QCOMPARE(admin.exec("CREATE FUNCTION slow_region(r text) RETURNS text LANGUAGE plpgsql STABLE AS "
                            "$$ BEGIN PERFORM pg_sleep(0.05); RETURN r; END $$"),
                 std::string());
        QCOMPARE(admin.exec("CREATE VIEW slowregion AS SELECT wage, education, experience, ethnicity, smsa, "
                            "slow_region(region) AS region, parttime FROM cps"),
                 std::string());
        QVERIFY(m_dir.isValid());
        m_metadata = m_dir.filePath(QStringLiteral("cps.json"));
        QVERIFY(QFile::copy(QStringLiteral(PBX_SOURCE_DIR "/resources/datasets/cps1988.json"), m_metadata));
    }

    void cleanupTestCase()
    {
        if (m_server)
            QVERIFY(m_server->stop());
    }

    void cancelStopsTheServersStatement()
    {
        MainWindow w;
        w.show();
        QVERIFY(w.openDataset(descriptor("slowregion"), m_metadata).ok());
        QVERIFY(w.startNewSession(settings()).ok());
        SessionDocument *doc = w.document();
        buildCountSouth(*w.queryBuilder());
        int ticks = 0;
        QTimer ticker;
        connect(&ticker, &QTimer::timeout, this, [&] { ++ticks; });
        ticker.start(20);
        QSignalSpy finished(&w, &MainWindow::askFinished);
        QElapsedTimer clock;
        clock.start();
        w.ask();
        QVERIFY2(clock.elapsed() < 3000,
                 qPrintable(QString::number(clock.elapsed()))); // generous: CI runs two tests at once
        QVERIFY(doc->isAsking());
        QCOMPARE(w.resultCard()->state(), ResultCard::State::Asking);
        QTest::qWait(600);
        QVERIFY(doc->isAsking());
        QVERIFY2(ticks >= 3, qPrintable(QString::number(ticks))); // blocked, it would be 0 or 1
        clock.restart();
        w.resultCard()->cancelButton()->click();
        QVERIFY(finished.wait(5000));
        QVERIFY2(clock.elapsed() < 5000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(w.resultCard()->state(), ResultCard::State::Cancelled);
        QCOMPARE(w.resultCard()->details(),
                 QStringLiteral("postgresql (pbx, table slowregion): the query was cancelled; nothing was "
                                "computed. Stopped before the charge: nothing was charged or recorded, and "
                                "the budget is as it was."));
        QCOMPARE(doc->eventCount(), 0);
        QCOMPARE(doc->session().filter().spent(), 0.0);
        QCOMPARE(w.budgetGauge()->spent(), 0.0);
        QCOMPARE(w.ledgerModel()->rowCount(), 0);
        auto journal = io::readSessionJournal(doc->journalPath().toStdString());
        QVERIFY2(journal.ok(), journal.ok() ? "" : journal.error().message.c_str());
        QCOMPARE(journal->events.size(), std::size_t{0});
        QVERIFY(w.queryBuilder()->askButton()->isEnabled());
    }

    void askGivesTheInMemoryNumbers()
    {
        MainWindow w;
        QVERIFY(w.openDataset(descriptor("cps"), m_metadata).ok());
        QVERIFY(w.startNewSession(settings()).ok());
        buildCountSouth(*w.queryBuilder());
        const auto request
            = session::withPlannedCap(w.queryBuilder()->request(), w.document()->session().filter(),
                                      std::size_t(w.queryBuilder()->plannedQueries()));
        auto inMemory
            = session::Session::create(std::make_shared<const data::Table>(test::cpsTable()), settings());
        auto expected = (*inMemory)->ask(request);
        QVERIFY(expected.ok());
        QSignalSpy finished(&w, &MainWindow::askFinished);
        w.ask();
        QVERIFY(w.document()->isAsking());
        QVERIFY(finished.wait(20000));
        QCOMPARE(w.document()->eventCount(), 1);
        const auto &event = w.document()->session().events().front();
        QCOMPARE(event.answer, expected->answer);
        QCOMPARE(event.cost, expected->cost);
        QCOMPARE(w.budgetGauge()->spent(), w.document()->session().filter().spent());
        auto journal = io::readSessionJournal(w.document()->journalPath().toStdString());
        QVERIFY(journal.ok());
        QCOMPARE(journal->events.size(), std::size_t{1});
        QCOMPARE(journal->events.front().answer, event.answer);
    }

private:
    QString descriptor(const char *table) const
    {
        return QStringLiteral("postgresql://pbx@/pbx?table=%1&host=%2")
            .arg(QString::fromLatin1(table), QString::fromStdString(m_server->directory()));
    }
    static session::SessionSettings settings()
    {
        session::SessionSettings s;
        s.epsilon = 5.0;
        s.seed = 30;
        return s;
    }
    static void buildCountSouth(ui::QueryBuilder &builder)
    {
        builder.setAggregate(data::Aggregate::Count);
        builder.whereEdit()->setText(QStringLiteral("region == \"south\""));
        builder.setAbsoluteTarget(50.0);
    }

    std::unique_ptr<test::PostgresServer> m_server;
    QTemporaryDir m_dir;
    QString m_metadata;
};

QTEST_MAIN(TestAsyncPostgres)
#include "tst_asyncpostgres.moc"
