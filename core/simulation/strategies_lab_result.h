// SPDX-License-Identifier: MIT
// What a strategies & inference lab run returns (core/simulation/strategies_lab_run.h): one struct
// per experiment, plain values. core/io/strategies_lab_json.h writes it as the "pbx-simulation"
// document; the GUI lab (ui/strategies/strategieslabdialog.h) draws it. Simulation mode: every number
// read from data is a true answer of a public dataset, read to score, never to decide.
#pragma once

#include "core/strategies/bmi_example.h"
#include "core/strategies/range_simulation.h"
#include "core/strategies/range_strategy.h"
#include "core/strategies/selection.h"
#include "core/strategies/stability.h"
#include "core/strategies/strategies_lab.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace pbx::strategies {

/// The note every strategies-lab result carries ("note" in the document; the GUI's status line).
inline constexpr const char *kLabSimulationNote
    = "simulation mode: true answers are read to score accuracy, never to decide";

/// Why the ranges experiment recommends its strategy ("recommended.why").
inline constexpr const char *kRecommendedWhy
    = "smallest predicted average error over the workload (data-independent)";

/// The lecture's BMI example: Algorithms 1 and 2 and their variants over the slides' five rows or the
/// census analogue's four cells.
struct BmiLabResult
{
    std::vector<BmiRow> rows;     ///< the slides' rows (empty for the census analogue)
    std::vector<double> rowBmi;   ///< each row's BMI, rounded to 2 decimals
    std::optional<double> cutoff; ///< census analogue: the public weekly-wage cut-off
    BmiCells cells{};
    std::array<double, 4> answers{};
    std::vector<BmiMethodResult> methods;
    double binWidth = 0.0; ///< the histograms' bin width (total squared error)
    double violationProbability = 0.0;
    /// The slides: P[Algorithm 2 gives q̃₁ > q̃₁ + q̃₂] in closed form, ½e^{−3ε/Δ}.
    std::optional<double> violationProbabilityExact;
};

/// One range strategy: its exact prediction and (unless too large to measure) its measured error.
struct RangeStrategyResult
{
    RangeStrategy strategy;
    RangePrediction prediction;
    std::optional<MeasuredRangeError> measured; ///< nullopt: all ranges with k > 512 cells
};

struct RangesLabResult
{
    std::string column;
    double lo = 0.0, hi = 0.0;  ///< the domain's bounds
    std::size_t cells = 0;      ///< k
    std::size_t emptyCells = 0; ///< cells with a true count of 0
    std::size_t workloadSize = 0;
    std::vector<RangeStrategyResult> results;
    std::size_t recommended = 0; ///< index of the smallest predicted average error
};

/// One run's squared distances: ‖q̃ − q‖², ‖q̄ − q‖², ‖q̃ − q̄‖².
struct InferenceRunErrors
{
    double before = 0.0, after = 0.0, moved = 0.0;
};

/// The first run's vectors: the truth, the noisy release and its projection.
struct InferenceExample
{
    std::vector<double> truth, noisy, projected;
};

struct InferenceLabResult
{
    std::string projection;
    std::size_t vectorSize = 0;
    int runs = 0;
    double sseBefore = 0.0, sseAfter = 0.0, meanDistanceMoved = 0.0; ///< means over the runs
    int runsWorse = 0;
    int runsOutsideConstraints = 0;
    std::vector<InferenceRunErrors> firstRuns; ///< the first (up to 40) runs
    std::optional<InferenceExample> example;
    /// Tree consistency: the expected SSE before and after (#nodes·v and K·v, v = 2·scale²).
    std::optional<std::pair<double, double>> predicted;
};

/// The exponential mechanism over the integer grid of the bounds.
struct QuantileGrid
{
    std::vector<double> candidates, utilities, probabilities;
    std::vector<std::optional<double>> log10Probabilities; ///< nullopt for probability 0
    double rankErrorBound95 = 0.0;
};

struct QuantileLabResult
{
    std::string column;
    double lo = 0.0, hi = 0.0;
    double q = 0.5;
    std::size_t rows = 0;
    double trueQuantile = 0.0;
    double expectedAbsoluteError = 0.0; ///< the continuous exponential mechanism's
    double expectedRankError = 0.0;
    std::optional<QuantileGrid> grid; ///< integer bounds only
};

/// One selection mechanism on a public column's true counts (docs/selection.md).
struct SelectionMechanismRow
{
    SelectionMechanism mechanism = SelectionMechanism::Exponential;
    double eta = 0.0;                  ///< the exponent weight per count at the lab's ε and relation
    std::vector<double> probabilities; ///< exact P(category is the mode's pick), one per category
    double zcdpRho = 0.0;     ///< what a zCDP filter charges one pick: ε²/8 (bounded range) or ε²/2
    double gapBound95 = 0.0;  ///< count gap in rows that holds with probability ≥ 95 %
    double expectedGap = 0.0; ///< E[c_max − c_pick] under the exact probabilities, rows
};

/// The selection experiment: the exact probabilities of the exponential mechanism and
/// report-noisy-max choosing each category of a public categorical column as its mode.
struct SelectionLabResult
{
    std::string column;
    std::vector<std::string> labels;
    std::vector<std::int64_t> counts; ///< the true counts (public data)
    std::vector<SelectionMechanismRow> mechanisms;
};

/// A smooth sensitivity S*_β of the median and the noise scale it gives.
struct SmoothSensitivityEstimate
{
    double beta = 0.0;
    double value = 0.0;
    std::size_t attainedAt = 0; ///< the k attaining S* (Cauchy only)
    double noiseScale = 0.0;
};

struct SmoothSensitivityLabResult
{
    std::string column;
    double lo = 0.0, hi = 0.0;
    double median = 0.0;
    SmoothSensitivityEstimate cauchy;                  ///< pure ε-DP, β = ε/6
    double delta = 0.0;                                ///< the Laplace variant's δ
    SmoothSensitivityEstimate laplace;                 ///< (ε, δ)-DP
    std::vector<std::pair<std::size_t, double>> curve; ///< (k, e^{−kβ}A(k)), at most ~1000 points
    double exponentialMechanismError = 0.0;            ///< its expected absolute error
};

struct StabilityRow
{
    Transformation transformation = Transformation::RowMap;
    unsigned parameter = 1;
    std::optional<unsigned> stability; ///< nullopt: unbounded
    double epsilon = 0.0, rho = 0.0;   ///< s·ε and s²ρ when bounded
};

struct SubsamplingRow
{
    double rate = 0.0;
    double epsilon = 0.0;
    std::optional<double> shortcut; ///< 2pε where it is a bound
};

struct StabilityLabResult
{
    double epsilon = 0.0, rho = 0.0; ///< the base ε and ρ = ε²/2
    std::vector<StabilityRow> transformations;
    std::vector<SubsamplingRow> subsampling;
};

struct StrategiesLabResult
{
    LabConfig config; ///< as run (echoed as "settings")
    std::uint64_t seed = 0;
    std::variant<BmiLabResult, RangesLabResult, InferenceLabResult, QuantileLabResult,
                 SmoothSensitivityLabResult, StabilityLabResult, SelectionLabResult>
        body;
};

} // namespace pbx::strategies
