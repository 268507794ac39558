// SPDX-License-Identifier: MIT
#include "core/accounting/pld_accountant.h"

#include "core/accounting/pld_bracket.h"
#include "core/accounting/pld_mechanisms.h"
#include "core/math/directed_rounding.h"
#include "core/privacy/analytic_gaussian.h"
#include "core/util/parameter_checks.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

namespace pbx::accounting {

namespace {

const char *kMethod = "PLD: connect-the-dots (pessimistic) + FFT composition, truncated tails "
                      "added to δ (Doroshenko et al. 2022; Koskela et al. 2020)";
const char *kExactAtomsMethod = "PLD of finitely many losses composed exactly on its atoms, at any interval "
                                "(Kairouz, Oh & Viswanath 2015; Murtagh & Vadhan 2016)";
const char *kExactGaussianMethod = "PLD of a Gaussian composition in closed form (μ² add; Balle & Wang 2018, "
                                   "Thm 8), used because the grid would be too large";

/// One kind of step, with how many times it occurs.
struct Component
{
    PldPmf pmf[2][2]; ///< [pessimistic?0:1][Remove, Add]
    bool symmetric = true;
    std::int64_t count = 0;
    PldCouplingBudget perStep; ///< how one step's pessimistic PMF was discretised
};

/// Per-step budget of a connect-the-dots PMF: the true loss lies outside the grid with
/// probability ≤ e^{−50} for Gaussian noise (the noise mass beyond each truncation point is
/// ½e^{−50}) and never for Laplace noise (its loss range is exact).
PldCouplingBudget connectTheDotsBudget(double d, NoiseKind kind)
{
    return {connectTheDotsMeanBias(d), math::nudgeUp(d * d, 1), 0.0,
            kind == NoiseKind::Gaussian ? 1.9287498479639315e-22 : 0.0};
}

/// Per-step budget of a PMF of finitely many losses ±ε rounded up to the grid: the largest
/// upward shift, and the few ulps of mass moved from −ε to +ε (≤ 1e-15) as out-of-range mass.
PldCouplingBudget roundedUpBudget(const PldPmf &pmf, double epsilon)
{
    double shift = 0.0;
    for (std::size_t j = 0; j < pmf.probs.size(); ++j) {
        if (!(pmf.probs[j] > 0.0))
            continue;
        const double loss = pmf.lossAt(j);
        // The bin holds the rounded-up image of +ε or −ε (or 0): the nearest one below it.
        double r = loss - epsilon;
        if (r < 0.0 || r > pmf.interval * 1.5)
            r = loss + epsilon;
        if (r < 0.0 || r > pmf.interval * 1.5)
            r = loss;
        shift = std::max(shift, std::fabs(r));
    }
    return {0.0, 0.0, math::nudgeUp(shift * (1.0 + 1e-12) + 1e-300, 2), 1e-15};
}

/// Whether the PLD of `e` is the (ε, δ) worst-case pair of approxDpPerStep (finitely many
/// losses): everything buildComponent does not discretise by connect-the-dots or refuse.
bool isSparseEvent(const PrivacyEvent &e, Neighbouring relation)
{
    const bool sampled = e.sampling.kind != SamplingKind::None && e.sampling.rate < 1.0;
    const bool additive = e.mechanism == MechanismKind::Gaussian || e.mechanism == MechanismKind::Laplace;
    if (sampled && !samplingMatchesRelation(e.sampling, relation))
        return false;
    if (additive && (!sampled || e.sampling.kind == SamplingKind::Poisson))
        return false;
    return e.mechanism != MechanismKind::Gaussian && e.mechanism != MechanismKind::Zcdp;
}

/// The exact composition of the ledger's finitely-many-loss groups (pld_atoms.h), [pessimistic,
/// optimistic]; groups that would exceed the atom limits are left to the grid.
struct SparsePart
{
    std::optional<AtomPld> atoms[2];
    std::size_t firstEvent = 0; ///< a ledger index of one of its events (for messages)
};

Result<Component> buildComponent(const PrivacyEvent &e, Neighbouring relation, double d, bool withOptimistic,
                                 double maxBins)
{
    Component c;
    const bool sampled = e.sampling.kind != SamplingKind::None && e.sampling.rate < 1.0;
    // Poisson sampling under replace-one, Gaussian: the replace pair (PldDirection::Replace) with
    // each record's contribution bounded by C = Δ/2 (Δ the replace-one sensitivity, as for
    // DP-SGD with clipping norm C). Symmetric, so one direction.
    if (sampled && e.sampling.kind == SamplingKind::Poisson && relation == Neighbouring::Replace
        && e.mechanism == MechanismKind::Gaussian) {
        const AdditiveNoiseLoss loss(NoiseKind::Gaussian, e.sigma, 0.5 * e.sensitivity, e.sampling.rate,
                                     PldDirection::Replace);
        if (const double bins = pldGridBins(loss, d); !(bins <= maxBins))
            return makeError(ErrorCode::ResourceLimit, pldResourceMessage(pldPeakBytes(bins), d, maxBins));
        c.pmf[0][0] = connectTheDots(loss, d);
        if (withOptimistic)
            c.pmf[1][0] = privacyBuckets(loss, d);
        c.perStep = connectTheDotsBudget(d, NoiseKind::Gaussian);
        return c;
    }
    if (sampled && !samplingMatchesRelation(e.sampling, relation))
        return makeError(ErrorCode::Unsupported,
                         "the sampling scheme does not match the neighbouring relation "
                         "(Poisson needs add-remove, without-replacement needs replace)");
    const bool additive = e.mechanism == MechanismKind::Gaussian || e.mechanism == MechanismKind::Laplace;
    if (additive && (!sampled || e.sampling.kind == SamplingKind::Poisson)) {
        const NoiseKind kind
            = e.mechanism == MechanismKind::Gaussian ? NoiseKind::Gaussian : NoiseKind::Laplace;
        const double param = kind == NoiseKind::Gaussian ? e.sigma : e.scale;
        const double q = sampled ? e.sampling.rate : 1.0;
        c.symmetric = !sampled;
        for (int dir = 0; dir < (c.symmetric ? 1 : 2); ++dir) {
            const AdditiveNoiseLoss loss(kind, param, e.sensitivity, q,
                                         dir == 0 ? PldDirection::Remove : PldDirection::Add);
            // Estimated before allocating (σ → 0 makes the loss range huge or infinite).
            if (const double bins = pldGridBins(loss, d); !(bins <= maxBins))
                return makeError(ErrorCode::ResourceLimit,
                                 pldResourceMessage(pldPeakBytes(bins), d, maxBins));
            c.pmf[0][dir] = connectTheDots(loss, d);
            if (withOptimistic)
                c.pmf[1][dir] = privacyBuckets(loss, d);
        }
        c.perStep = connectTheDotsBudget(d, kind);
        return c;
    }
    if (e.mechanism == MechanismKind::Gaussian)
        return makeError(ErrorCode::Unsupported,
                         "no PLD is implemented for a Gaussian sampled without replacement");
    if (e.mechanism == MechanismKind::Zcdp)
        return makeError(
            ErrorCode::Unsupported,
            "a ρ-zCDP guarantee does not determine a privacy-loss distribution; use zcdp or rdp");
    auto step = approxDpPerStep(e, relation);
    if (!step)
        return step.error();
    // The PMF spans −ε to +ε on the grid: a huge ε (10⁹) would allocate ~ε/d bins. Refused before
    // allocating, like the additive-noise grids above.
    if (const double bins = approxDpPmfBins(step->epsilon, d); !(bins <= maxBins))
        return makeError(ErrorCode::ResourceLimit, pldResourceMessage(pldPeakBytes(bins), d, maxBins));
    c.pmf[0][0] = approxDpPmf(step->epsilon, step->delta, d, true);
    if (withOptimistic)
        c.pmf[1][0] = approxDpPmf(step->epsilon, step->delta, d, false);
    c.perStep = roundedUpBudget(c.pmf[0][0], step->epsilon);
    return c;
}

} // namespace

Result<std::unique_ptr<PldAccountant>> PldAccountant::fromLedger(const Ledger &ledger,
                                                                 const PldOptions &options)
{
    PBX_RETURN_IF_ERROR(validateLedger(ledger));
    PBX_RETURN_IF_ERROR(
        checkProbability(options.interval, "the PLD discretisation interval", UnitInterval::OpenClosed));
    if (!(options.tailMass > 0.0 && options.tailMass < 1e-3))
        return makeError(ErrorCode::InvalidArgument, "the PLD tail mass must lie in (0, 1e-3)");
    if (!(options.maxBins >= 1.0 && options.maxBins <= kMaxPldBins))
        return makeError(ErrorCode::InvalidArgument, "the PLD bin limit must lie in [1, "
                                                         + std::to_string(static_cast<long long>(kMaxPldBins))
                                                         + "]");
    const double d = options.interval;

    // Merge: unsampled Gaussians exactly (μ² add), identical other events by count.
    double gaussianMuSquared = 0.0;
    std::map<EventShape, std::pair<std::size_t, std::int64_t>> groups; // key → (first event, count)
    for (std::size_t i = 0; i < ledger.events.size(); ++i) {
        const PrivacyEvent &e = ledger.events[i];
        PBX_RETURN_IF_ERROR(requireExAnte(e));
        if (e.mechanism == MechanismKind::PostProcessing)
            continue;
        const bool sampled = e.sampling.kind != SamplingKind::None && e.sampling.rate < 1.0;
        if (e.mechanism == MechanismKind::Gaussian && !sampled) {
            const double mu = e.sensitivity / e.sigma;
            gaussianMuSquared += static_cast<double>(e.count) * mu * mu;
            continue;
        }
        auto [it, inserted] = groups.try_emplace(eventShapeOf(e), i, 0);
        it->second.second += e.count;
    }

    const std::int64_t total = static_cast<std::int64_t>(groups.size()) + (gaussianMuSquared > 0.0 ? 1 : 0);
    std::int64_t done = 0;
    auto tick = [&]() -> bool {
        ++done;
        return !options.progress || options.progress(done, total);
    };

    // The lower bound comes from the coupling of the pessimistic PMF (pld_bracket.h). The
    // optimistic (floor-rounded) PMFs, which drift by up to one interval per step, are built
    // only for ledgers of finitely-many-loss events, whose lattice composition keeps them exact.
    bool anyDense = gaussianMuSquared > 0.0;
    for (const auto &[key, value] : groups) {
        const MechanismKind m = ledger.events[value.first].mechanism;
        anyDense = anyDense || m == MechanismKind::Gaussian || m == MechanismKind::Laplace;
    }
    auto acc = std::make_unique<PldAccountant>();
    acc->m_interval = d;
    acc->m_hasOptimistic = options.optimistic;
    acc->m_hasOptimisticPmf = options.optimistic && !anyDense;
    bool haveTotal = false;
    const int kinds = acc->m_hasOptimisticPmf ? 2 : 1;

    // Directions: while everything is symmetric the Add PMFs equal the Remove ones, so they are
    // only materialised (copied) when the first asymmetric component arrives.
    auto processComponent = [&](Component &c) -> Result<void> {
        if (!c.symmetric && acc->m_symmetric && haveTotal) {
            acc->m_pessimistic[1] = acc->m_pessimistic[0];
            acc->m_optimistic[1] = acc->m_optimistic[0];
        }
        if (!c.symmetric)
            acc->m_symmetric = false;
        for (int k = 0; k < kinds; ++k) {
            for (int dir = 0; dir < (acc->m_symmetric ? 1 : 2); ++dir) {
                const PldPmf &single = c.symmetric ? c.pmf[k][0] : c.pmf[k][dir];
                auto selfComposed = selfComposePmf(single, c.count, options.tailMass, options.maxBins);
                if (!selfComposed)
                    return selfComposed.error();
                PldPmf composed = std::move(selfComposed.value());
                PldPmf *target = k == 0 ? &acc->m_pessimistic[dir] : &acc->m_optimistic[dir];
                if (!haveTotal) {
                    *target = std::move(composed);
                } else {
                    auto merged = composePmf(*target, composed, options.tailMass, options.maxBins);
                    if (!merged)
                        return merged.error();
                    *target = std::move(merged.value());
                }
            }
        }
        haveTotal = true;
        return {};
    };

    if (gaussianMuSquared > 0.0 && groups.empty() && options.gaussianClosedForm) {
        acc->m_exactGaussianMu = std::sqrt(gaussianMuSquared);
        return acc;
    }
    if (gaussianMuSquared > 0.0) {
        Component c;
        c.count = 1;
        const AdditiveNoiseLoss loss(NoiseKind::Gaussian, 1.0 / std::sqrt(gaussianMuSquared), 1.0, 1.0,
                                     PldDirection::Remove);
        if (const double bins = pldGridBins(loss, d); !(bins <= options.maxBins)) {
            // Too fine a grid for the merged Gaussian. Alone it has an exact answer (Balle–Wang
            // 2018, Thm 8): use it. With other events: refuse, naming the first Gaussian.
            if (groups.empty()) {
                acc->m_exactGaussianMu = std::sqrt(gaussianMuSquared);
                return acc;
            }
            std::size_t first = 0;
            while (ledger.events[first].mechanism != MechanismKind::Gaussian
                   || (ledger.events[first].sampling.kind != SamplingKind::None
                       && ledger.events[first].sampling.rate < 1.0))
                ++first;
            return makeError(ErrorCode::ResourceLimit,
                             "events[" + std::to_string(first) + "] (gaussian): "
                                 + pldResourceMessage(pldPeakBytes(bins), d, options.maxBins));
        }
        c.pmf[0][0] = connectTheDots(loss, d);
        if (acc->m_hasOptimisticPmf)
            c.pmf[1][0] = privacyBuckets(loss, d);
        PBX_RETURN_IF_ERROR(processComponent(c));
        acc->m_budget += connectTheDotsBudget(d, NoiseKind::Gaussian);
        if (groups.empty())
            acc->m_gaussianOnlyMu = std::sqrt(gaussianMuSquared);
        if (!tick())
            return makeError(ErrorCode::Cancelled, "PLD accounting was cancelled");
    }
    // Finitely-many-loss groups: composed exactly on their atoms while the support stays within
    // the limits of pld_atoms.h; a group beyond them is rounded to the grid once, by itself.
    SparsePart sparse;
    auto where = [&](std::size_t i) {
        return "events[" + std::to_string(i) + "] (" + mechanismName(ledger.events[i].mechanism) + "): ";
    };
    auto atomsOnGrid = [&](const AtomPld &pess, const AtomPld &opt, std::size_t event) -> Result<void> {
        if (const double bins = atomGridBins(pess, d); !(bins <= options.maxBins))
            return makeError(ErrorCode::ResourceLimit,
                             where(event) + pldResourceMessage(pldPeakBytes(bins), d, options.maxBins));
        Component c;
        c.count = 1;
        double shift = 0.0;
        c.pmf[0][0] = atomsToGrid(pess, d, &shift);
        if (acc->m_hasOptimisticPmf)
            c.pmf[1][0] = atomsToGrid(opt, d, nullptr);
        if (auto ok = processComponent(c); !ok)
            return makeError(ok.error().code, where(event) + ok.error().message);
        acc->m_budget += PldCouplingBudget{0.0, 0.0, shift, 0.0};
        return {};
    };
    bool atomsFull = false; // a composition exceeded the atom limits: later groups go to the grid
    auto addSparse = [&](AtomPld(&group)[2], std::size_t event) -> Result<void> {
        if (atomsFull)
            return atomsOnGrid(group[0], group[1], event);
        if (!sparse.atoms[0]) {
            sparse.atoms[0] = std::move(group[0]);
            sparse.atoms[1] = std::move(group[1]);
            sparse.firstEvent = event;
            return {};
        }
        auto pess = composeAtoms(*sparse.atoms[0], group[0]);
        auto opt = pess ? composeAtoms(*sparse.atoms[1], group[1]) : std::nullopt;
        if (!pess || !opt) {
            atomsFull = true;
            return atomsOnGrid(group[0], group[1], event);
        }
        sparse.atoms[0] = std::move(pess);
        sparse.atoms[1] = std::move(opt);
        return {};
    };
    for (const auto &[key, value] : groups) {
        const PrivacyEvent &e = ledger.events[value.first];
        if (isSparseEvent(e, ledger.neighbours)) {
            auto step = approxDpPerStep(e, ledger.neighbours);
            if (!step)
                return makeError(step.error().code, where(value.first) + step.error().message);
            auto pess = approxDpAtoms(step->epsilon, step->delta, value.second, true);
            auto opt = approxDpAtoms(step->epsilon, step->delta, value.second, false);
            if (pess && opt) {
                AtomPld group[2] = {std::move(*pess), std::move(*opt)};
                PBX_RETURN_IF_ERROR(addSparse(group, value.first));
                if (!tick())
                    return makeError(ErrorCode::Cancelled, "PLD accounting was cancelled");
                continue;
            }
        }
        auto c = buildComponent(e, ledger.neighbours, d, acc->m_hasOptimisticPmf, options.maxBins);
        if (!c)
            return makeError(c.error().code, "events[" + std::to_string(value.first) + "] ("
                                                 + mechanismName(e.mechanism) + "): " + c.error().message);
        c->count = value.second;
        if (auto ok = processComponent(c.value()); !ok)
            return makeError(ok.error().code, "events[" + std::to_string(value.first) + "] ("
                                                  + mechanismName(e.mechanism) + "): " + ok.error().message);
        acc->m_budget += c->perStep.times(static_cast<double>(c->count));
        if (!tick())
            return makeError(ErrorCode::Cancelled, "PLD accounting was cancelled");
    }
    if (sparse.atoms[0]) {
        if (!haveTotal) { // finitely many losses only: answered from the atoms, at any interval
            acc->m_exactAtoms = true;
            acc->m_atoms[0] = std::move(*sparse.atoms[0]);
            acc->m_atoms[1] = std::move(*sparse.atoms[1]);
            return acc;
        }
        // With noise events: rounded up to the grid once and convolved with the rest.
        PBX_RETURN_IF_ERROR(atomsOnGrid(*sparse.atoms[0], *sparse.atoms[1], sparse.firstEvent));
    }
    if (!haveTotal) { // nothing but post-processing: the identity PLD
        for (auto &pmf : acc->m_pessimistic) {
            pmf = PldPmf{d, 0, {1.0}, 0.0, true, 0.0};
        }
        for (auto &pmf : acc->m_optimistic) {
            pmf = PldPmf{d, 0, {1.0}, 0.0, false, 0.0};
        }
    }
    return acc;
}

const PldLowerBound &PldAccountant::lowerBound(int dir) const
{
    std::call_once(m_lowerOnce[dir],
                   [&] { m_lower[dir] = std::make_unique<PldLowerBound>(m_pessimistic[dir], m_budget); });
    return *m_lower[dir];
}

Result<StrategyAnswer> PldAccountant::epsilonForDelta(double delta) const
{
    PBX_RETURN_IF_ERROR(checkDelta(delta));
    StrategyAnswer a;
    a.method = kMethod;
    a.delta = delta;
    a.discretisationInterval = m_interval;
    if (m_exactGaussianMu) {
        a.method = kExactGaussianMethod;
        a.discretisationInterval.reset();
        if (!std::isfinite(*m_exactGaussianMu)) {
            a.epsilon = std::numeric_limits<double>::infinity();
        } else {
            auto eps = privacy::gaussianEpsilon(*m_exactGaussianMu, delta);
            if (!eps)
                return eps.error();
            // Bisection's upper end; μ itself carries a few ulps (μ² summed, square root): 1e-13.
            a.epsilon = math::nudgeUp(eps.value() * (1.0 + 1e-13), 2);
        }
        if (m_hasOptimistic) // the bisection's bracket (1e-14 relative) and μ's ulps, the other way
            a.optimisticEpsilon = std::max(0.0, math::nudgeDown(a.epsilon * (1.0 - 3e-13), 2));
        return a;
    }
    if (m_exactAtoms) {
        a.method = kExactAtomsMethod;
        a.epsilon = atomEpsilonForDelta(m_atoms[0], delta);
        if (m_hasOptimistic)
            a.optimisticEpsilon = std::min(atomEpsilonForDelta(m_atoms[1], delta), a.epsilon);
        return a;
    }
    a.epsilon = pmfEpsilonForDelta(m_pessimistic[0], delta);
    if (!m_symmetric)
        a.epsilon = std::max(a.epsilon, pmfEpsilonForDelta(m_pessimistic[1], delta));
    if (m_hasOptimistic) {
        // The larger of two lower bounds: the coupling bound of the pessimistic PMFs and, where
        // built, the optimistic PMFs'. The true ε(δ) is the max over the directions.
        double lower = 0.0;
        for (int dir = 0; dir < (m_symmetric ? 1 : 2); ++dir) {
            const double upper = m_symmetric ? a.epsilon : pmfEpsilonForDelta(m_pessimistic[dir], delta);
            lower = std::max(lower, lowerBound(dir).epsilon(delta, upper));
            if (m_hasOptimisticPmf)
                lower = std::max(lower, pmfEpsilonForDelta(m_optimistic[dir], delta));
        }
        if (m_gaussianOnlyMu) {
            if (auto exact = privacy::gaussianEpsilon(*m_gaussianOnlyMu, delta);
                exact) // bisection: 1e-14 relative
                lower = std::max(lower, math::nudgeDown(exact.value() * (1.0 - 1e-13), 2));
        }
        a.optimisticEpsilon = std::min(lower, a.epsilon);
    }
    return a;
}

Result<StrategyAnswer> PldAccountant::deltaForEpsilon(double epsilon) const
{
    PBX_RETURN_IF_ERROR(checkEpsilon(epsilon));
    StrategyAnswer a;
    a.method = kMethod;
    a.epsilon = epsilon;
    a.discretisationInterval = m_interval;
    if (m_exactGaussianMu) {
        a.method = kExactGaussianMethod;
        a.discretisationInterval.reset();
        const double exact
            = std::isfinite(*m_exactGaussianMu) ? privacy::gaussianDelta(*m_exactGaussianMu, epsilon) : 1.0;
        a.delta = std::min(1.0, math::nudgeUp(exact * (1.0 + 1e-12), 2));
        if (m_hasOptimistic)
            a.optimisticDelta = std::max(0.0, math::nudgeDown(exact * (1.0 - 1e-12), 2));
        return a;
    }
    if (m_exactAtoms) {
        a.method = kExactAtomsMethod;
        a.delta = atomDeltaForEpsilon(m_atoms[0], epsilon);
        if (m_hasOptimistic)
            a.optimisticDelta = std::min(atomDeltaForEpsilon(m_atoms[1], epsilon), a.delta);
        return a;
    }
    a.delta = pmfDeltaForEpsilon(m_pessimistic[0], epsilon);
    if (!m_symmetric)
        a.delta = std::max(a.delta, pmfDeltaForEpsilon(m_pessimistic[1], epsilon));
    if (m_hasOptimistic) {
        double lower = 0.0;
        for (int dir = 0; dir < (m_symmetric ? 1 : 2); ++dir) {
            lower = std::max(lower, lowerBound(dir).delta(epsilon));
            if (m_hasOptimisticPmf)
                lower = std::max(lower, pmfDeltaForEpsilon(m_optimistic[dir], epsilon));
        }
        if (m_gaussianOnlyMu)
            lower = std::max(
                lower,
                math::nudgeDown(privacy::gaussianDelta(*m_gaussianOnlyMu, epsilon) * (1.0 - 1e-12), 2));
        a.optimisticDelta = std::min(lower, a.delta);
    }
    return a;
}

} // namespace pbx::accounting
