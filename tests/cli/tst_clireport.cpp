// SPDX-License-Identifier: MIT
// `pbx-cli report` as a user runs it: a seeded `pbx-cli run` on cps1988 (the test queries), then
// its report as HTML and as PDF (no display: the PDF is printed on Qt's offscreen platform); a
// bad transcript and an unwritable --out each fail with one line naming the problem.
#include "tests/cli/clitestutils.h"

#include <QFile>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using pbx::test::runCli;

class TestCliReport : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_transcript;

    QByteArray readAll(const QString &path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_transcript = m_dir.filePath(QStringLiteral("t.json"));
        const auto run = runCli({QStringLiteral("run"), QStringLiteral("--queries"),
                                 QStringLiteral(PBX_CLI_DATA "/queries.jsonl"), QStringLiteral("--out"),
                                 m_transcript, QStringLiteral("--seed"), QStringLiteral("7"),
                                 QStringLiteral("--filter"), QStringLiteral("unified")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    }

    void helpListsTheCommand()
    {
        const auto help = runCli({QStringLiteral("--help")});
        QVERIFY(help.out.contains(QStringLiteral("  report    ")));
        const auto own = runCli({QStringLiteral("report"), QStringLiteral("--help")});
        QCOMPARE(own.exitCode, 0);
        QVERIFY(own.out.contains(QStringLiteral("--out REPORT.html|REPORT.pdf")));
    }

    void writesHtmlWithEveryEvent()
    {
        const QString out = m_dir.filePath(QStringLiteral("r.html"));
        const auto run = runCli({QStringLiteral("report"), m_transcript, QStringLiteral("--out"), out});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(run.err, QString());
        QCOMPARE(
            run.out,
            QStringLiteral("wrote %1: 6 requests (seeded session: marked not for real releases)\n").arg(out));
        const QString html = QString::fromUtf8(readAll(out));
        // Every request of queries.jsonl (q6 refused), the unified filter and its split, the seed.
        for (const char *id : {"q1", "q2", "q3", "q4", "q5", "q6"})
            QVERIFY2(html.contains(QStringLiteral("<td>%1</td>").arg(QLatin1String(id))), id);
        QVERIFY(html.contains(QStringLiteral("Unified filter (unified)")));
        QVERIFY(html.contains(QStringLiteral("ex-post side: 5 % of ε, 5 % of δ")));
        QVERIFY(html.contains(QStringLiteral("seeded (seed 7)")));
        QCOMPARE(html.count(QStringLiteral(
                     "Seeded, reproducible noise — for teaching and tests, not for real releases")),
                 2);
        QVERIFY(html.contains(QStringLiteral("Session file</th><td>%1</td>").arg(m_transcript)));
        QVERIFY(html.contains(QStringLiteral("Brownian noise reduction")));
        QVERIFY(html.contains(QStringLiteral("Whitehouse, Ramdas, Rogers &amp; Wu 2022")));
        QCOMPARE(html.count(QStringLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\"")), 2);
    }

    void writesPdf()
    {
        const QString out = m_dir.filePath(QStringLiteral("r.pdf"));
        const auto run = runCli({QStringLiteral("report"), m_transcript, QStringLiteral("--out"), out});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(run.err, QString()); // no Qt platform chatter on standard error
        const QByteArray pdf = readAll(out);
        QVERIFY(pdf.startsWith("%PDF-"));
        QVERIFY(pdf.size() > 20000);
        QVERIFY(pdf.trimmed().endsWith("%%EOF"));
    }

    void badTranscriptIsOneLine()
    {
        const QString bad = m_dir.filePath(QStringLiteral("bad.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"format\": \"pbx-transcript\", \"version\": 1, \"events\": [}");
        f.close();
        const QString out = m_dir.filePath(QStringLiteral("bad.html"));
        const auto run = runCli({QStringLiteral("report"), bad, QStringLiteral("--out"), out});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(run.err.count(u'\n'), 1);
        QVERIFY2(run.err.startsWith(QStringLiteral("pbx-cli report: ")) && run.err.contains(bad),
                 qPrintable(run.err));
        QVERIFY(!QFile::exists(out));

        const auto missing = runCli({QStringLiteral("report"), m_dir.filePath(QStringLiteral("none.json")),
                                     QStringLiteral("--out"), out});
        QCOMPARE(missing.exitCode, 1);
        QCOMPARE(missing.err.count(u'\n'), 1);
        QVERIFY(missing.err.contains(QStringLiteral("none.json")));
    }

    void unwritableOutIsClear()
    {
        for (const char *name : {"no/such/folder/r.html", "no/such/folder/r.pdf"}) {
            const QString out = m_dir.filePath(QLatin1String(name));
            const auto run = runCli({QStringLiteral("report"), m_transcript, QStringLiteral("--out"), out});
            QCOMPARE(run.exitCode, 1);
            QCOMPARE(run.err.count(u'\n'), 1);
            QVERIFY2(run.err.startsWith(QStringLiteral("pbx-cli report: ")) && run.err.contains(out),
                     qPrintable(run.err));
        }
        // Neither .html nor .pdf: a usage error before anything is read.
        const auto txt = runCli({QStringLiteral("report"), m_transcript, QStringLiteral("--out"),
                                 m_dir.filePath(QStringLiteral("r.txt"))});
        QCOMPARE(txt.exitCode, 2);
        QVERIFY(txt.err.contains(QStringLiteral(".html or .pdf")));
        const auto noOut = runCli({QStringLiteral("report"), m_transcript});
        QCOMPARE(noOut.exitCode, 2);
        QVERIFY(noOut.err.contains(QStringLiteral("--out")));
    }
};

QTEST_GUILESS_MAIN(TestCliReport)
#include "tst_clireport.moc"
