// SPDX-License-Identifier: MIT
// Spending is never lost: `pbx-cli run --journal` is killed with SIGKILL at random instants and
// rerun until it completes. After every kill, each answer printed before the kill must be in the
// journal; at the end the journal holds every request exactly once, verifies, and reproduces the
// uninterrupted run's answers and spend (nothing was spent twice).
#include "core/io/session_journal.h"
#include "tests/cli/clitestutils.h"
#include "tests/testutils.h"

#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

using namespace pbx;

class TestCliKill : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void killAtRandomInstants();

private:
    QTemporaryDir m_dir;
};

namespace {
constexpr int kRequests = 400;

QStringList runArguments(const QString &queries, const QString &out, const QString &journal)
{
    return pbx::test::runCommandArguments(
        queries, out, journal,
        {QStringLiteral("--seed"), QStringLiteral("11"), QStringLiteral("--epsilon"), QStringLiteral("40")});
}
} // namespace

void TestCliKill::killAtRandomInstants()
{
    const QString queries = m_dir.filePath(QStringLiteral("queries.jsonl"));
    {
        QFile f(queries);
        QVERIFY(f.open(QIODevice::WriteOnly));
        for (int i = 1; i <= kRequests; ++i) {
            const char *where[] = {"region == \\\"south\\\"", "education >= 12", "smsa == \\\"yes\\\"", ""};
            f.write(
                QStringLiteral(
                    "{\"id\":\"q%1\",\"aggregate\":\"count\",\"where\":\"%2\",\"target\":{\"kind\":\"%3\",\"error\":%4}}\n")
                    .arg(i)
                    .arg(QString::fromLatin1(where[i % 4]))
                    .arg(i % 3 == 0 ? QStringLiteral("relative") : QStringLiteral("absolute"))
                    .arg(i % 3 == 0 ? QStringLiteral("0.05") : QStringLiteral("60"))
                    .toUtf8());
        }
    }
    // The uninterrupted reference run.
    const QString referenceOut = m_dir.filePath(QStringLiteral("reference.json"));
    {
        QProcess p;
        p.start(QStringLiteral(PBX_CLI),
                runArguments(queries, referenceOut, m_dir.filePath(QStringLiteral("reference.journal"))));
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
    }

    const QString journal = m_dir.filePath(QStringLiteral("killed.journal"));
    const QString out = m_dir.filePath(QStringLiteral("killed.json"));
    QRandomGenerator rng(20261121);
    int kills = 0, printedBeforeKills = 0;
    bool completed = false;
    const QRegularExpression printed(QStringLiteral("^(q\\d+): (released|refused)"),
                                     QRegularExpression::MultilineOption);
    for (int run = 0; run < 200; ++run) {
        QProcess p;
        p.start(QStringLiteral(PBX_CLI), runArguments(queries, out, journal));
        QVERIFY(p.waitForStarted());
        const int delay = static_cast<int>(rng.bounded(2, 80));
        if (p.waitForFinished(delay)) {
            QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
            completed = true;
            break;
        }
        p.kill(); // SIGKILL: no chance to clean up
        QVERIFY(p.waitForFinished(10000));
        ++kills;
        const QString stdoutText = QString::fromUtf8(p.readAllStandardOutput());
        QStringList seen;
        for (auto it = printed.globalMatch(stdoutText); it.hasNext();)
            seen << it.next().captured(1);
        printedBeforeKills += static_cast<int>(seen.size());
        if (!QFile::exists(journal))
            continue; // killed before the journal existed: nothing was printed either
        QVERIFY(seen.isEmpty() || QFile::exists(journal));
        auto recovered = io::readSessionJournal(journal.toStdString());
        QVERIFY2(recovered.ok(), recovered.ok() ? "" : recovered.error().message.c_str());
        QStringList journaled;
        for (const auto &e : recovered->events)
            journaled << QString::fromStdString(e.request.id);
        for (const QString &id : seen)
            QVERIFY2(journaled.contains(id),
                     qPrintable(QStringLiteral("%1 was printed but is not in the journal").arg(id)));
    }
    QVERIFY2(kills >= 3,
             qPrintable(QStringLiteral("only %1 kills happened; the runs are too fast").arg(kills)));
    if (!completed) { // a loaded machine: 200 short runs were not enough; finish without a kill
        QProcess p;
        p.start(QStringLiteral(PBX_CLI), runArguments(queries, out, journal));
        QVERIFY(p.waitForFinished(120000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    }

    // The completed journal: every request exactly once, in order, and it verifies.
    auto final = io::readSessionJournal(journal.toStdString());
    QVERIFY(final.ok());
    QCOMPARE(static_cast<int>(final->events.size()), kRequests);
    for (int i = 0; i < kRequests; ++i)
        QCOMPARE(QString::fromStdString(final->events[static_cast<std::size_t>(i)].request.id),
                 QStringLiteral("q%1").arg(i + 1));
    QProcess verify;
    verify.start(QStringLiteral(PBX_CLI), {QStringLiteral("verify"), journal});
    QVERIFY(verify.waitForFinished(60000));
    QVERIFY2(verify.exitCode() == 0, verify.readAllStandardError().constData());

    // Nothing spent twice: the same seeded answers and exactly the same spend as without kills.
    const auto a = nlohmann::json::parse(test::readTextFile(referenceOut.toStdString()));
    const auto b = nlohmann::json::parse(test::readTextFile(out.toStdString()));
    QCOMPARE(b.at("spent").dump(), a.at("spent").dump());
    for (int i = 0; i < kRequests; ++i)
        QCOMPARE(b["events"][i].value("answer", 0.0), a["events"][i].value("answer", 0.0));
    qInfo("%d kills, %d answers printed before a kill, all found in the journal", kills, printedBeforeKills);
}

QTEST_GUILESS_MAIN(TestCliKill)
#include "tst_clikill.moc"
