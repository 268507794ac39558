// SPDX-License-Identifier: MIT
// Rényi-DP accounting over a grid of orders, as a live ledger or from a whole ledger.
#pragma once

#include "core/accounting/event.h"
#include "core/accounting/strategy.h"
#include "core/privacy/rdp_curves.h"

#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace pbx::accounting {

/// RDP accountant (Mironov 2017, arXiv 1702.07476; composition: ε̂'s add per order, Prop. 1).
/// Per-event curves: Gaussian αΔ²/(2σ²); Poisson-subsampled Gaussian (add/remove) exact at
/// integer orders and by the signed Mironov–Talwar–Zhang series at fractional ones (a sound
/// bound, see rdp_curves.h); Laplace (Mironov Prop. 6); pure / randomized response / sampled
/// Laplace through the tight ε-DP curve after amplification; zCDP ρα; an (ε, δ) event adds its
/// pure curve and keeps δ aside as δ_extra = 1 − Π(1 − δ_j) (dp_accounting's treatment).
/// Conversion: improved bound of CKS20 Prop. 12 (rdp_conversion.h); the optimal order is reported.
/// Gaussians sampled without replacement (replace-one): Wang, Balle & Kasiviswanathan 2019 Thm 9.
/// Not applicable (Unsupported): subsampled zCDP events.
class RdpAccountant final : public CompositionStrategy
{
public:
    explicit RdpAccountant(std::vector<double> orders = privacy::defaultRdpOrders(),
                           privacy::FractionalOrderMethod method
                           = privacy::FractionalOrderMethod::SignedSeries);

    static Result<std::unique_ptr<RdpAccountant>>
    fromLedger(const Ledger &ledger, std::vector<double> orders = privacy::defaultRdpOrders(),
               privacy::FractionalOrderMethod method = privacy::FractionalOrderMethod::SignedSeries);

    /// Adds `event.count` steps of the event (a live-ledger update; O(#orders) once the event's
    /// curve is cached). Errors: InvalidArgument (bad event), Unsupported (see class doc).
    Result<void> compose(const PrivacyEvent &event, Neighbouring relation);

    std::string name() const override { return "rdp"; }
    Result<StrategyAnswer> epsilonForDelta(double delta) const override;
    Result<StrategyAnswer> deltaForEpsilon(double epsilon) const override;

    /// ε at δ that each order alone certifies, with the same split of δ as epsilonForDelta (the
    /// (ε, δ) events' δ_extra first): element i is the conversion of order i, +∞ where that order
    /// gives no bound (α ≤ 1.01, ε̂ = ∞) or no δ is left, so the minimum is exactly
    /// epsilonForDelta(δ).epsilon. Shape: orders().size(). Valid: 0 < δ < 1. Errors:
    /// InvalidArgument. Source: as epsilonForDelta (Canonne, Kamath & Steinke 2020, Prop. 12).
    Result<std::vector<double>> epsilonByOrder(double delta) const;
    /// δ at ε that each order alone certifies, combined with δ_extra as deltaForEpsilon does: the
    /// minimum is exactly deltaForEpsilon(ε).delta. Shape: orders().size(), values in [0, 1].
    /// Valid: ε ≥ 0 finite. Errors: InvalidArgument.
    Result<std::vector<double>> deltaByOrder(double epsilon) const;

    const std::vector<double> &orders() const { return m_orders; }
    const std::vector<double> &rdp() const { return m_rdp; }
    double extraDelta() const;
    /// An accountant with nothing composed that keeps this one's orders, method and cache of
    /// per-event curves (so composing the same events again costs O(#orders) each).
    RdpAccountant emptyWithSameCurves() const;

private:
    /// The δ left for the RDP part once δ_extra is paid, rounded down (≤ 0: none left).
    double rdpShareOfDelta(double delta) const;
    /// An RDP conversion's δ combined with δ_extra: 1 − (1 − δ)(1 − δ_extra), rounded up.
    double withExtraDelta(double delta) const;
    /// Nothing composed (or only post-processing): δ = 0 at every ε.
    bool composedNothing() const;
    Result<const std::vector<double> *> curveFor(const PrivacyEvent &event, Neighbouring relation,
                                                 double *stepDelta);

    using Key = std::pair<EventShape, int>; ///< the event's shape and the neighbouring relation
    std::vector<double> m_orders;
    std::vector<double> m_rdp;
    double m_logKeep = 0.0; ///< log Π(1 − δ_j) of (ε, δ) events, rounded down
    privacy::FractionalOrderMethod m_method;
    std::map<Key, std::pair<std::vector<double>, double>> m_cache; ///< event → (curve, step δ)
};

/// The RDP accountant's ε(δ) (and δ(ε)) over growing prefixes of one ledger (the comparison's ε(k)
/// curve) by one running sum: each event's curve is computed once (RdpAccountant's cache) and
/// added when the prefixes reach it, instead of composing every prefix afresh (O(events) curve
/// evaluations for the whole curve instead of O(prefixes × events)). A prefix that ends inside an
/// event adds that event's steps to a copy of the running sum, so each prefix's sum is formed by
/// the same additions in the same order as RdpAccountant::fromLedger on ledgerPrefix's ledger
/// without its post-processing events: the answers are bit-identical to it.
class RdpPrefixComposer
{
public:
    explicit RdpPrefixComposer(Ledger ledger);
    /// As above, starting from `curves`' cache of per-event curves (the table's accountant on the
    /// same ledger: each curve is then computed once for the table and the curve together). Only
    /// the cache is taken; the sums start at zero. `curves` must use the default orders and method.
    RdpPrefixComposer(Ledger ledger, const RdpAccountant &curves);
    /// ε at `delta` and, with `epsilon`, δ at it (else NaN) of the ledger's first `steps` steps
    /// (counts expanded in event order; post-processing steps count and add nothing). Each is NaN
    /// where RdpAccountant's answer is an error. `steps` must not shrink from call to call.
    /// Errors: InvalidArgument (shrinking steps), those of RdpAccountant::compose (the event's
    /// index named); after an error every later call fails too.
    Result<std::pair<double, double>> upTo(std::int64_t steps, double delta, std::optional<double> epsilon);

private:
    Ledger m_ledger;
    RdpAccountant m_running;      ///< the events before m_next, whole
    std::size_t m_next = 0;       ///< the first event not in m_running
    std::int64_t m_stepsDone = 0; ///< the steps of the events in m_running
    std::int64_t m_lastSteps = 0;
    std::optional<Error> m_failed;
};

} // namespace pbx::accounting
