// SPDX-License-Identifier: MIT
#include "core/session/growing/growing_request.h"

namespace pbx::session {

std::string_view growingAlgorithmName(GrowingAlgorithm algorithm)
{
    switch (algorithm) {
    case GrowingAlgorithm::BBScheduler:
        return "bbscheduler";
    case GrowingAlgorithm::BBImprover:
        return "bbimprover";
    case GrowingAlgorithm::Nsg:
        return "nsg";
    case GrowingAlgorithm::Pmwg:
        return "pmwg";
    case GrowingAlgorithm::Ermg:
        return "ermg";
    case GrowingAlgorithm::SmallDb:
        return "smalldb";
    }
    return "bbscheduler";
}

std::string_view nsgCapKindName(NsgCapKind kind)
{
    return kind == NsgCapKind::Time ? "time" : "constant";
}

std::string_view zcdpConversionName(privacy::ZcdpConversion conversion)
{
    return conversion == privacy::ZcdpConversion::Cks ? "cks" : "simple";
}

} // namespace pbx::session
