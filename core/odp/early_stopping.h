// SPDX-License-Identifier: MIT
// Early-stopped iterative mechanisms with ODP costs: one cell per public stopping point k_j, cost
// E_j = C(k_j, δ'_j) under any adaptive composition theorem C and δ = Σ_j δ'_j (Hartmann,
// Bindschaedler, Bentkamp & West, PoPETs 2023, Lemma 11), and the exact δ of given costs for
// (ε_i, δ_i)-DP steps (their Theorem 15) by backward induction on the privacy-loss walk of
// randomized-response steps. Derivations in docs/output-dp.md.
#pragma once

#include "core/privacy/odp_guarantee.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace pbx::odp {

/// The steps of the iterative mechanism: K = the last stopping point, all steps alike.
struct IterativeSteps
{
    enum class Kind {
        Gaussian, ///< Gaussian steps with noise multiplier z = σ/Δ₂ (μ_k = √k/z)
        EpsDelta, ///< (ε₀, δ₀)-DP steps (δ₀ = 0: pure, e.g. Laplace noisy gradient descent)
    } kind
        = Kind::EpsDelta;
    double noiseMultiplier = 0.0; ///< Gaussian: z > 0
    double stepEpsilon = 0.0;     ///< EpsDelta: ε₀ > 0
    double stepDelta = 0.0;       ///< EpsDelta: δ₀ ∈ [0, 1)
};

enum class StepComposition {
    Basic,    ///< Σ ε_i, δ' = Σ δ_i (Lemma 3 per step); EpsDelta steps only
    Kov,      ///< Kairouz–Oh–Viswanath optimal homogeneous composition; EpsDelta steps
    Gaussian, ///< exact Gaussian composition μ_k = √k/z (Balle–Wang profile); Gaussian steps
    Exact,    ///< the optimal heterogeneous composition (Murtagh–Vadhan) via theorem15Delta with
              ///< one stopping point; EpsDelta steps
};

enum class DeltaSplit {
    Equal,        ///< δ'_j = δ/m
    Proportional, ///< δ'_j ∝ k_j
};

struct Lemma11Plan
{
    std::vector<std::int64_t> stops; ///< k_1 < … < k_m
    std::vector<double> deltaPrimes; ///< δ'_j
    std::vector<double> costs;       ///< E_j = C(k_j, δ'_j), rounded up
    double delta = 0.0;              ///< Σ δ'_j (charged whatever the stop)
    double dpEpsilon = 0.0;          ///< C(K, δ): the plain DP analysis of all K steps
    double worstEpsilon() const;
};

/// Errors (InvalidArgument): stops empty, not strictly increasing or k_1 < 1 ("stops");
/// bad step parameters; δ ∉ (0, 1) ("delta"; Basic with pure steps also accepts δ = 0);
/// a composition that does not fit the steps (Unsupported).
Result<void> validateStops(const std::vector<std::int64_t> &stops);

/// Lemma 11 costs. Valid: as above. Errors: as above.
Result<Lemma11Plan> lemma11Plan(const std::vector<std::int64_t> &stops, const IterativeSteps &steps,
                                StepComposition composition, double delta, DeltaSplit split);

/// C(k, δ') alone. Errors: as lemma11Plan.
Result<double> composedEpsilon(const IterativeSteps &steps, StepComposition composition, std::int64_t k,
                               double deltaPrime);

/// Theorem 15: the smallest δ such that every iterative mechanism with (ε_i, δ_i)-DP steps and
/// every stopping rule at `stops` is (E, δ)-ODP with E = costs. Each ε_i is rounded UP to a
/// multiple of `grid` (conservative: δ_opt grows with every ε_i); grid = 0 picks the common step
/// when all ε_i are equal (exact). The result is rounded up.
/// Valid: stopEpsilons and stepDeltas of length K = stops.back(), ε_i ≥ 0, δ_i ∈ [0, 1), costs
/// of length m, finite ≥ 0. Errors: InvalidArgument naming the field; Unsupported ("use a
/// coarser grid or Lemma 11") above 10⁷ states.
Result<double> theorem15Delta(const std::vector<std::int64_t> &stops, const std::vector<double> &stepEpsilons,
                              const std::vector<double> &stepDeltas, const std::vector<double> &costs,
                              double grid = 0.0);

/// The largest s ≥ 1 such that the Lemma 11 costs with δ'_j = s·δ/m have a Theorem 15 δ ≤ δ
/// (bisection, 1e-9 relative, the private end returned). EpsDelta steps with Kov or Exact.
struct Theorem15Tuning
{
    double scale = 1.0;        ///< s
    std::vector<double> costs; ///< E_j(s)
    double delta = 0.0;        ///< Theorem 15 δ of those costs (≤ the target)
};
Result<Theorem15Tuning> tuneWithTheorem15(const std::vector<std::int64_t> &stops, const IterativeSteps &steps,
                                          StepComposition composition, double delta);

/// The ODP guarantee of a plan: cell j−1 = "stopped at k_j" with cost E_j, δ = Σ δ'_j.
Result<OdpGuarantee> earlyStopGuarantee(const std::vector<std::int64_t> &stops,
                                        const std::vector<double> &costs, double delta);

/// The cell charged when a run ends after `stepsDone` steps: the first stopping point ≥
/// stepsDone (a cancelled run between stopping points pays the next one's cost; its iterates
/// were released). Precondition: valid stops, 0 ≤ stepsDone ≤ K.
int earlyStopCell(const std::vector<std::int64_t> &stops, std::int64_t stepsDone);

} // namespace pbx::odp
