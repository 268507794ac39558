// SPDX-License-Identifier: MIT
#include "core/filters/odp_filter.h"

#include "core/math/directed_rounding.h"
#include "core/util/parameter_checks.h"
#include "core/util/try.h"

#include <cmath>
#include <sstream>

namespace pbx::odp {

namespace {
std::string shortNumber(double x)
{
    std::ostringstream s;
    s.precision(6);
    s << x;
    return s.str();
}
} // namespace

Result<OdpFilter> OdpFilter::create(double epsilon, double delta)
{
    PBX_RETURN_IF_ERROR(checkPositive(epsilon, "epsilon: the budget"));
    PBX_RETURN_IF_ERROR(checkProbability(delta, "delta: the budget", UnitInterval::ClosedOpen));
    return OdpFilter(epsilon, delta);
}

std::optional<int> OdpFilter::openRequest() const
{
    if (!m_history.empty() && m_history.back().open)
        return m_history.back().id;
    return std::nullopt;
}

double OdpFilter::epsilonRemaining() const
{
    const double r = m_epsilon.remaining();
    if (!openRequest())
        return r;
    const double left = math::subtractRoundDown(r, m_history.back().reservedEpsilon);
    return left > 0.0 ? left : 0.0;
}

Result<void> OdpFilter::admits(const OdpGuarantee &guarantee) const
{
    PBX_RETURN_IF_ERROR(guarantee.validate());
    if (auto open = openRequest())
        return makeError(ErrorCode::Unsupported, m_history.back().label + " #" + std::to_string(*open)
                                                     + " is still open; send STOP first");
    const double worst = guarantee.worstEpsilon();
    if (!m_epsilon.fits(worst))
        return makeError(ErrorCode::BudgetExceeded, "this mechanism needs ε = " + shortNumber(worst)
                                                        + " (worst case) but "
                                                        + shortNumber(m_epsilon.remaining()) + " remains");
    if (!m_delta.fits(guarantee.delta))
        return makeError(ErrorCode::BudgetExceeded, "this mechanism needs δ = " + shortNumber(guarantee.delta)
                                                        + " but " + shortNumber(m_delta.remaining())
                                                        + " remains");
    return {};
}

Result<int> OdpFilter::reserve(const OdpGuarantee &guarantee, const std::string &label)
{
    PBX_RETURN_IF_ERROR(admits(guarantee));
    const double worst = guarantee.worstEpsilon();
    m_delta.add(guarantee.delta); // R2: δ in full, when the mechanism runs
    OdpFilterEntry entry;
    entry.id = static_cast<int>(m_history.size()) + 1;
    entry.label = label;
    entry.reservedEpsilon = worst;
    entry.delta = guarantee.delta;
    m_history.push_back(entry);
    m_guarantees.push_back(guarantee);
    return entry.id;
}

Result<double> OdpFilter::close(std::optional<int> cell, double cost)
{
    OdpFilterEntry &entry = m_history.back();
    // cost ≤ E* ≤ remaining at admission, and nothing else was debited since (R4).
    m_epsilon.add(cost);
    entry.cell = cell;
    entry.settledEpsilon = cost;
    entry.open = false;
    return cost;
}

Result<double> OdpFilter::settle(int id, int cell)
{
    const auto open = openRequest();
    if (!open || *open != id)
        return makeError(ErrorCode::InvalidArgument, "request #" + std::to_string(id)
                                                         + " is not open (settle without reserve, or twice)");
    const OdpCell *c = m_guarantees.back().cell(cell);
    if (!c) {
        (void)close(std::nullopt, m_history.back().reservedEpsilon);
        return makeError(ErrorCode::InvalidArgument, "cell " + std::to_string(cell) + " is not in request #"
                                                         + std::to_string(id)
                                                         + "'s partition; charged its worst case");
    }
    return close(cell, c->epsilon);
}

Result<double> OdpFilter::settleWorstCase(int id)
{
    const auto open = openRequest();
    if (!open || *open != id)
        return makeError(ErrorCode::InvalidArgument, "request #" + std::to_string(id) + " is not open");
    return close(std::nullopt, m_history.back().reservedEpsilon);
}

Result<double> OdpFilter::charge(const OdpGuarantee &guarantee, int cell, const std::string &label)
{
    PBX_TRY(id, reserve(guarantee, label));
    return settle(id, cell);
}

Result<OdpFilter> replayJournal(double epsilon, double delta, const std::vector<OdpJournalRecord> &records)
{
    PBX_TRY(filter, OdpFilter::create(epsilon, delta));
    for (const OdpJournalRecord &r : records) {
        if (r.kind == OdpJournalRecord::Kind::Reserve) {
            if (auto open = filter.openRequest()) // the earlier one never settled
                (void)filter.settleWorstCase(*open);
            PBX_TRY(id, filter.reserve(r.guarantee, r.label));
            if (id != r.id)
                return makeError(ErrorCode::InvalidArgument,
                                 "journal: reserve #" + std::to_string(r.id) + " out of order");
        } else {
            const auto open = filter.openRequest();
            if (!open || *open != r.id)
                return makeError(ErrorCode::InvalidArgument,
                                 "journal: settle #" + std::to_string(r.id) + " without its reserve");
            (void)filter.settle(r.id, r.cell); // an unknown cell is charged the worst case
        }
    }
    if (auto open = filter.openRequest())
        (void)filter.settleWorstCase(*open); // a crash never yields a refund
    return filter;
}

} // namespace pbx::odp
