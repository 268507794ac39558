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

/// k-fold self-convolution of p computed as ifft(fft(p)^k) on a circular buffer of length
/// `length` (≥ |p|). Entry j of the result is the total mass of p^{⊛k} at indices ≡ j (mod
/// length): callers choose `length` to cover the window that holds all but a negligible,
/// separately accounted mass (Chernoff window) and read that window. Negative round-off → 0.
std::vector<double> selfConvolveCircular(const std::vector<double> &p, std::int64_t k,
                                         std::int64_t length);

} // namespace pbx::math
