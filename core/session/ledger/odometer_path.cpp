// SPDX-License-Identifier: MIT
#include "core/session/ledger/odometer_path.h"

#include "core/filters/odometer_filter.h"

namespace pbx::session {

std::vector<double> preplannedEpsilonPath(const std::vector<LedgerEvent> &events, double delta)
{
    auto odometer = filters::OdometerFilter::create(delta);
    if (!odometer)
        return {};
    std::vector<double> path;
    path.reserve(events.size());
    for (const auto &e : events) {
        for (std::size_t k = 0; k < e.attempts.size(); ++k)
            if (!(*odometer)->charge(attemptCharge(e, k)))
                return {};
        path.push_back((*odometer)->preplannedEpsilon());
    }
    return path;
}

} // namespace pbx::session
