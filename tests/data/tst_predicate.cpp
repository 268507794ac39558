// SPDX-License-Identifier: MIT
// Predicate language: valid texts with match counts on a small hand-built table, invalid texts
// with the expected error (code, message fragment and position), precedence, nesting limits.
// Expected counts were worked out by hand from the table below and re-checked with a Python
// list comprehension over the same values.
#include "core/data/predicate.h"
#include "tests/test_rows.h"

#include "tests/testutils.h"

using pbx::ErrorCode;
using pbx::data::Column;
using pbx::data::ColumnType;
using pbx::data::Predicate;
using pbx::data::Table;

namespace {

Column numericColumn(std::string name, std::vector<double> values)
{
    Column column;
    column.info.name = std::move(name);
    column.info.type = ColumnType::Numeric;
    column.numeric = std::move(values);
    return column;
}

Column categoricalColumn(std::string name, const std::vector<std::string> &labels,
                         std::vector<std::string> dictionary)
{
    Column column;
    column.info.name = std::move(name);
    column.info.type = ColumnType::Categorical;
    for (const std::string &label : labels) {
        const auto it = std::find(dictionary.begin(), dictionary.end(), label);
        column.codes.push_back(static_cast<std::int32_t>(it - dictionary.begin()));
    }
    column.info.categories = std::move(dictionary);
    return column;
}

const std::vector<std::string> regions
    = {"south", "south", "west", "northeast", "south", "midwest", "west", "south", "northeast", "midwest"};
const std::vector<std::string> parttime = {"no", "yes", "no", "no", "no", "yes", "no", "no", "yes", "no"};
const std::vector<std::string> labels
    = {"a", "a", "b", "o'neil", "say \"hi\"", "back\\slash", "a", "b", "a", "b"};

// 10 rows. Dictionaries are deliberately not sorted, and "east" is a label no row uses.
Table smallTable(bool reordered = false)
{
    std::vector<Column> columns;
    columns.push_back(numericColumn("wage", {100, 250.5, 400, 550, 700, 1000, 1500, 2000, 50, 800}));
    columns.push_back(numericColumn("education", {8, 12, 12, 16, 18, 12, 14, 10, 12, 16}));
    columns.push_back(categoricalColumn(
        "region", regions,
        reordered ? std::vector<std::string>{"west", "south", "northeast", "midwest", "east"}
                  : std::vector<std::string>{"northeast", "midwest", "south", "west", "east"}));
    columns.push_back(categoricalColumn("parttime", parttime, {"no", "yes"}));
    columns.push_back(numericColumn("x_1", {-3.5, 0, 1, 2, 3, 1000, -1, 0.5, 2, 1e3}));
    columns.push_back(
        categoricalColumn("label", labels, {"a", "b", "o'neil", "say \"hi\"", "back\\slash", "\u00e9"}));
    if (reordered)
        std::reverse(columns.begin(), columns.end());
    auto table = Table::create("small", std::move(columns));
    if (!table)
        qFatal("smallTable: %s", table.error().message.c_str());
    return std::move(table).value();
}

std::string repeated(const std::string &piece, int times)
{
    std::string out;
    for (int i = 0; i < times; ++i)
        out += piece;
    return out;
}

} // namespace

class TestPredicate : public QObject
{
    Q_OBJECT

private slots:
    void validTexts_data();
    void validTexts();
    void invalidTexts_data();
    void invalidTexts();
    void maskIsPerRow();
    void inferredCategoriesAreNotChecked();
    void evaluatesOnReorderedTable();
    void emptyPredicateMatchesAll();
    void deepNestingIsRefusedWithoutCrashing();
    void overlongTextIsRefused();
};

void TestPredicate::validTexts_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("expected");

    QTest::newRow("empty") << "" << 10;
    QTest::newRow("whitespace only") << " \t\n " << 10;
    QTest::newRow("categorical ==") << R"(region == "south")" << 4;
    QTest::newRow("categorical !=") << R"(region != "south")" << 6;
    QTest::newRow("single quotes") << R"(region == 'south')" << 4;
    QTest::newRow("label in dictionary, no rows") << R"(region == "east")" << 0;
    QTest::newRow(">= integer") << "education >= 12" << 8;
    QTest::newRow("<") << "wage < 400" << 3;
    QTest::newRow("<=") << "wage <= 400" << 4;
    QTest::newRow(">") << "wage > 1000" << 2;
    QTest::newRow("== decimal") << "wage == 250.5" << 1;
    QTest::newRow("!= decimal") << "wage != 250.5" << 9;
    QTest::newRow("exponent literal") << "x_1 == 1e3" << 2;
    QTest::newRow("negative literal") << "x_1 < -3" << 1;
    QTest::newRow("negative decimal literal") << "x_1 > -3.5" << 9;
    QTest::newRow("explicit plus") << "x_1 >= +2" << 5;
    QTest::newRow("tiny negative exponent") << "wage >= -1e-3" << 10;
    QTest::newRow("no spaces") << "wage>1000" << 2;
    QTest::newRow("tabs and newlines") << "\twage\n>\r\n1000 " << 2;
    QTest::newRow("design example") << R"(region == "south" and education >= 12)" << 2;
    QTest::newRow("keywords any case") << R"(region == "south" AND education >= 12)" << 2;
    QTest::newRow("and binds tighter than or")
        << R"(region == "west" or region == "south" and parttime == "yes")" << 3;
    QTest::newRow("parentheses override precedence")
        << R"((region == "west" or region == "south") and parttime == "yes")" << 1;
    QTest::newRow("not") << R"(not region == "south")" << 6;
    QTest::newRow("not not") << R"(not not region == "south")" << 4;
    QTest::newRow("not binds tighter than or") << R"(Not region == "south" Or wage > 1000)" << 7;
    QTest::newRow("not binds tighter than and") << R"(not label == "a" and x_1 < 1 or wage >= 2000)" << 1;
    QTest::newRow("not over parentheses") << "not (wage < 400 or education > 14)" << 4;
    QTest::newRow("double parentheses") << "((wage > 1000))" << 2;
    QTest::newRow("escaped single quote") << R"(label == 'o\'neil')" << 1;
    QTest::newRow("other quote inside") << R"(label == "o'neil")" << 1;
    QTest::newRow("escaped double quote") << R"(label == "say \"hi\"")" << 1;
    QTest::newRow("escaped backslash") << R"(label == "back\\slash")" << 1;
    QTest::newRow("200 parentheses") << QString::fromStdString(repeated("(", 200) + "wage > 1000"
                                                               + repeated(")", 200))
                                     << 2;
    QTest::newRow("200 nots") << QString::fromStdString(repeated("not ", 200) + "wage > 1000") << 2;
}

void TestPredicate::validTexts()
{
    QFETCH(QString, text);
    QFETCH(int, expected);
    const Table table = smallTable();
    const auto predicate = Predicate::compile(text.toStdString(), table);
    QVERIFY2(predicate.ok(), predicate.ok() ? "" : predicate.error().message.c_str());
    QCOMPARE(predicate->countMatches(pbx::test::PublicRows(table)), static_cast<std::size_t>(expected));
    QCOMPARE(QString::fromStdString(predicate->text()), text);
}

void TestPredicate::invalidTexts_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<pbx::ErrorCode>("code");
    QTest::addColumn<QString>("message");

    const auto parse = ErrorCode::Parse;
    QTest::newRow("unknown column, suggestion")
        << R"(regon == "south")" << ErrorCode::NotFound
        << "character 1: unknown column 'regon'; did you mean 'region'? (columns: wage, education, "
           "region, parttime, x_1, label)";
    QTest::newRow("unknown column later") << R"(wage > 1 and regon == "south")" << ErrorCode::NotFound
                                          << "character 14: unknown column 'regon'";
    QTest::newRow("column names are case-sensitive")
        << "Wage > 1" << ErrorCode::NotFound << "unknown column 'Wage'; did you mean 'wage'?";
    QTest::newRow("ordering a categorical")
        << R"(region < "south")" << parse
        << "character 1: column 'region' is categorical; compare it with a quoted string using == or !=";
    QTest::newRow("number for a categorical")
        << "region == 3" << parse << "character 1: column 'region' is categorical";
    QTest::newRow("unquoted label") << "region == south" << parse
                                    << "character 11: expected a value after '==', found 'south' (put "
                                       "text in quotes: \"south\")";
    // A declared category list is a contract: a typo must not be charged for rows that cannot exist.
    QTest::newRow("label case differs from the declared one")
        << R"(region == "South")" << ErrorCode::NotFound
        << "character 11: 'South' is not a category of column 'region'; did you mean 'south'? (categories: "
           "northeast, midwest, south, west, east)";
    QTest::newRow("label with a typo")
        << R"(region != "soth")" << ErrorCode::NotFound
        << "character 11: 'soth' is not a category of column 'region'; did you mean 'south'?";
    QTest::newRow("label unlike any declared one")
        << R"(wage > 1 and region == "nowhere")" << ErrorCode::NotFound
        << "character 24: 'nowhere' is not a category of column 'region' (categories: northeast, midwest, "
           "south, west, east)";
    QTest::newRow("string for a numeric")
        << R"(wage == "100")" << parse << "character 1: column 'wage' is numeric; compare it with a number";
    QTest::newRow("missing value") << "wage ==" << parse
                                   << "character 8: expected a value after '==', found end of text";
    QTest::newRow("missing operator")
        << "wage" << parse << "character 5: expected a comparison (== != < <= > >=) after 'wage'";
    QTest::newRow("unterminated string")
        << R"(region == "south)" << parse << "character 11: unterminated string";
    QTest::newRow("unterminated after escape")
        << R"(region == "south\")" << parse << "character 11: unterminated string";
    QTest::newRow("unknown escape") << R"(label == "a\n")" << parse << "character 12: unknown escape '\\n'";
    QTest::newRow("doubled and") << "wage > 1 and and wage < 3" << parse << "character 14: unexpected 'and'";
    QTest::newRow("dangling and") << "wage > 1 and" << parse
                                  << "character 13: expected a condition (a column name, 'not' or '('), "
                                     "found end of text";
    QTest::newRow("missing connective")
        << "wage > 1 wage < 3" << parse << "character 10: unexpected 'wage'; expected 'and', 'or' or the end";
    QTest::newRow("unclosed parenthesis") << "(wage > 1" << parse
                                          << "character 10: expected ')' to close the '(' at character 1, "
                                             "found end of text";
    QTest::newRow("extra closing parenthesis")
        << "wage > 1)" << parse << "character 9: unexpected ')' without a matching '('";
    QTest::newRow("empty parentheses") << "()" << parse << "character 2: empty parentheses";
    QTest::newRow("comparison reversed") << "12 < wage" << parse << "character 1: unexpected number 12";
    QTest::newRow("nan") << "wage > nan" << parse << "character 8: NaN and infinite values are not allowed";
    QTest::newRow("inf") << "wage < INF" << parse << "character 8: NaN and infinite values are not allowed";
    QTest::newRow("-infinity") << "wage > -infinity" << parse
                               << "character 8: NaN and infinite values are not allowed";
    QTest::newRow("overflowing literal")
        << "wage > 1e999" << parse << "character 8: number '1e999' is out of range";
    QTest::newRow("letters in number") << "wage > 12abc" << parse << "character 8: malformed number '12abc'";
    QTest::newRow("two decimal points") << "wage > 1.2.3" << parse << "character 8: malformed number '1.2.3'";
    QTest::newRow("exponent without digits") << "wage > 1e" << parse << "character 8: malformed number '1e'";
    QTest::newRow("lone dot") << "wage > ." << parse << "character 8: malformed number '.'";
    QTest::newRow("single =") << "wage = 3" << parse << "character 6: '=' is not an operator; use '=='";
    QTest::newRow("&&") << "wage > 3 && education < 2" << parse << "character 10: unexpected '&&'; use 'and'";
    QTest::newRow("||") << "wage > 3 || education < 2" << parse << "character 10: unexpected '||'; use 'or'";
    QTest::newRow("! for not") << "!(wage > 3)" << parse << "character 1: unexpected '!'";
    QTest::newRow("stray character") << "wage > 1 @" << parse << "character 10: unexpected character '@'";
    // 'é' is two bytes in UTF-8 but one character: '@' is character 19, byte 20.
    QTest::newRow("columns count characters, not bytes")
        << QStringLiteral("label == \"\u00e9\" and @") << parse << "character 18: unexpected character '@'";
    QTest::newRow("non-ASCII identifier")
        << QStringLiteral("r\u00e9gion == \"x\"") << parse << "character 2: unexpected character '\u00e9'";
    QTest::newRow("keyword as column") << "and == 1" << parse << "character 1: unexpected 'and'";
}

void TestPredicate::invalidTexts()
{
    QFETCH(QString, text);
    QFETCH(pbx::ErrorCode, code);
    QFETCH(QString, message);
    const auto predicate = Predicate::compile(text.toStdString(), smallTable());
    QVERIFY2(!predicate.ok(), "compiled, but should have been refused");
    const QString actual = QString::fromStdString(predicate.error().message);
    QVERIFY2(actual.contains(message), qPrintable(QStringLiteral("message: ") + actual));
    QCOMPARE(static_cast<int>(predicate.error().code), static_cast<int>(code));
}

// A category list read from the data is not public: refusing a label it lacks would disclose that
// no row carries it, so such a label compiles and simply matches no row.
void TestPredicate::inferredCategoriesAreNotChecked()
{
    std::vector<Column> columns;
    columns.push_back(categoricalColumn("region", regions, {"northeast", "midwest", "south", "west"}));
    columns.back().info.domainFromData = true;
    auto table = Table::create("inferred", std::move(columns));
    QVERIFY(table.ok());
    for (const char *text : {R"(region == "nowhere")", R"(region == "South")"}) {
        const auto predicate = Predicate::compile(text, *table);
        QVERIFY2(predicate.ok(), predicate.ok() ? "" : predicate.error().message.c_str());
        QCOMPARE(predicate->countMatches(pbx::test::PublicRows(*table)), std::size_t{0});
    }
    const auto others = Predicate::compile(R"(region != "nowhere")", *table);
    QVERIFY(others.ok());
    QCOMPARE(others->countMatches(pbx::test::PublicRows(*table)), regions.size());
}

void TestPredicate::maskIsPerRow()
{
    const Table table = smallTable();
    const auto predicate = Predicate::compile(R"(region == "south" and education >= 12)", table);
    QVERIFY(predicate.ok());
    std::vector<std::uint8_t> mask(3, 7); // wrong size and junk: evaluate must overwrite it
    predicate->evaluate(pbx::test::PublicRows(table), mask);
    const std::vector<std::uint8_t> expected = {0, 1, 0, 0, 1, 0, 0, 0, 0, 0};
    QCOMPARE(mask, expected);
}

void TestPredicate::evaluatesOnReorderedTable()
{
    // Compiled against one layout, evaluated on a table with reversed columns and a different
    // dictionary order: columns are found by name and labels by text.
    const Table table = smallTable();
    const Table reordered = smallTable(true);
    const char *texts[]
        = {R"(region == "south" and education >= 12)", R"(region != "west")", R"(label == "b" or x_1 > 2)"};
    for (const char *text : texts) {
        const auto predicate = Predicate::compile(text, table);
        QVERIFY(predicate.ok());
        QCOMPARE(predicate->countMatches(pbx::test::PublicRows(reordered)),
                 predicate->countMatches(pbx::test::PublicRows(table)));
    }
}

void TestPredicate::emptyPredicateMatchesAll()
{
    const Table table = smallTable();
    const Predicate all;
    QVERIFY(all.matchesAll());
    std::vector<std::uint8_t> mask;
    all.evaluate(pbx::test::PublicRows(table), mask);
    QCOMPARE(mask, std::vector<std::uint8_t>(10, 1));
    QCOMPARE(all.countMatches(pbx::test::PublicRows(table)), std::size_t{10});
}

void TestPredicate::deepNestingIsRefusedWithoutCrashing()
{
    const Table table = smallTable();
    // One level over the limit, then far over it (which would overflow an unguarded parser)
    // while staying under the 64 KiB text limit.
    for (int depth : {201, 32000}) {
        const std::string parens = repeated("(", depth) + "wage > 1" + repeated(")", depth);
        const auto nested = Predicate::compile(parens, table);
        QVERIFY(!nested.ok());
        QVERIFY2(nested.error().message.find("nested deeper than 200 levels") != std::string::npos,
                 nested.error().message.c_str());
        QVERIFY2(nested.error().message.find("character 201:") == 0, nested.error().message.c_str());
    }
    const auto nots = Predicate::compile(repeated("not ", 201) + "wage > 1", table);
    QVERIFY(!nots.ok());
    QVERIFY(nots.error().message.find("nested deeper than 200 levels") != std::string::npos);
}

void TestPredicate::overlongTextIsRefused()
{
    const Table table = smallTable();
    std::string text = "wage > 1" + std::string(Predicate::maxTextBytes, ' ');
    const auto refused = Predicate::compile(text, table);
    QVERIFY(!refused.ok());
    QCOMPARE(static_cast<int>(refused.error().code), static_cast<int>(ErrorCode::Parse));
    QVERIFY2(refused.error().message.find("the limit is 65536") != std::string::npos,
             refused.error().message.c_str());
    // Exactly at the limit is fine.
    text.resize(Predicate::maxTextBytes);
    QVERIFY(Predicate::compile(text, table).ok());
}

QTEST_APPLESS_MAIN(TestPredicate)
#include "tst_predicate.moc"
