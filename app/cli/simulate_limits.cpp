// SPDX-License-Identifier: MIT
#include "app/cli/simulate_limits.h"

#include "core/growing/growing_error.h"
#include "core/growing/pmwg.h"
#include "core/strategies/strategy_error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace pbx::cli {

namespace {

/// A whole number below 10⁷ in full (a field's value), anything else to 3 significant digits.
std::string approx(double x)
{
    char buffer[32];
    if (x == std::floor(x) && std::fabs(x) < 1e7)
        std::snprintf(buffer, sizeof buffer, "%.0f", x);
    else
        std::snprintf(buffer, sizeof buffer, "%.3g", x);
    return buffer;
}

/// "INVALID_CONFIG: <fields>: the lab would take about S steps (<product>), more than the limit L".
Error tooMuchWork(const std::string &code, const std::string &fields, double steps,
                  const std::string &product)
{
    return makeError(ErrorCode::ResourceLimit, code + ": " + fields + ": the lab would take about "
                                                   + approx(steps) + " steps (" + product
                                                   + "), more than the limit of " + approx(kMaxLabSteps)
                                                   + "; make " + fields + " smaller");
}

double rowsOf(const growing::GrowingLabConfig &c, const data::Table &table)
{
    return static_cast<double>(c.end.value_or(table.rowCount()));
}

} // namespace

Result<void> checkGrowingLabSize(const growing::GrowingLabConfig &c, const data::Table *table)
{
    if (!table)
        return {}; // a plan reads no data and builds no per-query table
    using growing::LabAlgorithm;
    const std::string code(growing::kInvalidConfig);
    const double reps = c.repetitions;
    const double rows = static_cast<double>(table->rowCount());
    const double end = rowsOf(c, *table);
    const double span = std::max(0.0, end - static_cast<double>(c.startSize));
    const bool nsg = c.algorithm == LabAlgorithm::Nsg;
    const double k = static_cast<double>(c.queries.size());
    const std::string queriesField = nsg ? "nsg.queries" : "black_box.queries";
    if (c.algorithm == LabAlgorithm::BBScheduler || c.algorithm == LabAlgorithm::BBImprover || nsg) {
        if (k == 0.0)
            return {};
        const double bytes = 5.0 * k * std::max(rows, end);
        if (bytes > kMaxLabBytes)
            return makeError(ErrorCode::ResourceLimit,
                             code + ": " + queriesField + ": " + approx(k) + " queries over " + approx(rows)
                                 + " rows would need about " + approx(std::ceil(bytes / (1024.0 * 1024.0)))
                                 + " MiB (5 bytes per query and row), more than the limit of "
                                 + approx(kMaxLabBytes / (1024.0 * 1024.0)) + " MiB; ask fewer queries");
        // Each repetition: the prefix counts (k per arrival), then every held time's error (k each).
        const double perRep = nsg ? k * end + static_cast<double>(c.checkpoints) * k : k * (end + span);
        const double steps = reps * perRep;
        if (steps > kMaxLabSteps)
            return tooMuchWork(code, "repetitions × " + queriesField, steps,
                               "repetitions " + approx(reps) + " × " + approx(k) + " queries × "
                                   + approx(perRep / k) + " arrivals and held times each");
        return {};
    }
    if (c.algorithm == LabAlgorithm::Pmwg) {
        auto universe = growing::universeShape(c.universe);
        if (!universe)
            return {};
        const double steps
            = static_cast<double>(c.checkpoints) * c.perCheckpoint * static_cast<double>(universe->cells);
        if (steps > kMaxLabSteps)
            return tooMuchWork(code, "pmwg.checkpoints × pmwg.per_checkpoint", steps,
                               approx(c.checkpoints) + " checkpoints × " + approx(c.perCheckpoint)
                                   + " queries × " + approx(double(universe->cells)) + " universe cells");
        return {};
    }
    if (c.algorithm == LabAlgorithm::Ermg) {
        // One Newton solve (≈ 20 passes over the prefix) per release, at most 1000 releases.
        const double releases
            = c.ermScheduler
                  ? 64.0
                  : std::min(1000.0, std::floor(span / double(std::max<std::uint64_t>(c.every, 1))) + 1.0);
        const double steps = reps * releases * end * 20.0;
        if (steps > kMaxLabSteps)
            return tooMuchWork(code, "repetitions × schedule.every", steps,
                               "repetitions " + approx(reps) + " × " + approx(releases) + " releases × "
                                   + approx(end) + " rows × 20 Newton passes");
    }
    return {};
}

Result<void> checkStrategiesLabSize(const strategies::LabConfig &c, const data::Table *table)
{
    using strategies::LabExperiment;
    if (c.experiment != LabExperiment::Ranges && c.experiment != LabExperiment::Inference
        && c.experiment != LabExperiment::Quantile)
        return {};
    std::optional<std::pair<double, double>> bounds = c.bounds;
    if (!bounds && table) {
        if (auto index = table->columnIndex(c.column))
            if (auto declared = table->columnInfo(*index).declaredBounds)
                bounds = std::make_pair(declared->lower, declared->upper);
    }
    if (!bounds)
        return {};
    const double k = std::floor(bounds->second - bounds->first) + 1.0;
    double workload = k;
    if (c.experiment == LabExperiment::Ranges)
        workload = c.workload == "all-ranges" ? k * (k + 1.0) / 2.0
                   : c.workload == "explicit" ? static_cast<double>(c.ranges.size())
                                              : k;
    const double strategiesCount = std::max<double>(1.0, static_cast<double>(c.strategies.size()));
    const double steps = static_cast<double>(c.repetitions) * strategiesCount * (2.0 * k + workload);
    if (steps > kMaxLabSteps)
        return tooMuchWork(std::string(strategies::kInvalidConfig), "repetitions × workload", steps,
                           "repetitions " + approx(c.repetitions) + " × " + approx(strategiesCount)
                               + " strategies × (2 × " + approx(k) + " cells + " + approx(workload)
                               + " workload answers)");
    return {};
}

Result<void> checkRelativeErrorLabSize(const simulation::LabSettings &s, std::size_t cells)
{
    const double queries = std::min<double>(static_cast<double>(cells), s.queriesPerRepetition);
    const double total = static_cast<double>(s.repetitions) * queries;
    if (total > kMaxRelativeErrorQueries)
        return makeError(ErrorCode::ResourceLimit,
                         "--repetitions × --queries: " + approx(s.repetitions) + " × " + approx(queries)
                             + " = " + approx(total)
                             + " queries, each by every method, more than the limit of "
                             + approx(kMaxRelativeErrorQueries)
                             + " (the defaults, 200 × 500, take about 4 minutes); lower either");
    return {};
}

} // namespace pbx::cli
