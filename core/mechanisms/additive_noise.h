// SPDX-License-Identifier: MIT
// The Laplace and Gaussian mechanisms for a scalar query: calibration from an accuracy target
// or from a privacy cost, the privacy each costs, and the error bar of a release.
#pragma once

#include "core/mechanisms/noise_kind.h"
#include "core/mechanisms/noise_source.h"
#include "core/util/result.h"

#include <string_view>

namespace pbx::mechanisms {

/// An additive-noise mechanism M(x) = f(x) + Z for a scalar f with sensitivity Δ
/// (ℓ1 for Laplace, ℓ2 for Gaussian; they coincide for a scalar).
class AdditiveNoiseMechanism
{
public:
    /// Noise at a given scale (b for Laplace, σ for Gaussian).
    /// Errors: InvalidArgument unless scale and sensitivity are finite and > 0.
    static Result<AdditiveNoiseMechanism> withScale(NoiseKind kind, double scale, double sensitivity);

    /// The least noise meeting |Z| ≤ a with probability ≥ 1 − β (docs/accuracy-first.md §5.1):
    /// Laplace b = a / ln(1/β), since P(|Lap(b)| > a) = e^{−a/b};
    /// Gaussian σ = a / Φ⁻¹(1 − β/2), since P(|N(0,σ²)| > a) = 2(1 − Φ(a/σ)).
    /// Valid: a > 0 finite, 0 < β < 1, sensitivity > 0. Errors: InvalidArgument otherwise.
    static Result<AdditiveNoiseMechanism> forAbsoluteError(NoiseKind kind, double error, double beta,
                                                           double sensitivity);

    /// The noise that costs exactly `cost` (ε for Laplace, ρ for Gaussian): b = Δ/ε,
    /// σ = Δ/√(2ρ). The scale is rounded up (more noise is safe), so cost() ≤ the given cost
    /// up to the ulp-level upward rounding of cost() itself.
    /// Errors: InvalidArgument unless cost and sensitivity are finite and > 0.
    static Result<AdditiveNoiseMechanism> forCost(NoiseKind kind, double cost, double sensitivity);

    NoiseKind kind() const { return m_kind; }
    double scale() const { return m_scale; }
    double sensitivity() const { return m_sensitivity; }

    /// Privacy cost in the kind's unit: ε = Δ1/b or ρ = Δ2²/(2σ²), rounded up.
    double cost() const;

    /// Half-width w of the central interval with P(|Z| ≤ w) ≥ 1 − β: b·ln(1/β) or σ·Φ⁻¹(1−β/2),
    /// rounded up. Valid: 0 < β < 1 (NaN otherwise).
    double halfWidth(double beta) const;

    /// f(x) + Z. The caller must have charged cost() to a filter first (predictability).
    double release(double exactValue, NoiseSource &noise) const;

private:
    AdditiveNoiseMechanism(NoiseKind kind, double scale, double sensitivity)
        : m_kind(kind), m_scale(scale), m_sensitivity(sensitivity)
    {}
    NoiseKind m_kind;
    double m_scale;
    double m_sensitivity;
};

} // namespace pbx::mechanisms
