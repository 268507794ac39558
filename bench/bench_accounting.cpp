// SPDX-License-Identifier: MIT
// Accounting workloads against the peers' timings in tests/data/oracle/timings.json.
// Run a Release/RelWithDebInfo build: ./bench_accounting --benchmark_min_time=…
#include "core/accounting/comparison.h"
#include "core/accounting/pld_accountant.h"
#include "core/accounting/rdp_accountant.h"

#include <benchmark/benchmark.h>

using namespace pbx::accounting;

namespace {

// Results go through a volatile sink (keeps the work alive) and are then shown as counters.
volatile double g_sink = 0.0;

PrivacyEvent sgm(std::int64_t count, double q = 0.01, double sigma = 1.0)
{
    PrivacyEvent e;
    e.mechanism = MechanismKind::Gaussian;
    e.sigma = sigma;
    e.count = count;
    e.sampling = {SamplingKind::Poisson, q};
    return e;
}

double pldEpsilon(std::int64_t steps, double interval, bool bracket)
{
    Ledger l;
    l.events = {sgm(steps)};
    PldOptions o;
    o.interval = interval;
    o.optimistic = bracket;
    auto acc = PldAccountant::fromLedger(l, o);
    return acc.value()->epsilonForDelta(1e-5)->epsilon;
}

// Peer: dp_accounting PLDAccountant(1e-4), k = 10⁴: 0.51 s (ε = 6.18774). Target ≤ 0.051 s (10×).
void BM_PldSgm10kSteps_d1e4(benchmark::State &state)
{
    double eps = 0;
    for (auto _ : state) {
        eps = pldEpsilon(10000, 1e-4, false);
        g_sink = eps;
    }
    state.counters["epsilon"] = eps;
}
BENCHMARK(BM_PldSgm10kSteps_d1e4)->Unit(benchmark::kMillisecond);

// Peer: dp_accounting PLDAccountant(1e-5), k = 10³: 5.3 s (ε = 1.82824). Target ≤ 0.53 s (10×).
void BM_PldSgm1kSteps_d1e5(benchmark::State &state)
{
    double eps = 0;
    for (auto _ : state) {
        eps = pldEpsilon(1000, 1e-5, false);
        g_sink = eps;
    }
    state.counters["epsilon"] = eps;
}
BENCHMARK(BM_PldSgm1kSteps_d1e5)->Unit(benchmark::kMillisecond);

// Peer: PRV accountant bounds, k = 10⁴: 0.73 s, width 0.0207. Target ≤ 0.073 s for the [lower, upper]
// pair, no wider than PRV's.
void BM_PldBracketSgm10kSteps(benchmark::State &state)
{
    double lo = 0, hi = 0;
    for (auto _ : state) {
        Ledger l;
        l.events = {sgm(10000)};
        auto acc = PldAccountant::fromLedger(l);
        auto a = acc.value()->epsilonForDelta(1e-5);
        hi = a->epsilon;
        g_sink = hi;
        lo = a->optimisticEpsilon.value();
    }
    state.counters["lower"] = lo;
    state.counters["upper"] = hi;
}
BENCHMARK(BM_PldBracketSgm10kSteps)->Unit(benchmark::kMillisecond);

// Peer: dp_accounting RdpAccountant, k = 10⁴: 25 ms (opacus 12 ms). Target ≤ 1 ms.
void BM_RdpSgm10kSteps(benchmark::State &state)
{
    double eps = 0;
    for (auto _ : state) {
        RdpAccountant acc;
        (void)acc.compose(sgm(10000), Neighbouring::AddRemove);
        eps = acc.epsilonForDelta(1e-5)->epsilon;
        g_sink = eps;
    }
    state.counters["epsilon"] = eps;
}
BENCHMARK(BM_RdpSgm10kSteps)->Unit(benchmark::kMillisecond);

// Peer: dp_accounting, 10³ separate compose() calls: 24.7 s. Target ≤ 10 ms in all, with ε after
// every update (a live ledger).
void BM_RdpLiveLedger1000Updates(benchmark::State &state)
{
    double eps = 0;
    for (auto _ : state) {
        RdpAccountant acc;
        const PrivacyEvent step = sgm(1);
        for (int i = 0; i < 1000; ++i) {
            (void)acc.compose(step, Neighbouring::AddRemove);
            eps = acc.epsilonForDelta(1e-5)->epsilon;
            g_sink = eps;
        }
    }
    state.counters["epsilon"] = eps;
}
BENCHMARK(BM_RdpLiveLedger1000Updates)->Unit(benchmark::kMillisecond);

// A heterogeneous ledger of 10⁴ events: Laplace (b ∈ {2, 5, 10}), Gaussian (σ ∈ {5, 10, 20}) and
// Poisson-subsampled Gaussian (q ∈ {0.005, 0.01}, σ ∈ {1, 1.5}), one event per entry.
Ledger heterogeneousLedger()
{
    Ledger l;
    const double lap[] = {20, 50, 100}, gau[] = {5, 10, 20}, sg[] = {1.0, 1.5}, qs[] = {0.005, 0.01};
    for (int i = 0; i < 10000; ++i) {
        PrivacyEvent e;
        switch (i % 3) {
        case 0:
            e.mechanism = MechanismKind::Laplace;
            e.scale = lap[(i / 3) % 3];
            break;
        case 1:
            e.mechanism = MechanismKind::Gaussian;
            e.sigma = gau[(i / 3) % 3] * 10;
            break;
        default:
            e = sgm(1, qs[(i / 3) % 2], sg[(i / 6) % 2]);
            break;
        }
        l.events.push_back(e);
    }
    return l;
}

void BM_Heterogeneous10kEventsRdp(benchmark::State &state)
{
    const Ledger l = heterogeneousLedger();
    double eps = 0;
    for (auto _ : state) {
        eps = RdpAccountant::fromLedger(l).value()->epsilonForDelta(1e-5)->epsilon;
        g_sink = eps;
    }
    state.counters["epsilon"] = eps;
}
BENCHMARK(BM_Heterogeneous10kEventsRdp)->Unit(benchmark::kMillisecond);

void BM_Heterogeneous10kEventsPld(benchmark::State &state)
{
    const Ledger l = heterogeneousLedger();
    double eps = 0, lo = 0;
    for (auto _ : state) {
        auto a = PldAccountant::fromLedger(l).value()->epsilonForDelta(1e-5);
        eps = a->epsilon;
        g_sink = eps;
        lo = a->optimisticEpsilon.value();
    }
    state.counters["upper"] = eps;
    state.counters["lower"] = lo;
}
BENCHMARK(BM_Heterogeneous10kEventsPld)->Unit(benchmark::kMillisecond);

// The comparison (every strategy, δ(ε) profile, RDP curve, PLD histogram, 30 ε(k) prefixes) of
// 100 Gaussian steps, σ = 1.1, one event with count 100, against the table alone (what
// `pbx-cli account` computes). Target: the whole comparison ≤ 2× the table and ≤ 0.3 s.
// Before the incremental curves: 30 s of CPU against 1 s (the profile rebuilt the lower bound's
// suffix sums at each of its 64 points; every prefix rebuilt a Gaussian grid).
Ledger gaussian100()
{
    PrivacyEvent e;
    e.mechanism = MechanismKind::Gaussian;
    e.sigma = 1.1;
    e.count = 100;
    Ledger l;
    l.events = {e};
    return l;
}

void BM_CompareGaussian100(benchmark::State &state)
{
    const Ledger l = gaussian100();
    ComparisonQuery q;
    q.curves = state.range(0) != 0;
    if (q.curves)
        q.prefixes = stepPrefixes(l);
    double eps = 0;
    for (auto _ : state) {
        eps = compareStrategies(l, q).value().find("pld")->answer->epsilon;
        g_sink = eps;
    }
    state.counters["pld"] = eps;
}
BENCHMARK(BM_CompareGaussian100)->ArgName("curves")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// Heterogeneous ledgers, whose ε(k) curves recompose each prefix (the target: the whole
// comparison ≤ 2× the table). The 60 distinct Laplace steps (scales 5, 5.25, …, 19.75, one step
// each) and the 36 events mixing Laplace (b = 8…19, count 2), Gaussian (σ = 3…8.5, count 3) and
// randomized response (ε₀ = 0.05…0.16) of tests/cli/data/compare/ (cli.comparepinned pins their
// numbers). `pbx-cli compare` vs `account` at 09996e5 (CPU s, user, load ≈ 9): Laplace 1.56 vs
// 0.61, mixed 9.40 vs 0.62; mixed after ComposedPmfQuery (paired, CPU): 0.97 vs 0.65.
Ledger laplace60()
{
    Ledger l;
    for (int i = 0; i < 60; ++i) {
        PrivacyEvent e;
        e.mechanism = MechanismKind::Laplace;
        e.scale = 5.0 + 0.25 * i;
        l.events.push_back(e);
    }
    return l;
}

Ledger mixedLedger()
{
    Ledger l;
    for (int i = 0; i < 12; ++i) {
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
        rr.epsilon = 0.05 + 0.01 * i;
        l.events.insert(l.events.end(), {lap, gau, rr});
    }
    return l;
}

void compareBench(benchmark::State &state, const Ledger &l)
{
    ComparisonQuery q;
    q.curves = state.range(0) != 0;
    if (q.curves)
        q.prefixes = stepPrefixes(l);
    double eps = 0;
    for (auto _ : state) {
        eps = compareStrategies(l, q).value().find("pld")->answer->epsilon;
        g_sink = eps;
    }
    state.counters["pld"] = eps;
}

void BM_CompareLaplace60(benchmark::State &state)
{
    compareBench(state, laplace60());
}
BENCHMARK(BM_CompareLaplace60)->ArgName("curves")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_CompareMixed36(benchmark::State &state)
{
    compareBench(state, mixedLedger());
}
BENCHMARK(BM_CompareMixed36)->ArgName("curves")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// The mixed ledger's PLD ε(k) alone: PldPrefixComposer over the 30 drawn prefixes (running
// products; each prefix's merged Gaussian read by ComposedPmfQuery instead of convolved), without
// the table's self-compositions to borrow. The comparison's target is ≤ 2× `account`: paired
// whole-process runs, `pbx-cli compare --json` / `account` on tests/cli/data/compare/mixed.json,
// 3.33× before ComposedPmfQuery, 1.57× after (CPU, median of 7).
void BM_PrefixCurveMixed36(benchmark::State &state)
{
    const Ledger l = mixedLedger();
    const std::vector<PrefixPoint> points = stepPrefixes(l);
    PldOptions o;
    o.optimistic = false;
    double eps = 0;
    for (auto _ : state) {
        PldPrefixComposer composer(l, o);
        for (const PrefixPoint &p : points)
            if (auto v = composer.upTo(p.steps, 1e-5, std::nullopt))
                eps = v->first;
        g_sink = eps;
    }
    state.counters["pld"] = eps;
}
BENCHMARK(BM_PrefixCurveMixed36)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
