// SPDX-License-Identifier: MIT
// The strategies & inference lab's configuration (core/io/strategies_lab_json.h reads and echoes
// it; core/simulation/strategies_lab_run.h runs it; used by `pbx-cli simulate strategies` and the
// GUI lab). Simulation mode: true answers are read to score accuracy, never to decide; anything that
// reads a table runs only on public data (data::Table::isPublic()).
#pragma once

#include "core/data/table.h"
#include "core/strategies/range_simulation.h"
#include "core/strategies/range_strategy.h"
#include "core/util/result.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace pbx::strategies {

enum class LabExperiment { Bmi, Ranges, Inference, Quantile, SmoothSensitivity, Stability, Selection };

/// "bmi", "ranges", "inference", "quantile", "smooth-sensitivity", "stability", "selection".
std::string_view labExperimentName(LabExperiment e);

struct LabConfig
{
    LabExperiment experiment = LabExperiment::Ranges;
    std::string dataset = "cps1988"; ///< "slides" for the BMI slides' five rows
    std::string column;
    std::optional<std::pair<double, double>> bounds; ///< default: the column's declared bounds
    data::Neighbouring neighbours = data::Neighbouring::AddRemove;
    double epsilon = 1.0;
    std::vector<RangeStrategy> strategies;
    RangePostProcessing post;
    std::string workload = "all-ranges";
    std::vector<Range> ranges; ///< workload "explicit"
    int repetitions = 2000;
    double q = 0.5;                              ///< quantile
    std::string projection = "tree-consistency"; ///< inference experiment
    std::size_t branching = 2;                   ///< inference experiment's tree
    double cutoff = 500.0;                       ///< BMI census analogue: public weekly-wage cut-off
    double delta = 1e-6;                         ///< smooth sensitivity, (ε, δ) variant
};

/// True when the experiment reads a dataset (everything but stability and the BMI slides).
bool labNeedsTable(const LabConfig &config);

/// Progress in [0, 1] with a short stage label; return false to cancel.
using LabProgress = std::function<bool(double, const std::string &)>;

/// INVALID_CONFIG with `message` (the lab's configuration errors, wherever they are found).
Error labConfigError(const std::string &message);

} // namespace pbx::strategies
