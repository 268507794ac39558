// SPDX-License-Identifier: MIT
// The numerical reference strategy: privacy-loss distributions composed by FFT.
#pragma once

#include "core/accounting/event.h"
#include "core/accounting/pld_atoms.h"
#include "core/accounting/pld_bracket.h"
#include "core/accounting/pld_pmf.h"
#include "core/accounting/strategy.h"

#include <memory>
#include <mutex>
#include <optional>

namespace pbx::accounting {

struct PldOptions
{
    double interval = 1e-4;  ///< discretisation interval d of the loss grid (nats)
    double tailMass = 1e-15; ///< mass truncated per composition (charged to δ)
    bool optimistic = true;  ///< also report the lower end of the bracket
    /// Largest grid, window or FFT buffer allowed, in bins: 1 ≤ maxBins ≤ kMaxPldBins. Beyond it
    /// the build refuses with ResourceLimit before allocating (a lower cap bounds time as well
    /// as memory, e.g. for the fuzzers).
    double maxBins = kMaxPldBins;
    ProgressCallback progress; ///< optional; return false to cancel
    /// Answer a ledger of unsampled Gaussians only from the closed form (μ² add; Balle & Wang
    /// 2018, Thm 8) without building its grid: the exact ε(δ) (bisection, upper end) instead of
    /// the grid's, which lies above it by about 1e-11 relative. The comparison's ε(k) curve uses
    /// it; the table does not.
    bool gaussianClosedForm = false;
    /// Optional memo of selfComposePmf, shared by builds of the same ledger's prefixes (the
    /// comparison's ε(k) curve): a group whose single-event PMF, count, tail mass and bin cap
    /// are bit-identical to an earlier one reuses its result, which is therefore bit-identical
    /// to recomputing it. Not thread-safe: one build at a time.
    std::shared_ptr<class PldSelfCompositionCache> selfCompositionCache;
};

/// The memo of PldOptions::selfCompositionCache: inputs compared bit for bit, at most
/// kMaxCachedBins bins held in all (further results are not kept).
class PldSelfCompositionCache
{
public:
    static constexpr std::size_t kMaxCachedBins = std::size_t{1} << 23; ///< 64 MiB of doubles
    /// `keepCompositions` false: compose() computes without keeping its result (the table's
    /// build, whose running totals no prefix shares, lends its self-compositions to the ε(k)
    /// curve's PldPrefixComposer this way).
    explicit PldSelfCompositionCache(bool keepCompositions = true) : m_keepCompositions(keepCompositions) {}
    /// selfComposePmf(pmf, k, tailMass, maxBins), from the memo when the same inputs were seen.
    Result<PldPmf> selfCompose(const PldPmf &pmf, std::int64_t k, double tailMass, double maxBins);
    /// composePmf(a, b, tailMass, maxBins), likewise: the prefixes of a ledger compose the same
    /// running totals in the same order until the first group they do not share.
    Result<PldPmf> compose(const PldPmf &a, const PldPmf &b, double tailMass, double maxBins);
    std::size_t hits() const { return m_hits; }

private:
    struct Pair
    {
        PldPmf a, b;
        double tailMass = 0.0;
        double maxBins = 0.0;
        PldPmf output;
    };
    std::vector<Pair> m_pairs;
    struct Entry
    {
        PldPmf input;
        std::int64_t k = 0;
        double tailMass = 0.0;
        double maxBins = 0.0;
        PldPmf output;
    };
    std::vector<Entry> m_entries;
    bool m_keepCompositions = true;
    std::size_t m_bins = 0;
    std::size_t m_hits = 0;
};

/// PLD accounting (Koskela, Jälkö & Honkela 2020; Doroshenko et al. 2022 "Connect the dots",
/// arXiv 2207.04380; Gopi, Lee & Wutschitz 2021): each event becomes a pessimistic PMF by
/// connect-the-dots (Gaussian, Laplace, Poisson-subsampled Gaussian/Laplace, both directions of
/// add/remove), identical events are self-composed by ifft(fft(p)^k), groups are convolved, and
/// truncated tails go to +∞ (added to δ). Unsampled Gaussians are first merged exactly (μ² add).
/// Randomized response, pure and (ε, δ) events (their worst-case PLD, two atoms ±ε; sampled ones
/// after amplification) are composed exactly on their atoms at any interval (pld_atoms.h; while
/// the support stays within kMaxExactAtoms), and the result is rounded up to the grid once, only
/// when the ledger also has noise events (or the support limit is reached): a finer grid never
/// gives a larger upper bound. The reported (ε, δ) is the max over directions.
/// The lower end of the bracket comes from the pessimistic PMF itself (pld_bracket.h: the
/// connect-the-dots coupling, Hoeffding and a convexity bound; docs/pld-numerics.md §4), and for
/// ledgers of finitely-many-loss events only also from an optimistic PMF (floor rounding,
/// composed exactly on the lattice); the larger is reported.
/// Poisson-sampled Gaussians under replace-one use the replace pair (PldDirection::Replace) and
/// read Δ as the replace-one sensitivity of records bounded by ‖f(r)‖ ≤ Δ/2 (as DP-SGD's clipping).
/// Not applicable (Unsupported): zCDP events, Gaussians sampled without replacement, Poisson-
/// sampled Laplace under replace-one.
/// Resources: every grid and composition window is sized in double before allocation; beyond
/// PldOptions::maxBins (kMaxPldBins) the build fails with ResourceLimit ("events[i] (kind): PLD would need …
/// GB at interval …"), except for a ledger of unsampled Gaussians only, answered in closed form.
class PldAccountant final : public CompositionStrategy
{
public:
    static Result<std::unique_ptr<PldAccountant>> fromLedger(const Ledger &ledger,
                                                             const PldOptions &options = {});

    std::string name() const override { return "pld"; }
    /// ε(δ): pessimistic upper bound; detail: interval and optimisticEpsilon (lower bound).
    Result<StrategyAnswer> epsilonForDelta(double delta) const override;
    /// δ(ε): pessimistic upper bound; detail: interval and optimisticDelta (lower bound).
    Result<StrategyAnswer> deltaForEpsilon(double epsilon) const override;

    /// deltaForEpsilon(ε).delta at many ε at once (the comparison's δ(ε) profile): one sweep of
    /// each composed PMF (pmfDeltasForEpsilons: upper bounds, equal to deltaForEpsilon's to
    /// ~1e-12 relative) instead of one per ε, and no lower bound. In the order of `epsilons`.
    /// Errors: InvalidArgument (an ε negative or not finite).
    Result<std::vector<double>> upperDeltas(const std::vector<double> &epsilons) const;

    /// The composed pessimistic PMF on the grid. Not built (empty) when exactAtoms() is set.
    const PldPmf &pessimisticRemove() const { return m_pessimistic[0]; }
    const PldPmf &pessimisticAdd() const { return m_symmetric ? m_pessimistic[0] : m_pessimistic[1]; }
    /// The composed pessimistic PLD of a ledger of finitely-many-loss events only (randomized
    /// response, pure and (ε, δ) events, both directions alike), composed exactly on its atoms
    /// whatever the interval; nullptr when the ledger was composed on the grid.
    const AtomPld *exactAtoms() const { return m_exactAtoms ? &m_atoms[0] : nullptr; }

private:
    friend class PldAccountantBuilder; // fromLedger's steps (pld_accountant.cpp)

    /// The lower bound's suffix sums of direction `dir`'s PMF, built on first use and kept (one
    /// pass over the PMF instead of one per query).
    const PldLowerBound &lowerBound(int dir) const;

    double m_interval = 1e-4;
    bool m_symmetric = true;
    bool m_hasOptimistic = false;    ///< report lower bounds
    bool m_hasOptimisticPmf = false; ///< m_optimistic holds floor-rounded PMFs
    PldCouplingBudget m_budget;      ///< the discretisation of every step (lower bound)
    /// Set when the ledger is unsampled Gaussians only (merged to this μ): the lower bound is then
    /// the closed form's (Balle & Wang 2018, Thm 8), rounded down.
    std::optional<double> m_gaussianOnlyMu;
    /// Set when the ledger is unsampled Gaussians only and their merged PLD grid would exceed
    /// kMaxPldBins: the answers then come from the closed form at this μ (may be +∞).
    std::optional<double> m_exactGaussianMu;
    bool m_exactAtoms = false; ///< the answers come from m_atoms (no grid PMF)
    AtomPld m_atoms[2];        ///< [pessimistic, optimistic]
    PldPmf m_pessimistic[2];   ///< [Remove, Add]
    PldPmf m_optimistic[2];
    mutable std::once_flag m_lowerOnce[2];
    mutable std::unique_ptr<PldLowerBound> m_lower[2];
};

/// The PLD's pessimistic ε(δ) (and δ(ε)) over growing prefixes of one ledger by running products
/// (the comparison's ε(k) curve): the noise events (Laplace, sampled Gaussian) of each new prefix
/// are self-composed and convolved onto the previous prefix's running product once, instead of
/// composing every prefix afresh; the finitely-many-loss events are composed on their atoms as
/// they come; and each prefix's product is convolved with its atoms rounded to the grid and with
/// its unsampled Gaussians merged exactly (μ² add), as PldAccountant::fromLedger does. The same
/// PLD as fromLedger's upper bound, convolved in another order: the answers agree with it to
/// round-off (~1e-12 relative), each an upper bound. No optimistic PMF, no lower bound.
/// The last convolution, with the prefix's merged Gaussian, is not formed: ComposedPmfQuery
/// (pld_composed.h) reads ε and δ off the correlation of its two factors, the same PLD without
/// that convolution's FFT round-off charge and truncated tails, so each answer is also not above
/// the composed one's (measured 6e-9 to 1e-7 relative below it on the comparepinned ledgers).
/// With PldOptions::selfCompositionCache the self-compositions of whole events come from the
/// memo (bit-identical): the comparison hands it the one its table's build filled.
class PldPrefixComposer
{
public:
    /// `ledger` must be valid (validateLedger) and outlive this object.
    PldPrefixComposer(const Ledger &ledger, const PldOptions &options);
    ~PldPrefixComposer();
    PldPrefixComposer(const PldPrefixComposer &) = delete;
    PldPrefixComposer &operator=(const PldPrefixComposer &) = delete;

    /// ε at `delta` and, when `epsilon` is set, δ at it (else NaN) of the ledger's first `steps`
    /// steps (counts expanded), for `steps` not smaller than at the previous call. A prefix of
    /// finitely-many-loss events only is answered from the running atoms (exact at any interval,
    /// each composition rounded outward; an event split across prefixes is composed in pieces, so
    /// the last digits may differ from fromLedger's, both upper bounds). Errors: Unsupported when
    /// the prefix has unsampled Gaussians but no other noise event yet (fromLedger answers it by
    /// the closed form) or its atoms exceed pld_atoms.h's limits; those of the composition
    /// (ResourceLimit, Unsupported, …). After an error other than the first, every later call
    /// fails too.
    Result<std::pair<double, double>> upTo(std::int64_t steps, double delta, std::optional<double> epsilon);

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace pbx::accounting
