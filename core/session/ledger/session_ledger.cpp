// SPDX-License-Identifier: MIT
#include "core/session/ledger/session_ledger.h"

#include "core/data/query.h"
#include "core/math/directed_rounding.h"
#include "core/session/release/query_shape.h"
#include "core/session/session.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <string>

namespace pbx::accounting {

namespace {

enum class Mapping { Laplace, Gaussian, BrownianReduction, LaplaceReduction };

Result<Mapping> mappingFor(const session::LedgerEvent &event, std::size_t index)
{
    switch (event.mechanism) {
    case session::EventMechanism::Laplace:
    case session::EventMechanism::DoublingLaplace:
        return Mapping::Laplace;
    case session::EventMechanism::Gaussian:
    case session::EventMechanism::DoublingGaussian:
        return Mapping::Gaussian;
    case session::EventMechanism::Brownian:
        return Mapping::BrownianReduction;
    case session::EventMechanism::LaplaceNr:
        return Mapping::LaplaceReduction;
    default:
        break;
    }
    return makeError(ErrorCode::Unsupported, "ledger event " + std::to_string(index + 1)
                                                 + ": no accounting is known for mechanism \""
                                                 + event.mechanismName() + "\"");
}

bool positiveFinite(double x)
{
    return std::isfinite(x) && x > 0.0;
}

/// Δ = ε·b (Laplace) or σ·√(2ρ) (Gaussian), nudged up so the recovered Δ is never below the one
/// the cost was computed from (the cost was rounded up, the product is rounded once or twice).
double laplaceSensitivity(double epsilon, double scale)
{
    return math::nudgeUp(epsilon * scale, 1);
}

double gaussianSensitivity(double rho, double sigma)
{
    return math::nudgeUp(sigma * std::sqrt(2.0 * rho), 2);
}

PrivacyEvent laplaceEvent(double scale, double sensitivity)
{
    PrivacyEvent e;
    e.mechanism = MechanismKind::Laplace;
    e.scale = scale;
    e.sensitivity = sensitivity;
    return e;
}

PrivacyEvent gaussianEvent(double sigma, double sensitivity)
{
    PrivacyEvent e;
    e.mechanism = MechanismKind::Gaussian;
    e.sigma = sigma;
    e.sensitivity = sensitivity;
    return e;
}

/// Δ of one quantity of a ledger event from its request, when it can be determined.
using SensitivityLookup
    = std::function<std::optional<double>(const session::LedgerEvent &, const std::string &quantity)>;

Result<Ledger> convert(const std::vector<session::LedgerEvent> &events, data::Neighbouring neighbours,
                       std::vector<std::size_t> *origin, const SensitivityLookup &lookup);

} // namespace

Result<Ledger> ledgerFromEvents(const std::vector<session::LedgerEvent> &events,
                                data::Neighbouring neighbours, std::vector<std::size_t> *origin)
{
    return convert(events, neighbours, origin, {});
}

Result<Ledger> ledgerFromSession(const session::Session &session, std::vector<std::size_t> *origin)
{
    const data::Neighbouring neighbours = session.settings().neighbours;
    const data::Table &table = session.table();
    const SensitivityLookup lookup
        = [&](const session::LedgerEvent &event, const std::string &quantity) -> std::optional<double> {
        if (quantity == "count")
            return data::countSensitivity(neighbours).l1;
        auto query = data::CompiledQuery::compile(event.request.query, table);
        if (!query)
            return std::nullopt;
        if (quantity == "sum" || quantity == "centred-sum")
            return session::sumChannelSensitivity(quantity, query->bounds(), neighbours,
                                                  static_cast<double>(session.publicRowCount()));
        return std::nullopt;
    };
    return convert(session.events(), neighbours, origin, lookup);
}

namespace {

/// An output-DP mechanism (sparse vector, PTR-IQR, early stopping, budget recovery) records no
/// attempts: its cost is the one settled in the cell its output fell in, E(cell), or the worst case
/// E* when it was settled so. That ε with the mechanism's δ (debited in full) is what the ODP
/// filter composed (Hartmann et al. 2023, Theorem 7): one ex-post (E(cell), δ) event, flagged
/// outputDp, which only basic composition accepts. (Lemma 4 would give the ex-ante (E*, δ), but
/// the session paid E(cell): the report compares what was paid.) A refusal released nothing.
Result<std::vector<PrivacyEvent>> odpEvents(const session::LedgerEvent &event, std::size_t i)
{
    if (event.status != session::EventStatus::Released)
        return std::vector<PrivacyEvent>{};
    const double epsilon = std::max(event.cost, event.odpRecord()->settledEpsilon);
    const double delta = event.odpRecord()->guarantee.delta;
    if (!std::isfinite(epsilon) || epsilon < 0.0 || !(delta >= 0.0 && delta < 1.0))
        return makeError(ErrorCode::InvalidArgument,
                         "ledger event " + std::to_string(i + 1) + " (" + event.mechanismName()
                             + "): its settled output-DP cost is not a finite ε ≥ 0 with δ in [0, 1)");
    PrivacyEvent e;
    e.mechanism = delta > 0.0 ? MechanismKind::ApproxDp : MechanismKind::PureDp;
    e.epsilon = epsilon;
    e.delta = delta;
    e.expost = true;
    e.outputDp = true;
    return std::vector<PrivacyEvent>{e};
}

PrivacyEvent pureEvent(double epsilon)
{
    PrivacyEvent e;
    e.mechanism = MechanismKind::PureDp;
    e.epsilon = epsilon;
    return e;
}

/// A growing-database stream (BBScheduler or BBImprover, Cummings et al. 2018): each released
/// epoch or run is one run of the Laplace-k box at scale k/(ε_i t_i) (rounded up) on a t_i-row
/// prefix, so it is ε_i-DP whatever the schedule. A ρ-charged run (zCDP schedules, every BBImprover
/// run) has its box at ε_i = √(2ρ_i) rounded down, so the pure event also implies the filter's ρ_i
/// (ε_i²/2 ≤ ρ_i, Bun & Steinke 2016 Prop. 1.4) and is the sounder and tighter record: a Zcdp
/// event would forget that the run is pure. One pure event per run: every strategy applies to it.
/// An NSG stream: each sparse-vector round is (7/3)f(s_i)-DP whatever its outcome (the charge made
/// when it opened; a ρ charge is ((7/3)f(s_i))²/2 rounded up, so √(2ρ) ≥ that ε): one pure event
/// per round. A PMWG stream: its rounds are NSG's rounds (the same charge), one pure event each.
/// An ERMG stream: each release is Gaussian output perturbation at σ_t ≥ Δ_t/√(2ρ_t), so it is
/// ρ_t-zCDP (Bun & Steinke 2016, Prop. 1.6) and has no pure ε: one ρ event per release. (A SmallDBG
/// epoch is the exponential mechanism at ε_i: pure events.)
std::vector<PrivacyEvent> growingEvents(const session::LedgerEvent &event)
{
    const session::GrowingRecord &record = *event.growingRecord();
    const bool rho = event.costKind == filters::ChargeKind::Rho;
    std::vector<PrivacyEvent> out;
    auto roundEpsilon = [&](double charge) { return rho ? math::nudgeUp(std::sqrt(2.0 * charge)) : charge; };
    if (record.pmwg) {
        for (const session::PmwgRoundRecord &round : record.pmwg->rounds)
            out.push_back(pureEvent(roundEpsilon(round.charge)));
    } else if (record.nsg) {
        for (const session::NsgRoundRecord &round : record.nsg->rounds)
            out.push_back(pureEvent(roundEpsilon(round.charge)));
    } else if (event.request.growing()
               && event.request.growing()->algorithm == session::GrowingAlgorithm::Ermg) {
        for (const session::GrowingEpochRecord &release : record.epochs) {
            PrivacyEvent e;
            e.mechanism = MechanismKind::Zcdp;
            e.rho = release.rho;
            out.push_back(e);
        }
    } else {
        for (const session::GrowingEpochRecord &epoch : record.epochs)
            out.push_back(pureEvent(epoch.epsilon));
    }
    return out;
}

/// A strategy request (histogram, quantile, workload, mode): its charge is a pure ε fixed before
/// its noise was drawn (transformation, sampling and the replace-one factor included), so the
/// event is one PureDp event of that ε; a mode's picks are `count` events of the ε per pick,
/// bounded-range for the exponential mechanism (privacy/rdp_curves.h, rdpBoundedRange), pure
/// for report-noisy-max. A one-category mode cost nothing and adds nothing.
std::vector<PrivacyEvent> strategyEvents(const session::LedgerEvent &event)
{
    const session::StrategyRequestSpec *spec = event.request.strategy();
    if (!(event.cost > 0.0))
        return {};
    if (spec && spec->kind == session::StrategyRequestKind::Mode && !event.attempts.empty()
        && !event.attempts.front().releases.empty()) {
        const auto &releases = event.attempts.front().releases;
        PrivacyEvent e = pureEvent(releases.front().cost);
        if (event.mechanism == session::EventMechanism::ExponentialMechanism)
            e.mechanism = MechanismKind::BoundedRange;
        e.count = static_cast<std::int64_t>(releases.size());
        return {e};
    }
    return {pureEvent(event.cost)};
}

/// A noise reduction's first and last release of one quantity, in release order.
struct Reduction
{
    const session::NoisyRelease *first = nullptr;
    const session::NoisyRelease *last = nullptr;
};

/// The event one noise reduction of `quantity` composes as: a Gaussian at its last variance
/// (Brownian), or an ex-post pure ε at its last scale (Laplace).
Result<PrivacyEvent> reductionEvent(const session::LedgerEvent &event, std::size_t i, Mapping mapping,
                                    const std::string &quantity, const Reduction &r,
                                    const SensitivityLookup &lookup)
{
    if (mapping == Mapping::BrownianReduction) {
        std::optional<double> sensitivity;
        if (lookup)
            sensitivity = lookup(event, quantity);
        if (!sensitivity && event.costKind != filters::ChargeKind::Rho)
            return makeError(ErrorCode::Unsupported, "ledger event " + std::to_string(i + 1)
                                                         + ": the sensitivity of a Brownian noise reduction "
                                                           "charged ex-post cannot be read from its charges");
        return gaussianEvent(r.last->scale,
                             sensitivity.value_or(gaussianSensitivity(r.first->cost, r.first->scale)));
    }
    const double sensitivity = laplaceSensitivity(r.first->cost, r.first->scale);
    PrivacyEvent e = pureEvent(math::nudgeUp(sensitivity / r.last->scale, 1));
    e.expost = true;
    return e;
}

/// The releases of a single release, doubling or noise reduction: each release of a single or
/// doubling run is its own Laplace or Gaussian event; a noise reduction composes as its last level.
Result<std::vector<PrivacyEvent>> releaseEvents(const session::LedgerEvent &event, std::size_t i,
                                                const SensitivityLookup &lookup)
{
    PBX_TRY(mapping, mappingFor(event, i));
    std::vector<PrivacyEvent> out;
    std::vector<std::string> quantities;
    std::map<std::string, Reduction> reductions;
    for (const session::Attempt &attempt : event.attempts) {
        for (const session::NoisyRelease &release : attempt.releases) {
            if (!positiveFinite(release.scale) || !positiveFinite(release.cost))
                return makeError(ErrorCode::InvalidArgument, "ledger event " + std::to_string(i + 1) + " ("
                                                                 + event.mechanismName()
                                                                 + "): a release has a scale or cost that is "
                                                                   "not a finite number > 0");
            switch (mapping) {
            case Mapping::Laplace:
                out.push_back(laplaceEvent(release.scale, laplaceSensitivity(release.cost, release.scale)));
                break;
            case Mapping::Gaussian:
                out.push_back(gaussianEvent(release.scale, gaussianSensitivity(release.cost, release.scale)));
                break;
            case Mapping::BrownianReduction:
            case Mapping::LaplaceReduction: {
                auto [it, inserted] = reductions.try_emplace(release.quantity);
                if (inserted) {
                    quantities.push_back(release.quantity);
                    it->second.first = &release;
                }
                it->second.last = &release;
                break;
            }
            }
        }
    }
    for (const std::string &quantity : quantities) {
        PBX_TRY(e, reductionEvent(event, i, mapping, quantity, reductions.at(quantity), lookup));
        out.push_back(e);
    }
    return out;
}

Result<Ledger> convert(const std::vector<session::LedgerEvent> &events, data::Neighbouring neighbours,
                       std::vector<std::size_t> *origin, const SensitivityLookup &lookup)
{
    Ledger ledger;
    ledger.neighbours = neighbours;
    if (origin)
        origin->clear();
    for (std::size_t i = 0; i < events.size(); ++i) {
        const session::LedgerEvent &event = events[i];
        Result<std::vector<PrivacyEvent>> produced = std::vector<PrivacyEvent>{};
        if (event.odpRecord())
            produced = odpEvents(event, i);
        else if (event.attempts.empty()) // whatever was released was paid for; a refusal released nothing
            continue;
        else if (event.growingRecord())
            produced = growingEvents(event);
        else if (event.strategyRecord())
            produced = strategyEvents(event);
        else
            produced = releaseEvents(event, i, lookup);
        if (!produced)
            return produced.error();
        ledger.events.insert(ledger.events.end(), produced->begin(), produced->end());
        if (origin)
            origin->insert(origin->end(), produced->size(), i);
    }
    return ledger;
}

} // namespace

} // namespace pbx::accounting
