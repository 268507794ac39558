// SPDX-License-Identifier: MIT
// PLDs of finitely many losses (randomized response, pure and (ε, δ) events) composed exactly on
// their atoms at any interval, and a finer grid never reporting a worse bracket than a coarser
// one it refines. Exact values: tests/data/exact/rr_exact.py (mpmath, 40 digits; Kairouz, Oh &
// Viswanath 2015, Thm 3.3).
#include "core/accounting/optimal_composition.h"
#include "core/accounting/pld_accountant.h"
#include "core/accounting/pld_atoms.h"
#include "tests/testutils.h"

#include <random>

using namespace pbx;
using namespace pbx::accounting;

class TestPldExact : public QObject
{
    Q_OBJECT

private slots:
    void exactAtAnyInterval_data();
    void exactAtAnyInterval();
    void deltaAtAnyInterval();
    void heterogeneousSparse();
    void mixedSparseAndGaussian();
    void atomLimitFallsBackToGrid();
    void finerGridNeverWorse_data();
    void finerGridNeverWorse();
};

namespace {

PrivacyEvent step(MechanismKind kind, double epsilon, double delta, std::int64_t count)
{
    PrivacyEvent e;
    e.mechanism = kind;
    e.epsilon = epsilon;
    e.delta = delta;
    e.count = count;
    return e;
}

Ledger ledgerOf(std::vector<PrivacyEvent> events)
{
    Ledger ledger;
    ledger.events = std::move(events);
    return ledger;
}

StrategyAnswer epsilonAt(const Ledger &ledger, double interval, double delta)
{
    PldOptions options;
    options.interval = interval;
    auto acc = PldAccountant::fromLedger(ledger, options);
    if (!acc)
        qFatal("%s", acc.error().message.c_str());
    auto a = acc.value()->epsilonForDelta(delta);
    if (!a)
        qFatal("%s", a.error().message.c_str());
    return a.value();
}

/// The bound C on the ℓ1 distance between the computed pessimistic PMF and the exact composition
/// of its steps' discretisations (PldPmf::errorL1: FFT round-off, truncated tails and windows,
/// clipping), the larger direction's; 0 for exact atoms.
double numericalError(const Ledger &ledger, double interval)
{
    PldOptions options;
    options.interval = interval;
    auto acc = PldAccountant::fromLedger(ledger, options);
    if (!acc)
        qFatal("%s", acc.error().message.c_str());
    if (acc.value()->exactAtoms())
        return 0.0;
    return std::max(acc.value()->pessimisticRemove().errorL1, acc.value()->pessimisticAdd().errorL1);
}

StrategyAnswer deltaAt(const Ledger &ledger, double interval, double epsilon)
{
    PldOptions options;
    options.interval = interval;
    auto acc = PldAccountant::fromLedger(ledger, options);
    if (!acc)
        qFatal("%s", acc.error().message.c_str());
    auto a = acc.value()->deltaForEpsilon(epsilon);
    if (!a)
        qFatal("%s", a.error().message.c_str());
    return a.value();
}

} // namespace

void TestPldExact::exactAtAnyInterval_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<double>("eps0");
    QTest::addColumn<double>("delta0");
    QTest::addColumn<qint64>("k");
    QTest::addColumn<double>("delta");
    QTest::addColumn<double>("exact");
    QTest::addColumn<double>("interval");
    // tests/data/exact/rr_exact.py. Before the atoms, randomized response ε₀ = 0.013 × 3000 at
    // δ = 1e-12 gave 6.317209 at interval 1e-3 (+26 %) and ε₀ = 0.011 gave 4.326747 at 1e-4.
    const struct
    {
        const char *name;
        MechanismKind kind;
        double eps0, delta0;
        qint64 k;
        double delta, exact;
    } rows[] = {
        {"rr0.011x3000", MechanismKind::RandomizedResponse, 0.011, 0.0, 3000, 1e-12, 4.1961619169063701},
        {"rr0.013x3000", MechanismKind::RandomizedResponse, 0.013, 0.0, 3000, 1e-12, 5.0133020526404536},
        {"rr0.03x3000", MechanismKind::RandomizedResponse, 0.03, 0.0, 3000, 1e-12, 12.498617449811111},
        {"rr0.06x3000", MechanismKind::RandomizedResponse, 0.06, 0.0, 3000, 1e-12, 27.916215361200662},
        {"pure0.0123456789x1000", MechanismKind::PureDp, 0.0123456789, 0.0, 1000, 1e-10, 2.376573040992232},
        {"pure0.7x50", MechanismKind::PureDp, 0.7, 0.0, 50, 1e-6, 30.662984414369868},
        {"approx0.0377x2000", MechanismKind::ApproxDp, 0.0377, 1e-9, 2000, 1e-5, 8.1930006633976364},
        {"approx0.25x300", MechanismKind::ApproxDp, 0.25, 1e-7, 300, 1e-4, 24.805672319748466},
    };
    for (const auto &r : rows)
        for (double interval : {1e-3, 1e-4, 1e-5})
            QTest::addRow("%s d=%g", r.name, interval)
                << int(r.kind) << r.eps0 << r.delta0 << r.k << r.delta << r.exact << interval;
}

// Upper and lower ends within 1e-9 relative of the 40-digit value, on the right sides of it, at
// every interval (the atoms do not depend on it).
void TestPldExact::exactAtAnyInterval()
{
    QFETCH(int, kind);
    QFETCH(double, eps0);
    QFETCH(double, delta0);
    QFETCH(qint64, k);
    QFETCH(double, delta);
    QFETCH(double, exact);
    QFETCH(double, interval);
    const auto a = epsilonAt(ledgerOf({step(MechanismKind(kind), eps0, delta0, k)}), interval, delta);
    QVERIFY2(a.epsilon >= exact * (1.0 - 1e-15), qPrintable(test::describe(a.epsilon, exact, 1e-9)));
    PBX_FUZZY_COMPARE(a.epsilon, exact, 1e-9);
    QVERIFY2(*a.optimisticEpsilon <= exact * (1.0 + 1e-15),
             qPrintable(test::describe(*a.optimisticEpsilon, exact, 1e-9)));
    PBX_FUZZY_COMPARE(*a.optimisticEpsilon, exact, 1e-9);
}

// δ(ε) of randomized response ε₀ = 0.013 × 3000 against the closed form (kovOptimalDelta) at ε
// where δ is 1e-3 … 1e-12, at intervals whose grids miss ε₀.
void TestPldExact::deltaAtAnyInterval()
{
    const Ledger ledger = ledgerOf({step(MechanismKind::RandomizedResponse, 0.013, 0.0, 3000)});
    for (double interval : {1e-3, 3e-4, 1e-5})
        for (double eps : {2.0, 3.5, 5.0133020526404536}) {
            const double exact = kovOptimalDelta(0.013, 0.0, 3000, eps);
            const auto a = deltaAt(ledger, interval, eps);
            QVERIFY2(a.delta >= exact * (1.0 - 1e-12), qPrintable(test::describe(a.delta, exact, 1e-9)));
            PBX_FUZZY_COMPARE(a.delta, exact, 1e-9);
            QVERIFY(*a.optimisticDelta <= exact * (1.0 + 1e-12));
            PBX_FUZZY_COMPARE(*a.optimisticDelta, exact, 1e-9);
        }
}

// Two finitely-many-loss groups with incommensurate ε₀s (every sum of atoms distinct, ~1.2·10⁴
// atoms): the same bracket at every interval, at most 1e-9 relative wide. Before, ε₀ = 0.013 was
// rounded up on the grid at each of its 120 steps.
void TestPldExact::heterogeneousSparse()
{
    const Ledger ledger = ledgerOf({step(MechanismKind::RandomizedResponse, 0.011, 0.0, 100),
                                    step(MechanismKind::PureDp, 0.013, 0.0, 120)});
    PldOptions options;
    options.interval = 1e-3;
    QVERIFY(PldAccountant::fromLedger(ledger, options).value()->exactAtoms() != nullptr);
    const auto coarse = epsilonAt(ledger, 1e-3, 1e-10);
    for (double interval : {1e-4, 1e-5}) {
        const auto a = epsilonAt(ledger, interval, 1e-10);
        QCOMPARE(a.epsilon, coarse.epsilon);
        QCOMPARE(*a.optimisticEpsilon, *coarse.optimisticEpsilon);
    }
    QVERIFY2(coarse.epsilon > 0.5 && coarse.epsilon < 5.0,
             qPrintable(QString::number(coarse.epsilon, 'g', 17)));
    QVERIFY(*coarse.optimisticEpsilon <= coarse.epsilon);
    PBX_FUZZY_COMPARE(*coarse.optimisticEpsilon, coarse.epsilon, 1e-9);
}

// Randomized response ε₀ = 0.013 × 3000 and one Gaussian σ = 5 at δ = 1e-12: exact ε 5.2222027571
// (rr_exact.py: δ(ε) = Σ_i w_i·δ_G(ε − ℓ_i), 40 digits). The atoms are rounded up to the grid once,
// so the upper end lies within about one interval above it (before: every step rounded, 6.5 at
// 1e-3), and the finer grid is the tighter.
void TestPldExact::mixedSparseAndGaussian()
{
    PrivacyEvent g;
    g.mechanism = MechanismKind::Gaussian;
    g.sigma = 5.0;
    const Ledger ledger = ledgerOf({step(MechanismKind::RandomizedResponse, 0.013, 0.0, 3000), g});
    const double exact = 5.2222027571371111;
    double previous = std::numeric_limits<double>::infinity();
    for (double interval : {1e-3, 1e-4}) {
        const auto a = epsilonAt(ledger, interval, 1e-12);
        const QString what = QStringLiteral("d=%1: [%2, %3]")
                                 .arg(interval)
                                 .arg(*a.optimisticEpsilon, 0, 'g', 12)
                                 .arg(a.epsilon, 0, 'g', 12);
        QVERIFY2(a.epsilon >= exact && a.epsilon <= exact + 1.5 * interval, qPrintable(what));
        QVERIFY2(*a.optimisticEpsilon <= exact, qPrintable(what));
        QVERIFY2(a.epsilon <= previous, qPrintable(what));
        previous = a.epsilon;
    }
}

// More incommensurate groups than the atom limits allow: the first stays exact, each later
// group is rounded up to the grid once (not once per step). Finite, bracketed, and no worse at
// the finer grid, and its bracket at most a few intervals wide.
void TestPldExact::atomLimitFallsBackToGrid()
{
    std::vector<PrivacyEvent> events;
    for (int i = 0; i < 4; ++i)
        events.push_back(step(MechanismKind::PureDp, 0.01 + 0.0013 * i + 1e-7 * i * i, 0.0, 1500));
    const Ledger ledger = ledgerOf(events);
    PldOptions options;
    options.interval = 1e-3;
    QVERIFY(PldAccountant::fromLedger(ledger, options).value()->exactAtoms() == nullptr);
    const auto coarse = epsilonAt(ledger, 1e-3, 1e-8);
    const auto fine = epsilonAt(ledger, 1e-4, 1e-8);
    QVERIFY(std::isfinite(coarse.epsilon) && coarse.epsilon > 1.0);
    QVERIFY2(fine.epsilon <= coarse.epsilon,
             qPrintable(QStringLiteral("%1 %2").arg(fine.epsilon).arg(coarse.epsilon)));
    QVERIFY2(*fine.optimisticEpsilon >= *coarse.optimisticEpsilon,
             qPrintable(QStringLiteral("%1 %2").arg(*fine.optimisticEpsilon).arg(*coarse.optimisticEpsilon)));
    QVERIFY(*fine.optimisticEpsilon <= fine.epsilon);
    // Each end within about one interval per group of the truth (9.3e-4 wide at d = 1e-4; the old
    // route rounded every step: up to 6000 intervals).
    QVERIFY2(fine.epsilon - *fine.optimisticEpsilon <= 1e-3,
             qPrintable(QStringLiteral("[%1, %2]").arg(*fine.optimisticEpsilon).arg(fine.epsilon)));
}

void TestPldExact::finerGridNeverWorse_data()
{
    QTest::addColumn<int>("seed");
    QTest::addColumn<bool>("dense");
    for (int seed = 0; seed < 12; ++seed)
        QTest::addRow("sparse%d", seed) << seed << false;
    for (int seed = 0; seed < 12; ++seed)
        QTest::addRow("dense%d", seed) << seed << true;
}

// Property: on a random ledger, the grid of interval c/m (m = 2, 4, 5) refines that of c, and
// reports an upper ε no larger and a lower ε no smaller, at δ = 1e-5 and 1e-10; and an upper δ(ε)
// no larger. Finitely-many-loss ledgers composed on their atoms: identical. Otherwise exact in
// exact arithmetic (docs/pld-numerics.md §5) and, computed, within the fine PMF's own bound C on
// its numerical error (FFT round-off, truncated tails, clipping): ε_fine(δ) ≤ ε_coarse(δ − C),
// lower_fine(δ) ≥ lower_coarse(δ + 2C), δ_fine(ε) ≤ δ_coarse(ε) + C.
void TestPldExact::finerGridNeverWorse()
{
    QFETCH(int, seed);
    QFETCH(bool, dense);
    std::mt19937_64 rng(static_cast<std::uint64_t>(seed) * 7919 + (dense ? 1 : 0));
    auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    auto logUniform = [&](double lo, double hi) { return std::exp(uniform(std::log(lo), std::log(hi))); };
    auto integer = [&](std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    };
    std::vector<PrivacyEvent> events;
    const auto sparseEvent = [&] {
        const int kind = static_cast<int>(integer(0, 2));
        PrivacyEvent e = step(kind == 0   ? MechanismKind::PureDp
                              : kind == 1 ? MechanismKind::RandomizedResponse
                                          : MechanismKind::ApproxDp,
                              logUniform(0.003, 0.3), kind == 2 ? 1e-13 : 0.0, integer(1, 3000));
        if (integer(0, 3) == 0)
            e.sampling = {SamplingKind::Poisson, uniform(0.05, 0.5)};
        return e;
    };
    const std::int64_t n = integer(1, 3);
    for (std::int64_t i = 0; i < n; ++i) {
        if (!dense) {
            events.push_back(sparseEvent());
            continue;
        }
        PrivacyEvent e;
        switch (integer(0, 2)) {
        case 0:
            e.mechanism = MechanismKind::Gaussian;
            e.sigma = uniform(0.7, 4.0);
            e.count = integer(1, 50);
            break;
        case 1:
            e.mechanism = MechanismKind::Gaussian;
            e.sigma = uniform(0.8, 2.0);
            e.count = integer(10, 300);
            e.sampling = {SamplingKind::Poisson, uniform(0.01, 0.1)};
            break;
        default:
            e.mechanism = MechanismKind::Laplace;
            e.scale = uniform(2.0, 20.0);
            e.count = integer(1, 40);
            break;
        }
        events.push_back(e);
    }
    if (dense && integer(0, 1) == 1)
        events.push_back(sparseEvent());
    const Ledger ledger = ledgerOf(events);
    const double coarse = integer(0, 1) == 0 ? 2e-3 : 1e-3;
    const double fine = coarse / static_cast<double>(std::array<int, 3>{2, 4, 5}[integer(0, 2)]);
    // C: the fine PMF's bound on its own numerical error; it is what the dense relation may miss by.
    const double errorL1 = numericalError(ledger, fine);
    for (double delta : {1e-5, 1e-10}) {
        const auto c = epsilonAt(ledger, coarse, delta);
        const auto f = epsilonAt(ledger, fine, delta);
        const QString what = QStringLiteral("δ=%1: coarse [%2, %3], fine [%4, %5], C %6")
                                 .arg(delta)
                                 .arg(*c.optimisticEpsilon, 0, 'g', 17)
                                 .arg(c.epsilon, 0, 'g', 17)
                                 .arg(*f.optimisticEpsilon, 0, 'g', 17)
                                 .arg(f.epsilon, 0, 'g', 17)
                                 .arg(errorL1);
        if (f.epsilon > c.epsilon || *f.optimisticEpsilon < *c.optimisticEpsilon)
            qDebug("within the numerical error only: %s", qPrintable(what));
        if (!(errorL1 < 0.5 * delta)) // no room for the charge at this δ
            continue;
        // δ_fine(ε) ≤ δ_coarse(ε) + C, so ε_fine(δ) ≤ ε_coarse(δ − C) (docs/pld-numerics.md §5).
        QVERIFY2(f.epsilon <= epsilonAt(ledger, coarse, delta - errorL1).epsilon, qPrintable(what));
        QVERIFY2(*f.optimisticEpsilon >= *epsilonAt(ledger, coarse, delta + 2.0 * errorL1).optimisticEpsilon,
                 qPrintable(what));
        if (errorL1 == 0.0) { // exact atoms: nothing depends on the grid
            QCOMPARE(f.epsilon, c.epsilon);
            QCOMPARE(*f.optimisticEpsilon, *c.optimisticEpsilon);
        }
        if (!std::isfinite(c.epsilon))
            continue;
        const double eps = 0.7 * c.epsilon;
        const double dc = deltaAt(ledger, coarse, eps).delta;
        const double df = deltaAt(ledger, fine, eps).delta;
        QVERIFY2(df <= dc + errorL1,
                 qPrintable(what + QStringLiteral(" δ(%1): coarse %2 fine %3").arg(eps).arg(dc).arg(df)));
    }
}

QTEST_APPLESS_MAIN(TestPldExact)
#include "tst_pld_exact.moc"
