// SPDX-License-Identifier: MIT
// Propose-test-release with ODP costs (Hartmann, Bindschaedler, Bentkamp & West, PoPETs 2023,
// Definition 9 and Lemma 10), instantiated as an interquartile-range mechanism in the style of
// Dwork & Lei 2009 with two shifted log-scale discretisations. Constructions and proofs in
// docs/output-dp.md.
#pragma once

#include "core/mechanisms/random_bits.h"
#include "core/privacy/odp_guarantee.h"

#include <optional>
#include <vector>

namespace pbx::odp {

/// The test threshold t = g₀ − 1 + ln(1/(2δ_f))/ε for a statistic γ of sensitivity 1 and a good
/// set {γ ≥ g₀}: a dataset with γ ≤ g₀ − 1 passes with probability ≤ δ_f.
/// Valid: ε > 0 finite, 0 < δ_f < ½, g₀ ≥ 1. Errors: InvalidArgument naming the field.
Result<double> ptrThreshold(double epsilon, double failureProbability, int goodFrom);

/// δ_f = ½·exp(−ε(t − g₀ + 1)) recomputed from the threshold actually used, rounded up: the δ to
/// charge (e.g. ε = 0.1, δ_f = 1e-6 gives t = 132.22363377404326 and 1.0000000000000023e-06).
double ptrFailureProbability(double epsilon, double threshold, int goodFrom);

/// P[γ + Lap(1/ε) > t] = 1 − ½e^{−ε(γ−t)} for γ ≥ t, ½e^{−ε(t−γ)} below.
double ptrPassProbability(double gamma, double epsilon, double threshold);

/// A numeric column clipped to public bounds [lo, hi], replace-one neighbours, n public.
struct IqrData
{
    std::vector<double> sorted; ///< clipped, ascending
    double lo = 0.0;
    double hi = 0.0;

    /// Clips and sorts. Errors: InvalidArgument (n < 4; lo ≥ hi or non-finite bounds; NaN values).
    static Result<IqrData> create(std::vector<double> values, double lo, double hi);
    std::size_t size() const { return sorted.size(); }
    /// 1-based quartile ranks r₁ = ⌈n/4⌉, r₃ = ⌈3n/4⌉.
    std::size_t rank1() const;
    std::size_t rank3() const;
    /// x_(i) extended by lo for i < 1 and hi for i > n (1-based).
    double order(long long i) const;
    double iqr() const;
    /// The largest and smallest IQR after replacing k records (docs/output-dp.md):
    /// max_{t=0..k} x_(r₃+t) − x_(r₁−k+t) and max(0, min_{t=0..k} x_(r₃−t) − x_(r₁+k−t)).
    double iqrMax(long long k) const;
    double iqrMin(long long k) const;
};

/// Dwork–Lei's default bin width ln(1 + 1/ln n). Precondition: n ≥ 4.
double defaultBinWidth(std::size_t n);

/// The log-scale bin of an IQR value: ⌊(ln v − o·w)/w⌋ for v > 0, and nullopt for v = 0 (its own
/// bin). The same function bins the data and the extremes, so no float edges can disagree.
std::optional<long long> iqrBin(double value, double width, double offset);

/// γ(D): the fewest replaced records that move the IQR out of its bin (binary search over k,
/// O(n log n) worst case). Sensitivity 1; with γ ≥ 2 every neighbour stays in the bin, so g₀ = 2.
/// Valid: width > 0 finite, offset ∈ {0, ½} (any value in [0, 1) works).
/// Errors: InvalidArgument.
Result<long long> iqrGamma(const IqrData &data, double width, double offset);

enum class IqrReleaseMode {
    Noisy, ///< release IQR·exp(Lap(w/ε)); ε_R = ε
    Bin,   ///< release the bin's geometric midpoint exp((j + o + ½)w); ε_R = 0
};

enum class PtrAccounting {
    Entries, ///< two filter entries: M₁, then M₂ only if M₁ = ⊥ (default)
    Lemma10, ///< one mechanism, cells {(⊥,⊥)} and {release}
    Cells3,  ///< one mechanism, three cells via Lemma 6
    Dp,      ///< one mechanism, the trivial guarantee at its worst case
};

/// The cost of the two-discretisation mechanism S in each of its three outcomes
/// (case 1: M₁ released; case 2: M₁ = ⊥, M₂ released; case 3: both ⊥).
struct PtrCaseCosts
{
    double epsilon[3] = {0, 0, 0};
    double delta[3] = {0, 0, 0};
    double worstEpsilon = 0.0; ///< admission
    double admissionDelta = 0.0;
};
/// Valid: ε > 0, 0 < δ_f < ½ (δ_f as recomputed by ptrFailureProbability). Not validated here.
PtrCaseCosts ptrCaseCosts(PtrAccounting accounting, IqrReleaseMode mode, double epsilon,
                          double failureProbability);

/// One PTR function's ODP guarantee: cells 0 = ⊥ (ε) and 1 = released (ε + ε_R), δ_f.
Result<OdpGuarantee> ptrGuarantee(IqrReleaseMode mode, double epsilon, double failureProbability);

struct PtrIqrParameters
{
    double epsilon = 0.0;            ///< per PTR function
    double failureProbability = 0.0; ///< δ_f requested
    double width = 0.0;              ///< w; 0 means defaultBinWidth(n)
    IqrReleaseMode mode = IqrReleaseMode::Noisy;
    bool randomOrder = true; ///< a public coin picks which offset runs first
};

struct PtrIqrRun
{
    double width = 0.0;
    double threshold = 0.0;
    double failureProbability = 0.0; ///< recomputed, rounded up
    double offsets[2] = {0.0, 0.5};  ///< in the order run
    long long gamma[2] = {0, 0};     ///< in the order run
    int outcome = 3;                 ///< 1, 2 or 3
    std::optional<double> released;  ///< the IQR estimate, if any
};

/// Runs S: M₁ at the first offset; if it fails, M₂ at the other. Test noise and the noisy-mode
/// log noise are continuous Laplace draws built from 53 uniform bits (floating point: a
/// teaching-grade sampler; docs/output-dp.md says why there is no exact one here).
/// Errors: InvalidArgument naming the field (ε, δ_f ∉ (0, ½), w); the source's error.
Result<PtrIqrRun> runPtrIqr(const IqrData &data, const PtrIqrParameters &p, mechanisms::RandomBits &bits);

/// A Laplace(scale) draw from 53 uniform bits by inversion (floating point).
double sampleLaplace(mechanisms::RandomBits &bits, double scale);

} // namespace pbx::odp
