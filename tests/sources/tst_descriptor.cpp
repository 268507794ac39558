// SPDX-License-Identifier: MIT
// Source descriptors: sqlite:PATH?table=NAME and libpq URIs, parsed into typed descriptors with
// one-line errors naming the field, and printed back canonically.
#include "core/sources/source_descriptor.h"

#include "tests/testutils.h"

using namespace pbx::sources;

class TestDescriptor : public QObject
{
    Q_OBJECT

private slots:
    void sqlite();
    void postgres();
    void socketDirectory();
    void roundTrip_data();
    void roundTrip();
    void errors_data();
    void errors();
};

void TestDescriptor::sqlite()
{
    QVERIFY(isSourceDescriptor("sqlite:/x.db?table=t"));
    QVERIFY(!isSourceDescriptor("cps1988"));
    QVERIFY(!isSourceDescriptor("/data/sqlite:x.csv"));
    auto parsed = parseSourceDescriptor("sqlite:/data/my%20file%3F.db?table=we%22ird&statement_timeout=250");
    QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message.c_str());
    const auto &d = std::get<SqliteDescriptor>(*parsed);
    QCOMPARE(d.path, std::string("/data/my file?.db"));
    QCOMPARE(d.table, std::string("we\"ird"));
    QCOMPARE(d.statementTimeoutMs, 250);
    auto relative = parseSourceDescriptor("sqlite:cps.db?table=cps");
    QVERIFY(relative.ok());
    QCOMPARE(std::get<SqliteDescriptor>(*relative).path, std::string("cps.db"));
    QCOMPARE(std::get<SqliteDescriptor>(*relative).statementTimeoutMs, defaultStatementTimeoutMs);
}

void TestDescriptor::postgres()
{
    auto parsed
        = parseSourceDescriptor("postgresql://ana@db.example.org:6543/survey?table=cps&sslmode=require");
    QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message.c_str());
    const auto &d = std::get<PostgresDescriptor>(*parsed);
    QCOMPARE(d.user, std::string("ana"));
    QCOMPARE(d.host, std::string("db.example.org"));
    QCOMPARE(d.port, std::string("6543"));
    QCOMPARE(d.database, std::string("survey"));
    QCOMPARE(d.table, std::string("cps"));
    QCOMPARE(d.sslmode, std::string("require"));
    QCOMPARE(d.connectTimeoutS, 10);
    QCOMPARE(d.statementTimeoutMs, defaultStatementTimeoutMs);

    auto ipv6 = parseSourceDescriptor("postgres://[::1]:5433/db?table=t");
    QVERIFY(ipv6.ok());
    QCOMPARE(std::get<PostgresDescriptor>(*ipv6).host, std::string("::1"));
    QCOMPARE(std::get<PostgresDescriptor>(*ipv6).port, std::string("5433"));
}

void TestDescriptor::socketDirectory()
{
    // Both spellings libpq accepts: host= as a parameter, or percent-encoded in the authority.
    for (const char *text : {"postgresql://pbx@/pbx?host=/tmp/pg%20dir&table=cps",
                             "postgresql://pbx@%2Ftmp%2Fpg%20dir/pbx?table=cps"}) {
        auto parsed = parseSourceDescriptor(text);
        QVERIFY2(parsed.ok(), parsed.ok() ? text : parsed.error().message.c_str());
        const auto &d = std::get<PostgresDescriptor>(*parsed);
        QCOMPARE(d.host, std::string("/tmp/pg dir"));
        QCOMPARE(d.user, std::string("pbx"));
        QCOMPARE(d.database, std::string("pbx"));
        QCOMPARE(sourceDescriptorText(*parsed),
                 std::string("postgresql://pbx@/pbx?table=cps&host=/tmp/pg%20dir"));
    }
}

void TestDescriptor::roundTrip_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("sqlite") << "sqlite:/data/cps.db?table=cps";
    QTest::newRow("sqlite, odd names") << "sqlite:/data/a%3Fb%26c.db?table=t%22x%27y&statement_timeout=5";
    QTest::newRow("pg") << "postgresql://ana@host:5432/db?table=cps";
    QTest::newRow("pg, options")
        << "postgresql://h/db?table=a%20b&sslmode=disable&connect_timeout=3&statement_timeout=100";
}

void TestDescriptor::roundTrip()
{
    QFETCH(QString, text);
    auto parsed = parseSourceDescriptor(text.toStdString());
    QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message.c_str());
    QCOMPARE(QString::fromStdString(sourceDescriptorText(*parsed)), text);
}

void TestDescriptor::errors_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("no table") << "sqlite:/x.db"
                              << "sqlite descriptor: table: missing (add ?table=NAME)";
    QTest::newRow("no path") << "sqlite:?table=t"
                             << "sqlite descriptor: path: missing (write sqlite:PATH?table=NAME)";
    QTest::newRow("unknown sqlite parameter")
        << "sqlite:/x.db?table=t&mode=rw"
        << "sqlite descriptor: unknown parameter 'mode' (known: table, statement_timeout)";
    QTest::newRow("bad escape") << "sqlite:/x%zz.db?table=t"
                                << "sqlite descriptor: path: '%' must be followed by two hexadecimal digits";
    QTest::newRow("NUL") << "sqlite:/x.db?table=t%00x"
                         << "sqlite descriptor: table: control characters are not allowed";
    QTest::newRow("timeout")
        << "sqlite:/x.db?table=t&statement_timeout=0"
        << "sqlite descriptor: statement_timeout: '0' is not a whole number from 1 to 86400000";
    QTest::newRow("twice") << "sqlite:/x.db?table=t&table=u"
                           << "sqlite descriptor: table: given twice";
    QTest::newRow("no value") << "sqlite:/x.db?table"
                              << "sqlite descriptor: parameter 'table' has no value (write KEY=VALUE)";
    QTest::newRow("password")
        << "postgresql://ana:secret@h/db?table=t"
        << "postgresql descriptor: password: not allowed in the descriptor (it would be recorded "
           "with the session); put it in ~/.pgpass or PGPASSWORD";
    QTest::newRow("password parameter")
        << "postgresql://h/db?table=t&password=x"
        << "postgresql descriptor: password: not allowed in the descriptor (it would be "
           "recorded with the session); put it in ~/.pgpass or PGPASSWORD";
    QTest::newRow("port") << "postgresql://h:54x/db?table=t"
                          << "postgresql descriptor: port: '54x' is not a port number (1 to 65535)";
    QTest::newRow("no database")
        << "postgresql://h?table=t"
        << "postgresql descriptor: database: missing (write postgresql://USER@HOST:PORT/DB?table=NAME)";
    QTest::newRow("pg no table") << "postgresql://h/db"
                                 << "postgresql descriptor: table: missing (add ?table=NAME)";
    QTest::newRow("options smuggled")
        << "postgresql://h/db?table=t&options=-c%20default_transaction_read_only%3Doff"
        << "postgresql descriptor: unknown parameter 'options' (known: table, schema, host, port, "
           "user, dbname, sslmode, connect_timeout, statement_timeout)";
    QTest::newRow("sslmode")
        << "postgresql://h/db?table=t&sslmode=maybe"
        << "postgresql descriptor: sslmode: 'maybe' is not one of disable, allow, prefer, require, "
           "verify-ca, verify-full";
    QTest::newRow("not a descriptor") << "mysql://h/db?table=t"
                                      << "descriptor: expected sqlite:PATH?table=NAME or "
                                         "postgresql://USER@HOST:PORT/DB?table=NAME";
}

void TestDescriptor::errors()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    auto parsed = parseSourceDescriptor(text.toStdString());
    QVERIFY(!parsed.ok());
    QCOMPARE(parsed.error().code, pbx::ErrorCode::Parse);
    QCOMPARE(QString::fromStdString(parsed.error().message), message);
}

QTEST_APPLESS_MAIN(TestDescriptor)
#include "tst_descriptor.moc"
