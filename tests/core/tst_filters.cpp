// SPDX-License-Identifier: MIT
// The basic and zCDP filters: budgets, refusals with reasons, exact fits, and random sequences
// that must never overspend.
#include "core/filters/privacy_filter.h"
#include "core/filters/unified_filter.h"
#include "core/filters/zcdp_filter.h"
#include "core/math/directed_rounding.h"
#include "core/privacy/zcdp_conversion.h"
#include "tests/testutils.h"

#include <random>

using pbx::filters::Charge;
using pbx::filters::ChargeKind;
using pbx::filters::FilterKind;
using pbx::filters::PrivacyFilter;

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
    void routing_data();
    void routing();
    void unifiedSplit();
    void expostDelta();
    void mixedRandomSequences_data();
    void mixedRandomSequences();
    void invalid();
};

void TestFilters::budgets()
{
    auto basic = PrivacyFilter::create(FilterKind::Basic, 1.0, 1e-6).value();
    QCOMPARE(basic->budget(), 1.0);
    QCOMPARE(basic->unitName(), std::string_view("epsilon"));
    auto zcdp = PrivacyFilter::create(FilterKind::Zcdp, 1.0, 1e-6).value();
    PBX_FUZZY_COMPARE(zcdp->budget(), 0.01746890477, 1e-9); // docs/accuracy-first.md §4.1
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
    PBX_VERIFY_ERROR(refused, BudgetExceeded, "this query needs ρ =");
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
    PBX_VERIFY_ERROR(f->spend(std::nextafter(0.0, 1.0)), BudgetExceeded,
                     "this query needs"); // not even the smallest double more
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
    PBX_VERIFY_ERROR(PrivacyFilter::create(FilterKind::Basic, 0.0, 0.0), InvalidArgument, "ε");
    PBX_VERIFY_ERROR(PrivacyFilter::create(FilterKind::Basic, NAN, 0.0), InvalidArgument, "ε");
    PBX_VERIFY_ERROR(PrivacyFilter::create(FilterKind::Zcdp, 1.0, 0.0), InvalidArgument, "δ");
    PBX_VERIFY_ERROR(PrivacyFilter::create(FilterKind::Zcdp, 1.0, 1.0), InvalidArgument, "δ");
    auto f = PrivacyFilter::create(FilterKind::Basic, 1.0, 0.0).value();
    QCOMPARE(f->spend(-0.1).error().code, pbx::ErrorCode::InvalidArgument);
    QCOMPARE(f->spend(NAN).error().code, pbx::ErrorCode::InvalidArgument);
    QCOMPARE(f->spent(), 0.0);
}

void TestFilters::routing_data()
{
    QTest::addColumn<FilterKind>("kind");
    QTest::addColumn<bool>("pure");
    QTest::addColumn<bool>("rho");
    QTest::addColumn<bool>("expostPure");
    QTest::addColumn<bool>("expostDelta");
    QTest::newRow("basic") << FilterKind::Basic << true << false << true << false;
    QTest::newRow("zcdp") << FilterKind::Zcdp << true << true << false << false;
    QTest::newRow("brownian-zcdp") << FilterKind::BrownianZcdp << true << true << false << false;
    QTest::newRow("expost") << FilterKind::ExPost << true << false << true << true;
    QTest::newRow("unified") << FilterKind::Unified << true << true << true << true;
}

// Which charges each filter can account at all (Unsupported otherwise, with a reason).
void TestFilters::routing()
{
    QFETCH(FilterKind, kind);
    QFETCH(bool, pure);
    QFETCH(bool, rho);
    QFETCH(bool, expostPure);
    QFETCH(bool, expostDelta);
    auto f = PrivacyFilter::create(kind, 1.0, 1e-6).value();
    const auto supported = [&](Charge c) -> bool {
        auto r = f->canCharge(c);
        return r.ok() || (r.error().code != pbx::ErrorCode::Unsupported && !r.error().message.empty());
    };
    QCOMPARE(supported({ChargeKind::PureEpsilon, 0.01, 0}), pure);
    QCOMPARE(supported({ChargeKind::Rho, 0.001, 0}), rho);
    QCOMPARE(supported({ChargeKind::ExPost, 0.01, 0}), expostPure);
    QCOMPARE(supported({ChargeKind::ExPost, 0.01, 1e-8}), expostDelta);
    QCOMPARE(pbx::filters::parseFilterKind(pbx::filters::filterKindName(kind)).value(), kind);
}

// Theorem 3's split: ε_z + ε_e ≤ ε and δ_z + δ_e ≤ δ; each side refuses on its own budget and
// never borrows from the other; the total ε-equivalent adds the two sides.
void TestFilters::unifiedSplit()
{
    auto created = pbx::filters::UnifiedFilter::create(1.0, 1e-6, {0.25, 0.5});
    QVERIFY(created.ok());
    auto &f = **created;
    const auto &z = f.zcdpSide();
    const auto &e = f.expostSide();
    QVERIFY(z.epsilonBudget() + e.epsilonBudget() <= 1.0);
    QVERIFY(z.deltaBudget() + e.deltaBudget() <= 1e-6);
    PBX_FUZZY_COMPARE(e.epsilonBudget(), 0.25, 1e-14);
    PBX_FUZZY_COMPARE(z.budget(), pbx::privacy::rhoFromEpsilon(0.75, 5e-7).value(), 1e-12);
    QCOMPARE(f.systems().size(), std::size_t(2));
    QVERIFY(f.charge({ChargeKind::ExPost, e.epsilonBudget(), 1e-7}).ok()); // the ex-post side, exactly full
    QCOMPARE(f.canCharge({ChargeKind::ExPost, 1e-9, 0}).error().code, pbx::ErrorCode::BudgetExceeded);
    QVERIFY(f.charge({ChargeKind::Rho, z.budget(), 0}).ok()); // the zCDP side is untouched by it
    QVERIFY(f.epsilonSpent() <= 1.0 + 1e-12);
    PBX_FUZZY_COMPARE(f.epsilonSpent(), 1.0, 1e-9);
    PBX_FUZZY_COMPARE(f.deltaSpent(), 5e-7 + 1e-7, 1e-12);
    PBX_VERIFY_ERROR(pbx::filters::UnifiedFilter::create(1.0, 1e-6, {0.0, 0.5}), InvalidArgument,
                     "the unified filter's ex-post shares of ε and δ");
    PBX_VERIFY_ERROR(pbx::filters::UnifiedFilter::create(1.0, 1e-6, {0.5, 1.0}), InvalidArgument,
                     "the unified filter's ex-post shares of ε and δ");
}

void TestFilters::expostDelta()
{
    auto f = PrivacyFilter::create(FilterKind::ExPost, 1.0, 1e-6).value();
    // Binary-exact amounts, so "exactly full" is exact (0.1 + 0.9 of doubles would exceed 1).
    QVERIFY(f->charge({ChargeKind::ExPost, 0.25, 5e-7}).ok());
    auto refused = f->charge({ChargeKind::ExPost, 0.25, 5.5e-7});
    QCOMPARE(refused.error().code, pbx::ErrorCode::BudgetExceeded);
    QVERIFY(QString::fromStdString(refused.error().message).contains(QStringLiteral("ex-post δ")));
    QVERIFY(f->charge({ChargeKind::ExPost, 0.75, 5e-7}).ok()); // exact fit on both quantities
    QCOMPARE(f->deltaSpent(), 1e-6);
    QCOMPARE(f->epsilonSpent(), 1.0);
}

void TestFilters::mixedRandomSequences_data()
{
    QTest::addColumn<FilterKind>("kind");
    QTest::newRow("basic") << FilterKind::Basic;
    QTest::newRow("zcdp") << FilterKind::Zcdp;
    QTest::newRow("expost") << FilterKind::ExPost;
    QTest::newRow("unified") << FilterKind::Unified;
    QTest::newRow("brownian-zcdp") << FilterKind::BrownianZcdp;
}

// 10⁵ random adaptive sequences of every charge kind per filter (a property test): no
// system ever passes its budget, the reported (ε, δ) never passes the session's, a refusal pays
// nothing, and the recorded costs of the accepted charges add up exactly to each system's spend.
void TestFilters::mixedRandomSequences()
{
    QFETCH(FilterKind, kind);
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int sequence = 0; sequence < 100000; ++sequence) {
        const double epsilon = 0.05 + 4.0 * unit(rng);
        auto f = PrivacyFilter::create(kind, epsilon, 1e-6).value();
        // What the recorded costs say each system spent, summed in the filter's own way.
        double zcdpSide = 0.0, pureOrExPost = 0.0, deltaSide = 0.0;
        for (int step = 0; step < 16; ++step) {
            const auto chargeKind = static_cast<ChargeKind>(rng() % 3);
            Charge c{chargeKind, epsilon * 0.3 * std::pow(unit(rng), 2), 0.0};
            if (chargeKind == ChargeKind::Rho)
                c.amount *= c.amount;
            if (chargeKind == ChargeKind::ExPost && unit(rng) < 0.5)
                c.delta = 1e-6 * 0.4 * unit(rng);
            if (unit(rng) < 0.05) // sometimes exactly what remains
                c.amount = f->remainingFor(chargeKind);
            const double before = f->epsilonSpent();
            if (!f->charge(c).ok()) {
                QCOMPARE(f->epsilonSpent(), before);
                continue;
            }
            const bool toZcdp = kind == FilterKind::Zcdp || kind == FilterKind::BrownianZcdp
                                || (kind == FilterKind::Unified && chargeKind != ChargeKind::ExPost);
            if (toZcdp)
                zcdpSide = pbx::math::addRoundUp(zcdpSide,
                                                 chargeKind == ChargeKind::Rho
                                                     ? c.amount
                                                     : pbx::filters::ZcdpFilter::rhoOfPureEpsilon(c.amount));
            else
                pureOrExPost = pbx::math::addRoundUp(pureOrExPost, c.amount);
            if (c.delta > 0.0)
                deltaSide = pbx::math::addRoundUp(deltaSide, c.delta);
        }
        const auto systems = f->systems();
        for (const auto &system : systems)
            QVERIFY(system.spent <= system.budget);
        const double expectedFirst
            = (kind == FilterKind::Basic || kind == FilterKind::ExPost) ? pureOrExPost : zcdpSide;
        QCOMPARE(systems.front().spent, expectedFirst);
        if (kind == FilterKind::Unified)
            QCOMPARE(systems.back().spent, pureOrExPost);
        if (kind == FilterKind::ExPost || kind == FilterKind::Unified)
            QCOMPARE(f->deltaSpent() >= deltaSide, true);
        QVERIFY2(f->epsilonSpent() <= epsilon * (1 + 1e-12),
                 qPrintable(QStringLiteral("ε spent %1 of %2").arg(f->epsilonSpent()).arg(epsilon)));
        QVERIFY(f->deltaSpent() <= 1e-6 * (1 + 1e-12));
    }
}

QTEST_APPLESS_MAIN(TestFilters)
#include "tst_filters.moc"
