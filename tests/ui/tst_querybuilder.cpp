// SPDX-License-Identifier: MIT
// QueryBuilder: validates the predicate as you type (error text, never a match count), builds
// the request from the widgets, defaults bounds to the declared ones, Enter asks.
#include "ui/panels/querybuilder.h"
#include "uitestutils.h"

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest/QtTest>

using namespace pbx;
using pbx::ui::QueryBuilder;

class TestQueryBuilder : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void validatesAsYouType_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("errorFragment"); // empty: valid
        QTest::newRow("empty") << QString() << QString();
        QTest::newRow("categorical") << QStringLiteral("g == \"a\"") << QString();
        QTest::newRow("combined") << QStringLiteral("g == \"b\" and x >= 12") << QString();
        QTest::newRow("unknown column") << QStringLiteral("y > 3") << QStringLiteral("y");
        QTest::newRow("dangling and") << QStringLiteral("x > 3 and") << QStringLiteral("column");
        QTest::newRow("type mismatch") << QStringLiteral("g > 3") << QStringLiteral("column");
        // A label outside the declared categories is refused as typed, with the likely one.
        QTest::newRow("label case") << QStringLiteral(
            "g == \"A\"") << QStringLiteral("'A' is not a category of column 'g'; did you mean 'a'?");
        QTest::newRow("unknown label")
            << QStringLiteral("g != \"c\" and x > 3") << QStringLiteral("(categories: a, b)");
    }

    void validatesAsYouType()
    {
        QFETCH(QString, text);
        QFETCH(QString, errorFragment);
        const auto table = test::tinyTable();
        QueryBuilder builder;
        builder.setTable(table.get());
        QTest::keyClicks(builder.whereEdit(), text);
        QCOMPARE(builder.whereEdit()->text(), text);
        if (errorFragment.isEmpty()) {
            QVERIFY2(builder.validationError().isEmpty(), qPrintable(builder.validationError()));
        } else {
            QVERIFY(!builder.validationError().isEmpty());
            QVERIFY2(builder.validationError().contains(errorFragment),
                     qPrintable(builder.validationError()));
            QVERIFY(builder.whereStatusLabel()->text().contains(builder.validationError()));
        }
        // Never a row count: the status line shows either the schema hint or the error.
        QVERIFY(!builder.whereStatusLabel()->text().contains(QStringLiteral("match")));
    }

    void buildsRequest()
    {
        const auto table = test::tinyTable();
        QueryBuilder builder;
        builder.setTable(table.get());
        builder.setAggregate(data::Aggregate::Sum);
        builder.setColumn(QStringLiteral("x"));
        builder.setWhere(QStringLiteral("g == \"a\""));
        builder.setAbsoluteTarget(25.0);
        builder.setConfidence(0.9);
        builder.setMaxCost(0.25);
        auto r = builder.request();
        QCOMPARE(r.query.aggregate, data::Aggregate::Sum);
        QCOMPARE(r.query.column, std::string("x"));
        QVERIFY(r.query.bounds.has_value());
        QCOMPARE(r.query.bounds->lower, 0.0); // declared bounds of x
        QCOMPARE(r.query.bounds->upper, 50.0);
        QCOMPARE(r.query.where, std::string("g == \"a\""));
        QCOMPARE(r.target.kind, session::TargetKind::Absolute);
        QCOMPARE(r.target.error, 25.0);
        QVERIFY(qAbs(r.target.confidence - 0.9) < 1e-12);
        QVERIFY(r.maxCost.has_value());
        QCOMPARE(*r.maxCost, 0.25);

        builder.setRelativeTarget(0.05);
        builder.setMaxCost(std::nullopt);
        r = builder.request();
        QCOMPARE(r.target.kind, session::TargetKind::Relative);
        QVERIFY(qAbs(r.target.error - 0.05) < 1e-12);
        QVERIFY(!r.maxCost.has_value());

        builder.setAggregate(data::Aggregate::Count);
        r = builder.request();
        QVERIFY(r.query.column.empty());
        QVERIFY(!r.query.bounds.has_value());
    }

    void enterAndButtonAsk()
    {
        const auto table = test::tinyTable();
        QueryBuilder builder;
        builder.setTable(table.get());
        builder.show();
        QVERIFY(QTest::qWaitForWindowExposed(&builder));
        QSignalSpy asked(&builder, &QueryBuilder::askRequested);
        QTest::keyClicks(builder.whereEdit(), QStringLiteral("x < 20"));
        QTest::keyClick(builder.whereEdit(), Qt::Key_Return);
        QCOMPARE(asked.count(), 1);
        QTest::mouseClick(builder.askButton(), Qt::LeftButton);
        QCOMPARE(asked.count(), 2);
    }
};

QTEST_MAIN(TestQueryBuilder)
#include "tst_querybuilder.moc"
