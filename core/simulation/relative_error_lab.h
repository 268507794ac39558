// SPDX-License-Identifier: MIT
// The relative-error lab: "release as many counts as possible, each within relative error α,
// under one budget" (Rogers et al. 2023's motivating task; our protocol, docs/accuracy-first.md §5.3).
// A simulation over a real table: the true counts are known here, so — unlike in a session — the
// lab can report how many released answers were really within α.
#pragma once

#include "core/data/source.h"
#include "core/data/table.h"
#include "core/filters/privacy_filter.h"
#include "core/session/mechanism_choice.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pbx::simulation {

/// Why the lab refuses a table that is not public (one line, for the CLI and the GUI).
std::string labRefusal(const std::string &datasetName);

/// A synthetic table generated from the public parts of `table` alone: its row count (public in
/// this program), the categorical columns whose categories are declared in metadata (uniform
/// draws) and the numeric columns with declared bounds (uniform on [L, U]); columns whose domain
/// was inferred from the data are left out. No value of the data is read, so the result is
/// public (isPublic()) and the lab may run on it. Errors: Unsupported when no categorical column
/// has declared categories.
Result<data::Table> synthesizeFromMetadata(const data::Table &table, std::uint64_t seed);
/// The same for a data source wherever it lives: its schema's public parts and its declared row
/// count (a database source's schema holds no rows; docs/data-sources.md). Errors: Unsupported
/// when the metadata declares no row count; then as above.
Result<data::Table> synthesizeFromMetadata(const data::Source &source, std::uint64_t seed);

/// Why a lab that reads a table's rows in memory (`lab`, e.g. "the relative-error lab") cannot run
/// on `source` itself, in one line: its rows stay in the database, where only counts, sums and
/// category counts are computed (docs/data-sources.md: a database source is private
/// unless its metadata says "public": true, and even then its rows are not in memory). Empty for an
/// in-memory table.
std::string labRowsNotInMemory(std::string_view lab, const data::Source &source);

/// One count query of the workload: a predicate and its exact answer.
struct CellQuery
{
    std::string where;
    double count = 0.0;
};

struct Workload
{
    std::vector<CellQuery> cells;
    double rowCount = 0.0; ///< the table's size, public (bounds the largest count)
};

/// The workload: the data cube of the table's categorical columns, plus its numeric column with
/// the most distinct values (at most 30) when the categorical cells alone are fewer than 200 —
/// every marginal cell, each dimension fixed to a value or left free, without the grand total.
/// CPS1988 (ethnicity × smsa × region × parttime × education): 3·3·5·3·20 − 1 = 2,699 cells, from
/// single groups of a few people to whole regions, so the counts span four orders of magnitude
/// like the protocol of Rogers et al. (2023, §7). Reads true counts, so it refuses (Unsupported,
/// labRefusal()) a table that is not public (Table::isPublic()). Errors: InvalidArgument when the
/// table has no categorical column or the cube exceeds 20,000 cells.
Result<Workload> countCells(const data::Table &table);

/// How a method meets the workload.
enum class LabProcedure {
    Stream,       ///< one query after another, as in a session, each charged to the method's filter
    IReductBatch, ///< iReduct (ireduct.h): the first n cells as one batch fixed in advance, pure ε
};

struct LabMethod
{
    session::ReleaseMethod mechanism;
    filters::FilterKind filter;
    LabProcedure procedure = LabProcedure::Stream;
};

/// The method's name in the lab's outputs: "ireduct" for the batch, else the release method's
/// name ("doubling-laplace", "laplace-nr", …).
std::string labMethodName(const LabMethod &method);

/// The comparison the lab runs by default: Laplace and Gaussian doubling, Laplace noise reduction
/// and Brownian noise reduction, each in the filters that can account it, and iReduct, the batch
/// baseline (Laplace noise reduction, pure ε under basic composition).
std::vector<LabMethod> defaultLabMethods();

struct LabSettings
{
    double alpha = 0.1;       ///< relative error target
    double confidence = 0.95; ///< 1 − β
    double epsilon = 1.0;
    double delta = 1e-6;
    int repetitions = 200;
    int queriesPerRepetition = 500; ///< the first n cells of each repetition's random order
    /// Per-query cap, as ε (pure and ex-post mechanisms) or ρ = ε²/2 (zCDP mechanisms). 0 (the
    /// default): the sessions' rule (session/planned_cap.h), what remains in the request's unit
    /// divided by plannedQueries, or by the queries still to come in the stream when that is 0.
    double maxEpsilonPerQuery = 0.0;
    int plannedQueries = 0; ///< "plan for N more queries"; 0: the queries still to come
    std::uint64_t seed = 1;
    filters::FilterSplit split; ///< unified filter only
    /// iReduct's step γ in (0, 0.99] and first scale λ_max (0: 10·n/ε; ireduct.h).
    double ireductStep = 0.9;
    double ireductStartScale = 0.0;
    /// Errors: InvalidArgument naming the field.
    Result<void> validate() const;
};

struct LabResult
{
    LabMethod method;
    double answeredMean = 0.0; ///< queries released with their target met, per repetition
    double answeredSd = 0.0;
    /// Fraction of those really within α of the truth; unset when nothing was answered (no score).
    std::optional<double> withinAlpha;
    double attemptedMean = 0.0;    ///< queries that got any release (met or not)
    double epsilonSpentMean = 0.0; ///< ε spent at the session δ, per repetition
    std::vector<double> answeredPerRepetition;
    /// answered after each query, averaged over repetitions: the "counts answered vs budget" curve
    std::vector<double> answeredCurve;
    std::vector<double> epsilonCurve; ///< ε spent after each query, averaged over repetitions
    /// iReduct only: how the repetitions ended (Rogers et al. 2023, §1: all counts certified with
    /// budget left over — the batch was too small — or the budget exhausted with counts left
    /// uncertified — too large).
    struct BatchOutcomes
    {
        int allGood = 0;
        int budgetExhausted = 0;
        double roundsMean = 0.0;
    };
    std::optional<BatchOutcomes> batch;
};

/// Progress: (done, total) repetitions over all methods; return false to cancel (Cancelled).
using LabProgress = std::function<bool(std::int64_t done, std::int64_t total)>;

/// Runs every method over the same seeded workloads (repetition r uses the same cell order and
/// noise seeds for each method), on `threads` worker threads. Errors: invalid settings or
/// workload; Cancelled.
Result<std::vector<LabResult>> runRelativeErrorLab(const Workload &workload, const LabSettings &settings,
                                                   const std::vector<LabMethod> &methods,
                                                   const LabProgress &progress = {}, int threads = 2);

} // namespace pbx::simulation
