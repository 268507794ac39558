// SPDX-License-Identifier: MIT
// The push-down statements, as text: one statement per aggregate, every value a placeholder, every
// identifier through the quoting function, and nothing of a literal in the SQL text.
#include "core/sources/sql_statement.h"

#include "tests/testutils.h"

using namespace pbx;
using pbx::sources::SqlDialect;
using pbx::sources::SqlParameter;

namespace {

data::Table schema()
{
    data::Column wage;
    wage.info = {"wage", data::ColumnType::Numeric, data::Bounds{0, 5000}, "", {}, false};
    data::Column region;
    region.info = {"region", data::ColumnType::Categorical, std::nullopt, "", {"south", "west"}, false};
    return data::Table::create("t", {wage, region}).value();
}

// Marks what went through the quoting function, so the test sees every identifier did.
Result<std::string> quote(std::string_view name)
{
    return "<" + std::string(name) + ">";
}

} // namespace

class TestStatement : public QObject
{
    Q_OBJECT

private slots:
    void countSqlite();
    void meanPostgres();
    void histogram();
    void literalsNeverInTheText();
};

void TestStatement::countSqlite()
{
    const data::Table table = schema();
    auto query = data::CompiledQuery::compile(
        {data::Aggregate::Count, "", std::nullopt, "region == \"south\" and not (wage < 100 or wage != 7)"},
        table);
    QVERIFY(query.ok());
    auto statement = sources::statisticsStatement(SqlDialect::Sqlite, quote, "<t>", table, *query);
    QVERIFY(statement.ok());
    QCOMPARE(
        statement->text,
        std::string(
            "SELECT COUNT(*) FROM <t> WHERE (((<region> = ?1) IS TRUE) AND (NOT "
            "((((CASE WHEN typeof(<wage>) IN ('integer', 'real') THEN <wage> END) < ?2) IS TRUE) OR "
            "(((CASE WHEN typeof(<wage>) IN ('integer', 'real') THEN <wage> END) = ?3) IS NOT TRUE))))"));
    QCOMPARE(statement->parameters, (std::vector<SqlParameter>{std::string("south"), 100.0, 7.0}));
}

void TestStatement::meanPostgres()
{
    const data::Table table = schema();
    auto query = data::CompiledQuery::compile(
        {data::Aggregate::Mean, "wage", data::Bounds{-1, 2}, "wage >= 3.5"}, table);
    QVERIFY(query.ok());
    auto statement = sources::statisticsStatement(SqlDialect::Postgres, quote, "<t>", table, *query);
    QVERIFY(statement.ok());
    const std::string clip = "LEAST(GREATEST(COALESCE(CAST(<wage> AS double precision), $1), $1), $2)";
    QCOMPARE(statement->text,
             "SELECT COUNT(*), COALESCE(SUM(" + clip + "), 0), COALESCE(SUM(" + clip
                 + " - $3), 0) FROM <t> WHERE ((CAST(<wage> AS double precision) >= $4) IS TRUE)");
    // L, U, the midpoint (L + U)/2 as the in-memory code computes it, then the literal.
    QCOMPARE(statement->parameters, (std::vector<SqlParameter>{-1.0, 2.0, 0.5, 3.5}));
}

void TestStatement::histogram()
{
    const data::Table table = schema();
    auto where = data::Predicate::compile("wage > 1", table);
    auto sqlite = sources::categoryCountsStatement(SqlDialect::Sqlite, quote, "<t>", table, 1, *where);
    QVERIFY(sqlite.ok());
    QCOMPARE(sqlite->text,
             std::string("SELECT <region>, COUNT(*) FROM <t> WHERE (((CASE WHEN typeof(<wage>) IN "
                         "('integer', 'real') THEN <wage> END) > ?1) IS TRUE) GROUP BY 1"));
    auto postgres = sources::categoryCountsStatement(SqlDialect::Postgres, quote, "<t>", table, 1, {});
    QVERIFY(postgres.ok());
    QCOMPARE(postgres->text, std::string("SELECT CAST(<region> AS text), COUNT(*) FROM <t> GROUP BY 1"));
    QVERIFY(postgres->parameters.empty());
    PBX_VERIFY_ERROR(sources::categoryCountsStatement(SqlDialect::Sqlite, quote, "<t>", table, 0, {}),
                     NotFound, "column: 'wage' is not a categorical column of this source");
}

void TestStatement::literalsNeverInTheText()
{
    const data::Table table = schema();
    const std::string hostile = "x'); DROP TABLE t; --";
    for (const char *text : {"region == \"x'); DROP TABLE t; --\"", "region != 'x\\'); DROP TABLE t; --'"}) {
        auto query = data::CompiledQuery::compile({data::Aggregate::Count, "", std::nullopt, text}, table);
        // Not a declared category: refused before any SQL exists.
        PBX_VERIFY_ERROR(query, NotFound, "is not a category of column 'region'");
    }
    data::Table open = schema();
    {
        data::Column region;
        region.info
            = {"region", data::ColumnType::Categorical, std::nullopt, "", {}, true}; // undeclared labels
        data::Column wage;
        wage.info = {"wage", data::ColumnType::Numeric, data::Bounds{0, 1}, "", {}, false};
        open = data::Table::create("t", {wage, region}).value();
    }
    auto query = data::CompiledQuery::compile(
        {data::Aggregate::Count, "", std::nullopt, "region == \"" + hostile + "\""}, open);
    QVERIFY(query.ok());
    for (const SqlDialect dialect : {SqlDialect::Sqlite, SqlDialect::Postgres}) {
        auto statement = sources::statisticsStatement(dialect, quote, "<t>", open, *query);
        QVERIFY(statement.ok());
        QVERIFY2(statement->text.find("DROP") == std::string::npos, statement->text.c_str());
        QCOMPARE(statement->parameters, (std::vector<SqlParameter>{hostile}));
    }
}

QTEST_APPLESS_MAIN(TestStatement)
#include "tst_statement.moc"
