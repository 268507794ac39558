// SPDX-License-Identifier: MIT
#include "core/odp/ptr_iqr.h"

#include "core/math/directed_rounding.h"
#include "core/util/parameter_checks.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>

namespace pbx::odp {

Result<double> ptrThreshold(double epsilon, double failureProbability, int goodFrom)
{
    PBX_RETURN_IF_ERROR(checkEpsilon(epsilon, "epsilon", Zero::Excluded));
    if (!(failureProbability > 0.0 && failureProbability < 0.5))
        return makeError(ErrorCode::InvalidArgument, "delta-f must lie in (0, 1/2)");
    if (goodFrom < 1)
        return makeError(ErrorCode::InvalidArgument, "g0 must be >= 1");
    return goodFrom - 1 + std::log(1.0 / (2.0 * failureProbability)) / epsilon;
}

double ptrFailureProbability(double epsilon, double threshold, int goodFrom)
{
    return math::nudgeUp(0.5 * std::exp(-epsilon * (threshold - goodFrom + 1)));
}

double ptrPassProbability(double gamma, double epsilon, double threshold)
{
    if (gamma >= threshold)
        return 1.0 - 0.5 * std::exp(-epsilon * (gamma - threshold));
    return 0.5 * std::exp(-epsilon * (threshold - gamma));
}

Result<IqrData> IqrData::create(std::vector<double> values, double lo, double hi)
{
    if (!std::isfinite(lo) || !std::isfinite(hi) || !(lo < hi))
        return makeError(ErrorCode::InvalidArgument, "bounds: lo < hi, both finite, are required");
    if (values.size() < 4)
        return makeError(ErrorCode::InvalidArgument, "n: the IQR mechanism needs at least 4 records");
    for (double &v : values) {
        if (std::isnan(v))
            return makeError(ErrorCode::InvalidArgument, "values: NaN is not a number to clip");
        v = std::clamp(v, lo, hi);
    }
    std::sort(values.begin(), values.end());
    return IqrData{std::move(values), lo, hi};
}

std::size_t IqrData::rank1() const
{
    return (sorted.size() + 3) / 4;
}

std::size_t IqrData::rank3() const
{
    return (3 * sorted.size() + 3) / 4;
}

double IqrData::order(long long i) const
{
    if (i < 1)
        return lo;
    if (i > static_cast<long long>(sorted.size()))
        return hi;
    return sorted[static_cast<std::size_t>(i - 1)];
}

double IqrData::iqr() const
{
    return order(static_cast<long long>(rank3())) - order(static_cast<long long>(rank1()));
}

double IqrData::iqrMax(long long k) const
{
    const auto r1 = static_cast<long long>(rank1());
    const auto r3 = static_cast<long long>(rank3());
    double best = -HUGE_VAL;
    for (long long t = 0; t <= k; ++t)
        best = std::max(best, order(r3 + t) - order(r1 - k + t));
    return best;
}

double IqrData::iqrMin(long long k) const
{
    const auto r1 = static_cast<long long>(rank1());
    const auto r3 = static_cast<long long>(rank3());
    double best = HUGE_VAL;
    for (long long t = 0; t <= k; ++t)
        best = std::min(best, order(r3 - t) - order(r1 + k - t));
    return std::max(0.0, best);
}

double defaultBinWidth(std::size_t n)
{
    return std::log1p(1.0 / std::log(static_cast<double>(n)));
}

std::optional<long long> iqrBin(double value, double width, double offset)
{
    if (!(value > 0.0))
        return std::nullopt;
    return static_cast<long long>(std::floor((std::log(value) - offset * width) / width));
}

Result<long long> iqrGamma(const IqrData &data, double width, double offset)
{
    PBX_RETURN_IF_ERROR(checkPositive(width, "w (the bin width)"));
    PBX_RETURN_IF_ERROR(checkProbability(offset, "offset", UnitInterval::ClosedOpen));
    const auto bin = iqrBin(data.iqr(), width, offset);
    auto leaves = [&](long long k) {
        return iqrBin(data.iqrMax(k), width, offset) != bin || iqrBin(data.iqrMin(k), width, offset) != bin;
    };
    // Monotone in k; leaves(n) holds (the extremes are hi − lo and 0).
    long long low = 1;
    long long high = static_cast<long long>(data.size());
    while (low < high) {
        const long long mid = low + (high - low) / 2;
        if (leaves(mid))
            high = mid;
        else
            low = mid + 1;
    }
    return low;
}

PtrCaseCosts ptrCaseCosts(PtrAccounting accounting, IqrReleaseMode mode, double epsilon,
                          double failureProbability)
{
    const double eR = mode == IqrReleaseMode::Noisy ? epsilon : 0.0;
    const double one = math::addRoundUp(epsilon, eR);  // ε + ε_R
    const double two = math::addRoundUp(epsilon, one); // 2ε + ε_R
    const double bottom = math::addRoundUp(epsilon, epsilon);
    const double twoDeltas = math::addRoundUp(failureProbability, failureProbability);
    // δ_S = 1 − (1 − δ_f)², rounded up.
    const double deltaS = math::nudgeUp(-std::expm1(2.0 * std::log1p(-failureProbability)));
    PtrCaseCosts c;
    switch (accounting) {
    case PtrAccounting::Dp:
        c = PtrCaseCosts{{two, two, two}, {deltaS, deltaS, deltaS}, two, deltaS};
        break;
    case PtrAccounting::Lemma10:
        c = PtrCaseCosts{{two, two, bottom}, {deltaS, deltaS, deltaS}, two, deltaS};
        break;
    case PtrAccounting::Cells3:
        c = PtrCaseCosts{{one, two, bottom}, {twoDeltas, twoDeltas, twoDeltas}, two, twoDeltas};
        break;
    case PtrAccounting::Entries:
        c = PtrCaseCosts{{one, two, bottom}, {failureProbability, twoDeltas, twoDeltas}, two, twoDeltas};
        break;
    }
    return c;
}

Result<OdpGuarantee> ptrGuarantee(IqrReleaseMode mode, double epsilon, double failureProbability)
{
    PBX_RETURN_IF_ERROR(checkEpsilon(epsilon, "epsilon", Zero::Excluded));
    if (!(failureProbability > 0.0 && failureProbability < 0.5))
        return makeError(ErrorCode::InvalidArgument, "delta-f must lie in (0, 1/2)");
    const double eR = mode == IqrReleaseMode::Noisy ? epsilon : 0.0;
    return OdpGuarantee{{OdpCell{0, "⊥", epsilon}, OdpCell{1, "released", math::addRoundUp(epsilon, eR)}},
                        failureProbability};
}

double sampleLaplace(mechanisms::RandomBits &bits, double scale)
{
    // u uniform in (−½, ½), never exactly ±½ or 0 issues: (k + ½)/2^53 − ½.
    const double u = (static_cast<double>(bits.nextU64() >> 11) + 0.5) / 9007199254740992.0 - 0.5;
    return u < 0.0 ? scale * std::log1p(2.0 * u) : -scale * std::log1p(-2.0 * u);
}

Result<PtrIqrRun> runPtrIqr(const IqrData &data, const PtrIqrParameters &p, mechanisms::RandomBits &bits)
{
    PtrIqrRun run;
    run.width = p.width == 0.0 ? defaultBinWidth(data.size()) : p.width;
    PBX_RETURN_IF_ERROR(checkPositive(run.width, "w (the bin width)"));
    PBX_TRY(t, ptrThreshold(p.epsilon, p.failureProbability, 2));
    run.threshold = t;
    run.failureProbability = ptrFailureProbability(p.epsilon, run.threshold, 2);
    if (p.randomOrder) {
        PBX_TRY(coin, bits.bernoulliRational(1, 2));
        if (coin)
            std::swap(run.offsets[0], run.offsets[1]);
    }
    for (int m = 0; m < 2; ++m) {
        PBX_TRY(gamma, iqrGamma(data, run.width, run.offsets[m]));
        run.gamma[m] = gamma;
    }
    for (int m = 0; m < 2; ++m) {
        const double noisy = static_cast<double>(run.gamma[m]) + sampleLaplace(bits, 1.0 / p.epsilon);
        if (bits.failed())
            return bits.error();
        if (!(noisy > run.threshold))
            continue;
        run.outcome = m + 1;
        const double iqr = data.iqr();
        if (iqr <= 0.0) {
            run.released = 0.0;
        } else if (p.mode == IqrReleaseMode::Noisy) {
            run.released = iqr * std::exp(sampleLaplace(bits, run.width / p.epsilon));
        } else {
            const long long j = *iqrBin(iqr, run.width, run.offsets[m]);
            run.released = std::exp((static_cast<double>(j) + run.offsets[m] + 0.5) * run.width);
        }
        return run;
    }
    run.outcome = 3;
    return run;
}

} // namespace pbx::odp
