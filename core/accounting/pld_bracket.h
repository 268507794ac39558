// SPDX-License-Identifier: MIT
// A lower bound on ε(δ) and δ(ε) read off the pessimistic (connect-the-dots) PLD itself, from
// the coupling between each step's true privacy loss and its discretisation: the bracket's
// lower end, which does not drift by one interval per step as floor rounding does.
#pragma once

#include "core/accounting/pld_pmf.h"

#include <memory>

namespace pbx::accounting {

/// How the composed pessimistic PMF was discretised, summed over every step (docs/pld-numerics.md
/// §4). A step discretised by connect-the-dots on the grid d couples its true loss Y with the
/// grid loss Ỹ such that, given Y, Ỹ is one of the two grid points around Y (a range of d) and
/// E[e^{−Ỹ} | Y] = e^{−Y}; then 0 ≤ E[Ỹ − Y | Y] ≤ connectTheDotsMeanBias(d). A step rounded up
/// to the grid (finitely many losses) has Ỹ − Y ∈ [0, r] deterministically.
struct PldCouplingBudget
{
    double meanBias = 0.0;       ///< M = Σ k·b: the largest possible E[ΣỸ − ΣY] over split steps
    double rangeSquares = 0.0;   ///< H = Σ k·d²: Hoeffding's variance term of the split steps
    double roundingShift = 0.0;  ///< R = Σ k·r over rounded-up steps (nats)
    double outOfRangeMass = 0.0; ///< Σ k·τ: probability that some step's loss lies outside its grid

    PldCouplingBudget &operator+=(const PldCouplingBudget &o);
    /// The budget of `count` i.i.d. steps with this per-step budget.
    PldCouplingBudget times(double count) const;
};

/// max over y ∈ [0, d] of d(1 − e^{−y})/(1 − e^{−d}) − y (≈ d²/8), rounded up: the largest
/// conditional mean shift E[Ỹ − Y | Y] of connect-the-dots at interval d > 0.
double connectTheDotsMeanBias(double d);

/// A lower bound on δ(ε) of the true composition, from its composed pessimistic PMF (with its
/// errorL1) and the coupling budget: the best of (a) the shifted bound
/// δ̂(ε + R + t) − C − τ − P[ΣD > t] (Hoeffding; Gopi, Lee & Wutschitz 2021, "Numerical
/// composition of differential privacy", NeurIPS, §5, with a one-sided deviation) and (b) the
/// convexity bound δ̂(ε') − C − τ − (e^t − 1)(P̂[|S − ε'| ≤ 2t] + C + P[|ΣD| > t]) − E[(e^{|ΣD|} − 1);
/// |ΣD| > t], ε' = ε + R (docs/pld-numerics.md §4), over a ladder of t. Any real ε; result in
/// [0, 1], rounded down. `pmf` must be pessimistic.
double lowerDeltaBound(const PldPmf &pmf, const PldCouplingBudget &budget, double epsilon);

/// A lower bound on ε(δ) of the true composition (the largest ε at which lowerDeltaBound's bound
/// still exceeds δ, or its shifted form solved directly), ≥ 0, rounded down; δ ∈ (0, 1).
/// `upperEpsilon` is the pessimistic ε(δ) of the same PMF (the search starts there).
double lowerEpsilonBound(const PldPmf &pmf, const PldCouplingBudget &budget, double delta,
                         double upperEpsilon);

/// lowerDeltaBound and lowerEpsilonBound of one PMF with its suffix sums (two long double vectors
/// of the PMF's size) computed once, for many queries on it (the comparison's δ(ε) profile);
/// the same numbers, bit for bit. `pmf` must outlive this object.
class PldLowerBound
{
public:
    PldLowerBound(const PldPmf &pmf, const PldCouplingBudget &budget);
    ~PldLowerBound();
    PldLowerBound(const PldLowerBound &) = delete;
    PldLowerBound &operator=(const PldLowerBound &) = delete;

    /// lowerDeltaBound(pmf, budget, epsilon).
    double delta(double epsilon) const;
    /// lowerEpsilonBound(pmf, budget, delta, upperEpsilon).
    double epsilon(double delta, double upperEpsilon) const;

private:
    struct Sums;
    std::unique_ptr<Sums> m_sums;
};

} // namespace pbx::accounting
