// SPDX-License-Identifier: MIT
// One writer per journal: two `pbx-cli run --journal J` started together, on
// an existing journal or on a new one, must never both spend. Each round starts two real
// processes at once; across both outputs no request may be answered twice, the journal must hold
// exactly the answers printed (plus those it had), verify, and stay within the budget. The loser
// is refused with a message saying why.
#include "core/io/session_journal.h"
#include "tests/cli/clitestutils.h"
#include "tests/testutils.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

using namespace pbx;

class TestCliLock : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void twoWritersResumingTogether();
    void twoWritersStartingTogether();

private:
    void race(const QString &journal, int alreadyAnswered, int &refusals);
    QTemporaryDir m_dir;
    QString m_queries, m_prefix;
};

namespace {
constexpr int kLockRequests = 20;
constexpr int kRounds = 25;

QStringList lockRunArguments(const QString &queries, const QString &out, const QString &journal)
{
    return pbx::test::runCommandArguments(queries, out, journal,
                                          {QStringLiteral("--filter"), QStringLiteral("basic")});
}
} // namespace

void TestCliLock::initTestCase()
{
    m_queries = m_dir.filePath(QStringLiteral("queries.jsonl"));
    m_prefix = m_dir.filePath(QStringLiteral("prefix.jsonl"));
    QFile all(m_queries), prefix(m_prefix);
    QVERIFY(all.open(QIODevice::WriteOnly) && prefix.open(QIODevice::WriteOnly));
    for (int i = 1; i <= kLockRequests; ++i) {
        // ε ≈ 0.075 each (Laplace, ±40 at 95 %): about 13 fit in ε = 1, the rest are refused.
        const QByteArray line
            = QStringLiteral("{\"id\":\"q%1\",\"aggregate\":\"count\",\"where\":\"education >= %2\","
                             "\"target\":{\"kind\":\"absolute\",\"error\":40}}\n")
                  .arg(i)
                  .arg(i % 10)
                  .toUtf8();
        all.write(line);
        if (i <= 3)
            prefix.write(line);
    }
}

void TestCliLock::race(const QString &journal, int alreadyAnswered, int &refusals)
{
    QProcess a, b;
    a.start(QStringLiteral(PBX_CLI),
            lockRunArguments(m_queries, journal + QStringLiteral(".a.json"), journal));
    b.start(QStringLiteral(PBX_CLI),
            lockRunArguments(m_queries, journal + QStringLiteral(".b.json"), journal));
    QVERIFY(a.waitForFinished(120000) && b.waitForFinished(120000));
    const QRegularExpression printed(QStringLiteral("^(q\\d+): (released|refused)"),
                                     QRegularExpression::MultilineOption);
    QStringList answered;
    for (QProcess *p : {&a, &b}) {
        const QString err = QString::fromUtf8(p->readAllStandardError());
        if (p->exitCode() != 0) {
            QVERIFY2(err.contains(QStringLiteral("locked"))
                         || err.contains(QStringLiteral("exists there already")),
                     qPrintable(err));
            ++refusals;
        }
        const QString out = QString::fromUtf8(p->readAllStandardOutput());
        for (auto it = printed.globalMatch(out); it.hasNext();) {
            const QString id = it.next().captured(1);
            QVERIFY2(!answered.contains(id),
                     qPrintable(id + QStringLiteral(" was answered by both processes")));
            answered << id;
        }
    }
    auto recovered = io::readSessionJournal(journal.toStdString());
    QVERIFY2(recovered.ok(), recovered.ok() ? "" : recovered.error().message.c_str());
    QCOMPARE(static_cast<int>(recovered->events.size()), alreadyAnswered + static_cast<int>(answered.size()));
    QCOMPARE(static_cast<int>(recovered->events.size()), kLockRequests);
    double spent = 0;
    for (const auto &e : recovered->events)
        spent += e.cost;
    QVERIFY(spent <= 1.0);
    QProcess verify;
    verify.start(QStringLiteral(PBX_CLI), {QStringLiteral("verify"), journal});
    QVERIFY(verify.waitForFinished(60000));
    QVERIFY2(verify.exitCode() == 0, verify.readAllStandardError().constData());
}

void TestCliLock::twoWritersResumingTogether()
{
    int refusals = 0;
    for (int round = 0; round < kRounds; ++round) {
        const QString journal = m_dir.filePath(QStringLiteral("resume-%1.journal").arg(round));
        QProcess start;
        start.start(QStringLiteral(PBX_CLI),
                    lockRunArguments(m_prefix, journal + QStringLiteral(".0.json"), journal));
        QVERIFY(start.waitForFinished(120000));
        QCOMPARE(start.exitCode(), 0);
        race(journal, 3, refusals);
        if (QTest::currentTestFailed())
            return;
    }
    qInfo("%d rounds of two processes resuming one journal: %d refused as locked", kRounds, refusals);
}

void TestCliLock::twoWritersStartingTogether()
{
    int refusals = 0;
    for (int round = 0; round < kRounds; ++round) {
        race(m_dir.filePath(QStringLiteral("fresh-%1.journal").arg(round)), 0, refusals);
        if (QTest::currentTestFailed())
            return;
    }
    qInfo("%d rounds of two processes starting one journal: %d refused", kRounds, refusals);
}

QTEST_GUILESS_MAIN(TestCliLock)
#include "tst_clilock.moc"
