// SPDX-License-Identifier: MIT
#include "core/accounting/pld_accountant.h"

#include "core/accounting/pld_bracket.h"
#include "core/accounting/pld_composed.h"
#include "core/accounting/pld_mechanisms.h"
#include "core/math/directed_rounding.h"
#include "core/privacy/analytic_gaussian.h"
#include "core/util/parameter_checks.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <cstring>
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
    PBX_TRY(step, approxDpPerStep(e, relation));
    // The PMF spans −ε to +ε on the grid: a huge ε (10⁹) would allocate ~ε/d bins. Refused before
    // allocating, like the additive-noise grids above.
    if (const double bins = approxDpPmfBins(step.epsilon, d); !(bins <= maxBins))
        return makeError(ErrorCode::ResourceLimit, pldResourceMessage(pldPeakBytes(bins), d, maxBins));
    c.pmf[0][0] = approxDpPmf(step.epsilon, step.delta, d, true);
    if (withOptimistic)
        c.pmf[1][0] = approxDpPmf(step.epsilon, step.delta, d, false);
    c.perStep = roundedUpBudget(c.pmf[0][0], step.epsilon);
    return c;
}

Result<void> checkPldOptions(const PldOptions &options)
{
    PBX_RETURN_IF_ERROR(
        checkProbability(options.interval, "the PLD discretisation interval", UnitInterval::OpenClosed));
    if (!(options.tailMass > 0.0 && options.tailMass < 1e-3))
        return makeError(ErrorCode::InvalidArgument, "the PLD tail mass must lie in (0, 1e-3)");
    if (!(options.maxBins >= 1.0 && options.maxBins <= kMaxPldBins))
        return makeError(ErrorCode::InvalidArgument, "the PLD bin limit must lie in [1, "
                                                         + std::to_string(static_cast<long long>(kMaxPldBins))
                                                         + "]");
    return {};
}

/// A ledger's events merged for composition: unsampled Gaussians exactly (their μ² add), other
/// identical events by count.
struct MergedLedger
{
    double gaussianMuSquared = 0.0;
    std::map<EventShape, std::pair<std::size_t, std::int64_t>> groups; ///< key → (first event, count)
    bool anyDense = false; ///< some group (or the merged Gaussian) is a noise distribution
};

Result<MergedLedger> mergeLedger(const Ledger &ledger)
{
    MergedLedger merged;
    for (std::size_t i = 0; i < ledger.events.size(); ++i) {
        const PrivacyEvent &e = ledger.events[i];
        PBX_RETURN_IF_ERROR(requireExAnte(e));
        if (e.mechanism == MechanismKind::PostProcessing)
            continue;
        const bool sampled = e.sampling.kind != SamplingKind::None && e.sampling.rate < 1.0;
        if (e.mechanism == MechanismKind::Gaussian && !sampled) {
            const double mu = e.sensitivity / e.sigma;
            merged.gaussianMuSquared += static_cast<double>(e.count) * mu * mu;
            continue;
        }
        auto [it, inserted] = merged.groups.try_emplace(eventShapeOf(e), i, 0);
        it->second.second += e.count;
    }
    merged.anyDense = merged.gaussianMuSquared > 0.0;
    for (const auto &[key, value] : merged.groups) {
        const MechanismKind m = ledger.events[value.first].mechanism;
        merged.anyDense = merged.anyDense || m == MechanismKind::Gaussian || m == MechanismKind::Laplace;
    }
    return merged;
}

} // namespace

/// Builds a PldAccountant one component at a time (PldAccountant::fromLedger): the merged
/// Gaussian, then each group, either composed exactly on its atoms (pld_atoms.h) or on the grid.
class PldAccountantBuilder
{
public:
    PldAccountantBuilder(const Ledger &ledger, const PldOptions &options, const MergedLedger &merged)
        : m_ledger(ledger), m_options(options), m_merged(merged), m_acc(std::make_unique<PldAccountant>())
    {
        // The lower bound comes from the coupling of the pessimistic PMF (pld_bracket.h). The
        // optimistic (floor-rounded) PMFs, which drift by up to one interval per step, are built
        // only for ledgers of finitely-many-loss events, whose lattice composition keeps them exact.
        m_acc->m_interval = options.interval;
        m_acc->m_hasOptimistic = options.optimistic;
        m_acc->m_hasOptimisticPmf = options.optimistic && !merged.anyDense;
        m_total = static_cast<std::int64_t>(merged.groups.size()) + (merged.gaussianMuSquared > 0.0 ? 1 : 0);
    }

    /// The accountant answering in closed form at the merged Gaussian's μ (Balle & Wang 2018, Thm 8).
    std::unique_ptr<PldAccountant> closedFormGaussian()
    {
        m_acc->m_exactGaussianMu = std::sqrt(m_merged.gaussianMuSquared);
        return std::move(m_acc);
    }

    /// Composes the merged unsampled Gaussian. Returns true, composing nothing, when its grid is
    /// too fine and the ledger holds nothing else: then closedFormGaussian() answers.
    Result<bool> addMergedGaussian();
    /// Composes one group of identical events: `first` is its first ledger index.
    Result<void> addGroup(std::size_t first, std::int64_t count);
    /// The accountant, once every group is added.
    Result<std::unique_ptr<PldAccountant>> finish();

private:
    Result<void> compose(Component &c);
    Result<void> atomsOnGrid(const AtomPld &pess, const AtomPld &opt, std::size_t event);
    Result<void> addSparse(AtomPld (&group)[2], std::size_t event);
    Result<void> tick()
    {
        ++m_done;
        if (m_options.progress && !m_options.progress(m_done, m_total))
            return makeError(ErrorCode::Cancelled, "PLD accounting was cancelled");
        return {};
    }
    std::string where(std::size_t i) const
    {
        return "events[" + std::to_string(i) + "] (" + mechanismName(m_ledger.events[i].mechanism) + "): ";
    }

    const Ledger &m_ledger;
    const PldOptions &m_options;
    const MergedLedger &m_merged;
    std::unique_ptr<PldAccountant> m_acc;
    bool m_haveTotal = false;
    std::int64_t m_total = 0, m_done = 0;
    SparsePart m_sparse;
    bool m_atomsFull = false; ///< a composition exceeded the atom limits: later groups go to the grid
};

namespace {
bool sameBits(double a, double b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

bool samePmf(const PldPmf &a, const PldPmf &b)
{
    return sameBits(a.interval, b.interval) && a.lowerIndex == b.lowerIndex
           && a.probs.size() == b.probs.size() && sameBits(a.infinityMass, b.infinityMass)
           && a.pessimistic == b.pessimistic && sameBits(a.deltaSlack, b.deltaSlack)
           && sameBits(a.errorL1, b.errorL1)
           && (a.probs.empty()
               || std::memcmp(a.probs.data(), b.probs.data(), a.probs.size() * sizeof(double)) == 0);
}
} // namespace

Result<PldPmf> PldSelfCompositionCache::selfCompose(const PldPmf &pmf, std::int64_t k, double tailMass,
                                                    double maxBins)
{
    for (const Entry &e : m_entries) {
        if (e.k == k && sameBits(e.tailMass, tailMass) && sameBits(e.maxBins, maxBins)
            && samePmf(e.input, pmf)) {
            ++m_hits;
            return e.output;
        }
    }
    PBX_TRY(composed, selfComposePmf(pmf, k, tailMass, maxBins));
    const std::size_t bins = pmf.probs.size() + composed.probs.size();
    if (m_bins + bins <= kMaxCachedBins) {
        m_entries.push_back({pmf, k, tailMass, maxBins, composed});
        m_bins += bins;
    }
    return composed;
}

Result<PldPmf> PldSelfCompositionCache::compose(const PldPmf &a, const PldPmf &b, double tailMass,
                                                double maxBins)
{
    for (const Pair &e : m_pairs) {
        if (sameBits(e.tailMass, tailMass) && sameBits(e.maxBins, maxBins) && samePmf(e.b, b)
            && samePmf(e.a, a)) {
            ++m_hits;
            return e.output;
        }
    }
    PBX_TRY(composed, composePmf(a, b, tailMass, maxBins));
    const std::size_t bins = a.probs.size() + b.probs.size() + composed.probs.size();
    if (m_keepCompositions && m_bins + bins <= kMaxCachedBins) {
        m_pairs.push_back({a, b, tailMass, maxBins, composed});
        m_bins += bins;
    }
    return composed;
}

/// Self-composes `c` count times and convolves it into the total. While everything is symmetric
/// the Add PMFs equal the Remove ones, so they are only materialised (copied) when the first
/// asymmetric component arrives.
Result<void> PldAccountantBuilder::compose(Component &c)
{
    PldAccountant &acc = *m_acc;
    if (!c.symmetric && acc.m_symmetric && m_haveTotal) {
        acc.m_pessimistic[1] = acc.m_pessimistic[0];
        acc.m_optimistic[1] = acc.m_optimistic[0];
    }
    if (!c.symmetric)
        acc.m_symmetric = false;
    const int kinds = acc.m_hasOptimisticPmf ? 2 : 1;
    for (int k = 0; k < kinds; ++k) {
        for (int dir = 0; dir < (acc.m_symmetric ? 1 : 2); ++dir) {
            PldPmf &single = c.symmetric ? c.pmf[k][0] : c.pmf[k][dir];
            // One step: selfComposePmf would return a copy of it; it is moved instead (a merged
            // Gaussian's grid holds millions of bins), unless a second direction still needs it.
            const bool lastUse = !c.symmetric || acc.m_symmetric;
            PBX_TRY(composed, c.count == 1 && lastUse ? Result<PldPmf>(std::move(single))
                              : m_options.selfCompositionCache
                                  ? m_options.selfCompositionCache->selfCompose(
                                      single, c.count, m_options.tailMass, m_options.maxBins)
                                  : selfComposePmf(single, c.count, m_options.tailMass, m_options.maxBins));
            PldPmf *target = k == 0 ? &acc.m_pessimistic[dir] : &acc.m_optimistic[dir];
            if (!m_haveTotal) {
                *target = std::move(composed);
            } else {
                PBX_TRY(merged, m_options.selfCompositionCache
                                    ? m_options.selfCompositionCache->compose(
                                        *target, composed, m_options.tailMass, m_options.maxBins)
                                    : composePmf(*target, composed, m_options.tailMass, m_options.maxBins));
                *target = std::move(merged);
            }
        }
    }
    m_haveTotal = true;
    return {};
}

Result<bool> PldAccountantBuilder::addMergedGaussian()
{
    const double d = m_options.interval;
    const double muSquared = m_merged.gaussianMuSquared;
    Component c;
    c.count = 1;
    const AdditiveNoiseLoss loss(NoiseKind::Gaussian, 1.0 / std::sqrt(muSquared), 1.0, 1.0,
                                 PldDirection::Remove);
    if (const double bins = pldGridBins(loss, d); !(bins <= m_options.maxBins)) {
        // Too fine a grid for the merged Gaussian. Alone it has an exact answer (Balle–Wang
        // 2018, Thm 8): use it. With other events: refuse, naming the first Gaussian.
        if (m_merged.groups.empty())
            return true;
        std::size_t first = 0;
        while (m_ledger.events[first].mechanism != MechanismKind::Gaussian
               || (m_ledger.events[first].sampling.kind != SamplingKind::None
                   && m_ledger.events[first].sampling.rate < 1.0))
            ++first;
        return makeError(ErrorCode::ResourceLimit,
                         "events[" + std::to_string(first) + "] (gaussian): "
                             + pldResourceMessage(pldPeakBytes(bins), d, m_options.maxBins));
    }
    c.pmf[0][0] = connectTheDots(loss, d);
    if (m_acc->m_hasOptimisticPmf)
        c.pmf[1][0] = privacyBuckets(loss, d);
    PBX_RETURN_IF_ERROR(compose(c));
    m_acc->m_budget += connectTheDotsBudget(d, NoiseKind::Gaussian);
    if (m_merged.groups.empty())
        m_acc->m_gaussianOnlyMu = std::sqrt(muSquared);
    PBX_RETURN_IF_ERROR(tick());
    return false;
}

/// A group of finitely many losses rounded to the grid once, by itself.
Result<void> PldAccountantBuilder::atomsOnGrid(const AtomPld &pess, const AtomPld &opt, std::size_t event)
{
    const double d = m_options.interval;
    if (const double bins = atomGridBins(pess, d); !(bins <= m_options.maxBins))
        return makeError(ErrorCode::ResourceLimit,
                         where(event) + pldResourceMessage(pldPeakBytes(bins), d, m_options.maxBins));
    Component c;
    c.count = 1;
    double shift = 0.0;
    c.pmf[0][0] = atomsToGrid(pess, d, &shift);
    if (m_acc->m_hasOptimisticPmf)
        c.pmf[1][0] = atomsToGrid(opt, d, nullptr);
    if (auto ok = compose(c); !ok)
        return makeError(ok.error().code, where(event) + ok.error().message);
    m_acc->m_budget += PldCouplingBudget{0.0, 0.0, shift, 0.0};
    return {};
}

/// Finitely-many-loss groups: composed exactly on their atoms while the support stays within
/// the limits of pld_atoms.h; a group beyond them is rounded to the grid once, by itself.
Result<void> PldAccountantBuilder::addSparse(AtomPld (&group)[2], std::size_t event)
{
    if (m_atomsFull)
        return atomsOnGrid(group[0], group[1], event);
    if (!m_sparse.atoms[0]) {
        m_sparse.atoms[0] = std::move(group[0]);
        m_sparse.atoms[1] = std::move(group[1]);
        m_sparse.firstEvent = event;
        return {};
    }
    auto pess = composeAtoms(*m_sparse.atoms[0], group[0]);
    auto opt = pess ? composeAtoms(*m_sparse.atoms[1], group[1]) : std::nullopt;
    if (!pess || !opt) {
        m_atomsFull = true;
        return atomsOnGrid(group[0], group[1], event);
    }
    m_sparse.atoms[0] = std::move(pess);
    m_sparse.atoms[1] = std::move(opt);
    return {};
}

Result<void> PldAccountantBuilder::addGroup(std::size_t first, std::int64_t count)
{
    const PrivacyEvent &e = m_ledger.events[first];
    if (isSparseEvent(e, m_ledger.neighbours)) {
        auto step = approxDpPerStep(e, m_ledger.neighbours);
        if (!step)
            return makeError(step.error().code, where(first) + step.error().message);
        auto pess = approxDpAtoms(step->epsilon, step->delta, count, true);
        auto opt = approxDpAtoms(step->epsilon, step->delta, count, false);
        if (pess && opt) {
            AtomPld group[2] = {std::move(*pess), std::move(*opt)};
            PBX_RETURN_IF_ERROR(addSparse(group, first));
            return tick();
        }
    }
    auto c = buildComponent(e, m_ledger.neighbours, m_options.interval, m_acc->m_hasOptimisticPmf,
                            m_options.maxBins);
    if (!c)
        return makeError(c.error().code, where(first) + c.error().message);
    c->count = count;
    if (auto ok = compose(c.value()); !ok)
        return makeError(ok.error().code, where(first) + ok.error().message);
    m_acc->m_budget += c->perStep.times(static_cast<double>(c->count));
    return tick();
}

Result<std::unique_ptr<PldAccountant>> PldAccountantBuilder::finish()
{
    if (m_sparse.atoms[0]) {
        if (!m_haveTotal) { // finitely many losses only: answered from the atoms, at any interval
            m_acc->m_exactAtoms = true;
            m_acc->m_atoms[0] = std::move(*m_sparse.atoms[0]);
            m_acc->m_atoms[1] = std::move(*m_sparse.atoms[1]);
            return std::move(m_acc);
        }
        // With noise events: rounded up to the grid once and convolved with the rest.
        PBX_RETURN_IF_ERROR(atomsOnGrid(*m_sparse.atoms[0], *m_sparse.atoms[1], m_sparse.firstEvent));
    }
    if (!m_haveTotal) { // nothing but post-processing: the identity PLD
        const double d = m_options.interval;
        for (auto &pmf : m_acc->m_pessimistic)
            pmf = PldPmf{d, 0, {1.0}, 0.0, true, 0.0};
        for (auto &pmf : m_acc->m_optimistic)
            pmf = PldPmf{d, 0, {1.0}, 0.0, false, 0.0};
    }
    return std::move(m_acc);
}

Result<std::unique_ptr<PldAccountant>> PldAccountant::fromLedger(const Ledger &ledger,
                                                                 const PldOptions &options)
{
    PBX_RETURN_IF_ERROR(validateLedger(ledger));
    PBX_RETURN_IF_ERROR(checkPldOptions(options));
    PBX_TRY(merged, mergeLedger(ledger));
    PldAccountantBuilder builder(ledger, options, merged);
    if (merged.gaussianMuSquared > 0.0 && merged.groups.empty() && options.gaussianClosedForm)
        return builder.closedFormGaussian();
    if (merged.gaussianMuSquared > 0.0) {
        PBX_TRY(complete, builder.addMergedGaussian());
        if (complete)
            return builder.closedFormGaussian();
    }
    for (const auto &[key, value] : merged.groups)
        PBX_RETURN_IF_ERROR(builder.addGroup(value.first, value.second));
    return builder.finish();
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
            PBX_TRY(eps, privacy::gaussianEpsilon(*m_exactGaussianMu, delta));
            // Bisection's upper end; μ itself carries a few ulps (μ² summed, square root): 1e-13.
            a.epsilon = math::nudgeUp(eps * (1.0 + 1e-13), 2);
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

Result<std::vector<double>> PldAccountant::upperDeltas(const std::vector<double> &epsilons) const
{
    for (double epsilon : epsilons)
        PBX_RETURN_IF_ERROR(checkEpsilon(epsilon));
    if (m_exactGaussianMu || m_exactAtoms) { // closed forms and atoms: cheap one by one
        std::vector<double> out;
        for (double epsilon : epsilons) {
            PBX_TRY(a, deltaForEpsilon(epsilon));
            out.push_back(a.delta);
        }
        return out;
    }
    std::vector<double> out = pmfDeltasForEpsilons(m_pessimistic[0], epsilons);
    if (!m_symmetric) {
        const std::vector<double> add = pmfDeltasForEpsilons(m_pessimistic[1], epsilons);
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i] = std::max(out[i], add[i]);
    }
    return out;
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

namespace pbx::accounting {

struct PldPrefixComposer::State
{
    State(const Ledger &l, const PldOptions &o) : ledger(l), options(o) {}

    const Ledger &ledger;
    PldOptions options;
    std::size_t nextEvent = 0;          ///< the first event not wholly composed
    std::int64_t takenOfNext = 0;       ///< its steps already composed
    std::int64_t steps = 0;             ///< steps composed (the prefix so far)
    std::optional<AtomPld> atoms;       ///< the finitely-many-loss events so far (pessimistic)
    bool haveDense = false;             ///< some noise event (other than an unsampled Gaussian) seen
    bool symmetric = true;              ///< dense[1] == dense[0]
    PldPmf dense[2];                    ///< the running product of the noise events [Remove, Add]
    std::optional<PldPmf> lastGaussian; ///< the last prefix's merged unsampled Gaussians on the grid
    double lastMuSquared = 0.0;         ///< … and their μ²
    std::optional<Error> failed;

    Result<void> add(const PrivacyEvent &e, std::int64_t count, std::size_t index);
    Result<PldPmf> withAtoms(const PldPmf &product) const;
    Result<PldPmf> mergedGaussian(double muSquared) const;
    Result<std::pair<double, double>> answer(const PldPmf &product, const PldPmf *gaussian, double delta,
                                             std::optional<double> epsilon) const;
};

/// Composes `count` steps of event `index` into the running state.
Result<void> PldPrefixComposer::State::add(const PrivacyEvent &e, std::int64_t count, std::size_t index)
{
    const std::string where = "events[" + std::to_string(index) + "] (" + mechanismName(e.mechanism) + "): ";
    if (auto exAnte = requireExAnte(e); !exAnte)
        return makeError(exAnte.error().code, where + exAnte.error().message);
    const bool sampled = e.sampling.kind != SamplingKind::None && e.sampling.rate < 1.0;
    if (e.mechanism == MechanismKind::PostProcessing || (e.mechanism == MechanismKind::Gaussian && !sampled))
        return {}; // nothing, or merged exactly per prefix (mergedGaussian)
    if (isSparseEvent(e, ledger.neighbours)) {
        auto step = approxDpPerStep(e, ledger.neighbours);
        if (!step)
            return makeError(step.error().code, where + step.error().message);
        auto group = approxDpAtoms(step->epsilon, step->delta, count, true);
        auto composed = group && atoms ? composeAtoms(*atoms, *group) : group;
        if (!composed)
            return makeError(ErrorCode::Unsupported, where + "too many atoms for the running product");
        atoms = std::move(composed);
        return {};
    }
    auto c = buildComponent(e, ledger.neighbours, options.interval, false, options.maxBins);
    if (!c)
        return makeError(c.error().code, where + c.error().message);
    if (!c->symmetric && symmetric && haveDense)
        dense[1] = dense[0];
    symmetric = symmetric && c->symmetric;
    for (int dir = 0; dir < (symmetric ? 1 : 2); ++dir) {
        const PldPmf &single = c->pmf[0][c->symmetric ? 0 : dir];
        auto self = count >= 2 && options.selfCompositionCache
                        ? options.selfCompositionCache->selfCompose(single, count, options.tailMass,
                                                                    options.maxBins)
                        : selfComposePmf(single, count, options.tailMass, options.maxBins);
        if (!self)
            return makeError(self.error().code, where + self.error().message);
        if (!haveDense) {
            dense[dir] = std::move(self).value();
            continue;
        }
        auto product = composePmf(dense[dir], self.value(), options.tailMass, options.maxBins);
        if (!product)
            return makeError(product.error().code, where + product.error().message);
        dense[dir] = std::move(product).value();
    }
    haveDense = true;
    return {};
}

/// The running product convolved with the atoms rounded to the grid (as fromLedger's finish).
Result<PldPmf> PldPrefixComposer::State::withAtoms(const PldPmf &product) const
{
    if (!atoms)
        return product;
    const double d = options.interval;
    if (const double bins = atomGridBins(*atoms, d); !(bins <= options.maxBins))
        return makeError(ErrorCode::ResourceLimit,
                         pldResourceMessage(pldPeakBytes(bins), d, options.maxBins));
    return composePmf(product, atomsToGrid(*atoms, d, nullptr), options.tailMass, options.maxBins);
}

/// The prefix's unsampled Gaussians merged exactly (μ² add), on the grid (as fromLedger's).
Result<PldPmf> PldPrefixComposer::State::mergedGaussian(double muSquared) const
{
    const double d = options.interval;
    const AdditiveNoiseLoss loss(NoiseKind::Gaussian, 1.0 / std::sqrt(muSquared), 1.0, 1.0,
                                 PldDirection::Remove);
    if (const double bins = pldGridBins(loss, d); !(bins <= options.maxBins))
        return makeError(ErrorCode::ResourceLimit,
                         pldResourceMessage(pldPeakBytes(bins), d, options.maxBins));
    return connectTheDots(loss, d);
}

/// ε at δ (and δ at ε) of one direction: its running product with the atoms, composed with the
/// merged Gaussian. That last and largest convolution is not formed where it would be an FFT:
/// ComposedPmfQuery reads δ off the correlation of the two (the same PLD; no FFT charge, no
/// truncated tails); elsewhere it is composed by composePmf as fromLedger does.
Result<std::pair<double, double>> PldPrefixComposer::State::answer(const PldPmf &product,
                                                                   const PldPmf *gaussian, double delta,
                                                                   std::optional<double> epsilon) const
{
    PBX_TRY(rest, withAtoms(product));
    constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
    if (gaussian) {
        const double bins
            = static_cast<double>(rest.probs.size()) + static_cast<double>(gaussian->probs.size());
        if (bins > std::min(options.maxBins, kMaxPldBins)) // composePmf's limit, the same message
            return makeError(ErrorCode::ResourceLimit,
                             pldResourceMessage(pldPeakBytes(bins), options.interval, options.maxBins));
        // Only where composePmf would convolve by FFT: there the query's answers are not above
        // its (pld_composed.h); a direct convolution is cheap and keeps its numbers.
        const auto query
            = composesByFft(rest, *gaussian) ? ComposedPmfQuery::make(rest, *gaussian) : std::nullopt;
        if (query) {
            const std::optional<double> eps = query->epsilonForDelta(delta);
            const std::optional<double> del = epsilon ? query->deltaForEpsilon(*epsilon) : kNone;
            if (eps && del)
                return std::pair{*eps, *del};
        }
        PBX_TRY(composed, composePmf(rest, *gaussian, options.tailMass, options.maxBins));
        rest = std::move(composed);
    }
    return std::pair{pmfEpsilonForDelta(rest, delta), epsilon ? pmfDeltaForEpsilon(rest, *epsilon) : kNone};
}

PldPrefixComposer::PldPrefixComposer(const Ledger &ledger, const PldOptions &options)
    : m_state(std::make_unique<State>(ledger, options))
{}

PldPrefixComposer::~PldPrefixComposer() = default;

Result<std::pair<double, double>> PldPrefixComposer::upTo(std::int64_t steps, double delta,
                                                          std::optional<double> epsilon)
{
    State &s = *m_state;
    if (s.failed)
        return *s.failed;
    auto fail = [&](Error e) {
        s.failed = e;
        return e;
    };
    if (steps < s.steps)
        return fail(makeError(ErrorCode::InvalidArgument, "prefixes must not shrink"));
    while (s.steps < steps && s.nextEvent < s.ledger.events.size()) {
        const PrivacyEvent &e = s.ledger.events[s.nextEvent];
        const std::int64_t take = std::min(e.count - s.takenOfNext, steps - s.steps);
        if (auto ok = s.add(e, take, s.nextEvent); !ok)
            return fail(ok.error());
        s.steps += take;
        s.takenOfNext += take;
        if (s.takenOfNext == e.count) {
            ++s.nextEvent;
            s.takenOfNext = 0;
        }
    }
    // The unsampled Gaussians of the prefix, merged as mergeLedger does (same sums, same order).
    double muSquared = 0.0;
    std::int64_t left = steps;
    for (const PrivacyEvent &e : s.ledger.events) {
        if (left <= 0)
            break;
        const std::int64_t count = std::min(e.count, left);
        left -= count;
        const bool sampled = e.sampling.kind != SamplingKind::None && e.sampling.rate < 1.0;
        if (e.mechanism == MechanismKind::Gaussian && !sampled) {
            const double mu = e.sensitivity / e.sigma;
            muSquared += static_cast<double>(count) * mu * mu;
        }
    }
    if (!s.haveDense && muSquared == 0.0 && s.atoms) {
        // Finitely-many-loss events only: answered from the running atoms at any interval, as
        // fromLedger answers such a ledger (its groups may be split differently across prefixes:
        // the same exact PLD, each composition rounded outward).
        return std::pair{atomEpsilonForDelta(*s.atoms, delta),
                         epsilon ? atomDeltaForEpsilon(*s.atoms, *epsilon)
                                 : std::numeric_limits<double>::quiet_NaN()};
    }
    if (!s.haveDense)
        return makeError(ErrorCode::Unsupported, "no noise event in this prefix yet");
    // A prefix that adds no unsampled Gaussian step keeps the previous prefix's grid.
    if (muSquared > 0.0 && !(s.lastGaussian && s.lastMuSquared == muSquared)) {
        auto merged = s.mergedGaussian(muSquared);
        if (!merged)
            return fail(merged.error());
        s.lastGaussian = std::move(merged).value();
        s.lastMuSquared = muSquared;
    }
    const PldPmf *gaussian = muSquared > 0.0 ? &*s.lastGaussian : nullptr;
    double eps = 0.0;
    double del = epsilon ? 0.0 : std::numeric_limits<double>::quiet_NaN();
    for (int dir = 0; dir < (s.symmetric ? 1 : 2); ++dir) {
        auto value = s.answer(s.dense[dir], gaussian, delta, epsilon);
        if (!value)
            return fail(value.error());
        eps = std::max(eps, value->first);
        if (epsilon)
            del = std::max(del, value->second);
    }
    return std::pair{eps, del};
}

} // namespace pbx::accounting
