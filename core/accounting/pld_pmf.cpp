// SPDX-License-Identifier: MIT
#include "core/accounting/pld_pmf.h"

#include "core/math/directed_rounding.h"
#include "core/math/fft_convolution.h"
#include "core/math/log_space.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>
#include <numeric>

namespace pbx::accounting {

void truncateTails(PldPmf &pmf, double tailMass)
{
    if (pmf.probs.empty() || tailMass <= 0.0)
        return;
    const double half = 0.5 * tailMass;
    std::size_t first = 0;
    double prefix = 0.0;
    while (first < pmf.probs.size() && prefix + pmf.probs[first] <= half)
        prefix += pmf.probs[first++];
    std::size_t last = pmf.probs.size();
    double suffix = 0.0;
    while (last > first && suffix + pmf.probs[last - 1] <= half)
        suffix += pmf.probs[--last];
    if (first == last) { // everything is tail: keep one bin
        if (pmf.pessimistic) {
            pmf.infinityMass = std::min(1.0, pmf.infinityMass + prefix + suffix);
            pmf.errorL1 = math::nudgeUp(pmf.errorL1 + 2.0 * (prefix + suffix), 2);
            pmf.probs.clear();
        } else {
            pmf.probs.clear();
        }
        return;
    }
    std::vector<double> kept(pmf.probs.begin() + static_cast<std::ptrdiff_t>(first),
                             pmf.probs.begin() + static_cast<std::ptrdiff_t>(last));
    if (pmf.pessimistic) {
        kept.front() += prefix;
        pmf.infinityMass = std::min(1.0, pmf.infinityMass + suffix);
        pmf.errorL1 = math::nudgeUp(pmf.errorL1 + 2.0 * (prefix + suffix), 2); // mass moved
    } else {
        kept.back() += suffix;
    }
    pmf.lowerIndex += static_cast<std::int64_t>(first);
    pmf.probs = std::move(kept);
}

namespace {

constexpr double kUnitRoundoff = 0x1p-53;
/// Tail mass truncated per step of the exact (sparse) composition: far below any δ a user asks
/// for, yet it keeps the binomial-like windows a few hundred lattice points wide.
constexpr double kSparseTailMass = 1e-40;
/// Sparse route: at most this many non-zero bins in the single PMF and this many lattice points
/// (before truncation) in the k-fold result; the direct products then cost ≲ 3·10⁸ operations.
constexpr std::size_t kSparseMaxNonZero = 64;
constexpr double kSparseMaxWidth = 16384.0;

/// γ_n = n·u/(1 − n·u) (Higham 2002, §3.1): a sum of n non-negative products computed in double
/// lies within a factor 1 ± γ_n of the exact sum.
double gammaBound(double n)
{
    const double nu = n * kUnitRoundoff;
    return nu / (1.0 - nu);
}

std::size_t nonZeroCount(const std::vector<double> &v)
{
    return static_cast<std::size_t>(std::count_if(v.begin(), v.end(), [](double x) { return x > 0.0; }));
}

double l2Norm(const std::vector<double> &v)
{
    long double s = 0.0L;
    for (double x : v)
        s += static_cast<long double>(x) * x;
    return static_cast<double>(std::sqrt(s));
}

/// Direct linear convolution skipping zeros. *relError receives the γ bound of the longest sum.
std::vector<double> directConvolve(const std::vector<double> &a, const std::vector<double> &b,
                                   double *relError)
{
    std::vector<double> out(a.size() + b.size() - 1, 0.0);
    std::vector<std::size_t> nzB;
    for (std::size_t j = 0; j < b.size(); ++j)
        if (b[j] > 0.0)
            nzB.push_back(j);
    std::size_t nzA = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const double ai = a[i];
        if (!(ai > 0.0))
            continue;
        ++nzA;
        for (std::size_t j : nzB)
            out[i + j] += ai * b[j];
    }
    *relError = gammaBound(static_cast<double>(std::max<std::size_t>(1, std::min(nzA, nzB.size()))) + 1.0);
    return out;
}

/// Applies a relative error bound E outwards: pessimistic masses are divided by 1 − E (each is
/// then ≥ the exact mass), optimistic ones by 1 + E (each ≤ the exact mass); rounded outwards.
void widenByRelativeError(std::vector<double> &probs, double relError, bool pessimistic)
{
    if (relError <= 0.0)
        return;
    const double factor
        = pessimistic ? math::nudgeUp(1.0 / (1.0 - relError), 2) : math::nudgeDown(1.0 / (1.0 + relError), 2);
    for (double &p : probs)
        p = pessimistic ? math::nudgeUp(p * factor, 1) : math::nudgeDown(p * factor, 1);
    if (!pessimistic)
        for (double &p : probs)
            p = std::max(p, 0.0);
}

/// Combines relative error bounds of factors and of the operation: (1+a)(1+b)(1+c) − 1, rounded up.
double combineRelative(double a, double b, double c)
{
    return math::nudgeUp((1.0 + a) * (1.0 + b) * (1.0 + c) - 1.0, 4);
}

/// Greatest common divisor of the offsets of the non-zero bins from the first one (0 if there
/// is at most one non-zero bin); *first receives the first non-zero index.
std::int64_t latticeStride(const std::vector<double> &p, std::size_t *first)
{
    std::int64_t g = 0;
    bool seen = false;
    for (std::size_t j = 0; j < p.size(); ++j) {
        if (!(p[j] > 0.0))
            continue;
        if (!seen) {
            *first = j;
            seen = true;
            continue;
        }
        g = std::gcd(g, static_cast<std::int64_t>(j - *first));
    }
    return g;
}

/// Exact k-fold self-composition of a sparse PMF on its lattice (see selfComposePmf).
PldPmf sparseSelfCompose(const PldPmf &pmf, std::int64_t k, std::size_t first, std::int64_t stride)
{
    // Compressed PMF c on the lattice: c[m] = p[first + m·stride].
    const std::size_t last = [&] {
        std::size_t l = first;
        for (std::size_t j = first; j < pmf.probs.size(); ++j)
            if (pmf.probs[j] > 0.0)
                l = j;
        return l;
    }();
    std::vector<double> base;
    for (std::size_t j = first; j <= last; j += static_cast<std::size_t>(stride))
        base.push_back(pmf.probs[j]);
    // Binary powering. A "compressed PMF" (probs, offset in lattice units, ∞ mass, relative error).
    struct Part
    {
        PldPmf pmf;
        double relError = 0.0;
    };
    auto make = [&](std::vector<double> probs) {
        Part part;
        part.pmf.interval = pmf.interval;
        part.pmf.pessimistic = pmf.pessimistic;
        part.pmf.probs = std::move(probs);
        return part;
    };
    auto multiply = [&](const Part &x, const Part &y) {
        double op = 0.0;
        Part out = make(directConvolve(x.pmf.probs, y.pmf.probs, &op));
        out.pmf.lowerIndex = x.pmf.lowerIndex + y.pmf.lowerIndex;
        out.relError = combineRelative(x.relError, y.relError, op);
        // Mass at +∞ (truncated upper tails, pessimistic only) stays at +∞: union bound.
        out.pmf.infinityMass = std::min(1.0, math::nudgeUp(x.pmf.infinityMass + y.pmf.infinityMass, 2));
        const double before = out.pmf.infinityMass;
        truncateTails(out.pmf, kSparseTailMass);
        if (out.pmf.pessimistic) // the truncated mass was computed with relative error ≤ relError
            out.pmf.infinityMass = std::min(
                1.0, math::nudgeUp(
                         before + (out.pmf.infinityMass - before) * (1.0 + 2.0 * out.relError + 1e-12), 2));
        return out;
    };
    Part power = make(std::move(base));
    Part result = make({1.0});
    bool haveResult = false;
    for (std::int64_t e = k; e > 0; e >>= 1) {
        if (e & 1) {
            result = haveResult ? multiply(result, power) : power;
            haveResult = true;
        }
        if (e > 1)
            power = multiply(power, power);
    }
    PldPmf out;
    out.interval = pmf.interval;
    out.pessimistic = pmf.pessimistic;
    std::vector<double> compressed = std::move(result.pmf.probs);
    widenByRelativeError(compressed, result.relError, out.pessimistic);
    // Expand back to the grid: loss index = k·(lowerIndex + first) + m·stride.
    out.lowerIndex = k * (pmf.lowerIndex + static_cast<std::int64_t>(first)) + result.pmf.lowerIndex * stride;
    if (!compressed.empty()) {
        out.probs.assign((compressed.size() - 1) * static_cast<std::size_t>(stride) + 1, 0.0);
        for (std::size_t m = 0; m < compressed.size(); ++m)
            out.probs[m * static_cast<std::size_t>(stride)] = compressed[m];
    }
    const double inf = -std::expm1(static_cast<double>(k) * std::log1p(-pmf.infinityMass));
    out.infinityMass = out.pessimistic ? std::min(1.0, math::nudgeUp(inf + result.pmf.infinityMass, 2)) : inf;
    // ℓ1 distance to the exact k-fold PMF: each mass within a factor (1 ± E)/(1 − E), i.e. 2.01E
    // of the total; ≤ 2·log₂k + 2 truncations of ≤ 1e-40 each moved (counted twice); the input's
    // own distance k-fold.
    if (out.pessimistic)
        out.errorL1
            = math::nudgeUp(static_cast<double>(k) * pmf.errorL1 + 2.01 * result.relError * 1.01 + 1e-37, 2);
    return out;
}

/// Lattice points of the k-fold sparse composition after truncation at 1e-40: about ±13.6
/// standard deviations of the sum, at most k·span + 1 (a sum of k variables each within a span s
/// has standard deviation ≤ s√k/2).
double sparseWidth(const PldPmf &pmf, std::int64_t k, std::size_t first, std::int64_t stride)
{
    const double kd = static_cast<double>(k);
    const double spanLattice = static_cast<double>(static_cast<std::int64_t>(pmf.probs.size()) - 1
                                                   - static_cast<std::int64_t>(first))
                               / static_cast<double>(stride);
    return std::min(kd * spanLattice + 1.0, 14.0 * std::sqrt(kd) * spanLattice + 1.0);
}

} // namespace

bool sparseSelfComposition(const PldPmf &pmf, std::int64_t k)
{
    if (k <= 1 || pmf.probs.empty() || pmf.deltaSlack != 0.0 || nonZeroCount(pmf.probs) > kSparseMaxNonZero)
        return false;
    std::size_t first = 0;
    const std::int64_t stride = latticeStride(pmf.probs, &first);
    return stride == 0 || sparseWidth(pmf, k, first, stride) <= kSparseMaxWidth;
}

std::string pldResourceMessage(double bytes, double interval, double maxBins)
{
    auto gb = [](double amount) {
        char buf[32];
        if (!std::isfinite(amount) || amount >= 1e15)
            return std::string("more than a petabyte");
        if (amount < 1e11)
            std::snprintf(buf, sizeof buf, "%.2g GB", amount / 1e9);
        else
            std::snprintf(buf, sizeof buf, "%.0f GB", amount / 1e9);
        return std::string(buf);
    };
    char step[32];
    std::snprintf(step, sizeof step, "%g", interval);
    return "PLD would need " + gb(bytes) + " at interval " + step + " (limit " + gb(pldPeakBytes(maxBins))
           + "); use a coarser --interval or the rdp strategy";
}

bool composesByFft(const PldPmf &a, const PldPmf &b)
{
    if (a.probs.empty() || b.probs.empty())
        return false;
    const double nzA = static_cast<double>(nonZeroCount(a.probs));
    const double nzB = static_cast<double>(nonZeroCount(b.probs));
    return nzA * nzB > 4e7;
}

Result<PldPmf> composePmf(const PldPmf &a, const PldPmf &b, double tailMass, double maxBins)
{
    if (a.interval != b.interval || a.pessimistic != b.pessimistic)
        return makeError(ErrorCode::InvalidArgument,
                         "PLDs can only be composed with the same interval and estimate type");
    const double bins = static_cast<double>(a.probs.size()) + static_cast<double>(b.probs.size());
    if (bins > std::min(maxBins, kMaxPldBins))
        return makeError(ErrorCode::ResourceLimit,
                         pldResourceMessage(pldPeakBytes(bins), a.interval, maxBins));
    PldPmf out;
    out.interval = a.interval;
    out.pessimistic = a.pessimistic;
    out.lowerIndex = a.lowerIndex + b.lowerIndex;
    out.infinityMass = std::min(1.0, a.infinityMass + b.infinityMass - a.infinityMass * b.infinityMass);
    out.deltaSlack = a.deltaSlack + b.deltaSlack; // ‖Δa ⊛ b‖₁ ≤ ‖Δa‖₁‖b‖₁ ≤ ‖Δa‖₁
    // ‖â ⊛ b̂ − a ⊛ b‖₁ ≤ ‖â − a‖₁‖b̂‖₁ + ‖a‖₁‖b̂ − b‖₁, masses ≤ 1 + (small): 1 % margin.
    out.errorL1 = out.pessimistic ? math::nudgeUp((a.errorL1 + b.errorL1) * 1.01, 2) : 0.0;
    double fftChargeL1 = 0.0;
    if (!a.probs.empty() && !b.probs.empty()) {
        if (!composesByFft(a, b)) {
            double rel = 0.0;
            out.probs = directConvolve(a.probs, b.probs, &rel);
            widenByRelativeError(out.probs, rel, out.pessimistic);
            if (out.pessimistic) // each mass within (1 ± rel)/(1 − rel) of the exact one
                out.errorL1 = math::nudgeUp(out.errorL1 + 2.01 * rel * 1.01, 2);
        } else {
            out.probs = math::convolveByFft(a.probs, b.probs);
            // ‖out − exact‖₂ ≤ 3r(‖a‖₂ + ‖b‖₂) (docs/pld-numerics.md §2), and ‖·‖₁ ≤ √N‖·‖₂.
            const auto n = static_cast<std::int64_t>(out.probs.size());
            const double r = math::fftRelativeErrorBound(math::nextFastFftLength(n));
            const double l2 = 3.0 * r * (l2Norm(a.probs) + l2Norm(b.probs)) + 8.0 * kUnitRoundoff;
            fftChargeL1 = math::nudgeUp(std::sqrt(static_cast<double>(n)) * l2 * 1.01, 4);
        }
    }
    if (out.pessimistic) {
        out.infinityMass = std::min(1.0, math::nudgeUp(out.infinityMass + fftChargeL1, 2));
        out.errorL1 = math::nudgeUp(out.errorL1 + 2.0 * fftChargeL1, 2); // round-off, and the charge
    } else {
        out.deltaSlack += fftChargeL1;
    }
    truncateTails(out, tailMass);
    return out;
}

Result<PldPmf> selfComposePmf(const PldPmf &pmf, std::int64_t k, double tailMass, double maxBins)
{
    if (k <= 1 || pmf.probs.empty()) {
        PldPmf out = pmf;
        if (k > 1) {
            out.infinityMass = -std::expm1(static_cast<double>(k) * std::log1p(-pmf.infinityMass));
            out.deltaSlack = static_cast<double>(k) * pmf.deltaSlack;
            out.errorL1 = static_cast<double>(k) * pmf.errorL1;
        }
        return out;
    }
    const auto n = static_cast<std::int64_t>(pmf.probs.size());
    const double kd = static_cast<double>(k);

    // Sparse: few non-zero bins on a lattice; compose exactly on the compressed lattice.
    std::size_t first = 0;
    const std::int64_t stride = latticeStride(pmf.probs, &first);
    if (sparseSelfComposition(pmf, k)) {
        if (stride == 0) { // a single loss value: its k-fold sum is k times it
            PldPmf out = pmf;
            out.lowerIndex = k * (pmf.lowerIndex + static_cast<std::int64_t>(first));
            const double mass = pmf.probs[first];
            out.probs = {pmf.pessimistic ? math::nudgeUp(std::pow(mass, kd), 4)
                                         : math::nudgeDown(std::pow(mass, kd), 4)};
            out.probs[0] = std::max(out.probs[0], 0.0);
            out.infinityMass = -std::expm1(kd * std::log1p(-pmf.infinityMass));
            if (pmf.pessimistic) {
                out.infinityMass = std::min(1.0, math::nudgeUp(out.infinityMass, 4));
                out.errorL1 = math::nudgeUp(kd * pmf.errorL1 + 1e-15, 2); // the power's few ulps
            }
            return out;
        }
        // The only large allocation is the expanded result (one vector of doubles).
        const double expandedBytes = 8.0 * sparseWidth(pmf, k, first, stride) * static_cast<double>(stride);
        if (expandedBytes > pldPeakBytes(std::min(maxBins, kMaxPldBins)))
            return makeError(ErrorCode::ResourceLimit,
                             pldResourceMessage(expandedBytes, pmf.interval, maxBins));
        return sparseSelfCompose(pmf, k, first, stride);
    }

    // Dense: Chernoff window, one forward FFT, pointwise k-th power, one inverse FFT.
    // Chernoff bounds on the sum S of k i.i.d. indices j ∈ [0, n): P[S ≥ t] ≤ e^{k·M(λ) − λt} with
    // M(λ) = log Σ_j p_j e^{λj}, for λ = o/n, |o| ≤ 512 on a geometric ladder (|λj| ≤ 512 <
    // 709: no overflow; the larger |o| tighten the window of a heavy-tailed PMF and so shrink
    // the FFT). The powers e^{λj} are formed by repeated multiplication (relative error ≲
    // n·2⁻⁵³); the small extra margin in log(2/τ) covers that, so each tail keeps mass ≤ τ/2.
    const double logTwoOverTau = std::log(2.0 / tailMass) + 1e-3;
    double upper = kd * static_cast<double>(n - 1);
    double lower = 0.0;
    static constexpr int kLadder[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512};
    constexpr std::size_t kRungs = 2 * std::size(kLadder);
    // All rungs in one pass over p (the inner loop vectorises); double sums of n non-negative
    // terms err by ≤ 2n·2⁻⁵³ relative (≤ 1e-9 for n ≤ kMaxPldBins), inside the margin above.
    double ratio[kRungs], power[kRungs], mgf[kRungs], lambdaOf[kRungs];
    for (std::size_t r = 0; r < kRungs; ++r) {
        const int o = (r % 2 ? -1 : 1) * kLadder[r / 2];
        lambdaOf[r] = static_cast<double>(o) / static_cast<double>(n);
        ratio[r] = std::exp(lambdaOf[r]);
        power[r] = 1.0;
        mgf[r] = 0.0;
    }
    for (std::int64_t j = 0; j < n; ++j) {
        const double pj = pmf.probs[static_cast<std::size_t>(j)];
        for (std::size_t r = 0; r < kRungs; ++r) {
            mgf[r] += pj * power[r];
            power[r] *= ratio[r];
        }
    }
    for (std::size_t r = 0; r < kRungs; ++r) {
        const double lambda = lambdaOf[r];
        const double logMgf = std::log(mgf[r]);
        const double bound = (kd * logMgf + logTwoOverTau) / lambda;
        if (lambda > 0.0)
            upper = std::min(upper, std::ceil(bound));
        else
            lower = std::max(lower, std::floor(bound));
    }
    upper = std::min(upper, kd * static_cast<double>(n - 1));
    lower = std::max(lower, 0.0);
    if (lower > upper)
        lower = upper;
    // Checked in double before any allocation (k·n can exceed the int64 range).
    const double windowBins = std::max(upper - lower + 1.0, static_cast<double>(n));
    if (!(windowBins <= std::min(maxBins, kMaxPldBins)))
        return makeError(ErrorCode::ResourceLimit,
                         pldResourceMessage(pldPeakBytes(windowBins), pmf.interval, maxBins));
    const auto lo = static_cast<std::int64_t>(lower);
    const auto hi = static_cast<std::int64_t>(upper);
    const std::int64_t width = hi - lo + 1;
    const std::int64_t length = math::nextFastFftLength(std::max(width, n));
    double fftChargeL1 = 0.0;
    std::vector<double> circ = math::selfConvolveCircular(pmf.probs, k, length, &fftChargeL1);

    PldPmf out;
    out.interval = pmf.interval;
    out.pessimistic = pmf.pessimistic;
    out.lowerIndex = k * pmf.lowerIndex + lo;
    // The window (lo + j) mod length, j < width ≤ length, rotated to the front of the circle's
    // own storage: no second megabin vector.
    if (static_cast<std::int64_t>(circ.size()) == length && width <= length) {
        std::rotate(circ.begin(), circ.begin() + lo % length, circ.end());
        circ.resize(static_cast<std::size_t>(width));
        out.probs = std::move(circ);
    } else {
        out.probs.resize(static_cast<std::size_t>(width));
        for (std::int64_t j = 0; j < width; ++j)
            out.probs[static_cast<std::size_t>(j)] = circ[static_cast<std::size_t>((lo + j) % length)];
    }
    // FFT round-off: an ℓ1 bound from the spectrum (math::selfConvolveCircular), rounded up.
    fftChargeL1 = math::nudgeUp(fftChargeL1, 4);
    const double inf = -std::expm1(kd * std::log1p(-pmf.infinityMass));
    if (out.pessimistic) {
        out.infinityMass = std::min(1.0, math::nudgeUp(inf + tailMass + fftChargeL1, 2));
        // Round-off (≤ F) and its charge (F); the mass outside the window (≤ τ) aliased into it
        // or cut (2τ) and the charge τ; the input's own distance k-fold.
        out.errorL1 = math::nudgeUp(kd * pmf.errorL1 + 2.0 * fftChargeL1 + 3.0 * tailMass, 4);
    } else {
        out.infinityMass = inf;
        out.deltaSlack = kd * pmf.deltaSlack + fftChargeL1;
    }
    return out;
}

double pmfDeltaForEpsilon(const PldPmf &pmf, double epsilon)
{
    long double sum = pmf.infinityMass;
    for (std::size_t j = pmf.probs.size(); j-- > 0;) {
        const double loss = pmf.lossAt(j);
        if (loss <= epsilon)
            break;
        const double p = pmf.probs[j];
        if (p > 0.0)
            sum += static_cast<long double>(p) * static_cast<long double>(-std::expm1(epsilon - loss));
    }
    double delta = static_cast<double>(sum);
    if (pmf.pessimistic && delta > 0.0) // an exact 0 (no loss above ε) stays 0
        delta = math::nudgeUp(delta * (1.0 + 1e-12), 2);
    else
        delta = math::nudgeDown(delta * (1.0 - 1e-12) - pmf.deltaSlack, 2);
    return std::clamp(delta, 0.0, 1.0);
}

std::vector<double> pmfDeltasForEpsilons(const PldPmf &pmf, const std::vector<double> &epsilons)
{
    std::vector<std::size_t> order(epsilons.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return epsilons[a] > epsilons[b]; });
    const long double decay = std::exp(-static_cast<long double>(pmf.interval));   // e^{−d}
    const long double gain = -std::expm1(-static_cast<long double>(pmf.interval)); // 1 − e^{−d}
    long double v = 0.0L, dSum = 0.0L; // V_j and D_j of the bins ≥ j
    std::size_t j = pmf.probs.size();
    std::vector<double> out(epsilons.size(), 0.0);
    for (const std::size_t k : order) {
        const double epsilon = epsilons[k];
        while (j > 0 && pmf.lossAt(j - 1) > epsilon) {
            --j;
            dSum += gain * v;
            v = static_cast<long double>(std::max(pmf.probs[j], 0.0)) + decay * v;
        }
        long double sum = pmf.infinityMass;
        if (j < pmf.probs.size())
            sum += dSum + v * static_cast<long double>(-std::expm1(epsilon - pmf.lossAt(j)));
        double delta = static_cast<double>(sum);
        if (pmf.pessimistic && delta > 0.0)
            delta = math::nudgeUp(delta * (1.0 + 1e-12), 2);
        else
            delta = math::nudgeDown(delta * (1.0 - 1e-12) - pmf.deltaSlack, 2);
        out[k] = std::clamp(delta, 0.0, 1.0);
    }
    return out;
}

double pmfEpsilonForDelta(const PldPmf &pmf, double delta)
{
    if (!pmf.pessimistic && pmf.deltaSlack > 0.0)
        delta = std::min(1.0, delta + pmf.deltaSlack); // the exact optimistic ε(δ) is at least this
    if (pmf.infinityMass > delta)
        return std::numeric_limits<double>::infinity();
    // Sweep losses downward. On the piece ε ∈ [ℓ_j, ℓ_above) between consecutive losses with mass,
    // δ(ε) = U − e^ε W with U = p_∞ + Σ_{ℓ_i ≥ ℓ_above} p_i and W = Σ_{ℓ_i ≥ ℓ_above} p_i e^{−ℓ_i}.
    long double u = pmf.infinityMass;
    long double w = 0.0L;
    double above = std::numeric_limits<double>::infinity();
    const long double target = delta;
    auto solve = [&](double lowerEnd, double *answer) {
        if (u - target <= 0.0L)
            return false;
        const double candidate = w == 0.0L ? above : static_cast<double>(std::log((u - target) / w));
        if (candidate < lowerEnd)
            return false;
        *answer = std::min(candidate, above);
        return true;
    };
    // e^{−ℓ_j} for the downward sweep by the recurrence e^{−ℓ_j} = e^{−ℓ_{j+1}}·e^d, re-anchored by
    // an exact exp every 256 bins and after gaps (relative error ≲ 256·2⁻⁶³ ≪ the 1e-12 nudge).
    const long double stepUp = std::exp(static_cast<long double>(pmf.interval));
    std::size_t lastWeighted = std::numeric_limits<std::size_t>::max(); // none yet
    long double lastWeight = 0.0L;
    auto weightOf = [&](std::size_t j) {
        if (lastWeighted == j + 1 && j % 256 != 0)
            lastWeight *= stepUp;
        else
            lastWeight = std::exp(-static_cast<long double>(pmf.lossAt(j)));
        lastWeighted = j;
        return lastWeight;
    };
    double answer = 0.0;
    bool found = false;
    for (std::size_t j = pmf.probs.size(); j-- > 0 && !found;) {
        const double p = pmf.probs[j];
        if (p <= 0.0)
            continue;
        const double loss = pmf.lossAt(j);
        found = solve(loss, &answer);
        if (found)
            break;
        u += p;
        w += static_cast<long double>(p) * weightOf(j);
        above = loss;
    }
    if (!found && !solve(-std::numeric_limits<double>::infinity(), &answer))
        answer = 0.0;
    if (!(answer > 0.0))
        return 0.0;
    // Upper bounds round up, lower bounds round down (the long double sums err by far less).
    return pmf.pessimistic ? math::nudgeUp(answer + 1e-12 * std::fabs(answer), 2)
                           : std::max(0.0, math::nudgeDown(answer - 1e-12 * std::fabs(answer), 2));
}

} // namespace pbx::accounting
