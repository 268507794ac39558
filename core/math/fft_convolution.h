// SPDX-License-Identifier: MIT
// Linear and k-fold convolution of probability vectors by FFT (Eigen's kissfft backend), the
// engine of privacy-loss-distribution composition.
#pragma once

#include <cstdint>
#include <vector>

namespace pbx::math {

/// The smallest n' ≥ n of the form 2^a·3^b·5^c (fast FFT sizes). n ≥ 1.
std::int64_t nextFastFftLength(std::int64_t n);

/// Linear convolution (a ⊛ b)[i] = Σ_j a[j]·b[i−j], length |a| + |b| − 1 (empty if either is).
/// Direct summation for small inputs, FFT otherwise. FFT round-off leaves absolute errors of
/// about 1e-16·Σa·Σb per entry; negative outputs are clipped to 0 (they are pure round-off).
std::vector<double> convolve(const std::vector<double> &a, const std::vector<double> &b);

/// Linear convolution by FFT whatever the sizes (convolve's large-input path).
std::vector<double> convolveByFft(const std::vector<double> &a, const std::vector<double> &b);

/// A bound r on the error of one forward or inverse transform of length n, both in the normwise
/// form ‖ŷ − y‖₂ ≤ r‖y‖₂ (Higham 2002, "Accuracy and Stability of Numerical Algorithms",
/// Thm 24.2: log₂n·η/(1 − log₂n·η), η = μ + γ₄(√2 + μ) ≈ 6.7u for radix 2) and componentwise,
/// |ŷ_j − y_j| ≤ r‖x‖₁ (each of the log₂n stages adds at most η‖x‖₁ to every output; see
/// docs/pld-numerics.md §2); taken as 16·u·⌈log₂ n⌉ to cover kissfft's radix-3/4/5 butterflies
/// and its twiddle error μ.
double fftRelativeErrorBound(std::int64_t n);

/// k-fold self-convolution of p computed as ifft(fft(p)^k) on a circular buffer of length
/// `length` (≥ |p|). Entry j of the result is the total mass of p^{⊛k} at indices ≡ j (mod
/// length): callers choose `length` to cover the window that holds all but a negligible,
/// separately accounted mass (Chernoff window) and read that window. Negative round-off → 0.
/// If l1ErrorBound is given, it receives a bound on ‖result − exact‖₁ for a probability vector
/// p (‖p‖₁ ≤ 1), computed from the spectrum (docs/pld-numerics.md §2): with r the componentwise
/// transform error bound r‖p‖₁, each spectral value errs by e_j ≤ k·r·(|ẑ_j| + r)^{k−1} + 8k·u·|ẑ_j|^k,
/// and ‖Δresult‖₁ ≤ √N‖Δresult‖₂ ≤ ‖e‖₂ + r‖ẑ^k‖₂ (before the clipping of negatives, which only
/// moves entries towards their exact non-negative values).
std::vector<double> selfConvolveCircular(const std::vector<double> &p, std::int64_t k, std::int64_t length,
                                         double *l1ErrorBound = nullptr);

} // namespace pbx::math
