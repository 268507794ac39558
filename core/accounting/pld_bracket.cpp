// SPDX-License-Identifier: MIT
#include "core/accounting/pld_bracket.h"

#include "core/math/directed_rounding.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace pbx::accounting {

PldCouplingBudget &PldCouplingBudget::operator+=(const PldCouplingBudget &o)
{
    meanBias = math::nudgeUp(meanBias + o.meanBias, 1);
    rangeSquares = math::nudgeUp(rangeSquares + o.rangeSquares, 1);
    roundingShift = math::nudgeUp(roundingShift + o.roundingShift, 1);
    outOfRangeMass = math::nudgeUp(outOfRangeMass + o.outOfRangeMass, 1);
    return *this;
}

PldCouplingBudget PldCouplingBudget::times(double count) const
{
    return {math::nudgeUp(meanBias * count, 1), math::nudgeUp(rangeSquares * count, 1),
            math::nudgeUp(roundingShift * count, 1), math::nudgeUp(outOfRangeMass * count, 1)};
}

double connectTheDotsMeanBias(double d)
{
    // f(y) = d(1 − e^{−y})/(1 − e^{−d}) − y is concave with f(0) = f(d) = 0; its maximum is at
    // e^{−y*} = (1 − e^{−d})/d. Evaluated in long double, then 1 % and an absolute 1e-30 added.
    const long double dl = d;
    const long double c = -std::expm1(-dl);
    const long double y = -std::log(c / dl);
    const long double f = dl * -std::expm1(-y) / c - y;
    return math::nudgeUp(static_cast<double>(std::max(f, 0.0L)) * 1.01 + 1e-30, 2);
}

namespace {

/// Suffix sums of a pessimistic PMF for O(1) evaluation of δ̂(x) = p_∞ + Σ_{ℓ_j > x} p_j(1 − e^{x−ℓ_j})
/// and of window masses; long double, with a relative margin for their round-off. The sums are
/// kept only at every kBlock-th bin (a merged Gaussian's grid has millions of bins: two long
/// double vectors of its size cost more in page faults than the sums themselves); the sum at
/// any other bin is continued from the checkpoint above it by the same additions in the same
/// order, so every value is bit for bit the one a full table would hold.
class SuffixSums
{
public:
    explicit SuffixSums(const PldPmf &pmf)
        : m_pmf(pmf), m_stepUp(std::exp(static_cast<long double>(pmf.interval)))
    {
        // e^{−ℓ_j} by the recurrence e^{−ℓ_j} = e^{−ℓ_{j+1}}·e^{d}, re-anchored every kBlock bins
        // (relative error ≲ kBlock·2⁻⁶³, far inside the margin of delta()).
        const std::size_t n = pmf.probs.size();
        m_mass.assign(n / kBlock + 1, 0.0L);
        m_weighted.assign(n / kBlock + 1, 0.0L);
        Sum sum;
        for (std::size_t j = n; j-- > 0;) {
            add(sum, j);
            if (j % kBlock == 0) {
                m_mass[j / kBlock] = sum.mass;
                m_weighted[j / kBlock] = sum.weighted;
            }
        }
    }

    /// A lower bound on the PMF's δ̂(x) (the sums' round-off, ≤ n·2⁻⁶⁴ relative, is subtracted).
    long double delta(double x) const
    {
        const Sum sum = at(firstAbove(x));
        const long double pos = sum.mass;
        const long double neg = std::exp(static_cast<long double>(x)) * sum.weighted;
        const long double value = static_cast<long double>(m_pmf.infinityMass) + pos - neg;
        return value - 1e-11L * (pos + neg) - 1e-15L * m_pmf.infinityMass;
    }

    /// An upper bound on the finite mass with loss in [x − w, x + w] (one extra bin each side).
    long double windowMass(double x, double w) const
    {
        const std::size_t lo = firstAbove(x - w - 2.0 * m_pmf.interval);
        const std::size_t hi = firstAbove(x + w + m_pmf.interval);
        return (at(lo).mass - at(hi).mass) * (1.0L + 1e-11L);
    }

private:
    static constexpr std::size_t kBlock = 256; ///< also the weights' re-anchoring stride
    struct Sum
    {
        long double mass = 0.0L;     ///< Σ_{i ≥ j} p_i
        long double weighted = 0.0L; ///< Σ_{i ≥ j} p_i e^{−ℓ_i}
        long double weight = 0.0L;   ///< e^{−ℓ_j}
    };

    /// Extends `sum` (at bin j + 1) down to bin j.
    void add(Sum &sum, std::size_t j) const
    {
        const long double p = m_pmf.probs[j];
        sum.weight = (j + 1 == m_pmf.probs.size() || j % kBlock == 0)
                         ? std::exp(-static_cast<long double>(m_pmf.lossAt(j)))
                         : sum.weight * m_stepUp;
        sum.mass += p;
        sum.weighted += p * sum.weight;
    }

    /// The sums over the bins i ≥ j, continued from the checkpoint at or above j.
    Sum at(std::size_t j) const
    {
        const std::size_t n = m_pmf.probs.size();
        if (j >= n)
            return {};
        std::size_t from = (j + kBlock - 1) / kBlock * kBlock; // the checkpoint at or above j
        Sum sum;
        if (from < n) {
            sum.mass = m_mass[from / kBlock];
            sum.weighted = m_weighted[from / kBlock];
            sum.weight = std::exp(-static_cast<long double>(m_pmf.lossAt(from)));
        } else {
            from = n;
        }
        for (std::size_t i = from; i-- > j;)
            add(sum, i);
        return sum;
    }

    /// The first index j with loss ℓ_j > x (probs.size() if none).
    std::size_t firstAbove(double x) const
    {
        const double n = static_cast<double>(m_pmf.probs.size());
        double j = std::floor(x / m_pmf.interval) - static_cast<double>(m_pmf.lowerIndex);
        j = std::clamp(j - 1.0, 0.0, n);
        auto i = static_cast<std::size_t>(j);
        while (i < m_pmf.probs.size() && m_pmf.lossAt(i) <= x)
            ++i;
        return i;
    }

    const PldPmf &m_pmf;
    long double m_stepUp;
    std::vector<long double> m_mass;     ///< Σ_{i ≥ b·kBlock} p_i by block b
    std::vector<long double> m_weighted; ///< Σ_{i ≥ b·kBlock} p_i e^{−ℓ_i} by block b
};

/// The deviation thresholds t tried (t = M + √v·z, v = H/4 the variance proxy of ΣD).
constexpr double kLadder[] = {1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 7.0, 8.0, 9.0, 10.0};

long double normalSurvival(long double z)
{
    return 0.5L * std::erfc(z / std::sqrt(2.0L));
}

/// The terms of the two lower bounds that depend on t only (docs/pld-numerics.md §4).
struct LadderTerm
{
    double t = 0.0;
    long double upperDev = 0.0L; ///< P[ΣD > t] ≤ e^{−2(t−M)²/H}
    long double grow = 0.0L;     ///< e^t − 1
    long double penalty = 0.0L;  ///< (e^t − 1)(C + P[|ΣD| > t]) + E[(e^{|ΣD|} − 1); |ΣD| > t]
};

std::vector<LadderTerm> ladderTerms(const PldPmf &pmf, const PldCouplingBudget &b)
{
    std::vector<LadderTerm> terms;
    if (!(b.rangeSquares > 0.0))
        return terms;
    const long double m = b.meanBias;
    const long double h = b.rangeSquares;
    const long double v = h / 4.0L; // ΣD − E[ΣD] is sub-Gaussian with variance proxy H/4
    const long double sd = std::sqrt(v);
    for (double z : kLadder) {
        LadderTerm term;
        const long double t = m + sd * z;
        term.t = static_cast<double>(t);
        term.upperDev = std::exp(-2.0L * (t - m) * (t - m) / h);
        const long double pDev = term.upperDev + std::exp(-2.0L * t * t / h); // + P[ΣD < −t]
        term.grow = std::expm1(t);
        // ∫_t^∞ e^s·2e^{−(s−M)²/(2v)} ds = 2e^{M+v/2}√(2πv)·Φ̄((t − M − v)/√v).
        const long double tail = term.grow * pDev
                                 + 2.0L * std::exp(m + v / 2.0L)
                                       * std::sqrt(2.0L * 3.14159265358979323846L * v)
                                       * normalSurvival((t - m - v) / sd);
        term.penalty = term.grow * (static_cast<long double>(pmf.errorL1) + pDev) + tail;
        terms.push_back(term);
    }
    return terms;
}

/// max over t of the two lower bounds on the true δ(ε) (docs/pld-numerics.md §4).
long double lowerDeltaAt(const SuffixSums &sums, const std::vector<LadderTerm> &terms, const PldPmf &pmf,
                         const PldCouplingBudget &b, double epsilon)
{
    const long double charges = static_cast<long double>(pmf.errorL1) + b.outOfRangeMass;
    const double x = epsilon + b.roundingShift;
    const long double base = sums.delta(x) - charges;
    if (terms.empty()) // no split steps: ΣỸ − ΣY ∈ [0, R] deterministically
        return base;
    long double best = -1.0L;
    for (const LadderTerm &term : terms) {
        // (a) shifted: δ̂(ε + R + t) − C − τ − P[ΣD > t].
        best = std::max(best, sums.delta(x + term.t) - charges - term.upperDev);
        // (b) convexity: the spread exceeds the true loss's δ only where the two straddle ε'.
        best = std::max(best, base - term.grow * sums.windowMass(x, 2.0 * term.t) - term.penalty);
    }
    return best;
}

} // namespace

struct PldLowerBound::Sums
{
    Sums(const PldPmf &p, const PldCouplingBudget &b) : pmf(p), budget(b), sums(p), terms(ladderTerms(p, b))
    {}
    const PldPmf &pmf;
    PldCouplingBudget budget;
    SuffixSums sums;
    std::vector<LadderTerm> terms;
};

PldLowerBound::PldLowerBound(const PldPmf &pmf, const PldCouplingBudget &budget)
    : m_sums(std::make_unique<Sums>(pmf, budget))
{}

PldLowerBound::~PldLowerBound() = default;

double PldLowerBound::delta(double epsilon) const
{
    const long double value = lowerDeltaAt(m_sums->sums, m_sums->terms, m_sums->pmf, m_sums->budget, epsilon);
    if (!(value > 0.0L))
        return 0.0;
    return std::clamp(math::nudgeDown(static_cast<double>(value) * (1.0 - 1e-12), 2), 0.0, 1.0);
}

double lowerDeltaBound(const PldPmf &pmf, const PldCouplingBudget &budget, double epsilon)
{
    return PldLowerBound(pmf, budget).delta(epsilon);
}

double lowerEpsilonBound(const PldPmf &pmf, const PldCouplingBudget &budget, double delta,
                         double upperEpsilon)
{
    if (!std::isfinite(upperEpsilon) || !(upperEpsilon > 0.0))
        return 0.0;
    return PldLowerBound(pmf, budget).epsilon(delta, upperEpsilon);
}

double PldLowerBound::epsilon(double delta, double upperEpsilon) const
{
    if (!std::isfinite(upperEpsilon) || !(upperEpsilon > 0.0))
        return 0.0;
    const PldPmf &pmf = m_sums->pmf;
    const long double target = delta;
    auto valid = [&](double eps) {
        return lowerDeltaAt(m_sums->sums, m_sums->terms, pmf, m_sums->budget, eps) > target;
    };
    // δ_true(ε) > δ at a valid ε, so ε_true(δ) ≥ ε (δ_true is non-increasing). Scan down from the
    // upper bound: steps of 2d, doubling every 200 steps after the first 2000; then bisection.
    double step = 2.0 * pmf.interval;
    double hit = -1.0;
    double eps = upperEpsilon;
    for (int i = 0; eps > 0.0; ++i) {
        if (valid(eps)) {
            hit = eps;
            break;
        }
        if (i >= 2000 && i % 200 == 0)
            step *= 2.0;
        eps -= step;
    }
    if (hit < 0.0)
        return 0.0;
    // Refine between the hit and the point above it (any valid point is a lower bound).
    double lo = hit, hi = std::min(hit + step, upperEpsilon);
    for (int i = 0; i < 30 && hi - lo > 1e-12 * std::max(1.0, hi); ++i) {
        const double mid = 0.5 * (lo + hi);
        if (valid(mid))
            lo = mid;
        else
            hi = mid;
    }
    return std::max(0.0, math::nudgeDown(lo, 2));
}

} // namespace pbx::accounting
