// SPDX-License-Identifier: MIT
#include "core/strategies/strategies_lab.h"

#include "core/strategies/strategy_error.h"

namespace pbx::strategies {

Error labConfigError(const std::string &message)
{
    return strategyError(kInvalidConfig, message);
}

std::string_view labExperimentName(LabExperiment e)
{
    switch (e) {
    case LabExperiment::Bmi:
        return "bmi";
    case LabExperiment::Ranges:
        return "ranges";
    case LabExperiment::Inference:
        return "inference";
    case LabExperiment::Quantile:
        return "quantile";
    case LabExperiment::SmoothSensitivity:
        return "smooth-sensitivity";
    case LabExperiment::Stability:
        return "stability";
    case LabExperiment::Selection:
        return "selection";
    }
    return "ranges";
}

bool labNeedsTable(const LabConfig &config)
{
    if (config.experiment == LabExperiment::Stability)
        return false;
    return !(config.experiment == LabExperiment::Bmi && config.dataset == "slides");
}

} // namespace pbx::strategies
