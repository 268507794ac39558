// SPDX-License-Identifier: MIT
#include "core/privacy/odp_guarantee.h"

#include "core/math/directed_rounding.h"
#include "core/util/parameter_checks.h"

#include <cmath>
#include <set>

namespace pbx::odp {

double OdpGuarantee::worstEpsilon() const
{
    double worst = 0.0;
    for (const OdpCell &c : cells)
        worst = std::max(worst, c.epsilon);
    return worst;
}

const OdpCell *OdpGuarantee::cell(int id) const
{
    for (const OdpCell &c : cells)
        if (c.id == id)
            return &c;
    return nullptr;
}

Result<void> OdpGuarantee::validate() const
{
    if (cells.empty())
        return makeError(ErrorCode::InvalidArgument, "cells: an ODP guarantee needs at least one cell");
    std::set<int> ids;
    for (const OdpCell &c : cells) {
        if (!std::isfinite(c.epsilon) || c.epsilon < 0.0)
            return makeError(ErrorCode::InvalidArgument,
                             "cells[" + std::to_string(c.id) + "].epsilon must be finite and >= 0");
        if (!ids.insert(c.id).second)
            return makeError(ErrorCode::InvalidArgument, "cells: duplicated cell id " + std::to_string(c.id));
    }
    PBX_RETURN_IF_ERROR(checkDelta(delta, "delta", UnitInterval::ClosedOpen));
    return {};
}

Result<OdpGuarantee> trivialGuarantee(double epsilon, double delta)
{
    PBX_RETURN_IF_ERROR(checkEpsilon(epsilon, "epsilon"));
    PBX_RETURN_IF_ERROR(checkDelta(delta, "delta", UnitInterval::ClosedOpen));
    return OdpGuarantee{{OdpCell{0, "any output", epsilon}}, delta};
}

Result<DpGuarantee> toDp(const OdpGuarantee &guarantee)
{
    PBX_RETURN_IF_ERROR(guarantee.validate());
    return DpGuarantee{guarantee.worstEpsilon(), guarantee.delta};
}

Result<OdpGuarantee> fromSubsetDp(const std::vector<SubsetDpCell> &cells)
{
    OdpGuarantee g;
    double deltaSum = 0.0;
    for (const SubsetDpCell &c : cells) {
        if (!(c.delta >= 0.0 && c.delta < 1.0))
            return makeError(ErrorCode::InvalidArgument,
                             "cells[" + std::to_string(c.id) + "].delta must lie in [0, 1)");
        deltaSum = math::addRoundUp(deltaSum, c.delta); // δ is never under-reported
        g.cells.push_back(OdpCell{c.id, c.label, c.epsilon});
    }
    if (deltaSum >= 1.0)
        return makeError(ErrorCode::InvalidArgument, "delta: the per-cell deltas sum to 1 or more");
    g.delta = deltaSum;
    PBX_RETURN_IF_ERROR(g.validate());
    return g;
}

} // namespace pbx::odp
