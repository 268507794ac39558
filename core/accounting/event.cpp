// SPDX-License-Identifier: MIT
#include "core/accounting/event.h"

#include "core/util/parameter_checks.h"

#include <cmath>

namespace pbx::accounting {

std::string mechanismName(MechanismKind kind)
{
    switch (kind) {
    case MechanismKind::Gaussian:
        return "gaussian";
    case MechanismKind::Laplace:
        return "laplace";
    case MechanismKind::PureDp:
        return "pure";
    case MechanismKind::ApproxDp:
        return "approx";
    case MechanismKind::Zcdp:
        return "zcdp";
    case MechanismKind::RandomizedResponse:
        return "randomized-response";
    case MechanismKind::PostProcessing:
        return "post-processing";
    case MechanismKind::BoundedRange:
        return "bounded-range";
    }
    return "unknown";
}

namespace {
Error fieldError(std::size_t index, const char *field, const std::string &what)
{
    return makeError(ErrorCode::InvalidArgument,
                     "events[" + std::to_string(index) + "]." + field + ": " + what);
}
} // namespace

Result<void> validateEvent(const PrivacyEvent &e, std::size_t i)
{
    if (e.count < 1)
        return fieldError(i, "count", "must be an integer ≥ 1");
    const std::string at = "events[" + std::to_string(i) + "]."; // messages read "events[2].sigma: must …"
    switch (e.mechanism) {
    case MechanismKind::Gaussian:
        PBX_RETURN_IF_ERROR(checkPositive(e.sigma, at + "sigma:"));
        PBX_RETURN_IF_ERROR(checkSensitivity(e.sensitivity, at + "sensitivity:"));
        break;
    case MechanismKind::Laplace:
        PBX_RETURN_IF_ERROR(checkPositive(e.scale, at + "scale:"));
        PBX_RETURN_IF_ERROR(checkSensitivity(e.sensitivity, at + "sensitivity:"));
        break;
    case MechanismKind::ApproxDp:
        PBX_RETURN_IF_ERROR(checkDelta(e.delta, at + "delta:", UnitInterval::ClosedOpen));
        [[fallthrough]];
    case MechanismKind::PureDp:
    case MechanismKind::RandomizedResponse:
    case MechanismKind::BoundedRange:
        PBX_RETURN_IF_ERROR(checkEpsilon(e.epsilon, at + "epsilon:"));
        break;
    case MechanismKind::Zcdp:
        PBX_RETURN_IF_ERROR(checkRho(e.rho, at + "rho:"));
        break;
    case MechanismKind::PostProcessing:
        break;
    }
    if (e.sampling.kind != SamplingKind::None)
        PBX_RETURN_IF_ERROR(
            checkProbability(e.sampling.rate, at + "sampling.rate:", UnitInterval::OpenClosed));
    if (e.expost && (e.mechanism != MechanismKind::PureDp || e.sampling.kind != SamplingKind::None)
        && !(e.outputDp && e.mechanism == MechanismKind::ApproxDp && e.sampling.kind == SamplingKind::None))
        return fieldError(
            i, "expost", "only an unsampled pure event (or a settled output-DP (ε, δ) event) can be ex-post");
    if (e.outputDp && !e.expost)
        return fieldError(i, "outputDp", "a settled output-DP cost is ex-post");
    return {};
}

Result<void> validateLedger(const Ledger &ledger)
{
    for (std::size_t i = 0; i < ledger.events.size(); ++i)
        if (auto ok = validateEvent(ledger.events[i], i); !ok)
            return ok;
    return {};
}

bool samplingMatchesRelation(const Sampling &s, Neighbouring relation)
{
    switch (s.kind) {
    case SamplingKind::None:
        return true;
    case SamplingKind::Poisson:
        return relation == Neighbouring::AddRemove;
    case SamplingKind::WithoutReplacement:
        return relation == Neighbouring::Replace;
    }
    return false;
}

Result<void> requireExAnte(const PrivacyEvent &e)
{
    if (!e.expost)
        return {};
    if (e.outputDp)
        return makeError(ErrorCode::Unsupported,
                         "not applicable: the ledger holds settled output-DP costs, which compose across "
                         "mechanisms only by their sum (basic composition; Hartmann et al. 2023, Theorem 7)");
    return makeError(ErrorCode::Unsupported,
                     "not applicable: Laplace noise reduction is ex-post private, its loss composes "
                     "only by (ex-post) basic composition (Rogers et al. 2023, Lemma 5.1)");
}

Result<privacy::ApproxDp> approxDpPerStep(const PrivacyEvent &e, Neighbouring relation)
{
    privacy::ApproxDp base;
    switch (e.mechanism) {
    case MechanismKind::Gaussian:
        return makeError(ErrorCode::Unsupported,
                         "a Gaussian event has no pure ε and no canonical (ε, δ); use zcdp, rdp or pld");
    case MechanismKind::Zcdp:
        return makeError(ErrorCode::Unsupported, "a zCDP event has no canonical (ε, δ); use zcdp or rdp");
    case MechanismKind::PostProcessing:
        return privacy::ApproxDp{0.0, 0.0};
    case MechanismKind::Laplace:
        base.epsilon = e.sensitivity / e.scale;
        break;
    case MechanismKind::PureDp:
    case MechanismKind::RandomizedResponse:
    case MechanismKind::BoundedRange: // ε-bounded range implies ε-DP (the loss lies in [−ε, ε])
        base.epsilon = e.epsilon;
        break;
    case MechanismKind::ApproxDp:
        base.epsilon = e.epsilon;
        base.delta = e.delta;
        break;
    }
    if (e.sampling.kind == SamplingKind::None || e.sampling.rate == 1.0)
        return base;
    if (!samplingMatchesRelation(e.sampling, relation))
        return makeError(ErrorCode::Unsupported,
                         e.sampling.kind == SamplingKind::Poisson
                             ? "Poisson-subsampling amplification is proven for add/remove neighbours only"
                             : "sampling without replacement is amplified for replace-one neighbours only");
    return privacy::amplifyBySubsampling(base, e.sampling.rate);
}

Result<privacy::ApproxDp> approxDpStepAt(const Ledger &ledger, std::size_t index)
{
    const PrivacyEvent &e = ledger.events[index];
    auto step = approxDpPerStep(e, ledger.neighbours);
    if (!step)
        return makeError(step.error().code, "events[" + std::to_string(index) + "] ("
                                                + mechanismName(e.mechanism) + "): " + step.error().message);
    return step;
}

EventShape eventShapeOf(const PrivacyEvent &event)
{
    return {static_cast<int>(event.mechanism),
            event.sigma,
            event.scale,
            event.sensitivity,
            event.epsilon,
            event.delta,
            event.rho,
            static_cast<int>(event.sampling.kind),
            event.sampling.rate};
}

} // namespace pbx::accounting
