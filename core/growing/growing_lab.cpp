// SPDX-License-Identifier: MIT
#include "core/growing/growing_lab.h"

namespace pbx::growing {

SchedulerConfig schedulerConfigOf(const GrowingLabConfig &c)
{
    return SchedulerConfig{c.startSize, c.gamma.value_or(1.0), c.budget, c.schedule, c.beta, c.box};
}

ImproverConfig improverConfigOf(const GrowingLabConfig &c)
{
    return ImproverConfig{c.startSize, c.decay, c.every, c.budget, c.beta, c.box};
}

std::string_view labAlgorithmName(LabAlgorithm algorithm)
{
    switch (algorithm) {
    case LabAlgorithm::BBScheduler:
        return "bbscheduler";
    case LabAlgorithm::BBImprover:
        return "bbimprover";
    case LabAlgorithm::Pmwg:
        return "pmwg";
    case LabAlgorithm::Nsg:
        return "nsg";
    case LabAlgorithm::Ermg:
        return "ermg";
    }
    return "bbscheduler";
}

} // namespace pbx::growing
