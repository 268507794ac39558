// SPDX-License-Identifier: MIT
// The cost preview shown before Ask: equal to what Ask then charges for single releases, the
// per-query cap for doubling and noise reduction, and free (nothing spent, no event appended).
#include "core/session/cost_preview.h"
#include "tests/synthetic_table.h"
#include "tests/testutils.h"

#include <cmath>

using namespace pbx;
using session::AccuracyTarget;
using session::QueryRequest;
using session::Session;
using session::TargetKind;

namespace {

QueryRequest request(data::Aggregate aggregate, std::string column, TargetKind kind, double error,
                     std::string where = "region == \"south\"")
{
    QueryRequest r;
    r.query.aggregate = aggregate;
    r.query.column = std::move(column);
    r.query.where = std::move(where);
    r.target = AccuracyTarget{kind, error, 0.95};
    return r;
}

std::unique_ptr<Session> newPreviewSession(filters::FilterKind filter, double epsilon)
{
    session::SessionSettings s;
    s.epsilon = epsilon;
    s.delta = 1e-6;
    s.filter = filter;
    s.seed = 7;
    return std::move(Session::create(test::syntheticTable(), s).value());
}

} // namespace

class TestCostPreview : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void singleReleaseIsWhatAskCharges_data();
    void singleReleaseIsWhatAskCharges();
    void relativeTargetsAreBoundedByTheCap();
    void previewingSpendsNothing();
    void shareGrowsAsTheBudgetShrinks();
    void aShareAboveOneIsRefused();
    void badRequestsAreRefused();
};

void TestCostPreview::singleReleaseIsWhatAskCharges_data()
{
    QTest::addColumn<filters::FilterKind>("filter");
    QTest::addColumn<int>("aggregate");
    QTest::addColumn<QString>("column");
    QTest::addColumn<double>("error");
    QTest::newRow("basic, count ±50")
        << filters::FilterKind::Basic << int(data::Aggregate::Count) << QString() << 50.0;
    QTest::newRow("basic, sum ±20000")
        << filters::FilterKind::Basic << int(data::Aggregate::Sum) << QStringLiteral("income") << 20000.0;
    QTest::newRow("zcdp, count ±30") << filters::FilterKind::Zcdp << int(data::Aggregate::Count) << QString()
                                     << 30.0;
    QTest::newRow("zcdp, sum ±100000")
        << filters::FilterKind::Zcdp << int(data::Aggregate::Sum) << QStringLiteral("income") << 100000.0;
}

void TestCostPreview::singleReleaseIsWhatAskCharges()
{
    QFETCH(filters::FilterKind, filter);
    QFETCH(int, aggregate);
    QFETCH(QString, column);
    QFETCH(double, error);
    auto s = newPreviewSession(filter, 1.0);
    const auto r
        = request(static_cast<data::Aggregate>(aggregate), column.toStdString(), TargetKind::Absolute, error);
    auto preview = session::previewCost(*s, r);
    QVERIFY2(preview.ok(), preview.ok() ? "" : preview.error().message.c_str());
    QVERIFY(preview->exact.has_value());
    QCOMPARE(preview->atMost, *preview->exact);
    auto event = s->ask(r);
    QVERIFY(event.ok());
    QCOMPARE(event->status, session::EventStatus::Released);
    QCOMPARE(event->costKind, preview->kind);
    QCOMPARE(event->cost, *preview->exact); // bit for bit: the same calibration
    if (filter == filters::FilterKind::Basic && aggregate == int(data::Aggregate::Count)) {
        // Continuous Laplace for comparison: ε = ln(1/β)/a = ln(20)/50 ≈ 0.0599; the exact discrete
        // Laplace's tail is a little lighter, so its ε is within a few per cent.
        QVERIFY(std::abs(*preview->exact - std::log(20.0) / 50.0) < 0.05 * std::log(20.0) / 50.0);
        QCOMPARE(preview->kind, filters::ChargeKind::PureEpsilon);
        QCOMPARE(preview->mechanism, std::string("laplace"));
    }
}

void TestCostPreview::relativeTargetsAreBoundedByTheCap()
{
    auto s = newPreviewSession(filters::FilterKind::Basic, 1.0);
    auto r = request(data::Aggregate::Count, "", TargetKind::Relative, 0.05);
    auto preview = session::previewCost(*s, r);
    QVERIFY(preview.ok());
    QVERIFY(!preview->exact);
    QCOMPARE(preview->mechanism, std::string("laplace-nr")); // the basic filter's default
    QCOMPARE(preview->atMost, preview->remaining);           // no cap set: the whole remaining budget
    QCOMPARE(preview->shareOfRemaining, 1.0);

    r.maxCost = 0.1;
    preview = session::previewCost(*s, r);
    QVERIFY(preview.ok());
    QCOMPARE(preview->atMost, 0.1);
    r.maxCost.reset();
    r.plannedQueries = 8;
    preview = session::previewCost(*s, r);
    QVERIFY(preview.ok());
    QCOMPARE(preview->atMost, preview->remaining / 8.0);
    QCOMPARE(preview->shareOfRemaining, 0.125);
    auto event = s->ask(r);
    QVERIFY(event.ok());
    QVERIFY(event->cost <= preview->atMost); // the preview's bound holds for the real charge
    QVERIFY(event->cost > 0.0);
}

void TestCostPreview::previewingSpendsNothing()
{
    auto s = newPreviewSession(filters::FilterKind::Zcdp, 1.0);
    const double before = s->filter().remainingFor(filters::ChargeKind::Rho);
    for (int i = 0; i < 100; ++i)
        QVERIFY(
            session::previewCost(*s, request(data::Aggregate::Count, "", TargetKind::Absolute, 10.0)).ok());
    QCOMPARE(s->filter().remainingFor(filters::ChargeKind::Rho), before);
    QVERIFY(s->events().empty());
}

void TestCostPreview::shareGrowsAsTheBudgetShrinks()
{
    auto s = newPreviewSession(filters::FilterKind::Basic, 0.5);
    const auto r = request(data::Aggregate::Count, "", TargetKind::Absolute, 20.0);
    auto first = session::previewCost(*s, r);
    QVERIFY(first.ok());
    QVERIFY(s->ask(r).ok());
    auto second = session::previewCost(*s, r);
    QVERIFY(second.ok());
    QCOMPARE(second->exact, first->exact);
    QVERIFY(second->remaining < first->remaining);
    QVERIFY(second->shareOfRemaining > first->shareOfRemaining);
    PBX_FUZZY_COMPARE(second->shareOfRemaining, *second->exact / second->remaining, 1e-15);
    // Spend everything that is left: the share becomes infinite, and Ask would refuse.
    while (s->filter().remainingFor(filters::ChargeKind::PureEpsilon) >= *first->exact)
        QVERIFY(s->ask(r).ok());
    auto last = session::previewCost(*s, r);
    QVERIFY(last.ok());
    QVERIFY(last->shareOfRemaining > 1.0);
}

void TestCostPreview::aShareAboveOneIsRefused()
{
    // ρ of ±50,000 on a sum of incomes in [0, 5000] is about 0.0192 + the grid's share, just more
    // than the ρ ≈ 0.0194 an (ε = 1, δ = 1e-6) zCDP filter holds: the preview says > 100 %, and Ask
    // refuses with nothing spent.
    auto s = newPreviewSession(filters::FilterKind::Zcdp, 1.0);
    const auto r = request(data::Aggregate::Sum, "income", TargetKind::Absolute, 50000.0);
    auto preview = session::previewCost(*s, r);
    QVERIFY(preview.ok());
    QVERIFY(preview->shareOfRemaining > 1.0);
    auto event = s->ask(r);
    QVERIFY(event.ok());
    QCOMPARE(event->status, session::EventStatus::Refused);
    QCOMPARE(s->filter().remainingFor(filters::ChargeKind::Rho), preview->remaining);
}

void TestCostPreview::badRequestsAreRefused()
{
    auto s = newPreviewSession(filters::FilterKind::Basic, 1.0);
    auto unknown
        = session::previewCost(*s, request(data::Aggregate::Sum, "incom", TargetKind::Absolute, 10.0));
    QVERIFY(!unknown.ok());
    QVERIFY(unknown.error().message.find("incom") != std::string::npos);
    auto badTarget
        = session::previewCost(*s, request(data::Aggregate::Count, "", TargetKind::Absolute, -1.0));
    QVERIFY(!badTarget.ok());
    QCOMPARE(badTarget.error().code, ErrorCode::InvalidArgument);
    auto withCap = request(data::Aggregate::Count, "", TargetKind::Relative, 0.05);
    withCap.maxCost = 0.0;
    auto badCap = session::previewCost(*s, withCap);
    QVERIFY(!badCap.ok());
    QVERIFY(badCap.error().message.find("per-query maximum") != std::string::npos);
    auto strategy = request(data::Aggregate::Count, "", TargetKind::Absolute, 10.0);
    strategy.spec = session::StrategyRequestSpec{};
    auto refused = session::previewCost(*s, strategy);
    QVERIFY(!refused.ok());
    QCOMPARE(refused.error().code, ErrorCode::Unsupported);
}

QTEST_GUILESS_MAIN(TestCostPreview)
#include "tst_costpreview.moc"
