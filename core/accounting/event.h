// SPDX-License-Identifier: MIT
// The ledger: privacy events as plain values (mechanism + parameters + count + sampling) under one
// neighbouring relation. Every composition strategy reads this and nothing else.
#pragma once

#include "core/data/sensitivity.h"
#include "core/privacy/amplification.h"
#include "core/util/result.h"

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

namespace pbx::accounting {

/// Which datasets are neighbours (one type for the whole core: data::Neighbouring). Sensitivities
/// and per-event ε/δ/ρ are stated for this relation.
using data::Neighbouring;
using data::neighbouringName;

/// Not mechanisms::NoiseKind: besides Laplace and Gaussian noise an accountant takes any ε-, (ε, δ)- or
/// ρ-mechanism, randomized response and post-processing.
enum class MechanismKind {
    Gaussian,           ///< N(0, σ²) noise, ℓ2-sensitivity Δ: fields sigma, sensitivity
    Laplace,            ///< Lap(b) noise, ℓ1-sensitivity Δ: fields scale, sensitivity (ε₀ = Δ/b)
    PureDp,             ///< any ε-DP mechanism: field epsilon
    ApproxDp,           ///< any (ε, δ)-DP mechanism: fields epsilon, delta
    Zcdp,               ///< any ρ-zCDP mechanism: field rho
    RandomizedResponse, ///< binary randomized response with parameter ε (the ε-DP worst case)
    PostProcessing,     ///< a function of earlier outputs only: free (Dwork & Roth 2014, Prop. 2.1)
    /// an ε-bounded-range mechanism (its privacy loss lies in an interval of length ε; e.g. the
    /// exponential mechanism calibrated to ε-DP: Durfee & Rogers 2019): field epsilon. ε-DP, and
    /// (ε²/8)-zCDP (Cesar & Rogers 2021); RDP r_BR(α; ε) (privacy/rdp_curves.h).
    BoundedRange,
};

enum class SamplingKind {
    None,
    Poisson,            ///< each record kept independently with probability `rate`
    WithoutReplacement, ///< a uniformly random subset of fixed size rate·n
};

struct Sampling
{
    SamplingKind kind = SamplingKind::None;
    double rate = 1.0; ///< in (0, 1]
};

/// One ledger entry: `count` identical, independent (possibly adaptively chosen) releases.
struct PrivacyEvent
{
    MechanismKind mechanism = MechanismKind::PureDp;
    double sigma = 0.0;       ///< Gaussian noise standard deviation (> 0)
    double scale = 0.0;       ///< Laplace scale b (> 0)
    double sensitivity = 1.0; ///< Δ under the ledger's relation (> 0)
    double epsilon = 0.0;     ///< ε for PureDp / ApproxDp / RandomizedResponse / BoundedRange (≥ 0)
    double delta = 0.0;       ///< δ for ApproxDp, in [0, 1)
    double rho = 0.0;         ///< ρ for Zcdp (≥ 0)
    std::int64_t count = 1;   ///< ≥ 1
    Sampling sampling;
    /// Empty: the event touches every record. Otherwise a label of a disjoint part of the data;
    /// events in different parts compose in parallel: the worst part under add/remove, the worst
    /// pair of parts under replace (parallel_composition.h).
    std::string partition;
    /// A PureDp event whose ε is an ex-post guarantee (the realised loss of e.g. Laplace noise
    /// reduction stopped at level ε; Ligett et al. 2017). Ex-post losses compose only by basic
    /// composition (Rogers et al. 2023, Lemma 5.1); every other strategy reports Unsupported.
    /// Basic composition adds the δ of ex-post events (a union bound), never 1 − Π(1 − δ).
    bool expost = false;
    /// With `expost`: the ε (and δ, then an ApproxDp event) is the settled cost of an output-DP
    /// mechanism, E(cell) of the cell its output fell in (Hartmann et al. 2023, Definition 2).
    /// Settled costs compose across mechanisms only as the ODP filter composes them, by their sum
    /// (Theorem 7): basic composition; the paper leaves every other composition open.
    bool outputDp = false;
};

struct Ledger
{
    Neighbouring neighbours = Neighbouring::AddRemove;
    std::vector<PrivacyEvent> events;
};

/// "gaussian", "laplace", "pure", "approx", "zcdp", "randomized-response", "post-processing",
/// "bounded-range".
std::string mechanismName(MechanismKind kind);

/// Checks ranges (NaN/∞, σ, b, Δ > 0, ε ≥ 0, 0 ≤ δ < 1, ρ ≥ 0, count ≥ 1, 0 < rate ≤ 1).
/// Errors: InvalidArgument naming `events[index].field`.
Result<void> validateEvent(const PrivacyEvent &event, std::size_t index);
Result<void> validateLedger(const Ledger &ledger);

/// True when the sampling scheme has an amplification theorem for the relation: Poisson with
/// add/remove, without-replacement with replace-one (Steinke 2022 §6; Balle et al. 2018).
bool samplingMatchesRelation(const Sampling &sampling, Neighbouring relation);

/// Unsupported, with the reason shown by every strategy but basic, when `event` is ex-post
/// (see PrivacyEvent::expost); ok otherwise.
Result<void> requireExAnte(const PrivacyEvent &event);

/// The (ε, δ)-DP guarantee of ONE step of the event, after amplification by its sampling:
/// Laplace ε₀ = Δ/b; pure / randomized response / bounded range (ε, 0); approx (ε, δ); post-processing (0,
/// 0). Errors: Unsupported for Gaussian and zCDP events (no pure ε, and no canonical δ) and for a sampling
/// scheme that does not match the relation; the message says why.
Result<privacy::ApproxDp> approxDpPerStep(const PrivacyEvent &event, Neighbouring relation);

/// approxDpPerStep of `ledger.events[index]` under `ledger.neighbours`, the loop body every (ε, δ)
/// composition shares (basic, advanced, the per-step view's Σδᵢ). Valid: index < events.size().
/// Errors: those of approxDpPerStep, the message prefixed "events[index] (mechanism): ".
Result<privacy::ApproxDp> approxDpStepAt(const Ledger &ledger, std::size_t index);

/// Every field that decides one step's privacy loss: mechanism, σ, b, Δ, ε, δ, ρ, sampling
/// kind and rate (not count, partition or ex-post, which say how often and where a step runs).
using EventShape = std::tuple<int, double, double, double, double, double, double, int, double>;

/// The event's EventShape: two events with equal shapes have the same per-step curve, so
/// accountants may compute it once (a cache keyed by fewer fields mixed up different ρ's).
EventShape eventShapeOf(const PrivacyEvent &event);

} // namespace pbx::accounting
