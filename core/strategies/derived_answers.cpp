// SPDX-License-Identifier: MIT
#include "core/strategies/derived_answers.h"

#include "core/util/parameter_checks.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace pbx::strategies {

namespace {

struct Interval
{
    double value = 0.0;
    double variance = 0.0;
    double halfWidth = 0.0;
    std::string method;
};

/// Σ over `cells` of the noisy counts with a (1 − β) interval.
Result<Interval> sumInterval(const HistogramRelease &release, const HistogramPlan &plan,
                             const std::vector<std::size_t> &cells, double beta)
{
    Interval out;
    for (const auto i : cells)
        out.value += static_cast<double>(release.noisy[i]);
    const double m = static_cast<double>(cells.size());
    out.variance = m * plan.cellVariance;
    PBX_TRY(w, plan.cell.halfWidth(beta / m));
    const double unionBound = m * static_cast<double>(w);
    const double chebyshev = std::sqrt(out.variance / beta);
    if (cells.size() == 1 || unionBound <= chebyshev) {
        out.halfWidth = unionBound;
        out.method = cells.size() == 1 ? "exact tail of the cell's noise"
                                       : "union bound over the cells' exact tails";
    } else {
        out.halfWidth = chebyshev;
        out.method = "Chebyshev on the summed variance";
    }
    return out;
}

Result<void> checkCells(const std::vector<std::size_t> &cells, std::size_t size, const char *field)
{
    if (cells.empty())
        return makeError(ErrorCode::InvalidArgument, std::string(field) + ": at least one cell");
    std::set<std::size_t> seen;
    for (const auto i : cells) {
        if (i >= size)
            return makeError(ErrorCode::InvalidArgument,
                             std::string(field) + ": cell index " + std::to_string(i)
                                 + " is outside the histogram's " + std::to_string(size) + " cells");
        if (!seen.insert(i).second)
            return makeError(ErrorCode::InvalidArgument,
                             std::string(field) + ": cell " + std::to_string(i) + " repeats");
    }
    return {};
}

} // namespace

std::string_view derivedKindName(DerivedKind kind)
{
    switch (kind) {
    case DerivedKind::Sum:
        return "sum";
    case DerivedKind::Difference:
        return "difference";
    case DerivedKind::Share:
        return "share";
    case DerivedKind::Range:
        return "range";
    }
    return "sum";
}

Result<DerivedKind> parseDerivedKind(std::string_view text)
{
    for (const auto k : {DerivedKind::Sum, DerivedKind::Difference, DerivedKind::Share, DerivedKind::Range})
        if (derivedKindName(k) == text)
            return k;
    return makeError(ErrorCode::InvalidArgument,
                     "derived: expected sum, difference, share or range, got '" + std::string(text) + "'");
}

Result<DerivedAnswer> deriveAnswer(const HistogramRelease &release, const HistogramPlan &plan,
                                   const DerivedRequest &request, double beta)
{
    PBX_RETURN_IF_ERROR(checkProbability(beta, "beta:", UnitInterval::Open));
    const std::size_t size = release.noisy.size();
    DerivedAnswer out;
    switch (request.kind) {
    case DerivedKind::Sum:
    case DerivedKind::Range: {
        std::vector<std::size_t> cells = request.a;
        if (request.kind == DerivedKind::Range) {
            if (request.a.size() != 2 || request.a[0] > request.a[1] || request.a[1] >= size)
                return makeError(ErrorCode::InvalidArgument,
                                 "cells: a range is [first, last] with first <= last < "
                                     + std::to_string(size));
            cells.clear();
            for (std::size_t i = request.a[0]; i <= request.a[1]; ++i)
                cells.push_back(i);
        }
        PBX_RETURN_IF_ERROR(checkCells(cells, size, "cells"));
        PBX_TRY(s, sumInterval(release, plan, cells, beta));
        out = {s.value, s.variance, s.value - s.halfWidth, s.value + s.halfWidth, s.method};
        return out;
    }
    case DerivedKind::Difference: {
        PBX_RETURN_IF_ERROR(checkCells(request.a, size, "cells"));
        PBX_RETURN_IF_ERROR(checkCells(request.b, size, "minus"));
        std::vector<std::size_t> all = request.a;
        all.insert(all.end(), request.b.begin(), request.b.end());
        if (auto ok = checkCells(all, size, "minus"); !ok)
            return makeError(ErrorCode::InvalidArgument, "minus: the two sets of cells must be disjoint");
        // The difference is a signed sum of |A| + |B| independent cells: same variance and the
        // same interval as their plain sum (the noise is symmetric).
        PBX_TRY(s, sumInterval(release, plan, all, beta));
        double value = 0.0;
        for (const auto i : request.a)
            value += static_cast<double>(release.noisy[i]);
        for (const auto i : request.b)
            value -= static_cast<double>(release.noisy[i]);
        out = {value, s.variance, value - s.halfWidth, value + s.halfWidth, s.method};
        return out;
    }
    case DerivedKind::Share: {
        PBX_RETURN_IF_ERROR(checkCells(request.a, size, "cells"));
        PBX_RETURN_IF_ERROR(checkCells(request.b, size, "of"));
        for (const auto i : request.a)
            if (std::find(request.b.begin(), request.b.end(), i) == request.b.end())
                return makeError(ErrorCode::InvalidArgument,
                                 "of: a share's cells must be among the cells it is a share of");
        PBX_TRY(num, sumInterval(release, plan, request.a, beta / 2.0));
        PBX_TRY(den, sumInterval(release, plan, request.b, beta / 2.0));
        const double a = num.value, b = den.value;
        out.value = b > 0.0 ? std::clamp(a / b, 0.0, 1.0) : 0.0;
        // Delta method for the ratio (an approximation, reported as such): a and b − a are
        // independent sums.
        if (b > 0.0) {
            const double va = num.variance, vrest = den.variance - num.variance;
            const double r = a / b;
            out.variance = ((1.0 - r) * (1.0 - r) * va + r * r * vrest) / (b * b);
        }
        const double bLow = b - den.halfWidth;
        if (bLow <= 0.0) {
            out.low = 0.0;
            out.high = 1.0;
        } else {
            out.low = std::clamp((a - num.halfWidth) / (b + den.halfWidth), 0.0, 1.0);
            out.high = std::clamp((a + num.halfWidth) / bLow, 0.0, 1.0);
        }
        out.method = "numerator and denominator intervals at beta/2 each";
        return out;
    }
    }
    return makeError(ErrorCode::InvalidArgument, "derived: unknown kind");
}

} // namespace pbx::strategies
