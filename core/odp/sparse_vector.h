// SPDX-License-Identifier: MIT
// The sparse vector technique (AboveThreshold with a cut-off c) with its ODP cost: after j
// positive answers it is charged ε₁ + j·ε₂/c instead of ε₁ + ε₂ (Hartmann, Bindschaedler,
// Bentkamp & West, PoPETs 2023, Lemma 8; the mechanism is Lyu, Su & Li 2017, Algorithm 1).
// Derivations in docs/output-dp.md.
#pragma once

#include "core/mechanisms/discrete_samplers.h"
#include "core/mechanisms/random_bits.h"
#include "core/privacy/odp_guarantee.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace pbx::odp {

enum class SvtVariant {
    /// Lyu et al. Alg. 1: ρ ~ Lap(Δ/ε₁) drawn once, ν_i ~ Lap(2cΔ/ε₂); E(j) = ε₁ + jε₂/c.
    FixedThreshold,
    /// Lyu et al. Alg. 2 (Dwork–Roth "Sparse"): ρ ~ Lap(cΔ/ε₁) redrawn after each ⊤,
    /// ν_i ~ Lap(2cΔ/ε₂); E(j) = j(ε₁+ε₂)/c + ε₁/c for j < c and ε₁ + ε₂ for j = c
    /// (conservative: the trailing run of ⊥ is always paid for).
    RefreshedThreshold,
};

struct SvtParameters
{
    double epsilon1 = 0.0;    ///< threshold-noise budget ε₁ > 0
    double epsilon2 = 0.0;    ///< query-noise budget ε₂ > 0
    int cutoff = 1;           ///< c ≥ 1, the number of ⊤ answers after which it halts
    double sensitivity = 1.0; ///< Δ > 0: |q_i(D) − q_i(D')| ≤ Δ for every query
    SvtVariant variant = SvtVariant::FixedThreshold;
};

/// Errors (InvalidArgument, naming the field): ε₁, ε₂ or Δ not finite and > 0; c < 1.
Result<void> validate(const SvtParameters &p);

/// E(Y_j), the ε charged after exactly j ⊤ answers, 0 ≤ j ≤ c (Lemma 8). Precondition: valid p.
double svtCellCost(const SvtParameters &p, int j);

/// The (E, 0)-ODP guarantee with cells j = 0..c (cell id = j, the number of ⊤ in the released
/// transcript). Errors: as validate().
Result<OdpGuarantee> svtGuarantee(const SvtParameters &p);

/// Lyu et al.'s split of ε_SVT minimising Var(ν − ρ): ε₂/ε₁ = (2c)^{2/3}, so
/// ε₁ = ε_SVT/(1 + (2c)^{2/3}) and ε₂ = ε_SVT − ε₁. Errors: ε_SVT not finite > 0; c < 1.
struct SvtSplit
{
    double epsilon1 = 0.0;
    double epsilon2 = 0.0;
};
Result<SvtSplit> lyuSplit(double epsilonSvt, int cutoff);

/// Interactive AboveThreshold over integer-valued queries with exact discrete Laplace noise
/// (the Lemma 8 proof needs only shift inequalities, which hold for the discrete Laplace with
/// integer Δ, thresholds and queries; docs/output-dp.md). Scales are rounded UP to rationals,
/// so there is never less noise than the accounting assumes.
class SparseVector
{
public:
    /// Draws the first threshold noise ρ. Valid: validate(p), and Δ a whole number ≤ 2^40.
    /// Errors: InvalidArgument; the source's error.
    static Result<SparseVector> start(const SvtParameters &p, mechanisms::RandomBits &bits);
    /// One query: true (⊤) iff q + ν ≥ T + ρ. `value` is q_i(D) (already checked to have
    /// sensitivity ≤ Δ by the caller), `threshold` the public T_i.
    /// Errors: InvalidArgument ("the sparse vector halted after c = 4 positives") once closed;
    /// the source's error (the mechanism is then closed).
    Result<bool> query(std::int64_t value, std::int64_t threshold, mechanisms::RandomBits &bits);
    /// STOP: closes the mechanism (idempotent).
    void stop() { m_closed = true; }
    bool closed() const { return m_closed; }
    /// j, the number of ⊤ so far: the released cell.
    int positives() const { return m_positives; }
    const std::vector<bool> &answers() const { return m_answers; }
    const SvtParameters &parameters() const { return m_p; }

private:
    SparseVector(const SvtParameters &p, mechanisms::DiscreteLaplaceSampler rho,
                 mechanisms::DiscreteLaplaceSampler nu)
        : m_p(p), m_rhoSampler(rho), m_nuSampler(nu)
    {}
    SvtParameters m_p;
    mechanisms::DiscreteLaplaceSampler m_rhoSampler;
    mechanisms::DiscreteLaplaceSampler m_nuSampler;
    std::int64_t m_rho = 0;
    int m_positives = 0;
    bool m_closed = false;
    std::vector<bool> m_answers;
};

/// The Laplace scale of each released entry in "release only the large entries" (Lyu et al.
/// §4.1 with the ODP analysis of Hartmann et al.): the budget ε = ε_SVT + ε_rel, j entries
/// flagged, cut-off c.
enum class ReleaseAnalysis {
    Dp,     ///< b = cΔ/ε_rel: always budgets for c entries
    Filter, ///< b = jΔ/ε_rel: a privacy filter adapts to j, the SVT still costs ε_SVT
    Odp,    ///< b = jΔ/(ε − E(j)): the SVT costs E(j), the rest goes to the j releases
};
/// Precondition: valid p (fixed-threshold variant), ε_rel > 0, 1 ≤ j ≤ c. The returned scale is
/// rounded up.
double releaseScale(ReleaseAnalysis analysis, const SvtParameters &p, double epsilonRelease, int j);

/// One run of the application: SVT over |f_i| in index order (then STOP), then a discrete Laplace
/// release of each flagged entry at the ODP scale.
struct LargeEntriesRun
{
    std::vector<bool> answers; ///< one per query asked (it halts at the c-th ⊤)
    std::vector<std::size_t> flagged;
    std::vector<std::int64_t> released; ///< f_i + noise for each flagged i
    int j = 0;
    double svtCost = 0.0;        ///< E(j)
    double releaseEpsilon = 0.0; ///< ε − E(j) (0 when j = 0: nothing is spent on releases)
    double releaseScale = 0.0;   ///< b_ODP(j) used (rounded up), 0 when j = 0
};
/// Valid: p fixed-threshold, ε_total > ε₁ + ε₂ finite, integer Δ. Errors: InvalidArgument; the
/// source's error.
Result<LargeEntriesRun> releaseLargeEntries(const std::vector<std::int64_t> &f, std::int64_t threshold,
                                            const SvtParameters &p, double epsilonTotal,
                                            mechanisms::RandomBits &bits);

/// One row of the release-noise figure: a vector of N entries, L of them `big` and the rest 0,
/// threshold T; the exact law of j (continuous Laplace noise, as in the analysis) by conditioning
/// on ρ, a Poisson-binomial recursion truncated at c, and composite Gauss–Legendre quadrature
/// with breakpoints at the kinks.
struct SvtFigureRow
{
    int large = 0;           ///< L
    std::vector<double> pmf; ///< P(j), j = 0..c
    double pNothing = 0.0;   ///< P(j = 0)
    double expectedJ = 0.0;
    double dpStd = 0.0;         ///< √2·cΔ/ε_rel
    double filterStd = 0.0;     ///< E[√2·b_filter(j) | j ≥ 1]
    double odpStd = 0.0;        ///< E[√2·b_ODP(j) | j ≥ 1]
    double odpStdIfExact = 0.0; ///< √2·b_ODP(min(L, c)); NaN for L = 0
};
/// Valid: N ≥ 1, 0 ≤ L ≤ N, p fixed-threshold, ε_rel > 0. Errors: InvalidArgument.
Result<SvtFigureRow> svtFigureRow(int entries, int large, double big, double threshold,
                                  const SvtParameters &p, double epsilonRelease);

/// Monte Carlo estimate of the figure's ODP column E[√2·b_ODP(j) | j ≥ 1] (continuous Laplace
/// noise, `runs` runs): the mean and its standard error. Valid: as svtFigureRow, runs ≥ 2.
struct MonteCarloEstimate
{
    double mean = 0.0;
    double standardError = 0.0;
};
Result<MonteCarloEstimate> svtFigureMonteCarlo(int entries, int large, double big, double threshold,
                                               const SvtParameters &p, double epsilonRelease, int runs,
                                               mechanisms::RandomBits &bits);

} // namespace pbx::odp
