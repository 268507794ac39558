// SPDX-License-Identifier: MIT
// compareStrategies (core/accounting/comparison.h): the table's answers against known numbers
// (basic composition 10 and the Kairouz–Oh–Viswanath optimum 4.306791372516508 for 100 steps of
// ε = 0.1 at δ = 1e-5, as tst_ledger), the ε(k) curve over prefixes, the δ(ε) profile, the RDP
// curve of a Gaussian, parallel composition over partitions in every curve (the worst part,
// tst_composition's 2.5), events named by their index in the whole ledger, progress and
// cancellation, and the prefix rules the comparison view uses.
#include "core/accounting/comparison.h"
#include "core/accounting/evaluation.h"
#include "core/accounting/optimal_composition.h"
#include "core/accounting/per_step_dp.h"
#include "core/accounting/pld_accountant.h"
#include "core/accounting/pld_composed.h"
#include "core/accounting/pld_mechanisms.h"
#include "core/privacy/analytic_gaussian.h"
#include "tests/testutils.h"

#include <QtTest/QtTest>

#include <cmath>
#include <cstring>
#include <memory>

using namespace pbx;
using namespace pbx::accounting;

namespace {

PrivacyEvent pure(double epsilon, std::int64_t count = 1, const std::string &partition = {})
{
    PrivacyEvent e;
    e.mechanism = MechanismKind::PureDp;
    e.epsilon = epsilon;
    e.count = count;
    e.partition = partition;
    return e;
}

PrivacyEvent laplace(double scale, std::int64_t count = 1)
{
    PrivacyEvent e;
    e.mechanism = MechanismKind::Laplace;
    e.scale = scale;
    e.count = count;
    return e;
}

ComparisonQuery withPrefixes(const Ledger &ledger)
{
    ComparisonQuery q;
    q.prefixes = stepPrefixes(ledger);
    q.prefixPldInterval = prefixPldInterval(ledger, q.pldInterval);
    return q;
}

std::size_t indexOf(const Comparison &c, const std::string &name)
{
    for (std::size_t i = 0; i < c.strategies.size(); ++i)
        if (c.strategies[i].name == name)
            return i;
    return c.strategies.size();
}

} // namespace

class TestComparison : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void pureStepsKnownNumbers();
    void partitionsComposeInParallelEverywhere();
    void eventsNamedInTheWholeLedger();
    void gaussianRdpCurve();
    void deltaAtEpsilonQuery();
    void progressAndCancel();
    void prefixRules();
    void invalidInputNamesTheField();
    void rdpCurveShowsTheRowsNumber();
    void deltaModeCurvesFollowTheQuery();
    void optimalNeverAboveBasic();
    void gaussianPrefixesFromClosedForm();
    void prefixMemoIsBitIdentical();
    void profileSweepMatchesPointwise();
    void prefixRunningProductsMatchFreshBuilds();
    void composedQueryBoundsTheExactComposition();
    void composedQueryNotAboveTheFftComposition();
    void prefixCurveSharesTheTablesSelfCompositions();
    void optimalRunningProductNotBelowFreshBuilds();
    void optimalRunningAtomsMatchFreshBuilds();
};

void TestComparison::pureStepsKnownNumbers()
{
    Ledger l;
    l.events = {pure(0.1, 100)};
    ComparisonQuery q = withPrefixes(l);
    q.strategies = {"basic", "advanced", "optimal", "zcdp", "rdp"};
    int summaries = 0;
    auto c = compareStrategies(l, q, {}, [&](const Comparison &s) {
        ++summaries;
        QVERIFY(s.prefixX.empty());
        QCOMPARE(s.strategies.size(), std::size_t{5});
    });
    QVERIFY(c.ok());
    QCOMPARE(summaries, 1);
    const auto &basic = c->strategies[0];
    QVERIFY(basic.applicable());
    PBX_FUZZY_COMPARE(basic.answer->epsilon, 10.0, 1e-14);
    PBX_FUZZY_COMPARE(basic.epsilonAtDelta, 10.0, 1e-14);
    PBX_FUZZY_COMPARE(c->find("optimal")->answer->epsilon, 4.306791372516508, 1e-10);
    // Every valid bound is at least the optimum.
    for (const auto &s : c->strategies)
        if (s.applicable())
            QVERIFY2(s.answer->epsilon >= 4.306791372516508 * (1 - 1e-10), s.name.c_str());

    // ε(k): 30 prefixes k = ⌈i·100/30⌉; basic composition is exactly 0.1·k.
    QCOMPARE(c->prefixX.size(), std::size_t{30});
    QCOMPARE(c->prefixSteps.front(), std::int64_t{4});
    QCOMPARE(c->prefixSteps.back(), std::int64_t{100});
    for (std::size_t k = 0; k < c->prefixX.size(); ++k) {
        QCOMPARE(c->prefixX[k], static_cast<double>(c->prefixSteps[k]));
        PBX_FUZZY_COMPARE(c->prefixEpsilons[0][k], 0.1 * static_cast<double>(c->prefixSteps[k]), 1e-13);
        // The optimum never exceeds basic composition, and ε(k) grows with k.
        QVERIFY(c->prefixEpsilons[2][k] <= c->prefixEpsilons[0][k] * (1 + 1e-12));
        if (k > 0)
            QVERIFY(c->prefixEpsilons[2][k] >= c->prefixEpsilons[2][k - 1]);
    }
    PBX_FUZZY_COMPARE(c->prefixEpsilons[2].back(), 4.306791372516508, 1e-10);
    QCOMPARE(c->prefixPldInterval, 1e-4);

    // δ(ε) profile over [0, 2.5 · smallest ε]: basic composition of pure steps is 0 from ε = 10.
    QCOMPARE(c->profileEpsilons.size(), std::size_t{64});
    QCOMPARE(c->profileEpsilons.front(), 0.0);
    PBX_FUZZY_COMPARE(c->profileEpsilons.back(), 2.5 * c->find("optimal")->epsilonAtDelta, 1e-15);
    for (std::size_t j = 0; j < c->profileEpsilons.size(); ++j) {
        if (c->profileEpsilons[j] >= 10.0 * (1 + 1e-12))
            QCOMPARE(c->profileDeltas[0][j], 0.0);
        // The profile is non-increasing in ε.
        if (j > 0)
            QVERIFY(c->profileDeltas[2][j] <= c->profileDeltas[2][j - 1]);
    }
    // No PLD requested: no histogram.
    QVERIFY(c->pld.loss.empty());
}

void TestComparison::partitionsComposeInParallelEverywhere()
{
    // tst_composition's ledger: shared ε = 0.5, parts north ε = 1 and south ε = 2, a free
    // post-processing step. Basic composition: max(1, 2) + 0.5 = 2.5; prefixes 0.5, 1.5, 2.5, 2.5.
    Ledger l;
    PrivacyEvent post;
    post.mechanism = MechanismKind::PostProcessing;
    l.events = {pure(0.5), pure(1.0, 1, "north"), pure(2.0, 1, "south"), post};
    auto c = compareStrategies(l, withPrefixes(l));
    QVERIFY(c.ok());
    QCOMPARE(c->partitions, std::size_t{2});
    const std::size_t basic = indexOf(*c, "basic");
    PBX_FUZZY_COMPARE(c->strategies[basic].answer->epsilon, 2.5, 1e-15);
    QVERIFY(c->strategies[basic].answer->method.find("parallel composition") != std::string::npos);
    // The same answer as the one-strategy entry point.
    QCOMPARE(evaluateStrategy("basic", l, AccountingQuery{true, 1e-5})->epsilon,
             c->strategies[basic].answer->epsilon);
    const std::vector<double> expected{0.5, 1.5, 2.5, 2.5};
    QCOMPARE(c->prefixEpsilons[basic].size(), expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k)
        PBX_FUZZY_COMPARE(c->prefixEpsilons[basic][k], expected[k], 1e-15);
    // Profile: basic composition is 2.5-DP (δ = 0 from ε = 2.5 on) and no better.
    for (std::size_t j = 0; j < c->profileEpsilons.size(); ++j) {
        if (c->profileEpsilons[j] >= 2.5 * (1 + 1e-12))
            QCOMPARE(c->profileDeltas[basic][j], 0.0);
        else
            QVERIFY(c->profileDeltas[basic][j] > 0.0);
    }
    // The PLD histogram is the worst part's (south, ε = 2 plus the shared 0.5): losses up to 2.5.
    QVERIFY(!c->pld.loss.empty());
    QVERIFY(c->pld.loss.back() <= 2.5 + c->pld.binWidth);
    QVERIFY(c->pld.loss.back() > 2.0);
}

void TestComparison::eventsNamedInTheWholeLedger()
{
    // Post-processing is dropped before composing; the Gaussian is still "events[1]" for basic
    // composition, which has no (ε, δ) for it.
    Ledger l;
    PrivacyEvent post, gauss;
    post.mechanism = MechanismKind::PostProcessing;
    gauss.mechanism = MechanismKind::Gaussian;
    gauss.sigma = 2.0;
    l.events = {post, gauss};
    ComparisonQuery q;
    q.strategies = {"basic", "zcdp"};
    auto c = compareStrategies(l, q);
    QVERIFY(c.ok());
    const auto &basic = c->strategies[0];
    QVERIFY(!basic.applicable());
    QVERIFY(basic.error.has_value());
    QCOMPARE(basic.error->code, ErrorCode::Unsupported);
    QVERIFY2(basic.error->message.rfind("events[1] (gaussian): ", 0) == 0, basic.error->message.c_str());
    // zCDP: ρ = Δ²/(2σ²) = 1/8; ε = ρ + 2√(ρ log(1/δ)) or better; NaN prefix values never.
    QVERIFY(c->strategies[1].applicable());
    QVERIFY(std::isnan(c->profileDeltas[0][5]));
    QVERIFY(c->profileDeltas[1][5] >= 0.0);
}

void TestComparison::gaussianRdpCurve()
{
    // Ten Gaussians with σ = 2, Δ = 1: the composed RDP is ε̂(α) = 10 α / (2σ²) = 1.25 α
    // (Mironov 2017, Prop. 7 and Prop. 1).
    Ledger l;
    PrivacyEvent g;
    g.mechanism = MechanismKind::Gaussian;
    g.sigma = 2.0;
    g.count = 10;
    l.events = {g};
    ComparisonQuery q;
    q.strategies = {"rdp", "pld"};
    auto c = compareStrategies(l, q);
    QVERIFY(c.ok());
    QVERIFY(!c->rdp.orders.empty());
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < c->rdp.orders.size(); ++j) {
        PBX_FUZZY_COMPARE(c->rdp.values[j], 1.25 * c->rdp.orders[j], 1e-12);
        if (!std::isnan(c->rdp.epsilonByOrder[j]))
            best = std::min(best, c->rdp.epsilonByOrder[j]);
    }
    // The table's ε is the best order's, and that order is marked.
    PBX_FUZZY_COMPARE(c->find("rdp")->answer->epsilon, best, 1e-12);
    QVERIFY(std::find(c->rdp.orders.begin(), c->rdp.orders.end(), c->rdp.optimalOrder)
            != c->rdp.orders.end());
    // PLD: the histogram holds (nearly) all the mass, and PLD is at most RDP.
    double mass = c->pld.infinityMass;
    for (double m : c->pld.mass)
        mass += m;
    PBX_FUZZY_COMPARE(mass, 1.0, 1e-6);
    QVERIFY(c->find("pld")->answer->epsilon <= best);
}

void TestComparison::deltaAtEpsilonQuery()
{
    // δ at ε = 5 for 100 steps of ε = 0.1: basic composition needs ε = 10, so δ = 1 there; the
    // curves still use ε at δ = 1e-5.
    Ledger l;
    l.events = {pure(0.1, 100)};
    ComparisonQuery q;
    q.epsilonAtDelta = false;
    q.epsilon = 5.0;
    q.strategies = {"basic", "optimal"};
    auto c = compareStrategies(l, q);
    QVERIFY(c.ok());
    QVERIFY(c->strategies[1].answer->delta < 1e-5);
    PBX_FUZZY_COMPARE(c->strategies[0].epsilonAtDelta, 10.0, 1e-14);
    PBX_FUZZY_COMPARE(c->strategies[1].epsilonAtDelta, 4.306791372516508, 1e-10);
    // The profile reaches 1.5 ε at least.
    QVERIFY(c->profileEpsilons.back() >= 7.5);
    // The account path (no curves) leaves ε at δ uncomputed.
    q.curves = false;
    auto table = compareStrategies(l, q);
    QVERIFY(table.ok());
    QVERIFY(std::isnan(table->strategies[0].epsilonAtDelta));
    QVERIFY(table->profileEpsilons.empty());
}

void TestComparison::progressAndCancel()
{
    Ledger l;
    for (int i = 0; i < 8; ++i)
        l.events.push_back(laplace(10.0 + i));
    std::vector<double> fractions;
    auto c = compareStrategies(l, withPrefixes(l), [&](const ComparisonProgress &p) {
        fractions.push_back(p.fraction);
        return true;
    });
    QVERIFY(c.ok());
    QVERIFY(fractions.size() > 10);
    QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
    QCOMPARE(fractions.back(), 1.0);

    // Cancelled while composing the prefixes.
    int calls = 0;
    auto cancelled = compareStrategies(l, withPrefixes(l), [&](const ComparisonProgress &p) {
        ++calls;
        return p.phase != ComparisonProgress::Phase::Prefixes;
    });
    QVERIFY(!cancelled.ok());
    QCOMPARE(cancelled.error().code, ErrorCode::Cancelled);
    QVERIFY(calls > 1);
}

void TestComparison::prefixRules()
{
    // 60 different Laplace steps: the prefix curves use d = 1e-3; the same step 60 times, or 60
    // different unsampled Gaussians (merged exactly), keep the table's d.
    Ledger distinct, same, gaussians;
    for (int i = 0; i < 60; ++i) {
        distinct.events.push_back(laplace(20.0 + i));
        same.events.push_back(laplace(20.0));
        PrivacyEvent g;
        g.mechanism = MechanismKind::Gaussian;
        g.sigma = 1.0 + i;
        gaussians.events.push_back(g);
    }
    QCOMPARE(prefixPldInterval(distinct, 1e-4), kCoarsePrefixInterval);
    QCOMPARE(prefixPldInterval(distinct, 1e-2), 1e-2);
    QCOMPARE(prefixPldInterval(same, 1e-4), 1e-4);
    QCOMPARE(prefixPldInterval(gaussians, 1e-5), 1e-5);

    // Steps: at most 30 prefixes, x = k, the last the whole ledger; fewer steps, one per step.
    const auto steps = stepPrefixes(distinct);
    QCOMPARE(steps.size(), std::size_t{30});
    QCOMPARE(steps.front().steps, std::int64_t{2});
    QCOMPARE(steps.back().steps, std::int64_t{60});
    Ledger three;
    three.events = {pure(1.0, 3)};
    QCOMPARE(stepPrefixes(three).size(), std::size_t{3});
    QVERIFY(stepPrefixes(Ledger{}).empty());

    // Groups (a session's requests): events 0,1 of request 0, event 2 of request 1, events 3,4
    // of request 2 → x = 1, 2, 3 with 2, 3, 5 steps.
    Ledger five;
    five.events.assign(5, pure(0.1));
    const auto groups = groupPrefixes(five, {0, 0, 1, 2, 2}, 3);
    QCOMPARE(groups.size(), std::size_t{3});
    QCOMPARE(groups[0].x, 1.0);
    QCOMPARE(groups[0].steps, std::int64_t{2});
    QCOMPARE(groups[1].steps, std::int64_t{3});
    QCOMPARE(groups[2].x, 3.0);
    QCOMPARE(groups[2].steps, std::int64_t{5});
    // 100 requests: a stride of 4, ending at the last request.
    const auto many = groupPrefixes(five, {0, 0, 1, 2, 2}, 100);
    QCOMPARE(many.size(), std::size_t{25});
    QCOMPARE(many.back().x, 100.0);

    // ledgerPrefix cuts the last event's count.
    const Ledger cut = ledgerPrefix(Ledger{Neighbouring::Replace, {pure(1.0, 3), pure(2.0, 4)}}, 5);
    QCOMPARE(cut.neighbours, Neighbouring::Replace);
    QCOMPARE(cut.events.size(), std::size_t{2});
    QCOMPARE(cut.events[1].count, std::int64_t{2});
}

void TestComparison::invalidInputNamesTheField()
{
    Ledger l;
    l.events = {pure(-1.0)};
    auto bad = compareStrategies(l, ComparisonQuery{});
    QVERIFY(!bad.ok());
    QCOMPARE(bad.error().code, ErrorCode::InvalidArgument);
    QVERIFY2(bad.error().message.find("events[0].epsilon") != std::string::npos, bad.error().message.c_str());

    l.events = {pure(1.0)};
    ComparisonQuery q;
    q.delta = 1.0;
    auto delta = compareStrategies(l, q);
    QVERIFY(!delta.ok());
    QVERIFY(delta.error().message.rfind("delta:", 0) == 0);
    q = {};
    q.pldInterval = 0.0;
    QVERIFY(compareStrategies(l, q).error().message.rfind("pldInterval:", 0) == 0);
    q = {};
    q.strategies = {"magic"};
    QCOMPARE(compareStrategies(l, q).error().code, ErrorCode::NotFound);
}

void TestComparison::rdpCurveShowsTheRowsNumber()
{
    // 100 × (ε = 0.1, δ = 1e-9): the RDP answer pays δ_extra = 1 − (1 − 1e-9)^100 first and
    // converts at the δ left. The curve by order must do the same, so its lowest point is the
    // row's number (it used to convert at the whole δ: 5.073 on the chart, 5.093 in the row at
    // δ = 1e-6).
    Ledger l;
    PrivacyEvent e;
    e.mechanism = MechanismKind::ApproxDp;
    e.epsilon = 0.1;
    e.delta = 1e-9;
    e.count = 100;
    l.events = {e};
    for (bool epsilonMode : {true, false}) {
        ComparisonQuery q;
        q.delta = 1e-6;
        q.epsilonAtDelta = epsilonMode;
        q.epsilon = 5.0;
        q.strategies = {"rdp", "pld"};
        auto c = compareStrategies(l, q);
        QVERIFY(c.ok());
        const StrategyResult *rdp = c->find("rdp");
        const auto lowest
            = [](const std::vector<double> &v) { return *std::min_element(v.begin(), v.end()); };
        // ε at δ by order: its minimum is ε at δ of the row, exactly, at the marked order.
        QCOMPARE(lowest(c->rdp.epsilonByOrder), rdp->epsilonAtDelta);
        const auto at = std::find(c->rdp.orders.begin(), c->rdp.orders.end(), c->rdp.optimalOrder);
        QVERIFY(at != c->rdp.orders.end());
        QCOMPARE(c->rdp.epsilonByOrder[static_cast<std::size_t>(at - c->rdp.orders.begin())],
                 rdp->epsilonAtDelta);
        if (epsilonMode) {
            PBX_FUZZY_COMPARE(rdp->answer->epsilon, 5.0925, 1e-3); // the 5.093
            QVERIFY(c->rdp.deltaByOrder.empty());
        } else {
            // δ at ε by order: its minimum is the row's δ, at the marked order.
            QCOMPARE(lowest(c->rdp.deltaByOrder), rdp->answer->delta);
            const auto d = std::find(c->rdp.orders.begin(), c->rdp.orders.end(), c->rdp.deltaOptimalOrder);
            QVERIFY(d != c->rdp.orders.end());
            QCOMPARE(c->rdp.deltaByOrder[static_cast<std::size_t>(d - c->rdp.orders.begin())],
                     rdp->answer->delta);
        }
    }
}

void TestComparison::deltaModeCurvesFollowTheQuery()
{
    // δ at ε = 3 for 100 steps of ε = 0.1: the prefix curve gives δ at ε too (its last point is
    // the table's δ), and the PLD histogram's threshold is the query's ε.
    Ledger l;
    l.events = {pure(0.1, 100)};
    ComparisonQuery q = withPrefixes(l);
    q.epsilonAtDelta = false;
    q.epsilon = 3.0;
    q.strategies = {"basic", "optimal", "pld"};
    auto c = compareStrategies(l, q);
    QVERIFY(c.ok());
    QCOMPARE(c->prefixDeltas.size(), std::size_t(3));
    for (std::size_t i = 0; i < 3; ++i) {
        QCOMPARE(c->prefixDeltas[i].size(), c->prefixX.size());
        QCOMPARE(c->prefixDeltas[i].back(), c->strategies[i].answer->delta);
    }
    // Basic: δ = 0 while k·0.1 < 3, 1 beyond (30 steps sit on the edge, rounded up).
    for (std::size_t k = 0; k < c->prefixX.size(); ++k)
        if (c->prefixSteps[k] != 30)
            QCOMPARE(c->prefixDeltas[0][k], c->prefixSteps[k] < 30 ? 0.0 : 1.0);
    QCOMPARE(c->pld.threshold, 3.0);
    // ε-at-δ mode: no δ curves, the threshold is the PLD's ε.
    q.epsilonAtDelta = true;
    auto e = compareStrategies(l, q);
    QVERIFY(e.ok());
    QVERIFY(e->prefixDeltas.empty());
    QCOMPARE(e->pld.threshold, e->find("pld")->answer->epsilon);
}

void TestComparison::optimalNeverAboveBasic()
{
    // Three pure steps 0.1 + 0.12 + 0.12994 = 0.34994 at δ = 1e-10: the PLD composes them exactly
    // on their atoms (before: each ε rounded up to the grid, 0.35 and a bit), 8e-10 below basic;
    // so does optimal composition (its heterogeneous route is that PLD), never above basic.
    Ledger l;
    l.events = {pure(0.1), pure(0.12), pure(0.12994)};
    ComparisonQuery q;
    q.delta = 1e-10;
    q.curves = false;
    q.strategies = {"basic", "optimal", "pld"};
    auto c = compareStrategies(l, q);
    QVERIFY(c.ok());
    const double basic = c->find("basic")->answer->epsilon;
    PBX_FUZZY_COMPARE(basic, 0.34994, 1e-14);
    QVERIFY(c->find("pld")->answer->epsilon <= basic);
    PBX_FUZZY_COMPARE(c->find("pld")->answer->epsilon, basic, 1e-8);
    QVERIFY(c->find("optimal")->answer->epsilon <= basic);
    PBX_FUZZY_COMPARE(c->find("optimal")->answer->epsilon, basic, 1e-8);
    // δ at ε = basic's ε: optimal's δ is at most basic's (0 here).
    q.epsilonAtDelta = false;
    q.epsilon = basic;
    auto d = compareStrategies(l, q);
    QVERIFY(d.ok());
    QVERIFY(d->find("optimal")->answer->delta <= d->find("basic")->answer->delta);
}

// 20 unsampled Gaussian steps (σ = 1.1) at interval 1e-3: the ε(k) points below the whole ledger
// come from the closed form (no grid per prefix): each is the exact ε (Balle & Wang 2018, Thm 8;
// a valid upper bound), never above the grid's from-scratch value and within 1e-6 relative of it;
// the last point is the table's.
void TestComparison::gaussianPrefixesFromClosedForm()
{
    PrivacyEvent e;
    e.mechanism = MechanismKind::Gaussian;
    e.sigma = 1.1;
    e.count = 20;
    Ledger l;
    l.events = {e};
    ComparisonQuery q;
    q.strategies = {"pld"};
    q.pldInterval = 1e-3;
    q.prefixes = stepPrefixes(l);
    auto c = compareStrategies(l, q);
    QVERIFY(c.ok());
    QCOMPARE(c->prefixSteps.size(), std::size_t(20));
    PldOptions options;
    options.interval = 1e-3;
    options.optimistic = false;
    for (std::size_t k = 0; k < c->prefixSteps.size(); ++k) {
        const std::int64_t steps = c->prefixSteps[k];
        const double point = c->prefixEpsilons[0][k];
        const double scratch = PldAccountant::fromLedger(ledgerPrefix(l, steps), options)
                                   .value()
                                   ->epsilonForDelta(1e-5)
                                   ->epsilon;
        const double exact
            = privacy::gaussianEpsilon(std::sqrt(static_cast<double>(steps)) / 1.1, 1e-5).value();
        QVERIFY2(point <= scratch && point >= exact, qPrintable(QStringLiteral("k=%1: %2 (grid %3, exact %4)")
                                                                    .arg(steps)
                                                                    .arg(point, 0, 'g', 17)
                                                                    .arg(scratch, 0, 'g', 17)
                                                                    .arg(exact, 0, 'g', 17)));
        PBX_FUZZY_COMPARE(point, scratch, 1e-6);
    }
    QCOMPARE(c->prefixEpsilons[0].back(), c->find("pld")->answer->epsilon);
}

// The ε(k) prefixes' memo (PldSelfCompositionCache): the prefixes of 12 distinct Laplace steps
// (b = 5…10.5, count 1) and of 6 RR steps of count 2, built with one shared memo, give exactly
// the bits of the PLD built without it (upper and lower ε at δ = 1e-5), and the memo is used:
// prefix k's running totals are prefix k+1's, so 10 + 11 + … compositions are reused.
void TestComparison::prefixMemoIsBitIdentical()
{
    Ledger l;
    for (int i = 0; i < 12; ++i) {
        PrivacyEvent e;
        e.mechanism = MechanismKind::Laplace;
        e.scale = 5.0 + 0.5 * i;
        l.events.push_back(e);
    }
    for (int i = 0; i < 6; ++i) {
        PrivacyEvent e;
        e.mechanism = MechanismKind::RandomizedResponse;
        e.epsilon = 0.05 + 0.01 * i;
        e.count = 2;
        l.events.push_back(e);
    }
    auto memo = std::make_shared<PldSelfCompositionCache>();
    for (std::int64_t steps = 1; steps <= 24; ++steps) {
        const Ledger prefix = ledgerPrefix(l, steps);
        PldOptions plain;
        PldOptions memoised;
        memoised.selfCompositionCache = memo;
        const auto a = PldAccountant::fromLedger(prefix, plain);
        const auto b = PldAccountant::fromLedger(prefix, memoised);
        QVERIFY(a && b);
        const auto ea = a.value()->epsilonForDelta(1e-5);
        const auto eb = b.value()->epsilonForDelta(1e-5);
        QVERIFY(ea && eb);
        QCOMPARE(std::memcmp(&ea->epsilon, &eb->epsilon, sizeof(double)), 0);
        QCOMPARE(ea->optimisticEpsilon.has_value(), eb->optimisticEpsilon.has_value());
        if (ea->optimisticEpsilon)
            QCOMPARE(std::memcmp(&*ea->optimisticEpsilon, &*eb->optimisticEpsilon, sizeof(double)), 0);
    }
    QVERIFY(memo->hits() >= 100);
}

namespace {

/// Laplace (count 2), unsampled Gaussian (count 3, merged exactly), randomized response, a
/// Poisson-sampled Gaussian (two directions) and a post-processing step, repeated.
Ledger mixedLedger()
{
    Ledger l;
    for (int i = 0; i < 4; ++i) {
        PrivacyEvent lap;
        lap.mechanism = MechanismKind::Laplace;
        lap.scale = 8.0 + i;
        lap.count = 2;
        PrivacyEvent gau;
        gau.mechanism = MechanismKind::Gaussian;
        gau.sigma = 3.0 + 0.5 * i;
        gau.count = 3;
        PrivacyEvent rr;
        rr.mechanism = MechanismKind::RandomizedResponse;
        rr.epsilon = 0.05 + 0.013 * i;
        PrivacyEvent sgm;
        sgm.mechanism = MechanismKind::Gaussian;
        sgm.sigma = 1.0;
        sgm.count = 5;
        sgm.sampling = {SamplingKind::Poisson, 0.02};
        PrivacyEvent post;
        post.mechanism = MechanismKind::PostProcessing;
        l.events.insert(l.events.end(), {lap, gau, rr, sgm, post});
    }
    return l;
}

} // namespace

// The comparison's δ(ε) profile sweeps each composed PMF once (upperDeltas); it agrees with δ at
// each ε one by one (deltaForEpsilon) to 1e-11 relative, on a two-direction PLD and on a
// symmetric one, over ε from 0 to 9.45 (δ from 0.39 to 1e-10).
void TestComparison::profileSweepMatchesPointwise()
{
    for (bool sampled : {true, false}) {
        Ledger l = mixedLedger();
        if (!sampled)
            std::erase_if(l.events,
                          [](const PrivacyEvent &e) { return e.sampling.kind != SamplingKind::None; });
        PldOptions o;
        o.optimistic = false;
        auto acc = PldAccountant::fromLedger(l, o);
        QVERIFY(acc.ok());
        std::vector<double> epsilons;
        for (int j = 0; j < 64; ++j)
            epsilons.push_back(0.15 * j);
        auto swept = acc.value()->upperDeltas(epsilons);
        QVERIFY(swept.ok());
        QCOMPARE(swept->size(), epsilons.size());
        for (std::size_t j = 0; j < epsilons.size(); ++j) {
            const double one = acc.value()->deltaForEpsilon(epsilons[j])->delta;
            QVERIFY2(std::fabs(swept.value()[j] - one) <= 1e-11 * one,
                     qPrintable(
                         QStringLiteral("ε = %1: %2 vs %3").arg(epsilons[j]).arg(swept.value()[j]).arg(one)));
        }
        // From δ(0) ≈ 0.389 down to δ(9.45) ≈ 9.9e-11 (the two-direction ledger, as pbx-cli account).
        QVERIFY(swept->front() > 0.3);
        QVERIFY(swept->back() < 1e-9);
        if (sampled) {
            PBX_FUZZY_COMPARE(swept->front(), 0.38926774453935287, 1e-9);
            PBX_FUZZY_COMPARE(swept->back(), 9.875216587080139e-11, 1e-9);
        }
        QVERIFY(!acc.value()->upperDeltas({1.0, -1.0}).ok()); // ε < 0 named as fromLedger's queries do
    }
}

// ε(k) by running products (PldPrefixComposer) against each prefix composed afresh
// (fromLedger): the same PLD convolved in another order, so the two upper bounds differ only by
// the FFT round-off each convolution charges to δ — within 1e-6 relative for ε at δ = 1e-5 and
// 1e-4 for δ at ε = 1 here. Prefixes before the first noise event are left to fromLedger.
void TestComparison::prefixRunningProductsMatchFreshBuilds()
{
    const Ledger l = mixedLedger();
    PldOptions o;
    o.optimistic = false;
    PldPrefixComposer composer(l, o);
    std::int64_t total = 0;
    for (const auto &e : l.events)
        total += e.count;
    QCOMPARE(total, std::int64_t{48});
    int answered = 0;
    for (std::int64_t steps = 1; steps <= total; steps += 3) {
        auto running = composer.upTo(steps, 1e-5, 1.0);
        const Ledger prefix = ledgerPrefix(l, steps);
        auto fresh = PldAccountant::fromLedger(prefix, o);
        QVERIFY(fresh.ok());
        if (!running) { // the first two steps are Laplace: a noise event from step 1 on
            QFAIL(qPrintable(QString::fromStdString(running.error().message)));
        }
        ++answered;
        const double eps = fresh.value()->epsilonForDelta(1e-5)->epsilon;
        const double delta = fresh.value()->deltaForEpsilon(1.0)->delta;
        QVERIFY2(std::fabs(running->first - eps) <= 1e-6 * eps,
                 qPrintable(QStringLiteral("k = %1: ε %2 vs %3")
                                .arg(steps)
                                .arg(running->first, 0, 'g', 17)
                                .arg(eps, 0, 'g', 17)));
        QVERIFY2(std::fabs(running->second - delta) <= 1e-4 * delta,
                 qPrintable(QStringLiteral("k = %1: δ %2 vs %3")
                                .arg(steps)
                                .arg(running->second, 0, 'g', 17)
                                .arg(delta, 0, 'g', 17)));
    }
    QCOMPARE(answered, 16);
    QVERIFY(!composer.upTo(1, 1e-5, std::nullopt).ok()); // prefixes never shrink

    // A ledger that starts with randomized response: its first prefixes are answered from the
    // running atoms, as fromLedger answers them (exact at any interval); bit-identical when the
    // prefix holds the whole event, within round-off when the event is composed in pieces.
    Ledger rrFirst;
    PrivacyEvent rr;
    rr.mechanism = MechanismKind::RandomizedResponse;
    rr.epsilon = 0.1;
    rr.count = 4;
    rrFirst.events = {rr, l.events[0]};
    PldPrefixComposer late(rrFirst, o);
    const auto atomsOnly = late.upTo(4, 1e-5, 0.25);
    QVERIFY(atomsOnly.ok());
    const auto freshRr = PldAccountant::fromLedger(ledgerPrefix(rrFirst, 4), o).value();
    QCOMPARE(atomsOnly->first, freshRr->epsilonForDelta(1e-5)->epsilon);
    QCOMPARE(atomsOnly->second, freshRr->deltaForEpsilon(0.25)->delta);
    QVERIFY(atomsOnly->second > 0.0);
    PldPrefixComposer pieces(rrFirst, o);
    for (std::int64_t steps : {1, 3, 4}) {
        const auto running = pieces.upTo(steps, 1e-5, 0.25);
        QVERIFY(running.ok());
        const auto fresh = PldAccountant::fromLedger(ledgerPrefix(rrFirst, steps), o).value();
        const double eps = fresh->epsilonForDelta(1e-5)->epsilon;
        const double delta = fresh->deltaForEpsilon(0.25)->delta;
        QVERIFY2(std::fabs(running->first - eps) <= 1e-12 * eps, qPrintable(QString::number(steps)));
        QVERIFY2(std::fabs(running->second - delta) <= 1e-12 * delta,
                 qPrintable(QStringLiteral("k = %1: δ %2 vs %3, ε %4 vs %5")
                                .arg(steps)
                                .arg(running->second, 0, 'g', 17)
                                .arg(delta, 0, 'g', 17)
                                .arg(running->first, 0, 'g', 17)
                                .arg(eps, 0, 'g', 17)));
    }
    auto after = late.upTo(6, 1e-5, std::nullopt);
    QVERIFY(after.ok());
    QVERIFY(std::isnan(after->second));
    const double eps = PldAccountant::fromLedger(rrFirst, o).value()->epsilonForDelta(1e-5)->epsilon;
    QVERIFY(std::fabs(after->first - eps) <= 1e-6 * eps);
}

namespace {

/// Two Laplace steps (b = 8, self-composed) and a Gaussian of μ² = 1/9 on the grid d: the first
/// prefix of the comparepinned mixed ledger.
std::pair<PldPmf, PldPmf> laplaceAndGaussian(double d)
{
    const AdditiveNoiseLoss lap(NoiseKind::Laplace, 8.0, 1.0, 1.0, PldDirection::Remove);
    const AdditiveNoiseLoss gau(NoiseKind::Gaussian, 3.0, 1.0, 1.0, PldDirection::Remove);
    return {selfComposePmf(connectTheDots(lap, d), 2).value(), connectTheDots(gau, d)};
}

} // namespace

// ComposedPmfQuery (pld_composed.h) against the composition formed exactly: the two PMFs of
// laplaceAndGaussian at d = 1e-3 (601 × 6,609 bins) convolved pair by pair in long double. δ at
// ε ∈ {0, 0.37, 1, 2.5, 4} and ε at δ ∈ {0.1, 1e-3, 1e-5, 1e-8, 1e-11} are upper bounds on the
// exact composition's (to its own rounding, 1e-15) and exceed them by at most 1e-12 relative
// (δ) and 2e-12 relative (ε: pmfEpsilonForDelta's own 1e-12 rounding up); ε(1e-5) = 1.41674…
// at both. A composition whose losses all lie above ε = d is left to composePmf (nullopt).
void TestComparison::composedQueryBoundsTheExactComposition()
{
    const auto [x, y] = laplaceAndGaussian(1e-3);
    std::vector<long double> exact(x.probs.size() + y.probs.size() - 1, 0.0L);
    for (std::size_t i = 0; i < x.probs.size(); ++i)
        for (std::size_t j = 0; j < y.probs.size(); ++j)
            exact[i + j] += static_cast<long double>(std::max(x.probs[i], 0.0)) * std::max(y.probs[j], 0.0);
    const long double infinity = x.infinityMass + y.infinityMass - x.infinityMass * y.infinityMass;
    const std::int64_t lower = x.lowerIndex + y.lowerIndex;
    const auto exactDelta = [&](double epsilon) {
        long double sum = infinity;
        for (std::size_t k = 0; k < exact.size(); ++k) {
            const long double loss = static_cast<long double>(lower + static_cast<std::int64_t>(k)) * 1e-3L;
            if (loss > epsilon)
                sum += exact[k] * -std::expm1(static_cast<long double>(epsilon) - loss);
        }
        return static_cast<double>(sum);
    };
    const auto query = ComposedPmfQuery::make(x, y);
    QVERIFY(query.has_value());
    for (double epsilon : {0.0, 0.37, 1.0, 2.5, 4.0}) {
        const double truth = exactDelta(epsilon);
        const double bound = query->deltaForEpsilon(epsilon).value();
        QVERIFY2(bound >= truth * (1.0 - 1e-15) && bound <= truth * (1.0 + 1e-12),
                 qPrintable(QStringLiteral("δ(%1): %2 vs exact %3")
                                .arg(epsilon)
                                .arg(bound, 0, 'g', 17)
                                .arg(truth, 0, 'g', 17)));
    }
    for (double delta : {0.1, 1e-3, 1e-5, 1e-8, 1e-11}) {
        const double bound = query->epsilonForDelta(delta).value();
        // The exact ε: where the exact δ crosses δ (bisection on the exact δ, 1e-14 wide).
        double lo = 0.0, hi = 20.0;
        while (hi - lo > 1e-14)
            (exactDelta(0.5 * (lo + hi)) > delta ? lo : hi) = 0.5 * (lo + hi);
        QVERIFY2(bound >= lo && bound <= hi * (1.0 + 2e-12),
                 qPrintable(QStringLiteral("ε(%1): %2 vs exact [%3, %4]")
                                .arg(delta)
                                .arg(bound, 0, 'g', 17)
                                .arg(lo, 0, 'g', 17)
                                .arg(hi, 0, 'g', 17)));
        if (delta == 1e-5)
            QCOMPARE(std::round(bound * 1e4) / 1e4, 1.4167);
    }
    QVERIFY(query->evaluations() > 0);
    PldPmf shifted = x;
    shifted.lowerIndex = 20000; // every loss above 20
    QVERIFY(!ComposedPmfQuery::make(shifted, y).has_value());
    QVERIFY(!query->deltaForEpsilon(-1.0).has_value());
}

// Where composePmf convolves by FFT (laplaceAndGaussian at d = 1e-4: 5,001 × 66,083 bins), the
// query's answers are not above the composed PMF's, whose FFT round-off bound (1.4e-11 here) is
// charged to δ: ε within 1e-6 relative of its at δ ≥ 1e-5 (1e-7 measured, as on the comparepinned
// ledgers); at δ = 1e-8 that charge is 0.1 % of δ and the query's ε is 4.5e-5 relative lower.
void TestComparison::composedQueryNotAboveTheFftComposition()
{
    const auto [x, y] = laplaceAndGaussian(1e-4);
    QVERIFY(composesByFft(x, y));
    const PldPmf composed = composePmf(x, y).value();
    const auto query = ComposedPmfQuery::make(x, y);
    QVERIFY(query.has_value());
    for (double delta : {1e-3, 1e-5, 1e-8}) {
        const double fft = pmfEpsilonForDelta(composed, delta);
        const double direct = query->epsilonForDelta(delta).value();
        QVERIFY2(direct <= fft && (delta < 1e-5 || direct >= fft * (1.0 - 1e-6)),
                 qPrintable(QStringLiteral("ε(%1): %2 vs FFT %3")
                                .arg(delta)
                                .arg(direct, 0, 'g', 17)
                                .arg(fft, 0, 'g', 17)));
    }
    for (double epsilon : {0.5, 1.5, 3.0}) {
        const double fft = pmfDeltaForEpsilon(composed, epsilon);
        const double direct = query->deltaForEpsilon(epsilon).value();
        QVERIFY2(direct <= fft, qPrintable(QStringLiteral("δ(%1): %2 vs FFT %3")
                                               .arg(epsilon)
                                               .arg(direct, 0, 'g', 17)
                                               .arg(fft, 0, 'g', 17)));
    }
    // ≈ 18 bisection steps over the 70,000 grid points of the composition.
    QVERIFY(query->evaluations() <= 3 * 20 + 3 * 2);
}

// The ε(k) curve's running products take whole events' self-compositions from the memo the
// table's PLD build filled (PldOptions::selfCompositionCache): the same numbers, bit for bit, as
// a PldPrefixComposer that self-composes every event itself.
void TestComparison::prefixCurveSharesTheTablesSelfCompositions()
{
    Ledger l;
    for (int i = 0; i < 3; ++i) {
        l.events.push_back(laplace(8.0 + i, 2));
        PrivacyEvent g;
        g.mechanism = MechanismKind::Gaussian;
        g.sigma = 3.0 + i;
        g.count = 3;
        l.events.push_back(g);
    }
    const ComparisonQuery q = withPrefixes(l);
    const auto c = compareStrategies(l, q);
    QVERIFY(c.ok());
    const std::size_t p = indexOf(c.value(), "pld");
    PldOptions o;
    o.optimistic = false;
    PldPrefixComposer own(l, o);
    QCOMPARE(c->prefixSteps.size(), std::size_t{15});
    for (std::size_t k = 0; k + 1 < c->prefixSteps.size(); ++k) { // the last is the table's
        const double mine = own.upTo(c->prefixSteps[k], q.delta, std::nullopt)->first;
        QCOMPARE(std::memcmp(&mine, &c->prefixEpsilons[p][k], sizeof mine), 0);
    }
}

// The optimal strategy's ε(k) by one running product (OptimalPrefixComposer) against each prefix
// built afresh (OptimalComposition::fromLedger), on the two comparepinned ledgers whose optimal
// prefixes overflow the exact atoms: the mixed ledger's per-step (ε, δ) view (δ = 1.3e-7, d =
// 1e-4, as `compare --per-step-delta auto`) and 60 distinct Laplace steps (d = 1e-3, the coarse
// prefix grid). Every unit rounded to the grid by the running product lies inside one unit
// fromLedger rounds, so its PLD dominates: ε at δ = 1e-5 and δ at ε = 3 are never below the fresh
// build's, and above it by at most 2e-4 (ε) relative. Early prefixes within the atom limits, and
// homogeneous ones, are left to fromLedger (Unsupported).
void TestComparison::optimalRunningProductNotBelowFreshBuilds()
{
    Ledger mixed;
    for (int j = 0; j < 12; ++j) {
        mixed.events.push_back(laplace(8.0 + j, 2));
        PrivacyEvent g;
        g.mechanism = MechanismKind::Gaussian;
        g.sigma = 3.0 + 0.5 * j;
        g.count = 3;
        mixed.events.push_back(g);
        PrivacyEvent rr;
        rr.mechanism = MechanismKind::RandomizedResponse;
        rr.epsilon = 0.05 + 0.01 * j;
        mixed.events.push_back(rr);
    }
    const auto view = perStepLedger(mixed, 1.3e-7);
    QVERIFY(view.ok());
    Ledger laplace60;
    for (int j = 0; j < 60; ++j)
        laplace60.events.push_back(laplace(5.0 + 0.25 * j));
    const struct
    {
        const Ledger *ledger;
        double interval;
        double tolerance; ///< ε relative above the fresh build, at most
    } cases[] = {{&view->ledger, 1e-4, 1e-4}, {&laplace60, 1e-3, 5e-3}};
    for (const auto &c : cases) {
        PldOptions o;
        o.interval = c.interval;
        o.optimistic = false;
        OptimalPrefixComposer composer(*c.ledger, o);
        int answered = 0;
        double worst = 0.0;
        for (const PrefixPoint &point : stepPrefixes(*c.ledger)) {
            auto running = composer.upTo(point.steps, 1e-5, 3.0);
            auto fresh = OptimalComposition::fromLedger(ledgerPrefix(*c.ledger, point.steps), o);
            QVERIFY(fresh.ok());
            if (!running) {
                QCOMPARE(running.error().code, ErrorCode::Unsupported);
                QVERIFY2(answered == 0, "once composing, every later prefix is answered");
                continue;
            }
            ++answered;
            const double eps = fresh.value()->epsilonForDelta(1e-5)->epsilon;
            const double delta = fresh.value()->deltaForEpsilon(3.0)->delta;
            QVERIFY2(running->first >= eps && running->first <= eps * (1.0 + c.tolerance),
                     qPrintable(QStringLiteral("k = %1: ε %2 vs fresh %3")
                                    .arg(point.steps)
                                    .arg(running->first, 0, 'g', 17)
                                    .arg(eps, 0, 'g', 17)));
            QVERIFY2(running->second >= delta, qPrintable(QStringLiteral("k = %1: δ %2 vs fresh %3")
                                                              .arg(point.steps)
                                                              .arg(running->second, 0, 'g', 17)
                                                              .arg(delta, 0, 'g', 17)));
            worst = std::max(worst, running->first / eps - 1.0);
        }
        QVERIFY(composer.composing());
        QVERIFY2(answered >= 20, qPrintable(QString::number(answered)));
        qInfo("d = %g: %d prefixes by the running product, ε at most %.3g relative above", c.interval,
              answered, worst);
    }
}

// Heterogeneous randomized response within the atom limits: each prefix from the running atoms
// (exact), within round-off of a fresh OptimalComposition (exact atoms in sorted order).
void TestComparison::optimalRunningAtomsMatchFreshBuilds()
{
    Ledger rr;
    for (int j = 0; j < 12; ++j) {
        PrivacyEvent e;
        e.mechanism = MechanismKind::RandomizedResponse;
        e.epsilon = 0.05 + 0.01 * j;
        e.count = 3;
        rr.events.push_back(e);
    }
    PldOptions o;
    o.optimistic = false;
    OptimalPrefixComposer composer(rr, o);
    int answered = 0;
    for (const PrefixPoint &point : stepPrefixes(rr)) {
        auto running = composer.upTo(point.steps, 1e-5, 0.5);
        auto fresh = OptimalComposition::fromLedger(ledgerPrefix(rr, point.steps), o);
        QVERIFY(fresh.ok());
        if (point.steps <= 3) { // one ε so far: the KOV closed form, built afresh by the caller
            QCOMPARE(running.error().code, ErrorCode::Unsupported);
            continue;
        }
        QVERIFY2(running.ok(), running ? "" : running.error().message.c_str());
        ++answered;
        const double eps = fresh.value()->epsilonForDelta(1e-5)->epsilon;
        const double delta = fresh.value()->deltaForEpsilon(0.5)->delta;
        QVERIFY2(std::fabs(running->first - eps) <= 1e-12 * eps,
                 qPrintable(QStringLiteral("k = %1: ε %2 vs fresh %3")
                                .arg(point.steps)
                                .arg(running->first, 0, 'g', 17)
                                .arg(eps, 0, 'g', 17)));
        QVERIFY2(std::fabs(running->second - delta) <= 1e-12 * delta,
                 qPrintable(QStringLiteral("k = %1: δ %2 vs fresh %3")
                                .arg(point.steps)
                                .arg(running->second, 0, 'g', 17)
                                .arg(delta, 0, 'g', 17)));
    }
    QVERIFY(!composer.composing()); // never past the atoms
    QVERIFY2(answered >= 25, qPrintable(QString::number(answered)));
}

QTEST_GUILESS_MAIN(TestComparison)
#include "tst_comparison.moc"
