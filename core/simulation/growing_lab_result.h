// SPDX-License-Identifier: MIT
// What a growing-database lab run returns (core/simulation/growing_lab_run.h): the plan of the
// configured algorithm and, for a simulation, its Monte Carlo summary — plain values, one struct per
// algorithm. core/io/growing_lab_json.h writes it as the "pbx-simulation" document
// (docs/growing-databases.md, "The lab document"); the GUI lab draws it. Errors are on the fraction
// scale; privacy in the unit `LabPrivacy::rho` names.
#pragma once

#include "core/growing/bb_improver.h"
#include "core/growing/bb_scheduler.h"
#include "core/growing/ermg.h"
#include "core/growing/growing_lab.h"
#include "core/growing/nsg_run.h"
#include "core/growing/pmwg.h"

#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

namespace pbx::growing {

/// A non-empty sample's median, 95th percentile and maximum.
struct LabSummary
{
    double median = 0.0;
    double q95 = 0.0;
    double max = 0.0;
};

/// A sample's median and the band the lab draws around it (kLabBandLow … kLabBandHigh).
struct LabBand
{
    double median = 0.0;
    double q05 = 0.0;
    double q95 = 0.0;
};
/// nullopt for an empty sample (e.g. no run had a hard answer yet).
using OptionalBand = std::optional<LabBand>;

/// The privacy account of a run, in the budget's unit (ρ for zCDP and approx budgets, else ε).
struct LabPrivacy
{
    bool rho = false;                      ///< the unit: ρ (true) or ε
    std::optional<double> worstCase;       ///< PMWG, NSG: the largest loss the run could realise
    double totalReserved = 0.0;            ///< the budget in the unit
    std::optional<double> spentRealised;   ///< BBScheduler, BBImprover, ERMG: charged over the horizon
    std::optional<double> realised;        ///< PMWG, NSG simulations: the loss realised (data-dependent)
    std::optional<double> realisedEpsilon; ///< PMWG, NSG simulations: the pure ex-post ε
    std::optional<Budget> target;          ///< an approx budget: its ε, δ and conversion
    std::optional<double> realisedTargetEpsilon;  ///< target: `realised` converted to ε at δ
    std::optional<double> worstCaseTargetEpsilon; ///< target: `worstCase` converted to ε at δ
};

/// A public cap H(t) at a checkpoint time (PMWG's and NSG's plans).
struct LabCap
{
    std::uint64_t time = 0;
    std::uint64_t cap = 0;
};

/// SmallDBG's CPS1988 teaching instance (BBScheduler with the SmallDB box and "m").
struct SmallDbSummary
{
    std::size_t m = 0;
    std::size_t universe = 0;
    std::size_t queries = 0;
    std::uint64_t rangeSize = 0; ///< candidate databases
    /// The best any m-row database does on all rows (simulation ending at the table's last row).
    std::optional<double> bestMaxErrorAtEnd;
};

/// BBScheduler's (and SmallDBG's) Monte Carlo: the largest error over the stream per run, the runs
/// in which some epoch exceeded its bound, and per epoch the median and band over the runs.
struct SchedulerMonteCarlo
{
    int repetitions = 0;
    LabSummary maxError;
    int runsExceeding = 0;
    std::vector<double> epochMedian, epochQ05, epochQ95;
};

struct SchedulerResult
{
    std::optional<double> gammaChosen; ///< γ = "optimal": the γ the search chose
    std::vector<EpochPlan> epochs;
    bool zcdp = false; ///< a zCDP schedule (the epochs carry ρ_i)
    LabPrivacy privacy;
    std::optional<SmallDbSummary> smallDb;
    std::optional<SchedulerMonteCarlo> monteCarlo; ///< simulation only
};

/// One of BBImprover's run times (thinned to ~60 log-spaced ones, plus the last run).
struct ImproverRow
{
    std::uint64_t t = 0;
    ImproverStep step;
    double cumulative = 0.0; ///< ρ charged through t + m − 1
};

/// Where BBImprover's bound drops below BBScheduler's (zCDP equalised at its optimal γ).
struct ImproverCrossover
{
    double gamma = 0.0;
    double schedulerWorstBound = 0.0;
    std::optional<std::uint64_t> firstT; ///< nullopt: beyond 2^50 rows
    bool withinHorizon = false;
};

/// BBImprover's Monte Carlo: each run's error at the last step.
struct ImproverMonteCarlo
{
    int repetitions = 0;
    LabSummary maxErrorAtEnd;
    int runsExceeding = 0;
};

struct ImproverResult
{
    std::vector<ImproverRow> steps;
    double normaliser = 0.0;
    ImproverCrossover crossover;
    LabPrivacy privacy;
    std::optional<ImproverMonteCarlo> monteCarlo; ///< simulation only
};

struct PmwgResult
{
    double sigmaN = 0.0;
    std::vector<LabCap> plannedCap; ///< a plan: the public cap at the checkpoints
    std::optional<PmwgRun> run;     ///< a simulation: its one seeded run
    LabPrivacy privacy;
};

/// NSG's Monte Carlo at one checkpoint: the hard answers so far and their mean |error|.
struct NsgCheckpointBands
{
    std::uint64_t time = 0;
    OptionalBand hard;
    OptionalBand hardMeanAbs;
    std::size_t runsWithHard = 0;
};

struct NsgMonteCarlo
{
    int repetitions = 0;
    std::vector<NsgCheckpointBands> checkpoints;
    OptionalBand hard, hardMeanAbs, realised; ///< per run: final K, mean |error|, realised privacy
};

struct NsgResult
{
    double sigmaN = 0.0;
    double fN = 0.0;                ///< f(n) = 1/(nσ_n)
    std::vector<LabCap> plannedCap; ///< a plan: the public cap at the checkpoints
    std::optional<NsgRun> run;      ///< a simulation: repetition 0's transcript
    LabPrivacy privacy;
    std::optional<NsgMonteCarlo> monteCarlo;
};

/// One ERMG release: a model fitted on the first t rows, held to `end`, charged ρ with Gaussian σ.
struct ErmgRelease
{
    std::uint64_t t = 0, end = 0;
    double rho = 0.0, cumulative = 0.0, sensitivity = 0.0, sigma = 0.0;
    /// A simulation's repetition 0: the regularised risk, the excess risk of the noisy copies and
    /// Newton's iterations.
    std::optional<double> risk;
    std::optional<ExcessRisk> excessRisk;
    std::optional<int> newtonIterations;
};

/// ERMG's Monte Carlo: per release, the median and band over the runs of the mean excess risk.
struct ErmgMonteCarlo
{
    int repetitions = 0;
    std::vector<std::uint64_t> times;
    std::vector<OptionalBand> excessRiskMean;
};

struct ErmgResult
{
    std::vector<ErmgRelease> releases;
    LabPrivacy privacy;
    std::optional<ErmgMonteCarlo> monteCarlo;
};

struct GrowingLabResult
{
    GrowingLabConfig config; ///< as run (echoed as "settings")
    std::uint64_t seed = 0;
    bool planOnly = false;
    bool simulated = false; ///< a table was read (else a plan: nothing was)
    std::uint64_t end = 0;  ///< the stream's last time: "stream.end" or the table's rows
    std::variant<SchedulerResult, ImproverResult, PmwgResult, NsgResult, ErmgResult> body;
};

} // namespace pbx::growing
