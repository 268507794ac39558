// SPDX-License-Identifier: MIT
// LedgerModel over a real session on a tiny table: model invariants (QAbstractItemModelTester),
// one rowsInserted per request, raw values equal to the events' numbers, refusals marked.
#include "core/session/session.h"
#include "ui/models/ledgermodel.h"
#include "ui/util/numberformat.h"
#include "uitestutils.h"

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QSignalSpy>
#include <QtTest/QtTest>

#include <cmath>

using namespace pbx;
using pbx::ui::LedgerModel;

class TestLedgerModel : public QObject
{
    Q_OBJECT

private:
    static session::QueryRequest request(data::Aggregate aggregate, const char *column, const char *where,
                                         session::TargetKind kind, double error)
    {
        session::QueryRequest r;
        r.query.aggregate = aggregate;
        r.query.column = column;
        r.query.where = where;
        r.target.kind = kind;
        r.target.error = error;
        r.target.confidence = 0.95;
        return r;
    }

    std::unique_ptr<session::Session> makeSession(filters::FilterKind kind)
    {
        session::SessionSettings settings;
        settings.epsilon = 1.0;
        settings.delta = 1e-6;
        settings.filter = kind;
        settings.seed = 7;
        auto created = session::Session::create(test::tinyTable(), settings);
        if (!created.ok())
            qFatal("Session::create failed: %s", created.error().message.c_str());
        return std::move(created).value();
    }

private Q_SLOTS:
    void appendsRowsWithRawValues_data()
    {
        QTest::addColumn<int>("filter");
        QTest::addColumn<QString>("unit");
        QTest::newRow("zCDP") << static_cast<int>(filters::FilterKind::Zcdp) << QStringLiteral("ρ");
        QTest::newRow("pure ε") << static_cast<int>(filters::FilterKind::Basic) << QStringLiteral("ε");
    }

    void appendsRowsWithRawValues()
    {
        QFETCH(int, filter);
        QFETCH(QString, unit);
        auto s = makeSession(static_cast<filters::FilterKind>(filter));
        LedgerModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setUnitSymbol(ui::toQString(s->filter().unitSymbol()));
        QCOMPARE(model.unitSymbol(), unit);
        QVERIFY(model.headerData(LedgerModel::Cost, Qt::Horizontal).toString().contains(unit));
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);

        const std::vector<session::QueryRequest> requests{
            // Loose targets: the table has 400 rows and the budget is ε = 1.
            request(data::Aggregate::Count, "", "g == \"a\"", session::TargetKind::Absolute, 30.0),
            request(data::Aggregate::Sum, "x", "x >= 10", session::TargetKind::Absolute, 3000.0),
            request(data::Aggregate::Mean, "x", "", session::TargetKind::Relative, 0.25),
            // ±0.001 on a count needs far more than the whole budget: refused.
            request(data::Aggregate::Count, "", "", session::TargetKind::Absolute, 0.001),
        };
        for (const auto &r : requests) {
            auto event = s->ask(r);
            QVERIFY2(event.ok(), event.ok() ? "" : event.error().message.c_str());
            model.appendEvent(*event);
            QCOMPARE(inserted.count(), static_cast<int>(event->index) + 1);
            const QList<QVariant> args = inserted.constLast();
            QCOMPARE(args.at(1).toInt(), static_cast<int>(event->index));
            QCOMPARE(args.at(2).toInt(), static_cast<int>(event->index));
        }
        QCOMPARE(model.rowCount(), static_cast<int>(s->events().size()));
        QCOMPARE(model.columnCount(), static_cast<int>(LedgerModel::ColumnCount));

        int refusedRows = 0;
        for (int row = 0; row < model.rowCount(); ++row) {
            const auto &e = s->events()[static_cast<std::size_t>(row)];
            const auto raw = [&](LedgerModel::Column c) {
                return model.data(model.index(row, c), LedgerModel::RawValueRole);
            };
            QCOMPARE(raw(LedgerModel::Number).toDouble(), static_cast<double>(e.index + 1));
            QCOMPARE(raw(LedgerModel::Id).toString(), ui::toQString(e.request.id));
            QCOMPARE(raw(LedgerModel::Cost).toDouble(), e.cost);
            QCOMPARE(raw(LedgerModel::Spent).toDouble(), e.spentAfter);
            QCOMPARE(raw(LedgerModel::EpsilonSpent).toDouble(), e.epsilonSpentAfter);
            QCOMPARE(raw(LedgerModel::Attempts).toDouble(), static_cast<double>(e.attempts.size()));
            QCOMPARE(raw(LedgerModel::Mechanism).toString(), ui::toQString(e.mechanismName()));
            QCOMPARE(raw(LedgerModel::Reason).toString(), ui::toQString(e.reason));
            const bool refused = e.status == session::EventStatus::Refused;
            QCOMPARE(model.data(model.index(row, 0), LedgerModel::RefusedRole).toBool(), refused);
            if (refused) {
                ++refusedRows;
                QVERIFY2(
                    row == 3,
                    qPrintable(QStringLiteral("row %1 refused: %2").arg(row).arg(ui::toQString(e.reason))));
                QVERIFY(!raw(LedgerModel::Answer).isValid());
                QVERIFY(!raw(LedgerModel::ErrorBound).isValid());
                QCOMPARE(e.cost, 0.0);
                // Visibly distinct: a background brush only on refused rows.
                QVERIFY(model.data(model.index(row, LedgerModel::Query), Qt::BackgroundRole)
                            .value<QBrush>()
                            .style()
                        != Qt::NoBrush);
                QCOMPARE(model.data(model.index(row, LedgerModel::Status)).toString(),
                         QStringLiteral("refused"));
            } else {
                QCOMPARE(raw(LedgerModel::Answer).toDouble(), e.answer);
                QCOMPARE(raw(LedgerModel::ErrorBound).toDouble(), e.errorBound);
                QVERIFY(!model.data(model.index(row, LedgerModel::Query), Qt::BackgroundRole).isValid());
                QVERIFY(e.cost > 0.0);
            }
        }
        QCOMPARE(refusedRows, 1);

        // A reset (new session) keeps the tester happy and empties the model.
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.clear();
        QCOMPARE(reset.count(), 1);
        QCOMPARE(model.rowCount(), 0);
        model.setEvents(s->events());
        QCOMPARE(model.rowCount(), static_cast<int>(s->events().size()));
    }

    void describesQueriesAndTargets_data()
    {
        QTest::addColumn<int>("aggregate");
        QTest::addColumn<QString>("column");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("expected");
        QTest::newRow("count, all rows") << 0 << QString() << QString() << QStringLiteral("count");
        QTest::newRow("count where") << 0 << QString() << QStringLiteral("g == \"a\"")
                                     << QStringLiteral("count where g == \"a\"");
        QTest::newRow("sum") << 1 << QStringLiteral("x") << QString() << QStringLiteral("sum(x)");
        QTest::newRow("mean where") << 2 << QStringLiteral("wage") << QStringLiteral("age >= 30")
                                    << QStringLiteral("mean(wage) where age >= 30");
    }

    void describesQueriesAndTargets()
    {
        QFETCH(int, aggregate);
        QFETCH(QString, column);
        QFETCH(QString, where);
        QFETCH(QString, expected);
        data::QuerySpec spec;
        spec.aggregate = static_cast<data::Aggregate>(aggregate);
        spec.column = column.toStdString();
        spec.where = where.toStdString();
        QCOMPARE(LedgerModel::describeQuery(spec), expected);
    }

    void describesTargets()
    {
        session::AccuracyTarget absolute{session::TargetKind::Absolute, 50.0, 0.95};
        QCOMPARE(LedgerModel::describeTarget(absolute), QStringLiteral("±50 @ 95 %"));
        session::AccuracyTarget relative{session::TargetKind::Relative, 0.05, 0.99};
        QCOMPARE(LedgerModel::describeTarget(relative), QStringLiteral("±5 % @ 99 %"));
    }
};

QTEST_MAIN(TestLedgerModel)
#include "tst_ledgermodel.moc"
