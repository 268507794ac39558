// SPDX-License-Identifier: MIT
#include "core/simulation/relative_error_lab.h"

#include "core/data/rows.h"
#include "core/math/directed_rounding.h"
#include "core/session/planned_cap.h"
#include "core/session/release/release_plan.h"
#include "core/simulation/ireduct.h"
#include "core/util/number_format.h"
#include "core/util/parameter_checks.h"
#include "core/util/try.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <numeric>
#include <random>
#include <set>
#include <thread>

namespace pbx::simulation {

using session::ReleaseMethod;
using FK = filters::FilterKind;

namespace {

/// One dimension of the cross-classification: a column and its cell labels.
struct Dimension
{
    std::size_t column = 0;
    bool numeric = false;
    std::vector<double> values;      ///< numeric: the distinct values
    std::vector<std::string> labels; ///< categorical: the dictionary
    std::size_t size() const { return numeric ? values.size() : labels.size(); }
};

/// What one (method, repetition) run produced.
struct RunOutcome
{
    int answered = 0;
    int within = 0;
    int attempted = 0;
    double epsilonSpent = 0.0;
    std::vector<int> answeredAfter;
    std::vector<double> epsilonAfter;
    std::optional<IReductStop> batchStop; ///< iReduct only
    int rounds = 0;                       ///< iReduct only
};

/// iReduct on the first n cells of the repetition's order, as one batch of overlapping counts (a
/// person is in many cells of the data cube). The curves follow the batch's positions: after
/// position q, the certified counts among the first q + 1 and the sum of their final levels.
RunOutcome runIReductOnce(const Workload &w, const LabSettings &s, const std::vector<std::size_t> &order,
                          std::uint64_t noiseSeed)
{
    RunOutcome out;
    const std::size_t n
        = std::min<std::size_t>(order.size(), static_cast<std::size_t>(s.queriesPerRepetition));
    std::vector<double> counts(n);
    for (std::size_t q = 0; q < n; ++q)
        counts[q] = w.cells[order[q]].count;
    IReductSettings settings;
    settings.epsilon = s.epsilon;
    settings.alpha = s.alpha;
    settings.beta = 1.0 - s.confidence;
    settings.step = s.ireductStep;
    settings.startScale = s.ireductStartScale;
    auto noise = mechanisms::NoiseSource::seeded(noiseSeed, 0);
    // Settings and the batch were checked by runRelativeErrorLab before any run started.
    const IReductRun run = runIReduct(counts, settings, noise).value();
    double spent = 0.0;
    for (std::size_t q = 0; q < n; ++q) {
        ++out.attempted;
        if (run.good[q]) {
            ++out.answered;
            out.within += std::fabs(run.released[q] - counts[q]) <= s.alpha * counts[q];
        }
        spent = math::addRoundUp(spent, run.epsilons[q]);
        out.answeredAfter.push_back(out.answered);
        out.epsilonAfter.push_back(std::min(spent, run.epsilonSpent));
    }
    out.epsilonSpent = run.epsilonSpent;
    out.batchStop = run.stop;
    out.rounds = run.rounds;
    return out;
}

RunOutcome runOnce(const Workload &w, const LabSettings &s, const LabMethod &m,
                   const std::vector<std::size_t> &order, std::uint64_t noiseSeed)
{
    RunOutcome out;
    auto filter = filters::PrivacyFilter::create(m.filter, s.epsilon, s.delta, s.split).value();
    const session::AccuracyTarget target{session::TargetKind::Relative, s.alpha, s.confidence};
    const auto chargeKind = session::chargeKindFor(m.mechanism, m.filter);
    const double fixedCap = chargeKind == filters::ChargeKind::Rho
                                ? s.maxEpsilonPerQuery * s.maxEpsilonPerQuery / 2.0
                                : s.maxEpsilonPerQuery;
    std::size_t expostRuns = 0;
    const std::size_t n
        = std::min<std::size_t>(order.size(), static_cast<std::size_t>(s.queriesPerRepetition));
    for (std::size_t q = 0; q < n; ++q) {
        // The same rule as pbx-cli run and the GUI: remaining / requests still to come.
        session::QueryRequest request;
        request.target = target;
        request.mechanism = m.mechanism;
        const std::size_t toCome = s.plannedQueries > 0 ? static_cast<std::size_t>(s.plannedQueries) : n - q;
        const std::optional<double> cap = s.maxEpsilonPerQuery > 0.0
                                              ? std::optional<double>(fixedCap)
                                              : session::plannedCap(*filter, request, toCome);
        const CellQuery &cell = w.cells[order[q]];
        data::QueryStatistics exact;
        exact.count = cell.count;
        auto noise = mechanisms::NoiseSource::seeded(noiseSeed, q);
        const session::ReleaseContext context{session::QueryShape::of(data::Aggregate::Count, {}, exact,
                                                                      data::Neighbouring::AddRemove,
                                                                      w.rowCount),
                                              *filter,
                                              noise,
                                              m.mechanism,
                                              expostRuns + 1,
                                              s.maxEpsilonPerQuery > 0.0 ? std::size_t{0} : toCome};
        const auto outcome = session::isNoiseReduction(m.mechanism)
                                 ? session::releaseByNoiseReduction(context, target, cap)
                                 : session::releaseByDoubling(context, target, cap);
        expostRuns += outcome.costDelta > 0.0;
        if (outcome.status == session::EventStatus::Released) {
            ++out.attempted;
            if (outcome.targetMet) {
                ++out.answered;
                out.within += std::fabs(outcome.answer - cell.count) <= s.alpha * cell.count;
            }
        }
        out.answeredAfter.push_back(out.answered);
        out.epsilonAfter.push_back(filter->epsilonSpent());
    }
    out.epsilonSpent = filter->epsilonSpent();
    return out;
}

} // namespace

std::string labRefusal(const std::string &datasetName)
{
    return "the relative-error lab reads the true counts of '" + datasetName
           + "' and charges no privacy budget, so it runs only on public data: an embedded dataset, a file whose "
             "metadata declares \"public\": true (set it only if the data themselves may be published), or a "
             "synthetic table generated from the public metadata alone";
}

namespace {

/// synthesizeFromMetadata with `rows` rows (public: displayed, and bounds every plan).
Result<data::Table> synthesizeDeclaredRows(const data::Table &table, std::size_t rows, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::vector<data::Column> columns;
    for (std::size_t c = 0; c < table.columnCount(); ++c) {
        const data::ColumnInfo &info = table.columnInfo(c);
        data::Column column;
        column.info = info;
        if (info.type == data::ColumnType::Categorical) {
            if (info.domainFromData || info.categories.empty())
                continue; // its categories were read from the data: not public
            std::uniform_int_distribution<std::int32_t> pick(
                0, static_cast<std::int32_t>(info.categories.size()) - 1);
            column.codes.resize(rows);
            for (auto &code : column.codes)
                code = pick(rng);
        } else {
            if (!info.declaredBounds || info.domainFromData)
                continue; // no public range to draw from
            std::uniform_real_distribution<double> pick(info.declaredBounds->lower,
                                                        info.declaredBounds->upper);
            column.numeric.resize(rows);
            for (double &x : column.numeric)
                x = info.declaredBounds->lower == info.declaredBounds->upper ? info.declaredBounds->lower
                                                                             : pick(rng);
        }
        columns.push_back(std::move(column));
    }
    bool categorical = false;
    for (const auto &column : columns)
        categorical = categorical || column.info.type == data::ColumnType::Categorical;
    if (!categorical)
        return makeError(ErrorCode::Unsupported,
                         "'" + table.name()
                             + "' declares no categorical column with its categories in metadata; "
                               "a synthetic table needs them");
    PBX_TRY(synthetic,
            data::Table::create("synthetic " + table.name(), std::move(columns),
                                "Synthetic: uniform draws over the declared categories and bounds of '"
                                    + table.name() + "' (no row of the data was read)"));
    return synthetic.withPublic(true);
}

/// iReduct's batch fits: the first round's λ_max within ε for the batch size the lab will use.
Result<void> checkIReductBatch(const Workload &w, const LabSettings &s)
{
    const double n = static_cast<double>(
        std::min<std::size_t>(w.cells.size(), static_cast<std::size_t>(s.queriesPerRepetition)));
    if (s.ireductStartScale > 0.0 && s.ireductStartScale * s.epsilon < n)
        return makeError(ErrorCode::InvalidArgument,
                         "--ireduct-start-scale: a batch of " + formatSignificant(n)
                             + " overlapping counts within ε needs λ_max ≥ n/ε = "
                             + formatSignificant(math::divideRoundUp(n, s.epsilon)));
    return {};
}

LabResult::BatchOutcomes batchOutcomes(const std::vector<RunOutcome> &outcomes, std::size_t first,
                                       std::size_t count)
{
    LabResult::BatchOutcomes b;
    double rounds = 0.0;
    for (std::size_t r = first; r < first + count; ++r) {
        (outcomes[r].batchStop == IReductStop::AllGood ? b.allGood : b.budgetExhausted) += 1;
        rounds += outcomes[r].rounds;
    }
    b.roundsMean = rounds / static_cast<double>(count);
    return b;
}

} // namespace

Result<data::Table> synthesizeFromMetadata(const data::Table &table, std::uint64_t seed)
{
    return synthesizeDeclaredRows(table, table.rowCount(), seed);
}

Result<data::Table> synthesizeFromMetadata(const data::Source &source, std::uint64_t seed)
{
    const std::optional<std::size_t> rows = source.declaredRowCount();
    if (!rows)
        return makeError(ErrorCode::Unsupported,
                         "'" + source.schema().name()
                             + "' declares no row count in its metadata; a synthetic table needs one");
    return synthesizeDeclaredRows(source.schema(), *rows, seed);
}

std::string labRowsNotInMemory(std::string_view lab, const data::Source &source)
{
    if (source.kind() == data::SourceKind::InMemory)
        return {};
    return std::string(lab) + " reads the rows themselves, and the rows of " + source.location()
           + " stay in the database, which computes only counts, sums and category counts"
           + (source.isPublic() ? " (its metadata declares them public, but they are not in memory)" : "")
           + ": open the table as a CSV file with its metadata to run it on these data";
}

Result<Workload> countCells(const data::Table &table)
{
    // The lab reads true counts and shows results that are a deterministic function of them, with
    // no budget charged: on private data that is a release without privacy (two neighbouring
    // tables give visibly different results). Only public data may be simulated on.
    if (!table.isPublic())
        return makeError(ErrorCode::Unsupported, labRefusal(table.name()));
    const data::Rows rows = *data::publicRows(table, "the relative-error lab"); // door (b), rows.h
    std::vector<Dimension> dims;
    for (std::size_t c = 0; c < table.columnCount(); ++c) {
        const auto &info = table.columnInfo(c);
        if (info.type == data::ColumnType::Categorical && !info.categories.empty())
            dims.push_back({c, false, {}, info.categories});
    }
    if (dims.empty())
        return makeError(ErrorCode::InvalidArgument,
                         "the relative-error lab needs a categorical column to form cells");
    std::size_t fine = 1;
    for (const auto &d : dims)
        fine *= d.size();
    if (fine < 200) {
        // The lab is a simulation with the data in view, so reading distinct values is fine here.
        Dimension best;
        for (std::size_t c = 0; c < table.columnCount(); ++c) {
            if (table.columnInfo(c).type != data::ColumnType::Numeric)
                continue;
            std::set<double> distinct;
            for (double x : rows.numeric(c)) {
                distinct.insert(x);
                if (distinct.size() > 30)
                    break;
            }
            if (distinct.size() <= 30 && distinct.size() > best.values.size())
                best = {c, true, std::vector<double>(distinct.begin(), distinct.end()), {}};
        }
        if (best.values.size() > 1)
            dims.push_back(best);
    }
    // The data cube: each dimension is either fixed to one of its values or left free ("*"), so a
    // cell is a marginal of any subset of the dimensions; the all-free grand total is left out.
    std::size_t cells = 1;
    for (const auto &d : dims)
        cells *= d.size() + 1;
    if (cells - 1 > 20000)
        return makeError(ErrorCode::InvalidArgument,
                         "the dataset's cross-classification has too many cells for the lab");

    Workload w;
    w.rowCount = static_cast<double>(table.rowCount());
    std::vector<double> counts(cells, 0.0);
    // Each row adds 1 to every cell whose fixed dimensions match it: 2^dims cells per row.
    std::vector<std::size_t> values(dims.size());
    for (std::size_t row = 0; row < table.rowCount(); ++row) {
        for (std::size_t i = 0; i < dims.size(); ++i) {
            const auto &d = dims[i];
            values[i] = d.numeric ? static_cast<std::size_t>(
                            std::lower_bound(d.values.begin(), d.values.end(), rows.numeric(d.column)[row])
                            - d.values.begin())
                                  : static_cast<std::size_t>(rows.codes(d.column)[row]);
        }
        for (std::size_t mask = 0; mask < (std::size_t{1} << dims.size()); ++mask) {
            std::size_t index = 0, stride = 1;
            for (std::size_t i = 0; i < dims.size(); ++i) {
                // Digit 0 means "free"; digit k + 1 means fixed to value k.
                const std::size_t digit = (mask >> i & 1u) ? values[i] + 1 : 0;
                index += digit * stride;
                stride *= dims[i].size() + 1;
            }
            counts[index] += 1.0;
        }
    }
    for (std::size_t i = 1; i < cells; ++i) {
        std::size_t rest = i;
        std::string where;
        for (const auto &d : dims) {
            const std::size_t digit = rest % (d.size() + 1);
            rest /= d.size() + 1;
            if (digit == 0)
                continue;
            const std::string name = table.columnInfo(d.column).name;
            where
                += (where.empty() ? "" : " and ") + name + " == "
                   + (d.numeric ? formatSignificant(d.values[digit - 1]) : "\"" + d.labels[digit - 1] + "\"");
        }
        w.cells.push_back({where, counts[i]});
    }
    return w;
}

std::string labMethodName(const LabMethod &method)
{
    if (method.procedure == LabProcedure::IReductBatch)
        return "ireduct";
    return std::string(session::releaseMethodName(method.mechanism));
}

std::vector<LabMethod> defaultLabMethods()
{
    return {{ReleaseMethod::DoublingLaplace, FK::Basic},
            {ReleaseMethod::DoublingGaussian, FK::Zcdp},
            {ReleaseMethod::LaplaceNr, FK::ExPost},
            {ReleaseMethod::Brownian, FK::ExPost},
            {ReleaseMethod::Brownian, FK::BrownianZcdp},
            {ReleaseMethod::LaplaceNr, FK::Unified},
            {ReleaseMethod::Brownian, FK::Unified},
            {ReleaseMethod::LaplaceNr, FK::Basic, LabProcedure::IReductBatch}};
}

Result<void> LabSettings::validate() const
{
    const auto bad = [](const std::string &what) { return makeError(ErrorCode::InvalidArgument, what); };
    PBX_RETURN_IF_ERROR(checkPositive(alpha, "--alpha"));
    PBX_RETURN_IF_ERROR(checkProbability(confidence, "--confidence", UnitInterval::Open));
    PBX_RETURN_IF_ERROR(checkEpsilon(epsilon, "--epsilon", Zero::Excluded));
    PBX_RETURN_IF_ERROR(checkDelta(delta, "--delta"));
    if (repetitions < 1 || repetitions > 100000)
        return bad("--repetitions must be between 1 and 100000");
    if (queriesPerRepetition < 1)
        return bad("--queries must be ≥ 1");
    PBX_RETURN_IF_ERROR(checkEpsilon(maxEpsilonPerQuery, "--max-epsilon-per-query", Zero::Allowed,
                                     Infinity::Excluded, " (0: remaining / queries to come)"));
    if (plannedQueries < 0)
        return bad("--plan-queries must be ≥ 0");
    if (!(ireductStep > 0.0 && ireductStep <= kIReductLargestStep))
        return bad("--ireduct-step must be in (0, " + formatSignificant(kIReductLargestStep)
                   + "]: closer to 1, iReduct's rounds explode");
    // At most ln(ε·λ_max)/ln(1/γ) rounds: 2,000 at the limits (λ_max 10⁹, γ 0.99).
    if (!(ireductStartScale == 0.0 || (ireductStartScale > 0.0 && ireductStartScale <= 1e9)))
        return bad("--ireduct-start-scale must be between 0 and 10⁹ (0: 10·n/ε)");
    return split.validate();
}

Result<std::vector<LabResult>> runRelativeErrorLab(const Workload &workload, const LabSettings &settings,
                                                   const std::vector<LabMethod> &methods,
                                                   const LabProgress &progress, int threads)
{
    PBX_RETURN_IF_ERROR(settings.validate());
    if (workload.cells.empty())
        return makeError(ErrorCode::InvalidArgument, "the workload has no cells");
    for (const auto &m : methods) {
        if (m.procedure == LabProcedure::IReductBatch) {
            PBX_RETURN_IF_ERROR(checkIReductBatch(workload, settings));
            continue;
        }
        PBX_RETURN_IF_ERROR(session::checkMechanism(m.mechanism, m.filter, data::Aggregate::Count,
                                                    session::TargetKind::Relative));
    }

    // Every method sees the same cell order and noise seeds in repetition r.
    const std::size_t reps = static_cast<std::size_t>(settings.repetitions);
    std::vector<std::vector<std::size_t>> orders(reps);
    for (std::size_t r = 0; r < reps; ++r) {
        orders[r].resize(workload.cells.size());
        std::iota(orders[r].begin(), orders[r].end(), std::size_t{0});
        std::mt19937_64 rng(settings.seed * 1000003u + r);
        std::shuffle(orders[r].begin(), orders[r].end(), rng);
    }
    const std::size_t tasks = methods.size() * reps;
    std::vector<RunOutcome> outcomes(tasks);
    std::atomic<std::size_t> next{0}, done{0};
    std::atomic<bool> cancelled{false};
    auto worker = [&] {
        for (std::size_t t = next++; t < tasks && !cancelled; t = next++) {
            const std::size_t m = t / reps, r = t % reps;
            outcomes[t] = methods[m].procedure == LabProcedure::IReductBatch
                              ? runIReductOnce(workload, settings, orders[r], settings.seed * 7919u + r)
                              : runOnce(workload, settings, methods[m], orders[r], settings.seed * 7919u + r);
            ++done;
        }
    };
    std::vector<std::thread> pool;
    for (int i = 0; i < std::max(1, threads); ++i)
        pool.emplace_back(worker);
    while (done < tasks && !cancelled) {
        if (progress && !progress(static_cast<std::int64_t>(done), static_cast<std::int64_t>(tasks)))
            cancelled = true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    for (auto &t : pool)
        t.join();
    if (cancelled)
        return makeError(ErrorCode::Cancelled, "the simulation was cancelled");
    if (progress)
        progress(static_cast<std::int64_t>(tasks), static_cast<std::int64_t>(tasks));

    std::vector<LabResult> results;
    for (std::size_t m = 0; m < methods.size(); ++m) {
        LabResult res;
        res.method = methods[m];
        double answered = 0, within = 0, attempted = 0, spent = 0, squares = 0;
        const std::size_t n = outcomes[m * reps].answeredAfter.size();
        res.answeredCurve.assign(n, 0.0);
        res.epsilonCurve.assign(n, 0.0);
        for (std::size_t r = 0; r < reps; ++r) {
            const RunOutcome &o = outcomes[m * reps + r];
            res.answeredPerRepetition.push_back(o.answered);
            answered += o.answered;
            squares += static_cast<double>(o.answered) * o.answered;
            within += o.within;
            attempted += o.attempted;
            spent += o.epsilonSpent;
            for (std::size_t q = 0; q < n; ++q) {
                res.answeredCurve[q] += o.answeredAfter[q] / static_cast<double>(reps);
                res.epsilonCurve[q] += o.epsilonAfter[q] / static_cast<double>(reps);
            }
        }
        const double count = static_cast<double>(reps);
        res.answeredMean = answered / count;
        res.answeredSd = reps > 1
                             ? std::sqrt(std::max(0.0, (squares - answered * answered / count) / (count - 1)))
                             : 0.0;
        if (answered > 0)
            res.withinAlpha = within / answered;
        res.attemptedMean = attempted / count;
        res.epsilonSpentMean = spent / count;
        if (methods[m].procedure == LabProcedure::IReductBatch)
            res.batch = batchOutcomes(outcomes, m * reps, reps);
        results.push_back(std::move(res));
    }
    return results;
}

} // namespace pbx::simulation
