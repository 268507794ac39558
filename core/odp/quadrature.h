// SPDX-License-Identifier: MIT
// Composite Gauss–Legendre quadrature over consecutive segments, for the ODP module's smooth
// integrands with known kinks (the kinks go on segment ends).
#pragma once

#include <boost/math/quadrature/gauss.hpp>

#include <vector>

namespace pbx::odp {

/// Calls visit(x, w) for the nodes x and weights w of a 20-point Gauss–Legendre rule on each of
/// `pieces` equal parts of every segment [breaks[i], breaks[i+1]]; Σ w·g(x) approximates ∫ g.
/// Segments of zero length are skipped. `breaks` must be sorted.
template<typename Visit>
void integrateComposite(const std::vector<double> &breaks, int pieces, Visit &&visit)
{
    using Rule = boost::math::quadrature::gauss<double, 20>;
    const auto &abscissa = Rule::abscissa();
    const auto &weights = Rule::weights();
    for (std::size_t s = 0; s + 1 < breaks.size(); ++s) {
        const double a = breaks[s];
        const double b = breaks[s + 1];
        if (!(b > a))
            continue;
        const double h = (b - a) / pieces;
        for (int piece = 0; piece < pieces; ++piece) {
            const double mid = a + (piece + 0.5) * h;
            const double half = 0.5 * h;
            for (std::size_t i = 0; i < abscissa.size(); ++i) {
                if (abscissa[i] == 0.0) {
                    visit(mid, half * weights[i]);
                    continue;
                }
                visit(mid - half * abscissa[i], half * weights[i]);
                visit(mid + half * abscissa[i], half * weights[i]);
            }
        }
    }
}

} // namespace pbx::odp
