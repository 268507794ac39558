// SPDX-License-Identifier: MIT
#include "core/accounting/pld_atoms.h"

#include "core/accounting/pld_mechanisms.h"
#include "core/math/directed_rounding.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace pbx::accounting {

namespace {

constexpr double kUnitRoundoff = 0x1p-53;
/// Mass truncated per composition (half from each end), as selfComposePmf's sparse route.
constexpr double kAtomTailMass = 1e-40;
/// Atoms whose losses differ by at most this (relative to max(1, |ℓ|)) are merged: sums of the
/// same lattice point taken in different orders differ by a few ulps.
constexpr double kMergeTolerance = 1e-12;

/// γ_n = n·u/(1 − n·u) (Higham 2002, §3.1).
double gammaBound(double n)
{
    const double nu = n * kUnitRoundoff;
    return nu / (1.0 - nu);
}

/// Truncates tails of total mass ≤ τ/2 each, outwards (see composeAtoms).
void truncateAtomTails(AtomPld &pld)
{
    const std::size_t n = pld.mass.size();
    const double half = 0.5 * kAtomTailMass;
    std::size_t first = 0;
    double prefix = 0.0;
    while (first + 1 < n && prefix + pld.mass[first] <= half)
        prefix += pld.mass[first++];
    std::size_t last = n;
    double suffix = 0.0;
    while (last > first + 1 && suffix + pld.mass[last - 1] <= half)
        suffix += pld.mass[--last];
    if (first == 0 && last == n)
        return;
    std::vector<double> loss(pld.loss.begin() + static_cast<std::ptrdiff_t>(first),
                             pld.loss.begin() + static_cast<std::ptrdiff_t>(last));
    std::vector<double> mass(pld.mass.begin() + static_cast<std::ptrdiff_t>(first),
                             pld.mass.begin() + static_cast<std::ptrdiff_t>(last));
    if (pld.pessimistic) { // the lower tail moves up to the first kept loss, the upper one to +∞
        mass.front() = math::nudgeUp(mass.front() + prefix, 1);
        pld.infinityMass = std::min(1.0, math::nudgeUp(pld.infinityMass + suffix, 1));
        pld.errorL1 = math::nudgeUp(pld.errorL1 + 2.0 * (prefix + suffix), 2);
    } else { // the lower tail is dropped, the upper one moves down to the last kept loss
        mass.back() = math::nudgeDown(mass.back() + suffix, 1);
    }
    pld.loss = std::move(loss);
    pld.mass = std::move(mass);
}

/// Divides every mass by 1 − E (pessimistic: each is then ≥ its exact value) or 1 + E.
void widenMasses(AtomPld &pld, double relError)
{
    const double factor = pld.pessimistic ? math::nudgeUp(1.0 / (1.0 - relError), 2)
                                          : math::nudgeDown(1.0 / (1.0 + relError), 2);
    for (double &m : pld.mass)
        m = pld.pessimistic ? math::nudgeUp(m * factor, 1) : std::max(0.0, math::nudgeDown(m * factor, 1));
}

} // namespace

std::optional<AtomPld> approxDpAtoms(double epsilon, double delta, std::int64_t k, bool pessimistic)
{
    // On the lattice {j·ε}: ±ε are the indices ±1 exactly (x/x = 1 in floating point).
    const double unit = epsilon > 0.0 ? epsilon : 1.0;
    const PldPmf single = approxDpPmf(epsilon, delta, unit, pessimistic);
    if (k > 1 && !sparseSelfComposition(single, k))
        return std::nullopt;
    auto lattice = selfComposePmf(single, k, 1e-15, kMaxPldBins);
    if (!lattice)
        return std::nullopt;
    AtomPld out;
    out.pessimistic = pessimistic;
    out.infinityMass = lattice->infinityMass;
    out.errorL1 = lattice->errorL1;
    double largest = 0.0;
    for (std::size_t j = 0; j < lattice->probs.size(); ++j) {
        const double m = lattice->probs[j];
        if (!(m > 0.0))
            continue;
        const std::int64_t index = lattice->lowerIndex + static_cast<std::int64_t>(j);
        double loss = static_cast<double>(index) * unit; // within half an ulp of index·ε
        if (index < -1 || index > 1)
            loss = pessimistic ? math::nudgeUp(loss, 1) : math::nudgeDown(loss, 1);
        largest = std::max(largest, std::fabs(loss));
        out.loss.push_back(loss);
        out.mass.push_back(m);
    }
    out.lossShift = math::nudgeUp(largest * 4.0 * kUnitRoundoff, 1);
    return out;
}

std::optional<AtomPld> composeAtoms(const AtomPld &a, const AtomPld &b)
{
    if (static_cast<double>(a.loss.size()) * static_cast<double>(b.loss.size()) > kMaxAtomProducts)
        return std::nullopt;
    const bool pess = a.pessimistic;
    // Rows: the shorter PLD's atoms, each plus all of the longer one's (a sorted run, since the
    // outward rounding below is monotone); the runs are then merged pairwise, O(N log rows).
    const AtomPld &rows = a.loss.size() <= b.loss.size() ? a : b;
    const AtomPld &cols = &rows == &a ? b : a;
    std::vector<std::pair<double, double>> pairs;
    pairs.reserve(rows.loss.size() * cols.loss.size());
    std::vector<std::size_t> runStart;
    double largest = 0.0;
    for (std::size_t i = 0; i < rows.loss.size(); ++i) {
        runStart.push_back(pairs.size());
        for (std::size_t j = 0; j < cols.loss.size(); ++j) {
            // fl(x + y) is within |s|·2⁻⁵³ of the exact sum s; moving it by |·|·2⁻⁵¹ more
            // (rounded to nearest) lands on the right side of s.
            const double sum = rows.loss[i] + cols.loss[j];
            const double loss = pess ? sum + std::fabs(sum) * 0x1p-51 : sum - std::fabs(sum) * 0x1p-51;
            pairs.emplace_back(loss, rows.mass[i] * cols.mass[j]);
            largest = std::max(largest, std::fabs(sum));
        }
    }
    runStart.push_back(pairs.size());
    for (std::size_t width = 1; width + 1 < runStart.size(); width *= 2)
        for (std::size_t r = 0; r + width + 1 < runStart.size(); r += 2 * width) {
            const auto first = pairs.begin() + static_cast<std::ptrdiff_t>(runStart[r]);
            const auto middle = pairs.begin() + static_cast<std::ptrdiff_t>(runStart[r + width]);
            const auto last
                = pairs.begin()
                  + static_cast<std::ptrdiff_t>(runStart[std::min(r + 2 * width, runStart.size() - 1)]);
            std::inplace_merge(first, middle, last,
                               [](const auto &x, const auto &y) { return x.first < y.first; });
        }
    AtomPld out;
    out.pessimistic = pess;
    std::size_t longestRun = 1;
    for (std::size_t s = 0; s < pairs.size();) {
        const double tolerance = kMergeTolerance * std::max(1.0, std::fabs(pairs[s].first));
        std::size_t e = s;
        long double mass = 0.0L;
        while (e < pairs.size() && pairs[e].first - pairs[s].first <= tolerance)
            mass += pairs[e++].second;
        longestRun = std::max(longestRun, e - s);
        // Pessimistic: the run's mass at its largest loss; optimistic: at its smallest.
        out.loss.push_back(pess ? pairs[e - 1].first : pairs[s].first);
        out.mass.push_back(static_cast<double>(mass));
        s = e;
    }
    // One product, a sum of the run, and the rounding of the long double sum to double.
    const double relError = gammaBound(static_cast<double>(longestRun) + 2.0);
    widenMasses(out, relError);
    const double inf = a.infinityMass + b.infinityMass - a.infinityMass * b.infinityMass;
    out.infinityMass = pess ? std::min(1.0, math::nudgeUp(inf, 4)) : std::max(0.0, math::nudgeDown(inf, 4));
    if (pess) // ‖â ⊛ b̂ − a ⊛ b‖₁ ≤ ‖â − a‖₁‖b̂‖₁ + ‖a‖₁‖b̂ − b‖₁; each mass within 2.01E after widening
        out.errorL1 = math::nudgeUp((a.errorL1 + b.errorL1) * 1.01 + 2.01 * relError * 1.01, 2);
    out.lossShift = math::nudgeUp(a.lossShift + b.lossShift + kMergeTolerance * std::max(1.0, largest) * 1.01
                                      + 6.0 * kUnitRoundoff * largest,
                                  2);
    truncateAtomTails(out);
    if (out.loss.size() > kMaxExactAtoms)
        return std::nullopt;
    return out;
}

double atomDeltaForEpsilon(const AtomPld &pld, double epsilon)
{
    long double sum = pld.infinityMass;
    for (std::size_t j = pld.loss.size(); j-- > 0;) {
        if (pld.loss[j] <= epsilon)
            break;
        sum += static_cast<long double>(pld.mass[j])
               * static_cast<long double>(-std::expm1(epsilon - pld.loss[j]));
    }
    double delta = static_cast<double>(sum);
    if (pld.pessimistic && delta > 0.0)
        delta = math::nudgeUp(delta * (1.0 + 1e-12), 2);
    else if (!pld.pessimistic)
        delta = math::nudgeDown(delta * (1.0 - 1e-12), 2);
    return std::clamp(delta, 0.0, 1.0);
}

double atomEpsilonForDelta(const AtomPld &pld, double delta)
{
    if (pld.infinityMass > delta)
        return std::numeric_limits<double>::infinity();
    // Sweep the atoms downward. Between consecutive atoms δ(ε) = U − e^ε·W, W = Σ_{above} m_i e^{−ℓ_i},
    // kept as e^{−ref}·S with ref the lowest loss so far (S's terms ≤ their masses: no overflow).
    long double u = pld.infinityMass;
    long double s = 0.0L;
    double ref = 0.0;
    double above = std::numeric_limits<double>::infinity();
    const long double target = delta;
    auto solve = [&](double lowerEnd, double *answer) {
        if (u - target <= 0.0L)
            return false;
        const double candidate
            = s == 0.0L ? above : static_cast<double>(std::log(u - target) - std::log(s) + ref);
        if (candidate < lowerEnd)
            return false;
        *answer = std::min(candidate, above);
        return true;
    };
    double answer = 0.0;
    bool found = false;
    for (std::size_t j = pld.loss.size(); j-- > 0;) {
        const double loss = pld.loss[j];
        found = solve(loss, &answer);
        if (found)
            break;
        u += pld.mass[j];
        s = s == 0.0L ? static_cast<long double>(pld.mass[j])
                      : s * std::exp(static_cast<long double>(loss) - ref) + pld.mass[j];
        ref = loss;
        above = loss;
    }
    if (!found && !solve(-std::numeric_limits<double>::infinity(), &answer))
        answer = 0.0;
    if (!(answer > 0.0))
        return 0.0;
    return pld.pessimistic ? math::nudgeUp(answer + 1e-12 * std::fabs(answer), 2)
                           : std::max(0.0, math::nudgeDown(answer - 1e-12 * std::fabs(answer), 2));
}

PldPmf atomsToGrid(const AtomPld &pld, double interval, double *shift)
{
    std::vector<std::pair<double, double>> lossMasses;
    lossMasses.reserve(pld.loss.size());
    for (std::size_t j = 0; j < pld.loss.size(); ++j)
        lossMasses.emplace_back(pld.loss[j], pld.mass[j]);
    PldPmf pmf = discretePmf(lossMasses, pld.infinityMass, interval, pld.pessimistic);
    pmf.errorL1 = pld.pessimistic ? pld.errorL1 : 0.0;
    if (shift)
        *shift = math::nudgeUp(interval + pld.lossShift, 2);
    return pmf;
}

double atomGridBins(const AtomPld &pld, double interval)
{
    if (pld.loss.empty())
        return 1.0;
    return (pld.loss.back() - pld.loss.front()) / interval + 2.0;
}

} // namespace pbx::accounting
