// SPDX-License-Identifier: MIT
#include "core/odp/sparse_vector.h"

#include "core/math/directed_rounding.h"
#include "core/odp/ptr_iqr.h"
#include "core/odp/quadrature.h"
#include "core/util/parameter_checks.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pbx::odp {

namespace {
Result<mechanisms::DiscreteLaplaceSampler> laplace(double scale)
{
    auto r = mechanisms::rationalAtLeast(scale); // never less noise than the accounting assumes
    if (!r)
        return r.error();
    return mechanisms::DiscreteLaplaceSampler::create(*r);
}
} // namespace

Result<void> validate(const SvtParameters &p)
{
    PBX_RETURN_IF_ERROR(checkPositive(p.epsilon1, "epsilon1"));
    PBX_RETURN_IF_ERROR(checkPositive(p.epsilon2, "epsilon2"));
    if (p.cutoff < 1)
        return makeError(ErrorCode::InvalidArgument, "c (the cut-off) must be an integer >= 1");
    PBX_RETURN_IF_ERROR(checkSensitivity(p.sensitivity, "sensitivity"));
    return {};
}

double svtCellCost(const SvtParameters &p, int j)
{
    // Every operation rounded up, so the ε charged is never below the exact E(j) (and exact
    // decimal-friendly inputs such as ε₁ = 0.1, ε₂ = 0.4, c = 4 give exactly 0.2 for j = 1).
    const double c = p.cutoff;
    if (j >= p.cutoff)
        return math::addRoundUp(p.epsilon1, p.epsilon2);
    if (p.variant == SvtVariant::RefreshedThreshold) {
        const double perPositive = math::divideRoundUp(math::addRoundUp(p.epsilon1, p.epsilon2), c);
        return math::addRoundUp(math::multiplyRoundUp(j, perPositive), math::divideRoundUp(p.epsilon1, c));
    }
    return math::addRoundUp(p.epsilon1, math::divideRoundUp(math::multiplyRoundUp(j, p.epsilon2), c));
}

Result<OdpGuarantee> svtGuarantee(const SvtParameters &p)
{
    PBX_RETURN_IF_ERROR(validate(p));
    OdpGuarantee g;
    for (int j = 0; j <= p.cutoff; ++j)
        g.cells.push_back(
            OdpCell{j, std::to_string(j) + " positive" + (j == 1 ? "" : "s"), svtCellCost(p, j)});
    g.delta = 0.0;
    return g;
}

Result<SvtSplit> lyuSplit(double epsilonSvt, int cutoff)
{
    PBX_RETURN_IF_ERROR(checkPositive(epsilonSvt, "epsilon (the sparse vector's share)"));
    if (cutoff < 1)
        return makeError(ErrorCode::InvalidArgument, "c (the cut-off) must be an integer >= 1");
    const double ratio = std::cbrt(4.0 * cutoff * cutoff); // (2c)^{2/3}
    const double e1 = epsilonSvt / (1.0 + ratio);
    return SvtSplit{e1, epsilonSvt - e1};
}

Result<SparseVector> SparseVector::start(const SvtParameters &p, mechanisms::RandomBits &bits)
{
    PBX_RETURN_IF_ERROR(validate(p));
    if (p.sensitivity != std::floor(p.sensitivity) || p.sensitivity > 1099511627776.0)
        return makeError(ErrorCode::InvalidArgument,
                         "sensitivity must be a whole number for the exact discrete sparse vector");
    const double c = p.cutoff;
    const double rhoScale = p.variant == SvtVariant::RefreshedThreshold ? c * p.sensitivity / p.epsilon1
                                                                        : p.sensitivity / p.epsilon1;
    PBX_TRY(rho, laplace(rhoScale));
    PBX_TRY(nu, laplace(2.0 * c * p.sensitivity / p.epsilon2));
    SparseVector svt(p, rho, nu);
    PBX_TRY(first, svt.m_rhoSampler.sample(bits));
    svt.m_rho = first;
    return svt;
}

Result<bool> SparseVector::query(std::int64_t value, std::int64_t threshold, mechanisms::RandomBits &bits)
{
    if (m_closed) {
        if (m_positives >= m_p.cutoff)
            return makeError(ErrorCode::InvalidArgument, "the sparse vector halted after c = "
                                                             + std::to_string(m_p.cutoff) + " positives");
        return makeError(ErrorCode::InvalidArgument, "the sparse vector is closed (STOP was sent)");
    }
    constexpr std::int64_t kLimit = std::int64_t{1} << 61;
    if (value > kLimit || value < -kLimit || threshold > kLimit || threshold < -kLimit)
        return makeError(ErrorCode::InvalidArgument, "query values and thresholds must lie within ±2^61");
    auto nu = m_nuSampler.sample(bits);
    if (!nu) {
        m_closed = true;
        return nu.error();
    }
    // q + ν ≥ T + ρ  ⇔  q − T ≥ ρ − ν, with |q − T| ≤ 2^62; ρ − ν can reach ±2^63 only at the
    // samplers' extreme draws, where its sign alone decides.
    std::int64_t gap = 0;
    const bool above = __builtin_sub_overflow(m_rho, *nu, &gap) ? m_rho < 0 : value - threshold >= gap;
    m_answers.push_back(above);
    if (above) {
        ++m_positives;
        if (m_positives >= m_p.cutoff) {
            m_closed = true;
        } else if (m_p.variant == SvtVariant::RefreshedThreshold) {
            auto rho = m_rhoSampler.sample(bits);
            if (!rho) {
                m_closed = true;
                return rho.error();
            }
            m_rho = *rho;
        }
    }
    return above;
}

double releaseScale(ReleaseAnalysis analysis, const SvtParameters &p, double epsilonRelease, int j)
{
    const double delta = p.sensitivity;
    switch (analysis) {
    case ReleaseAnalysis::Dp:
        return math::nudgeUp(p.cutoff * delta / epsilonRelease);
    case ReleaseAnalysis::Filter:
        return math::nudgeUp(j * delta / epsilonRelease);
    case ReleaseAnalysis::Odp:
        break;
    }
    // ε − E(j) = ε_rel + (c − j)ε₂/c, computed in that form (no cancellation) and rounded down.
    const double left = math::nudgeDown(epsilonRelease + (p.cutoff - j) * p.epsilon2 / p.cutoff);
    return math::nudgeUp(j * delta / left);
}

Result<LargeEntriesRun> releaseLargeEntries(const std::vector<std::int64_t> &f, std::int64_t threshold,
                                            const SvtParameters &p, double epsilonTotal,
                                            mechanisms::RandomBits &bits)
{
    PBX_RETURN_IF_ERROR(validate(p));
    if (p.variant != SvtVariant::FixedThreshold)
        return makeError(ErrorCode::Unsupported,
                         "the large-entries release uses the fixed-threshold sparse vector");
    const double epsilonRelease = epsilonTotal - (p.epsilon1 + p.epsilon2);
    if (!std::isfinite(epsilonTotal) || !(epsilonRelease > 0.0))
        return makeError(ErrorCode::InvalidArgument, "epsilon must exceed epsilon1 + epsilon2");
    PBX_TRY(svt, SparseVector::start(p, bits));
    LargeEntriesRun run;
    for (std::size_t i = 0; i < f.size() && !svt.closed(); ++i) {
        if (f[i] == std::numeric_limits<std::int64_t>::min())
            return makeError(ErrorCode::InvalidArgument, "entries must be above -2^63");
        PBX_TRY(above, svt.query(std::abs(f[i]), threshold, bits));
        if (above)
            run.flagged.push_back(i);
    }
    svt.stop();
    run.answers = svt.answers();
    run.j = svt.positives();
    run.svtCost = svtCellCost(p, run.j);
    if (run.j == 0)
        return run;
    run.releaseScale = releaseScale(ReleaseAnalysis::Odp, p, epsilonRelease, run.j);
    run.releaseEpsilon = math::nudgeUp(run.j * p.sensitivity / run.releaseScale);
    PBX_TRY(noise, laplace(run.releaseScale));
    for (std::size_t i : run.flagged) {
        PBX_TRY(n, noise.sample(bits));
        run.released.push_back(f[i] + n);
    }
    return run;
}

Result<SvtFigureRow> svtFigureRow(int entries, int large, double big, double threshold,
                                  const SvtParameters &p, double epsilonRelease)
{
    PBX_RETURN_IF_ERROR(validate(p));
    if (entries < 1)
        return makeError(ErrorCode::InvalidArgument, "entries must be >= 1");
    if (large < 0 || large > entries)
        return makeError(ErrorCode::InvalidArgument, "large must lie in [0, entries]");
    if (!std::isfinite(big) || !std::isfinite(threshold))
        return makeError(ErrorCode::InvalidArgument, "the large value and the threshold must be finite");
    PBX_RETURN_IF_ERROR(checkPositive(epsilonRelease, "the release budget"));
    const int c = p.cutoff;
    const double bRho = p.sensitivity / p.epsilon1;
    const double bNu = 2.0 * c * p.sensitivity / p.epsilon2;
    auto survival
        = [bNu](double x) { return x >= 0.0 ? 0.5 * std::exp(-x / bNu) : 1.0 - 0.5 * std::exp(x / bNu); };
    const double qBig = std::abs(big);
    // Conditional pmf of min(c, #⊤) given ρ = z: truncated Poisson-binomial, O(N·c).
    auto conditional = [&](double z, std::vector<double> &pmf) {
        std::fill(pmf.begin(), pmf.end(), 0.0);
        pmf[0] = 1.0;
        const double pLarge = survival(threshold + z - qBig);
        const double pSmall = survival(threshold + z);
        for (int i = 0; i < entries; ++i) {
            const double q = i < large ? pLarge : pSmall;
            pmf[c] += pmf[c - 1] * q; // c is absorbing
            for (int k = c - 1; k >= 1; --k)
                pmf[k] = pmf[k] * (1.0 - q) + pmf[k - 1] * q;
            pmf[0] *= 1.0 - q;
        }
    };
    std::vector<double> breaks{0.0, qBig - threshold, -threshold};
    std::sort(breaks.begin(), breaks.end());
    const double tail = 60.0 * bRho;
    breaks.insert(breaks.begin(), breaks.front() - tail);
    breaks.push_back(breaks.back() + tail);
    SvtFigureRow row;
    row.large = large;
    row.pmf.assign(c + 1, 0.0);
    std::vector<double> cond(c + 1);
    integrateComposite(breaks, 128, [&](double z, double w) {
        conditional(z, cond);
        const double weight = w * std::exp(-std::abs(z) / bRho) / (2.0 * bRho);
        for (int k = 0; k <= c; ++k)
            row.pmf[k] += weight * cond[k];
    });
    row.pNothing = row.pmf[0];
    double atLeastOne = 0.0;
    for (int k = 1; k <= c; ++k) {
        row.expectedJ += k * row.pmf[k];
        atLeastOne += row.pmf[k];
        row.filterStd
            += row.pmf[k] * std::sqrt(2.0) * releaseScale(ReleaseAnalysis::Filter, p, epsilonRelease, k);
        row.odpStd += row.pmf[k] * std::sqrt(2.0) * releaseScale(ReleaseAnalysis::Odp, p, epsilonRelease, k);
    }
    if (atLeastOne > 0.0) {
        row.filterStd /= atLeastOne;
        row.odpStd /= atLeastOne;
    }
    row.dpStd = std::sqrt(2.0) * releaseScale(ReleaseAnalysis::Dp, p, epsilonRelease, c);
    row.odpStdIfExact
        = large == 0
              ? std::numeric_limits<double>::quiet_NaN()
              : std::sqrt(2.0) * releaseScale(ReleaseAnalysis::Odp, p, epsilonRelease, std::min(large, c));
    return row;
}

Result<MonteCarloEstimate> svtFigureMonteCarlo(int entries, int large, double big, double threshold,
                                               const SvtParameters &p, double epsilonRelease, int runs,
                                               mechanisms::RandomBits &bits)
{
    PBX_RETURN_IF_ERROR(svtFigureRow(1, 0, big, threshold, p, epsilonRelease));
    if (entries < 1 || large < 0 || large > entries)
        return makeError(ErrorCode::InvalidArgument,
                         "entries and large must satisfy 0 <= large <= entries, entries >= 1");
    if (runs < 2)
        return makeError(ErrorCode::InvalidArgument, "runs must be >= 2");
    const double bRho = p.sensitivity / p.epsilon1;
    const double bNu = 2.0 * p.cutoff * p.sensitivity / p.epsilon2;
    double sum = 0.0;
    double sumSq = 0.0;
    long counted = 0;
    for (int r = 0; r < runs; ++r) {
        const double rho = sampleLaplace(bits, bRho);
        int j = 0;
        for (int i = 0; i < entries && j < p.cutoff; ++i) {
            const double q = i < large ? std::abs(big) : 0.0;
            if (q + sampleLaplace(bits, bNu) >= threshold + rho)
                ++j;
        }
        if (j == 0)
            continue;
        const double stdDev = std::sqrt(2.0) * releaseScale(ReleaseAnalysis::Odp, p, epsilonRelease, j);
        sum += stdDev;
        sumSq += stdDev * stdDev;
        ++counted;
    }
    if (bits.failed())
        return bits.error();
    MonteCarloEstimate e;
    if (counted == 0)
        return e;
    e.mean = sum / static_cast<double>(counted);
    const double var = std::max(0.0, sumSq / static_cast<double>(counted) - e.mean * e.mean);
    e.standardError = std::sqrt(var / static_cast<double>(counted));
    return e;
}

} // namespace pbx::odp
