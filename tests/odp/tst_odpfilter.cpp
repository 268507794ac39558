// SPDX-License-Identifier: MIT
// ODP as a value and the ODP filter: Lemma 6's δ sum (T1), why δ is debited in full (T2), the
// ten-step session transcript (T3), 10⁵ random reserve/settle sequences, crash recovery and
// hostile inputs (Hartmann, Bindschaedler, Bentkamp & West 2023; docs/output-dp.md).
#include "core/filters/budget_account.h"
#include "core/filters/odp_filter.h"
#include "core/privacy/odp_guarantee.h"
#include "tests/testutils.h"

#include <random>

using namespace pbx;
using namespace pbx::odp;

class TestOdpFilter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void conversions();
    void lemma6NeedsTheDeltaSum();
    void deltaDebitedInFull();
    void sessionTranscript();
    void openMechanismBlocksOthers();
    void unknownCellChargesWorstCase();
    void randomSequencesNeverOverspend();
    void crashChargesWorstCase();
    void hostileInputs();
};

void TestOdpFilter::conversions()
{
    auto trivial = trivialGuarantee(0.5, 1e-6);
    QVERIFY(trivial.ok());
    QCOMPARE(trivial->cells.size(), std::size_t{1});
    QCOMPARE(trivial->worstEpsilon(), 0.5);
    // The toy coin mechanism: cells {⊥} at 0 and ℝ at ε; Lemma 4 gives (ε, 0)-DP.
    const OdpGuarantee coin{{OdpCell{0, "⊥", 0.0}, OdpCell{1, "value", 0.7}}, 0.0};
    auto dp = toDp(coin);
    QVERIFY(dp.ok());
    QCOMPARE(dp->epsilon, 0.7);
    QCOMPARE(dp->delta, 0.0);
}

void TestOdpFilter::lemma6NeedsTheDeltaSum()
{
    // T1: M(D) ∈ {a1, b1, c} with probabilities δ, δ, 1−2δ; M(D') ∈ {a2, b2, c} likewise.
    // Cells {a1,a2} and {b1,b2,c} are each (0, δ)-subset-DP; the event {a1, b1} needs 2δ.
    const double delta = 0.001;
    const double pD_event = delta + delta; // P[M(D) ∈ {a1, b1}]
    const double pDprime_event = 0.0;      // P[M(D') ∈ {a1, b1}]
    const double needed = pD_event - std::exp(0.0) * pDprime_event;
    auto g = fromSubsetDp({{0, "{a1,a2}", 0.0, delta}, {1, "{b1,b2,c}", 0.0, delta}});
    QVERIFY(g.ok());
    PBX_FUZZY_COMPARE(g->delta, 0.002, 1e-15);
    QVERIFY(g->delta >= needed);
    QVERIFY(std::max(delta, delta) < needed); // the max of the per-cell deltas would be unsound
}

void TestOdpFilter::deltaDebitedInFull()
{
    // T2: budget (0, 1e-3); M is (0, δ)-ODP with δ = 1e-3 on the cell {a, a'}. An output-dependent
    // δ debit would run it 100 times; the event "some a appears" then has probability
    // 1 − (1 − δ)^100 = 0.095208 under D and 0 under D'.
    const double delta = 1e-3;
    PBX_FUZZY_COMPARE(-std::expm1(100.0 * std::log1p(-delta)), 0.095208, 1e-5);
    auto filter = OdpFilter::create(1.0, delta); // ε_g must be > 0; the mechanism costs ε = 0
    QVERIFY(filter.ok());
    const OdpGuarantee m{{OdpCell{0, "{a, a'}", 0.0}, OdpCell{1, "{b}", 0.0}}, delta};
    QVERIFY(filter->charge(m, 1, "toy").ok()); // realised cell {b}: still δ in full
    QCOMPARE(filter->deltaSpent(), delta);
    auto second = filter->reserve(m, "toy");
    PBX_VERIFY_ERROR(second, BudgetExceeded, "this mechanism needs δ =");
    QCOMPARE(second.error().code, ErrorCode::BudgetExceeded);
    QVERIFY(QString::fromStdString(second.error().message).contains(QStringLiteral("δ")));
}

void TestOdpFilter::sessionTranscript()
{
    // T3: budget (2, 1e-5); the ten steps and the plain-DP counterfactual.
    auto f = OdpFilter::create(2.0, 1e-5);
    QVERIFY(f.ok());
    filters::BudgetAccount plain(2.0); // basic composition of the worst cases
    auto check = [&](double epsRemaining, double deltaRemaining) {
        PBX_FUZZY_COMPARE(f->epsilonRemaining(), epsRemaining, 1e-12);
        QVERIFY(std::abs(f->deltaRemaining() - deltaRemaining) < 1e-18);
    };
    // 1. Laplace count ε = 0.25.
    QVERIFY(f->charge(*trivialGuarantee(0.25, 0.0), 0, "Laplace count").ok());
    plain.add(0.25);
    check(1.75, 1e-5);
    // 2. SVT ε₁ = 0.1, ε₂ = 0.4, c = 4: j = 1 costs 0.2.
    const OdpGuarantee svt{{{0, "0", 0.1}, {1, "1", 0.2}, {2, "2", 0.3}, {3, "3", 0.4}, {4, "4", 0.5}}, 0.0};
    auto id = f->reserve(svt, "sparse vector");
    QVERIFY(id.ok());
    PBX_FUZZY_COMPARE(f->epsilonRemaining(), 1.25, 1e-12); // the worst case is held while open
    QCOMPARE(*f->settle(*id, 1), 0.2);
    plain.add(0.5);
    check(1.55, 1e-5);
    // 3. Laplace release ε = 0.3.
    QVERIFY(f->charge(*trivialGuarantee(0.3, 0.0), 0, "Laplace").ok());
    plain.add(0.3);
    check(1.25, 1e-5);
    // 4.–5. PTR-IQR M₁ (⊥) then M₂ (released): cells ⊥ 0.2, released 0.4, δ 1e-6 each.
    const OdpGuarantee ptr{{{0, "⊥", 0.2}, {1, "released", 0.4}}, 1e-6};
    QVERIFY(f->charge(ptr, 0, "PTR M1").ok());
    plain.add(0.4);
    check(1.05, 9e-6);
    QVERIFY(f->charge(ptr, 1, "PTR M2").ok());
    plain.add(0.4);
    check(0.65, 8e-6);
    PBX_FUZZY_COMPARE(plain.spent(), 1.85, 1e-12);
    // 6. Early-stopped GD: E = (0.3, 0.6), δ = 4e-6; stopped at k₁. Plain DP refuses it.
    const OdpGuarantee gd{{{0, "k1", 0.3}, {1, "k2", 0.6}}, 4e-6};
    QVERIFY(!plain.fits(0.6));
    QVERIFY(f->charge(gd, 0, "early stop").ok());
    check(0.35, 4e-6);
    // 7. Budget recovery ε_p = 0.4, ε_t = 0.05: refused, nothing spent.
    const OdpGuarantee big{{{0, "⊥", 0.05}, {1, "released", 0.4}}, 0.0};
    auto refused = f->reserve(big, "budget recovery");
    PBX_VERIFY_ERROR(refused, BudgetExceeded, "this mechanism needs ε =");
    QCOMPARE(refused.error().code, ErrorCode::BudgetExceeded);
    QCOMPARE(QString::fromStdString(refused.error().message),
             QStringLiteral("this mechanism needs ε = 0.4 (worst case) but 0.35 remains"));
    check(0.35, 4e-6);
    // 8. ε_p = 0.35: output ⊥ costs 0.05. The decimal costs are not exact in binary and the
    // filter rounds its spend up, so "0.35 remains" is a little below the double 0.35: the
    // mechanism is calibrated to what remains (within 1e-12 of 0.35), never above it.
    const double left = f->epsilonRemaining();
    QVERIFY(std::abs(left - 0.35) < 1e-12 && left <= 0.35);
    const OdpGuarantee fits{{{0, "⊥", 0.05}, {1, "released", left}}, 0.0};
    QVERIFY(f->charge(fits, 0, "budget recovery").ok());
    check(0.30, 4e-6);
    // 9. Gaussian (0.3, 4e-6), calibrated to exactly what remains (as in step 8).
    QVERIFY(std::abs(f->epsilonRemaining() - 0.3) < 1e-12);
    QVERIFY(std::abs(f->deltaRemaining() - 4e-6) < 1e-18);
    auto gauss = f->charge(*trivialGuarantee(f->epsilonRemaining(), f->deltaRemaining()), 0, "Gaussian");
    QVERIFY2(gauss.ok(), gauss.ok() ? "" : gauss.error().message.c_str());
    QVERIFY(f->epsilonRemaining() < 1e-12);
    QVERIFY(f->deltaRemaining() < 1e-18);
    // 10. Anything with a cost is refused; a data-free request is admitted.
    PBX_VERIFY_ERROR(f->reserve(*trivialGuarantee(0.01, 0.0), "x"), BudgetExceeded,
                     "this mechanism needs ε =");
    PBX_VERIFY_ERROR(f->reserve(*trivialGuarantee(0.0, 1e-9), "x"), BudgetExceeded,
                     "this mechanism needs δ =");
    QVERIFY(f->charge(*trivialGuarantee(0.0, 0.0), 0, "data-free").ok());
    QVERIFY(f->epsilonSpent() <= 2.0);
    QVERIFY(f->deltaSpent() <= 1e-5);
}

void TestOdpFilter::openMechanismBlocksOthers()
{
    auto f = OdpFilter::create(1.0, 0.0);
    QVERIFY(f.ok());
    QVERIFY(f->charge(*trivialGuarantee(0.1, 0.0), 0, "count").ok());
    QVERIFY(f->charge(*trivialGuarantee(0.1, 0.0), 0, "count").ok());
    auto id = f->reserve(OdpGuarantee{{{0, "0", 0.1}, {1, "1", 0.3}}, 0.0}, "sparse vector");
    QVERIFY(id.ok());
    QCOMPARE(*id, 3);
    auto other = f->reserve(*trivialGuarantee(0.01, 0.0), "count");
    PBX_VERIFY_ERROR(other, Unsupported, "sparse vector #3");
    QCOMPARE(other.error().code, ErrorCode::Unsupported);
    QCOMPARE(QString::fromStdString(other.error().message),
             QStringLiteral("sparse vector #3 is still open; send STOP first"));
    // Settling something that is not open, or twice, is a programming error.
    QCOMPARE(f->settle(2, 0).error().code, ErrorCode::InvalidArgument);
    QVERIFY(f->settle(3, 0).ok());
    QCOMPARE(f->settle(3, 0).error().code, ErrorCode::InvalidArgument);
    PBX_FUZZY_COMPARE(f->epsilonSpent(), 0.3, 1e-15);
}

void TestOdpFilter::unknownCellChargesWorstCase()
{
    auto f = OdpFilter::create(1.0, 0.0);
    auto id = f->reserve(OdpGuarantee{{{0, "0", 0.1}, {1, "1", 0.3}}, 0.0}, "svt");
    auto bad = f->settle(*id, 7);
    PBX_VERIFY_ERROR(bad, InvalidArgument, "cell 7");
    QCOMPARE(bad.error().code, ErrorCode::InvalidArgument);
    QCOMPARE(f->epsilonSpent(), 0.3);
    QVERIFY(!f->openRequest());
}

void TestOdpFilter::randomSequencesNeverOverspend()
{
    std::mt19937_64 rng(20261123);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    auto f = OdpFilter::create(3.0, 1e-4);
    QVERIFY(f.ok());
    long admitted = 0;
    double deltaAdmitted = 0.0;
    for (int i = 0; i < 100000; ++i) {
        if (i % 200 == 0) { // a fresh filter now and then, so the budget is often near its end
            f = OdpFilter::create(0.5 + 3.0 * unit(rng), unit(rng) < 0.2 ? 0.0 : 1e-4);
            deltaAdmitted = 0.0;
        }
        OdpGuarantee g;
        const int cells = 1 + static_cast<int>(unit(rng) * 5);
        for (int c = 0; c < cells; ++c)
            g.cells.push_back(OdpCell{c, "", unit(rng) < 0.1 ? 0.0 : 0.3 * unit(rng)});
        g.delta = unit(rng) < 0.5 ? 0.0 : 1e-5 * unit(rng);
        const double before = f->epsilonSpent();
        const double deltaBefore = f->deltaSpent();
        const double remainingBefore = f->epsilonRemaining();
        auto id = f->reserve(g, "random");
        if (!id) {
            QVERIFY(id.error().code == ErrorCode::BudgetExceeded);
            QCOMPARE(f->epsilonSpent(), before); // nothing spent on a refusal
            QCOMPARE(f->deltaSpent(), deltaBefore);
            QVERIFY(g.worstEpsilon() > remainingBefore || g.delta > f->deltaRemaining());
            continue;
        }
        ++admitted;
        deltaAdmitted += g.delta;
        QVERIFY(f->deltaSpent() >= deltaBefore + g.delta * (1 - 1e-15)); // δ debited in full at once
        const int cell = static_cast<int>(unit(rng) * cells);
        auto cost = unit(rng) < 0.01 ? f->settleWorstCase(*id) : f->settle(*id, cell);
        QVERIFY(cost.ok());
        QVERIFY(*cost <= g.worstEpsilon());
        QVERIFY(f->epsilonSpent() <= f->epsilonBudget());
        QVERIFY(f->deltaSpent() <= f->deltaBudget());
        QVERIFY(f->deltaSpent() >= deltaAdmitted * (1 - 1e-12));
    }
    QVERIFY(admitted > 10000);
}

void TestOdpFilter::crashChargesWorstCase()
{
    const OdpGuarantee svt{{{0, "0", 0.1}, {1, "1", 0.3}, {2, "2", 0.5}}, 0.0};
    std::vector<OdpJournalRecord> journal{
        {OdpJournalRecord::Kind::Reserve, 1, "count", *trivialGuarantee(0.2, 1e-6), 0},
        {OdpJournalRecord::Kind::Settle, 1, "", {}, 0},
        {OdpJournalRecord::Kind::Reserve, 2, "sparse vector", svt, 0},
        // killed here: no settle for #2
    };
    auto resumed = replayJournal(1.0, 1e-5, journal);
    QVERIFY(resumed.ok());
    PBX_FUZZY_COMPARE(resumed->epsilonSpent(), 0.7, 1e-15); // 0.2 + the SVT's worst case 0.5
    QCOMPARE(resumed->deltaSpent(), 1e-6);
    QVERIFY(!resumed->openRequest());
    // With the settle record, the realised cell is charged.
    journal.push_back({OdpJournalRecord::Kind::Settle, 2, "", {}, 0});
    auto settled = replayJournal(1.0, 1e-5, journal);
    PBX_FUZZY_COMPARE(settled->epsilonSpent(), 0.3, 1e-15);
    // A settle without its reserve is an inconsistent journal.
    auto broken = replayJournal(1.0, 1e-5, {{OdpJournalRecord::Kind::Settle, 1, "", {}, 0}});
    PBX_VERIFY_ERROR(broken, InvalidArgument, "journal");
}

void TestOdpFilter::hostileInputs()
{
    QCOMPARE(OdpFilter::create(0.0, 0.0).error().code, ErrorCode::InvalidArgument);
    QCOMPARE(OdpFilter::create(std::nan(""), 0.0).error().code, ErrorCode::InvalidArgument);
    QCOMPARE(OdpFilter::create(1.0, 1.0).error().code, ErrorCode::InvalidArgument);
    auto f = OdpFilter::create(1.0, 1e-6);
    const std::vector<OdpGuarantee> bad{
        OdpGuarantee{{}, 0.0},
        OdpGuarantee{{{0, "", -0.1}}, 0.0},
        OdpGuarantee{{{0, "", std::nan("")}}, 0.0},
        OdpGuarantee{{{0, "", INFINITY}}, 0.0},
        OdpGuarantee{{{0, "", 0.1}, {0, "", 0.2}}, 0.0},
        OdpGuarantee{{{0, "", 0.1}}, -1e-9},
        OdpGuarantee{{{0, "", 0.1}}, 1.0},
    };
    for (const OdpGuarantee &g : bad) {
        auto r = f->reserve(g, "bad");
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code, ErrorCode::InvalidArgument);
    }
    QCOMPARE(f->epsilonSpent(), 0.0);
    QCOMPARE(f->deltaSpent(), 0.0);
    QCOMPARE(QString::fromStdString(bad[1].validate().error().message),
             QStringLiteral("cells[0].epsilon must be finite and >= 0"));
    QCOMPARE(fromSubsetDp({{0, "", 0.1, 0.6}, {1, "", 0.1, 0.5}}).error().code, ErrorCode::InvalidArgument);
}

QTEST_APPLESS_MAIN(TestOdpFilter)
#include "tst_odpfilter.moc"
