// SPDX-License-Identifier: MIT
// The JSON Lines request format of `pbx-cli run`: valid lines, and bad lines refused with a
// message naming the line and field.
#include "core/io/request_json.h"
#include "tests/testutils.h"

using pbx::io::readRequestLine;

class TestRequests : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void valid();
    void invalid_data();
    void invalid();
    void writeReadRoundTrip();
};

void TestRequests::valid()
{
    auto r = readRequestLine(
        R"({"id":"q2","aggregate":"mean","column":"wage","bounds":[0,4000],"target":{"kind":"relative","error":0.05,"confidence":0.95}})",
        2);
    QVERIFY(r.ok());
    QCOMPARE(r->id, std::string("q2"));
    QCOMPARE(r->query.aggregate, pbx::data::Aggregate::Mean);
    QCOMPARE(r->query.bounds->upper, 4000.0);
    QCOMPARE(r->target.kind, pbx::session::TargetKind::Relative);
    QCOMPARE(r->target.error, 0.05);
    auto c = readRequestLine(
        R"({"aggregate":"count","where":"region == \"south\"","target":{"kind":"absolute","error":40}})", 1);
    QVERIFY(c.ok());
    QCOMPARE(c->target.confidence, 0.95); // the default
    QCOMPARE(c->query.where, std::string("region == \"south\""));
}

void TestRequests::invalid_data()
{
    QTest::addColumn<QString>("line");
    QTest::addColumn<QString>("message");
    QTest::newRow("not json") << QStringLiteral("{\"id\": ") << QStringLiteral("line 7 is not valid JSON");
    QTest::newRow("not an object") << QStringLiteral("[1,2]")
                                   << QStringLiteral("line 7: expected a JSON object");
    QTest::newRow("unknown field") << QStringLiteral(
        R"({"aggregate":"count","colunm":"x","target":{"kind":"absolute","error":1}})")
                                   << QStringLiteral("line 7: unknown field 'colunm'");
    QTest::newRow("no aggregate") << QStringLiteral(R"({"target":{"kind":"absolute","error":1}})")
                                  << QStringLiteral("line 7.aggregate: missing");
    QTest::newRow("bad aggregate") << QStringLiteral(
        R"({"aggregate":"median","target":{"kind":"absolute","error":1}})")
                                   << QStringLiteral("unknown aggregate 'median'");
    QTest::newRow("no target") << QStringLiteral(R"({"aggregate":"count"})")
                               << QStringLiteral("line 7.target: missing");
    QTest::newRow("bad kind") << QStringLiteral(
        R"({"aggregate":"count","target":{"kind":"rough","error":1}})")
                              << QStringLiteral("unknown target kind 'rough'");
    QTest::newRow("zero error") << QStringLiteral(
        R"({"aggregate":"count","target":{"kind":"absolute","error":0}})")
                                << QStringLiteral("target error must be a finite number > 0");
    QTest::newRow("confidence 1") << QStringLiteral(
        R"({"aggregate":"count","target":{"kind":"absolute","error":1,"confidence":1}})")
                                  << QStringLiteral("confidence must lie strictly between 0 and 1");
    QTest::newRow("string error") << QStringLiteral(
        R"({"aggregate":"count","target":{"kind":"absolute","error":"5"}})")
                                  << QStringLiteral("line 7.target.error: expected a number");
    QTest::newRow("reversed bounds") << QStringLiteral(
        R"({"aggregate":"sum","column":"wage","bounds":[10,0],"target":{"kind":"absolute","error":1}})")
                                     << QStringLiteral("line 7.bounds");
    QTest::newRow("short bounds") << QStringLiteral(
        R"({"aggregate":"sum","column":"wage","bounds":[10],"target":{"kind":"absolute","error":1}})")
                                  << QStringLiteral("line 7.bounds: expected [lower, upper]");
    QTest::newRow("negative cap") << QStringLiteral(
        R"({"aggregate":"count","max_cost":-1,"target":{"kind":"absolute","error":1}})")
                                  << QStringLiteral("line 7.max_cost: must be > 0");
}

void TestRequests::invalid()
{
    QFETCH(QString, line);
    QFETCH(QString, message);
    auto r = readRequestLine(line.toStdString(), 7);
    QVERIFY(!r.ok());
    QVERIFY2(QString::fromStdString(r.error().message).contains(message),
             qPrintable(QString::fromStdString(r.error().message)));
}

void TestRequests::writeReadRoundTrip()
{
    pbx::session::QueryRequest r;
    r.id = "x";
    r.query.aggregate = pbx::data::Aggregate::Sum;
    r.query.column = "wage";
    r.query.bounds = pbx::data::Bounds{-1.5, 2500};
    r.query.where = "not (a == 'b')";
    r.target = {pbx::session::TargetKind::Relative, 0.1, 0.9};
    r.maxCost = 0.25;
    pbx::io::json::Json o = pbx::io::json::Json::object();
    pbx::io::writeRequest(r, o);
    auto back = pbx::io::readRequest(o, "x");
    QVERIFY(back.ok());
    QCOMPARE(back->query.column, r.query.column);
    QCOMPARE(back->query.bounds->lower, -1.5);
    QCOMPARE(back->query.where, r.query.where);
    QCOMPARE(back->target.confidence, 0.9);
    QCOMPARE(*back->maxCost, 0.25);
}

QTEST_APPLESS_MAIN(TestRequests)
#include "tst_requests.moc"
