// SPDX-License-Identifier: MIT
#include "core/accounting/pld_pmf.h"

#include "core/math/directed_rounding.h"
#include "core/math/fft_convolution.h"
#include "core/math/log_space.h"

#include <algorithm>
#include <cmath>
#include <limits>

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
    } else {
        kept.back() += suffix;
    }
    pmf.lowerIndex += static_cast<std::int64_t>(first);
    pmf.probs = std::move(kept);
}

Result<PldPmf> composePmf(const PldPmf &a, const PldPmf &b, double tailMass)
{
    if (a.interval != b.interval || a.pessimistic != b.pessimistic)
        return makeError(ErrorCode::InvalidArgument,
                         "PLDs can only be composed with the same interval and estimate type");
    PldPmf out;
    out.interval = a.interval;
    out.pessimistic = a.pessimistic;
    out.lowerIndex = a.lowerIndex + b.lowerIndex;
    out.probs = math::convolve(a.probs, b.probs);
    out.infinityMass = std::min(1.0, a.infinityMass + b.infinityMass - a.infinityMass * b.infinityMass);
    if (out.pessimistic)
        out.infinityMass = std::min(1.0, math::nudgeUp(out.infinityMass, 2));
    truncateTails(out, tailMass);
    return out;
}

PldPmf selfComposePmf(const PldPmf &pmf, std::int64_t k, double tailMass)
{
    if (k <= 1 || pmf.probs.empty()) {
        PldPmf out = pmf;
        if (k > 1)
            out.infinityMass = -std::expm1(static_cast<double>(k) * std::log1p(-pmf.infinityMass));
        return out;
    }
    const auto n = static_cast<std::int64_t>(pmf.probs.size());
    const double kd = static_cast<double>(k);
    // Chernoff bounds on the sum S of k i.i.d. indices j ∈ [0, n): P[S ≥ t] ≤ e^{k·M(λ) − λt} with
    // M(λ) = log Σ_j p_j e^{λj}, for λ = o/n, o = ±1…±20 (|λj| ≤ 20: no overflow). The powers
    // e^{λj} are formed by repeated multiplication (relative error ≲ n·2⁻⁵³); the small extra
    // margin in log(2/τ) covers that, so each tail keeps mass ≤ τ/2.
    const double logTwoOverTau = std::log(2.0 / tailMass) + 1e-3;
    double upper = kd * static_cast<double>(n - 1);
    double lower = 0.0;
    for (int o = -20; o <= 20; ++o) {
        if (o == 0)
            continue;
        const double lambda = static_cast<double>(o) / static_cast<double>(n);
        const double ratio = std::exp(lambda);
        double power = 1.0;
        long double mgf = 0.0L;
        for (std::int64_t j = 0; j < n; ++j) {
            mgf += pmf.probs[static_cast<std::size_t>(j)] * power;
            power *= ratio;
        }
        const double logMgf = std::log(static_cast<double>(mgf));
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
    const auto lo = static_cast<std::int64_t>(lower);
    const auto hi = static_cast<std::int64_t>(upper);
    const std::int64_t width = hi - lo + 1;
    const std::int64_t length = math::nextFastFftLength(std::max(width, n));
    const std::vector<double> circ = math::selfConvolveCircular(pmf.probs, k, length);

    PldPmf out;
    out.interval = pmf.interval;
    out.pessimistic = pmf.pessimistic;
    out.lowerIndex = k * pmf.lowerIndex + lo;
    out.probs.resize(static_cast<std::size_t>(width));
    for (std::int64_t j = 0; j < width; ++j)
        out.probs[static_cast<std::size_t>(j)] = circ[static_cast<std::size_t>((lo + j) % length)];
    const double inf = -std::expm1(kd * std::log1p(-pmf.infinityMass));
    out.infinityMass = out.pessimistic ? std::min(1.0, math::nudgeUp(inf + tailMass, 2)) : inf;
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
    if (pmf.pessimistic)
        delta = math::nudgeUp(delta * (1.0 + 1e-12), 2);
    return std::clamp(delta, 0.0, 1.0);
}

double pmfEpsilonForDelta(const PldPmf &pmf, double delta)
{
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
        w += static_cast<long double>(p) * std::exp(static_cast<long double>(-loss));
        above = loss;
    }
    if (!found && !solve(-std::numeric_limits<double>::infinity(), &answer))
        answer = 0.0;
    if (!(answer > 0.0))
        return 0.0;
    return pmf.pessimistic ? math::nudgeUp(answer + 1e-12 * std::fabs(answer), 2) : answer;
}

} // namespace pbx::accounting
