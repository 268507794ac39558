// SPDX-License-Identifier: MIT
// The basic and zCDP filters: budgets, refusals with reasons, exact fits, and random sequences
// that must never overspend.
#include "core/filters/privacy_filter.h"
#include "core/filters/zcdp_filter.h"
#include "core/math/directed_rounding.h"
#include "tests/testutils.h"

#include <random>

using pbx::filters::FilterKind;
using pbx::filters::PrivacyFilter;

Q_DECLARE_METATYPE(FilterKind)

class TestFilters : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void budgets();
    void refusalMessage();
    void exactFitPasses_data();
    void exactFitPasses();
    void randomSequencesNeverOverspend_data();
    void randomSequencesNeverOverspend();
    void directedRounding();
    void invalid();
};

void TestFilters::budgets()
{
    auto basic = PrivacyFilter::create(FilterKind::Basic, 1.0, 1e-6).value();
    QCOMPARE(basic->budget(), 1.0);
    QCOMPARE(basic->unitName(), std::string_view("epsilon"));
    auto zcdp = PrivacyFilter::create(FilterKind::Zcdp, 1.0, 1e-6).value();
    PBX_FUZZY_COMPARE(zcdp->budget(), 0.01746890477, 1e-9); // accuracy-first.md §4.2
    QVERIFY(zcdp->epsilonOf(zcdp->budget()) <= 1.0);
    QCOMPARE(zcdp->epsilonSpent(), 0.0);
    QCOMPARE(zcdp->deltaSpent(), 0.0);
    QVERIFY(zcdp->spend(0.005).ok());
    QCOMPARE(zcdp->deltaSpent(), 1e-6);
    PBX_FUZZY_COMPARE(zcdp->epsilonSpent(), 0.005 + 2 * std::sqrt(0.005 * std::log(1e6)), 1e-12);
}

void TestFilters::refusalMessage()
{
    auto zcdp = PrivacyFilter::create(FilterKind::Zcdp, 1.0, 1e-6).value();
    QVERIFY(zcdp->spend(0.0054).ok());
    const double before = zcdp->spent();
    auto refused = zcdp->spend(0.031);
    QVERIFY(!refused.ok());
    QCOMPARE(refused.error().code, pbx::ErrorCode::BudgetExceeded);
    QCOMPARE(QString::fromStdString(refused.error().message),
             QStringLiteral("this query needs ρ = 0.031 but 0.01207 remains"));
    QCOMPARE(zcdp->spent(), before); // a refusal charges nothing
    // Reject-and-continue: a later, cheaper request still passes.
    QVERIFY(zcdp->spend(0.01).ok());
}

void TestFilters::exactFitPasses_data()
{
    QTest::addColumn<FilterKind>("kind");
    QTest::addColumn<QList<double>>("costs");
    QTest::newRow("basic 0.1+0.2 then the rest") << FilterKind::Basic << QList<double>{0.1, 0.2};
    QTest::newRow("basic thirds") << FilterKind::Basic << QList<double>{1.0 / 3, 1.0 / 3};
    QTest::newRow("zcdp tiny steps") << FilterKind::Zcdp << QList<double>{1e-7, 3e-9, 0.0012345};
    QTest::newRow("zcdp nothing first") << FilterKind::Zcdp << QList<double>{};
}

// Spending exactly remaining() must be allowed, after any history, and leave nothing.
void TestFilters::exactFitPasses()
{
    QFETCH(FilterKind, kind);
    QFETCH(QList<double>, costs);
    auto f = PrivacyFilter::create(kind, 1.0, 1e-6).value();
    for (double c : costs)
        QVERIFY(f->spend(c).ok());
    const double rest = f->remaining();
    QVERIFY(rest > 0.0);
    QVERIFY(f->canSpend(rest).ok());
    QVERIFY(f->spend(rest).ok());
    QVERIFY(f->spent() <= f->budget());
    QCOMPARE(f->remaining(), 0.0);
    QVERIFY(!f->spend(std::nextafter(0.0, 1.0)).ok()); // not even the smallest double more
}

void TestFilters::randomSequencesNeverOverspend_data()
{
    QTest::addColumn<FilterKind>("kind");
    QTest::newRow("basic") << FilterKind::Basic;
    QTest::newRow("zcdp") << FilterKind::Zcdp;
}

// 2,000 random sequences mixing small, large and exactly-fitting requests: the spend never
// passes the budget, a request is refused exactly when it does not fit, and the sum of the
// accepted costs (summed in long double) never exceeds the budget.
void TestFilters::randomSequencesNeverOverspend()
{
    QFETCH(FilterKind, kind);
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int sequence = 0; sequence < 2000; ++sequence) {
        const double epsilon = 0.01 + 5.0 * unit(rng);
        auto f = PrivacyFilter::create(kind, epsilon, 1e-6).value();
        long double acceptedSum = 0.0L;
        for (int step = 0; step < 60; ++step) {
            const double draw = unit(rng);
            double cost = draw < 0.1 ? f->remaining() : f->budget() * std::pow(unit(rng), 3) * 0.3;
            const bool fits = cost <= f->remaining();
            const auto result = f->spend(cost);
            QCOMPARE(result.ok(), fits);
            if (result.ok())
                acceptedSum += cost;
            QVERIFY(f->spent() <= f->budget());
            QVERIFY(f->spent() >= static_cast<double>(acceptedSum) * (1 - 1e-12));
        }
        QVERIFY(acceptedSum <= static_cast<long double>(f->budget()));
    }
}

void TestFilters::directedRounding()
{
    using namespace pbx::math;
    QVERIFY(addRoundUp(0.1, 0.2) >= 0.3);
    QCOMPARE(addRoundUp(0.1, 0.2), 0.30000000000000004);
    QCOMPARE(addRoundUp(1.0, 1e-30), std::nextafter(1.0, 2.0)); // the tiny part is not lost
    QCOMPARE(subtractRoundDown(1.0, 1e-30), std::nextafter(1.0, 0.0));
    QCOMPARE(addRoundUp(0.5, 0.25), 0.75); // exact sums stay exact
}

void TestFilters::invalid()
{
    QVERIFY(!PrivacyFilter::create(FilterKind::Basic, 0.0, 0.0).ok());
    QVERIFY(!PrivacyFilter::create(FilterKind::Basic, NAN, 0.0).ok());
    QVERIFY(!PrivacyFilter::create(FilterKind::Zcdp, 1.0, 0.0).ok());
    QVERIFY(!PrivacyFilter::create(FilterKind::Zcdp, 1.0, 1.0).ok());
    auto f = PrivacyFilter::create(FilterKind::Basic, 1.0, 0.0).value();
    QCOMPARE(f->spend(-0.1).error().code, pbx::ErrorCode::InvalidArgument);
    QCOMPARE(f->spend(NAN).error().code, pbx::ErrorCode::InvalidArgument);
    QCOMPARE(f->spent(), 0.0);
}

QTEST_APPLESS_MAIN(TestFilters)
#include "tst_filters.moc"
