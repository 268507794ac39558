// SPDX-License-Identifier: MIT
// The kill/resume harness of the crash-safety tests (tests/cli/tst_clikill.cpp) on the GUI's own
// paths: a transcript continued in the GUI writes a journal that `pbx-cli verify`, the
// GUI and `pbx-cli run --journal` read (its header, then every restored event, then the new
// ones); a process continuing it is killed with SIGKILL after Save and another Ask, and the
// transcript reopens with every answer that process showed. A journal line that cannot be
// written (a full disk: RLIMIT_FSIZE) refuses the request or withholds its answer, and loses
// nothing: the file is left as it was and the line is written before the next request.
#include "core/io/session_journal.h"
#include "tests/cli/clitestutils.h"
#include "tests/testutils.h"
#include "tests/ui/transcriptfixture.h"
#include "ui/mainwindow.h"
#include "ui/models/ledgermodel.h"
#include "ui/panels/querybuilder.h"
#include "ui/sessiondocument.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <csignal>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace pbx;

namespace {

session::QueryRequest count(const char *where, double error)
{
    return test::countRequest(where, error);
}

/// `pbx-cli verify PATH` accepts the file (exit 0), or says why not.
void expectVerified(const QString &path)
{
    const auto run = test::runCli({QStringLiteral("verify"), path});
    QVERIFY2(run.exitCode == 0, qPrintable(path + QStringLiteral(": ") + run.err + run.out));
}

QString writeCliTranscript(const QString &path)
{
    return test::writeCliTranscript(path);
}

/// Sets the largest file this process may write (RLIMIT_FSIZE) for its lifetime: a full disk.
class FileSizeLimit
{
public:
    explicit FileSizeLimit(rlim_t bytes)
    {
        std::signal(SIGXFSZ, SIG_IGN); // a write past the limit fails with EFBIG instead
        ::getrlimit(RLIMIT_FSIZE, &m_old);
        rlimit limited = m_old;
        limited.rlim_cur = bytes;
        ::setrlimit(RLIMIT_FSIZE, &limited);
    }
    ~FileSizeLimit() { ::setrlimit(RLIMIT_FSIZE, &m_old); }

private:
    rlimit m_old{};
};

} // namespace

class TestGuiCrash : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void continuedTranscriptJournalIsWhole();
    void killedAfterSaveReopensWithEveryAnswer();
    void failedAppendLosesNothing();
    void unwritableJournalRefusesBeforeSpending();

private:
    QTemporaryDir m_dir;
};

// `pbx-cli run --out s.json`, then the GUI opens s.json and asks. The journal it starts
// holds the transcript's two events before the new one; verify used to say "line 2: event index 2
// out of order" (its header was an empty session's, its first event the third).
void TestGuiCrash::continuedTranscriptJournalIsWhole()
{
    const QString path = writeCliTranscript(m_dir.filePath(QStringLiteral("cli.json")));
    QVERIFY(!path.isEmpty());
    QString journal;
    std::vector<double> answers;
    {
        ui::MainWindow w;
        QVERIFY(w.openSessionFile(path).ok());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.document()->eventCount(), 2);
        w.ask(); // the query builder's request, as the Ask button sends it
        QCOMPARE(w.document()->eventCount(), 3);
        journal = w.document()->journalPath();
        for (const auto &e : w.document()->session().events())
            answers.push_back(e.answer);
    } // closed without saving: only the journal has the third answer
    QVERIFY(journal.startsWith(ui::SessionDocument::defaultJournalFolder()));
    QVERIFY(journal.endsWith(QStringLiteral(".journal")));
    auto read = io::readSessionJournal(journal.toStdString());
    QVERIFY2(read.ok(), read.ok() ? "" : read.error().message.c_str());
    QCOMPARE(read->events.size(), std::size_t(3));
    for (std::size_t i = 0; i < 3; ++i) {
        QCOMPARE(read->events[i].index, i);
        QCOMPARE(read->events[i].answer, answers[i]);
    }
    expectVerified(journal);
    // The GUI reads it back as the same session and continues it.
    ui::SessionDocument reopened;
    QVERIFY(reopened.openTranscript(journal).ok());
    QCOMPARE(reopened.eventCount(), 3);
    QVERIFY(reopened.ask(count("region == \"west\"", 60)).ok());
    expectVerified(journal);
}

// The sequence with a real SIGKILL: a process opens the CLI transcript, asks, saves (the
// journal moves beside it), asks again and is killed. The transcript then reopens in the window
// with all four events, the answers that process showed among them, and verify accepts both.
void TestGuiCrash::killedAfterSaveReopensWithEveryAnswer()
{
    const QString path = writeCliTranscript(m_dir.filePath(QStringLiteral("killed.json")));
    QVERIFY(!path.isEmpty());
    const QString shown = m_dir.filePath(QStringLiteral("shown.txt"));
    const pid_t child = ::fork();
    QVERIFY(child >= 0);
    if (child == 0) { // the GUI's document code in a process of its own, killed mid-session
        ui::SessionDocument doc;
        QFile out(shown);
        if (!doc.openTranscript(path).ok() || !out.open(QIODevice::WriteOnly))
            ::_exit(2);
        const auto show = [&](const session::LedgerEvent &e) {
            out.write(QByteArray::number(e.answer, 'g', 17) + '\n');
            out.flush();
        };
        auto first = doc.ask(count("region == \"west\"", 60));
        if (!first.ok())
            ::_exit(3);
        show(*first);
        if (!doc.saveTranscript(path).ok())
            ::_exit(4);
        auto second = doc.ask(count("smsa == \"no\"", 60));
        if (!second.ok())
            ::_exit(5);
        show(*second);
        ::raise(SIGKILL);
        ::_exit(6);
    }
    int status = 0;
    QCOMPARE(::waitpid(child, &status, 0), child);
    QVERIFY2(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, qPrintable(QString::number(status)));
    QFile answers(shown);
    QVERIFY(answers.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = answers.readAll().split('\n');
    QCOMPARE(lines.size(), 3); // two answers and the final newline

    ui::MainWindow w;
    const auto opened = w.openSessionFile(path);
    QVERIFY2(opened.ok(), opened.ok() ? "" : opened.error().message.c_str());
    const auto &events = w.document()->session().events();
    QCOMPARE(events.size(), std::size_t(4));
    QCOMPARE(QByteArray::number(events[2].answer, 'g', 17), lines[0]);
    QCOMPARE(QByteArray::number(events[3].answer, 'g', 17), lines[1]);
    QVERIFY(w.document()->isModified()); // the last answer is in the journal, not the transcript
    expectVerified(path + QStringLiteral(".journal"));
    expectVerified(path);
    // And it continues: the journal beside the transcript takes the next request.
    w.ask();
    QCOMPARE(w.document()->eventCount(), 5);
    QCOMPARE(io::readSessionJournal((path + QStringLiteral(".journal")).toStdString())->events.size(),
             std::size_t(5));
}

// A journal line that cannot be written (the disk is full: the journal may not grow past its
// size + 40 bytes, so the line is cut short): the answer is withheld, the next request is refused
// with nothing spent while the line still cannot be written, the cut line is removed, and once
// there is room the withheld event is written before the next one. Before, the half line stayed
// and the next line followed it (a corrupted journal), or the next event followed a gap ("out of
// order"): either way nothing could read the journal.
void TestGuiCrash::failedAppendLosesNothing()
{
    ui::MainWindow w;
    QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
    ui::SessionDocument *doc = w.document();
    QVERIFY(doc->ask(count("region == \"south\"", 50)).ok());
    QVERIFY(doc->ask(count("education >= 16", 50)).ok());
    const QString journal = doc->journalPath();
    const qint64 size = QFileInfo(journal).size();
    const double spent = doc->session().filter().spent();
    {
        FileSizeLimit full(static_cast<rlim_t>(size + 40));
        const auto withheld = doc->ask(count("region == \"west\"", 50));
        QVERIFY(!withheld.ok());
        QVERIFY2(withheld.error().message.starts_with("the answer is withheld"),
                 withheld.error().message.c_str());
        QCOMPARE(doc->eventCount(), 3); // spent, in memory, never shown
        QVERIFY(doc->session().filter().spent() > spent);
        QCOMPARE(QFileInfo(journal).size(), size); // the half line was cut off again
        QCOMPARE(w.ledgerModel()->rowCount(), 2);  // its answer is not shown
        w.ask();                                   // the window's Ask: refused, nothing new
        QCOMPARE(doc->eventCount(), 3);
        QCOMPARE(w.ledgerModel()->rowCount(), 2);
        const auto refused = doc->ask(count("smsa == \"no\"", 50));
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error().message.starts_with("the request was not asked (nothing spent)"),
                 refused.error().message.c_str());
        QCOMPARE(doc->eventCount(), 3);
        QVERIFY(!doc->isOnDisk());
    }
    QVERIFY(doc->ask(count("smsa == \"no\"", 50)).ok());
    QCOMPARE(doc->eventCount(), 4);
    QVERIFY(doc->isOnDisk());
    QCOMPARE(w.ledgerModel()->rowCount(), 4); // the withheld answer is shown once written
    auto read = io::readSessionJournal(journal.toStdString());
    QVERIFY2(read.ok(), read.ok() ? "" : read.error().message.c_str());
    QCOMPARE(read->events.size(), std::size_t(4));
    QCOMPARE(read->events[2].answer, doc->session().events()[2].answer);
    expectVerified(journal);
}

// No room for a new journal at all: the first request of a session is refused before anything
// is spent (it used to be asked, then withheld).
void TestGuiCrash::unwritableJournalRefusesBeforeSpending()
{
    ui::MainWindow w;
    QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
    {
        FileSizeLimit full(0);
        const auto refused = w.document()->ask(count("region == \"south\"", 50));
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error().message.starts_with("the request was not asked (nothing spent)"),
                 refused.error().message.c_str());
    }
    QCOMPARE(w.document()->eventCount(), 0);
    QCOMPARE(w.document()->session().filter().spent(), 0.0);
    QVERIFY(w.document()->ask(count("region == \"south\"", 50)).ok());
    expectVerified(w.document()->journalPath());
}

QTEST_MAIN(TestGuiCrash)
#include "tst_guicrash.moc"
