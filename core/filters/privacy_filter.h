// SPDX-License-Identifier: MIT
// Privacy filters: stopping rules over adaptively chosen mechanisms that refuse any charge that
// would exceed the budget and admit every charge that fits (an exact fit included).
#pragma once

#include "core/filters/budget_account.h"
#include "core/util/result.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace pbx::filters {

enum class FilterKind {
    Basic,        ///< pure ε, sequential composition (Laplace; Laplace noise reduction ex-post)
    Zcdp,         ///< fully adaptive zCDP filter (Whitehouse et al. 2023); Gaussian mechanisms
    ExPost,       ///< ex-post filter (Rogers et al. 2023, Lemma 5.2; docs/accuracy-first.md §4.2)
    Unified,      ///< zCDP and ex-post sub-filters under one (ε, δ) (Theorem 3; §4.3)
    BrownianZcdp, ///< zCDP filter admitting Brownian noise reduction at ρ = Δ²/(2T_stop) (§4.4)
    Odp,          ///< output-DP filter (Hartmann et al. 2023, Theorem 7; docs/output-dp.md §2)
    Rdp,          ///< Rényi filter on a grid of orders (Feldman & Zrnic 2021; Lécuyer 2021)
    Advanced,     ///< advanced-composition filter for adaptive ε (Whitehouse et al. 2023)
    Odometer,     ///< no ε budget: a privacy odometer's running ε (Whitehouse et al. 2023 kind)
};

/// "basic", "zcdp", "expost", "unified", "brownian-zcdp", "odp", "rdp", "advanced" or "odometer".
std::string_view filterKindName(FilterKind kind);
Result<FilterKind> parseFilterKind(std::string_view text);

/// What a mechanism asks a filter to pay, computed before its noise is drawn (predictability).
enum class ChargeKind {
    PureEpsilon, ///< ε of a pure ε-DP release (a zCDP filter admits it as ρ = ε²/2)
    Rho,         ///< ρ of a ρ-zCDP release (Gaussian; a Brownian noise-reduction step)
    ExPost,      ///< an increment of realised ex-post loss ε, with the mechanism's δ (paid once)
    /// `count` ε-bounded-range steps (amount = ε of one step; e.g. the exponential mechanism's
    /// picks): ε-DP each, so pure filters pay count·ε; (ε²/8)-zCDP each (Cesar & Rogers 2021), so
    /// zCDP-based filters pay count·ε²/8; the Rényi filter pays count·r_BR(α; ε).
    BoundedRange,
};

/// "epsilon", "rho", "expost" or "bounded-range".
std::string_view chargeKindName(ChargeKind kind);
/// "ε", "ρ", "ex-post ε" or "bounded-range ε": how a charge of this kind is named to the user.
std::string_view chargeUnitSymbol(ChargeKind kind);
Result<ChargeKind> parseChargeKind(std::string_view text);

struct Charge
{
    ChargeKind kind = ChargeKind::PureEpsilon;
    double amount = 0.0;   ///< ε or ρ, ≥ 0
    double delta = 0.0;    ///< ex-post δ (ExPost only), ≥ 0
    std::size_t count = 1; ///< BoundedRange: how many steps of ε `amount` (≥ 1); 1 for every other kind
};

/// One budgeted system of a filter, for gauges and charts.
struct BudgetSystem
{
    std::string name;       ///< "pure ε", "zCDP", "ex-post"
    std::string unitSymbol; ///< "ε" or "ρ"
    double budget = 0.0;    ///< in the unit
    double spent = 0.0;
    double epsilonBudget = 0.0; ///< the ε this system guarantees (at its δ)
    double deltaBudget = 0.0;
    double epsilonSpent = 0.0; ///< ε-equivalent of `spent` at its δ, rounded up
};

/// How the unified filter splits (ε, δ): the ex-post side gets these fractions, the zCDP side
/// the rest. A free design parameter of Theorem 3, fixed before the session starts (§6.3).
struct FilterSplit
{
    /// 5 %: Brownian noise reduction is routed to the zCDP side when that reaches less noise
    /// (almost always), so the ex-post side pays only Laplace noise reduction and the rare ex-post
    /// Brownian run; a larger share would mostly sit idle (measured in docs/answers.md).
    double expostEpsilonShare = 0.05;
    /// 5 %: the ex-post side needs δ only for ex-post Brownian runs (Laplace noise reduction is
    /// pure); every δ it does not hold raises the zCDP side's ρ(ε_z, δ_z).
    double expostDeltaShare = 0.05;
    /// Errors: InvalidArgument unless both shares lie strictly between 0 and 1.
    Result<void> validate() const;
};

class PrivacyFilter
{
public:
    virtual ~PrivacyFilter() = default;

    virtual FilterKind kind() const = 0;

    /// The session's (ε, δ) guarantee this filter enforces.
    double epsilonBudget() const { return m_epsilonBudget; }
    double deltaBudget() const { return m_deltaBudget; }

    /// Every budgeted system (one, or two for the unified filter).
    virtual std::vector<BudgetSystem> systems() const = 0;

    /// Succeeds when the charge fits. Errors: InvalidArgument for a negative or non-finite
    /// amount or δ, a count of 0, a count > 1 on a kind other than BoundedRange or a δ on one; Unsupported
    /// when this filter cannot account that kind (with the reason); BudgetExceeded with a message like "this
    /// query needs ρ = 0.031 but 0.012 remains".
    Result<void> canCharge(const Charge &charge) const;
    /// Pays the charge if it fits (see canCharge); otherwise pays nothing and returns the error.
    Result<void> charge(const Charge &charge);

    /// The largest amount of `kind` a charge could have now and still fit (rounded down; 0 when
    /// this filter cannot account that kind): the per-query cap of noise reduction and doubling.
    virtual double remainingFor(ChargeKind kind) const = 0;
    /// The ex-post δ still available (0 when the filter has no ex-post system).
    virtual double remainingExPostDelta() const { return 0.0; }
    /// The ex-post system's total δ (0 when the filter has none).
    virtual double expostDeltaBudget() const { return 0.0; }

    /// The (ε, δ) the spending so far amounts to (an upper bound; ε rounded up).
    virtual double epsilonSpent() const = 0;
    virtual double deltaSpent() const = 0;

    /// The primary system (the only one, or the zCDP side of the unified filter): its budget,
    /// spend and remainder, in its unit.
    virtual ChargeKind primaryKind() const = 0;
    double budget() const { return primary().budget(); }
    double spent() const { return primary().spent(); }
    double remaining() const { return primary().remaining(); }
    std::string_view unitSymbol() const { return primaryKind() == ChargeKind::Rho ? "ρ" : "ε"; }
    std::string_view unitName() const { return primaryKind() == ChargeKind::Rho ? "rho" : "epsilon"; }
    /// The primary system's account.
    virtual const BudgetAccount &primary() const = 0;
    /// ε-equivalent of an amount of the primary unit (for gauges and paths), rounded up.
    virtual double epsilonOf(double native) const = 0;

    /// canCharge/charge in the primary unit.
    Result<void> canSpend(double cost) const { return canCharge({primaryKind(), cost, 0.0}); }
    Result<void> spend(double cost) { return charge({primaryKind(), cost, 0.0}); }

    /// Creates a filter enforcing (ε, δ). Errors: InvalidArgument for ε ≤ 0 or non-finite, δ
    /// outside [0, 1) (basic, ex-post) or (0, 1) (zCDP-based, rdp, advanced, odometer), or an
    /// invalid split. The odometer has no ε budget: `epsilon` is ignored (OdometerFilter).
    static Result<std::unique_ptr<PrivacyFilter>> create(FilterKind kind, double epsilon, double delta,
                                                         FilterSplit split = {});

protected:
    PrivacyFilter(double epsilonBudget, double deltaBudget)
        : m_epsilonBudget(epsilonBudget), m_deltaBudget(deltaBudget)
    {}
    /// Checks the charge against this filter's systems (amounts already validated; a
    /// BoundedRange charge already translated by boundedRangeAs).
    virtual Result<void> check(const Charge &charge) const = 0;
    /// What this filter pays for a BoundedRange charge: by default pure ε = count·ε (rounded up;
    /// an ε-bounded-range step is ε-DP). zCDP-based filters pay ρ = count·ε²/8; filters that
    /// account bounded range themselves return the charge unchanged.
    virtual Charge boundedRangeAs(const Charge &charge) const;

    /// Applies a charge that check() accepted.
    virtual void apply(const Charge &charge) = 0;

private:
    double m_epsilonBudget;
    double m_deltaBudget;
};

/// The ρ charge of a BoundedRange charge: count·ε²/8, rounded up (ε-bounded range ⇒ (ε²/8)-zCDP:
/// Cesar & Rogers 2021; Steinke, differentialprivacy.org 2021-07-20, Corollary 7).
Charge boundedRangeRho(const Charge &charge);

/// Formats a privacy quantity for messages: 4 significant digits, no trailing zeros.
std::string formatAmount(double value);

/// "this query needs ρ = 0.031 but 0.012 remains" (the filters' refusal message).
Error budgetExceeded(std::string_view what, double cost, double remaining);

} // namespace pbx::filters
