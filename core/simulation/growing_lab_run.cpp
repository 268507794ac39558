// SPDX-License-Identifier: MIT
#include "core/simulation/growing_lab_run.h"

#include "core/data/predicate.h"
#include "core/datasets/cps1988_ermg.h"
#include "core/datasets/cps1988_pmwg.h"
#include "core/datasets/cps1988_smalldb.h"
#include "core/growing/growing_error.h"
#include "core/growing/growing_svt.h"
#include "core/growing/lab_monte_carlo.h"
#include "core/math/directed_rounding.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>

namespace pbx::growing {

namespace {

LabSummary summary(const std::vector<double> &sample)
{
    return LabSummary{labQuantile(sample, 0.5), labQuantile(sample, 0.95),
                      *std::max_element(sample.begin(), sample.end())};
}

/// The median and the band the lab draws around it (kLabBandLow … kLabBandHigh); null for an empty
/// sample (e.g. no run had a hard answer yet).
OptionalBand band(const std::vector<double> &sample)
{
    if (sample.empty())
        return std::nullopt;
    return LabBand{labQuantile(sample, 0.5), labQuantile(sample, kLabBandLow),
                   labQuantile(sample, kLabBandHigh)};
}

/// BBScheduler's Monte Carlo summary, shared by its Laplace-k and SmallDB boxes: each repetition's
/// largest error in every epoch, scored against the epoch's bound α_i + s_i.
class EpochErrors
{
public:
    explicit EpochErrors(const std::vector<EpochPlan> &epochs) : m_epochs(epochs), m_perEpoch(epochs.size())
    {}
    /// Epoch i's largest error in the current repetition.
    void add(std::size_t i, double error)
    {
        m_perEpoch[i].push_back(error);
        m_worst = std::max(m_worst, error);
        m_exceeded = m_exceeded || error > m_epochs[i].bound;
    }
    /// Closes the current repetition; its largest error over the whole stream.
    double endRepetition()
    {
        const double worst = m_worst;
        m_worstPerRun.push_back(worst);
        m_exceeding += m_exceeded;
        m_worst = 0.0;
        m_exceeded = false;
        return worst;
    }
    /// "monte_carlo": the largest error over the stream (median, 95 %, max), the runs in which some
    /// epoch exceeded its bound, and per epoch the median, 5th and 95th percentile over the runs
    /// (the band the lab draws around the median, kLabBandLow … kLabBandHigh).
    SchedulerMonteCarlo summarise(int repetitions) const
    {
        SchedulerMonteCarlo mc{repetitions, summary(m_worstPerRun), m_exceeding, {}, {}, {}};
        for (const auto &sample : m_perEpoch) {
            mc.epochMedian.push_back(labQuantile(sample, 0.5));
            mc.epochQ05.push_back(labQuantile(sample, kLabBandLow));
            mc.epochQ95.push_back(labQuantile(sample, 0.95));
        }
        return mc;
    }

private:
    const std::vector<EpochPlan> &m_epochs;
    std::vector<std::vector<double>> m_perEpoch;
    std::vector<double> m_worstPerRun;
    int m_exceeding = 0;
    double m_worst = 0.0;
    bool m_exceeded = false;
};

struct StreamData
{
    std::vector<std::vector<std::uint8_t>> masks;
};

Result<StreamData> compileQueries(const GrowingLabConfig &c, const data::Rows &table)
{
    const std::string field = c.algorithm == LabAlgorithm::Nsg ? "nsg.queries" : "black_box.queries";
    const std::string_view code = c.algorithm == LabAlgorithm::Nsg ? kInvalidConfig : kInvalidBlackBox;
    StreamData d;
    for (std::size_t j = 0; j < c.queries.size(); ++j) {
        auto p = data::Predicate::compile(c.queries[j], table.table());
        if (!p)
            return makeError(p.error().code, std::string(code) + ": " + field + "[" + std::to_string(j)
                                                 + "]: " + p.error().message);
        d.masks.emplace_back();
        p->evaluate(table, d.masks.back());
    }
    return d;
}

/// The Monte Carlo loop of the scheduler and improver labs: the rows arrive in a seeded order per
/// repetition (arrivalOrder, labOrderSeed) and `run(counts, noise)` scores one repetition on the
/// prefix counts of its first `end` rows and returns its error (reported to `progress`). One noise
/// stream for the whole simulation.
template<typename Run>
Result<void> forEachRepetition(const GrowingLabConfig &c, const data::Rows &table, std::uint64_t seed,
                               std::uint64_t end, const LabProgress &progress, Run run)
{
    PBX_TRY(data, compileQueries(c, table));
    std::mt19937_64 noise(seed);
    for (int rep = 0; rep < c.repetitions; ++rep) {
        PBX_TRY(order, arrivalOrder(table, c.order, labOrderSeed(seed, rep)));
        const double error
            = run(PrefixCounts(data.masks, std::span<const std::uint32_t>(order).first(end)), noise);
        if (auto ok = reportLabProgress(progress, rep, c.repetitions, 0, 1, error); !ok)
            return ok;
    }
    return {};
}

/// SmallDBG's Monte Carlo (BBScheduler with the SmallDB box on the CPS teaching instance): per
/// repetition the rows arrive in a seeded order; at each epoch start SmallDB runs on the first t_i
/// rows at the epoch's ε_i (√(2ρ_i) under a zCDP schedule) with the exact sampler, and its 28
/// answers are scored against the true fractions at every time of the epoch.
Result<void> simulateSmallDbg(const GrowingLabConfig &c, const data::Rows &table, std::uint64_t seed,
                              std::uint64_t end, SchedulerResult &out, const LabProgress &progress)
{
    const std::vector<EpochPlan> &epochs = out.epochs;
    PBX_TRY(inst, cpsSmallDbInstance(table));
    PBX_TRY(db, SmallDb::create(SmallDbInstance::kCells, inst.queries, c.smallDbSize));
    std::vector<std::vector<std::uint32_t>> columns(SmallDbInstance::kCells);
    for (std::size_t q = 0; q < inst.queries.size(); ++q)
        for (std::size_t j = 0; j < SmallDbInstance::kCells; ++j)
            if (inst.queries[q][j])
                columns[j].push_back(static_cast<std::uint32_t>(q));
    EpochErrors errors(epochs);
    // Progress after every epoch: each one is a SmallDB draw over the whole range (≈ 50 ms at m = 8).
    for (int rep = 0; rep < c.repetitions; ++rep) {
        PBX_TRY(order, arrivalOrder(table, c.order, labOrderSeed(seed, rep)));
        mechanisms::SeededRandomBits bits(seed, std::uint64_t(rep));
        std::vector<std::uint64_t> cells(SmallDbInstance::kCells, 0);
        std::vector<std::uint64_t> queryCounts(inst.queries.size(), 0);
        std::uint64_t t = 0;
        auto arrive = [&](std::uint64_t to) {
            for (; t < to; ++t) {
                const auto cell = inst.rowCells[order[t]];
                ++cells[cell];
                for (const auto q : columns[cell])
                    ++queryCounts[q];
            }
        };
        for (std::size_t i = 0; i < epochs.size(); ++i) {
            const auto &e = epochs[i];
            arrive(e.start);
            PBX_TRY(y, db.sample(cells, e.privacy.epsilon, bits));
            const auto answers = db.answers(y);
            double epochWorst = 0.0;
            for (std::uint64_t u = e.start; u <= e.last; ++u) {
                arrive(u);
                for (std::size_t q = 0; q < answers.size(); ++q)
                    epochWorst
                        = std::max(epochWorst, std::fabs(double(queryCounts[q]) / double(u) - answers[q]));
            }
            errors.add(i, epochWorst);
            const std::optional<double> runError
                = i + 1 == epochs.size() ? std::optional(errors.endRepetition()) : std::nullopt;
            PBX_RETURN_IF_ERROR(reportLabProgress(progress, rep, c.repetitions, i, epochs.size(), runError));
        }
    }
    out.monteCarlo = errors.summarise(c.repetitions);
    // The best any m-row database could do on the whole table (a property of the data, simulation
    // only; the stream's last database when it ends at the last row).
    if (end == table.rowCount()) {
        std::vector<std::uint64_t> all(SmallDbInstance::kCells, 0);
        for (const auto cell : inst.rowCells)
            ++all[cell];
        PBX_TRY(best, db.bestMaxError(all));
        out.smallDb->bestMaxErrorAtEnd = best;
    }
    return {};
}

/// For an approx budget: the target {ε, δ, conversion} and the realised / worst-case ρ converted to
/// ε at δ. Nothing for other kinds.
Result<void> addApproxTarget(const Budget &budget, LabPrivacy &privacy)
{
    if (budget.kind != BudgetKind::Approx)
        return {};
    privacy.target = budget;
    for (const auto &[from, to] : {std::pair{&privacy.realised, &privacy.realisedTargetEpsilon},
                                   std::pair{&privacy.worstCase, &privacy.worstCaseTargetEpsilon}}) {
        if (!*from)
            continue;
        PBX_TRY(e, approxEpsilonOf(budget, **from));
        *to = e;
    }
    return {};
}

Result<SchedulerResult> runScheduler(const GrowingLabConfig &c, const data::Rows *table, std::uint64_t seed,
                                     std::uint64_t end, const LabProgress &progress)
{
    SchedulerResult out;
    SchedulerConfig sc = schedulerConfigOf(c);
    if (!c.gamma) {
        PBX_TRY(best, optimalGamma(sc, c.startSize));
        sc.gamma = best.gamma;
        out.gammaChosen = best.gamma;
    }
    PBX_TRY(epochs, planEpochs(sc, end));
    out.epochs = std::move(epochs);
    out.zcdp = scheduleIsZcdp(c.schedule);
    auto scheduler = BBScheduler::create(sc);
    out.privacy.rho = out.zcdp;
    out.privacy.totalReserved = scheduler->total();
    out.privacy.spentRealised = out.epochs.back().privacy.cumulative;
    PBX_RETURN_IF_ERROR(addApproxTarget(c.budget, out.privacy));
    if (c.smallDbSize > 0)
        out.smallDb = SmallDbSummary{c.smallDbSize, SmallDbInstance::kCells, kCpsSmallDbQueries,
                                     smallDbRangeSize(SmallDbInstance::kCells, c.smallDbSize), std::nullopt};
    if (!table)
        return out;
    if (c.smallDbSize > 0) {
        PBX_RETURN_IF_ERROR(simulateSmallDbg(c, *table, seed, end, out, progress));
        return out;
    }

    // Monte Carlo: the rows arrive in a seeded order; each epoch answers every query from one
    // Laplace-k run on its first t_i rows; the error of every answer at every time is scored.
    const std::size_t k = c.queries.size();
    EpochErrors errors(out.epochs);
    auto simulated = forEachRepetition(
        c, *table, seed, end, progress, [&](const PrefixCounts &counts, std::mt19937_64 &noise) {
            for (std::size_t i = 0; i < out.epochs.size(); ++i) {
                const auto &e = out.epochs[i];
                const double scale = laplaceKScale(k, e.privacy.epsilon, double(e.start));
                errors.add(i, heldRunWorstError(counts, k, e.start, e.last, scale, noise));
            }
            return errors.endRepetition();
        });
    if (!simulated)
        return simulated.error();
    out.monteCarlo = errors.summarise(c.repetitions);
    return out;
}

/// BBImprover's run times n, n+m, … thinned to ~60 log-spaced ones, plus the last run.
std::vector<std::uint64_t> improverCheckpoints(const GrowingLabConfig &c, std::uint64_t lastRun)
{
    std::vector<std::uint64_t> times;
    for (std::uint64_t t = c.startSize; t <= lastRun;) {
        times.push_back(t);
        const std::uint64_t grown = static_cast<std::uint64_t>(double(t) * 1.06);
        const std::uint64_t next
            = c.startSize + ((std::max(grown, t + 1) - c.startSize + c.every - 1) / c.every) * c.every;
        t = next;
    }
    if (times.back() != lastRun)
        times.push_back(lastRun);
    return times;
}

/// BBImprover's Monte Carlo: every run at t = n, n+m, … held for m times; each repetition's error at
/// the last step.
Result<ImproverMonteCarlo> simulateImprover(const GrowingLabConfig &c, const BBImprover &improver,
                                            const data::Rows &table, std::uint64_t seed, std::uint64_t end,
                                            std::uint64_t lastRun, const LabProgress &progress)
{
    const std::size_t k = c.queries.size();
    std::vector<double> atEnd;
    int exceeding = 0;
    auto simulated = forEachRepetition(
        c, table, seed, end, progress, [&](const PrefixCounts &counts, std::mt19937_64 &noise) {
            bool exceeded = false;
            double last = 0.0;
            for (std::uint64_t t = c.startSize; t <= lastRun; t += c.every) {
                const auto s = improver.step(t);
                const double scale = laplaceKScale(k, s.epsilon, double(t));
                const std::uint64_t stop = std::min<std::uint64_t>(t + c.every - 1, end);
                const double worst = heldRunWorstError(counts, k, t, stop, scale, noise);
                exceeded = exceeded || worst > s.bound;
                last = worst;
            }
            atEnd.push_back(last);
            exceeding += exceeded;
            return last;
        });
    if (!simulated)
        return simulated.error();
    return ImproverMonteCarlo{c.repetitions, summary(atEnd), exceeding};
}

Result<ImproverResult> runImprover(const GrowingLabConfig &c, const data::Rows *table, std::uint64_t seed,
                                   std::uint64_t end, const LabProgress &progress)
{
    const ImproverConfig ic = improverConfigOf(c);
    PBX_TRY(improver, BBImprover::create(ic));
    ImproverResult out;
    const std::uint64_t lastRun = c.startSize + (end - c.startSize) / c.every * c.every;
    for (const auto t : improverCheckpoints(c, lastRun))
        out.steps.push_back(ImproverRow{t, improver.step(t), improver.cumulative(t + c.every - 1)});
    out.normaliser = improver.normaliser();
    // The crossover with BBScheduler (zcdp-equalised at its optimal γ for the same budget and box).
    SchedulerConfig sc = schedulerConfigOf(c);
    sc.schedule = ScheduleKind::ZcdpEqualised;
    PBX_TRY(best, optimalGamma(sc, c.startSize, 0.01, 4.0, 2000));
    sc.gamma = best.gamma;
    PBX_TRY(cross, improverCrossover(ic, sc, std::uint64_t{1} << 50));
    out.crossover = ImproverCrossover{best.gamma, best.worstBound, cross, cross.has_value() && *cross <= end};
    out.privacy.rho = true;
    out.privacy.totalReserved = improver.total();
    out.privacy.spentRealised = improver.cumulative(lastRun + c.every - 1);
    if (!table)
        return out;
    PBX_TRY(mc, simulateImprover(c, improver, *table, seed, end, lastRun, progress));
    out.monteCarlo = mc;
    return out;
}

/// Checkpoint k of `checkpoints` evenly spaced times from n to `end` (one checkpoint: at end), where
/// PMWG and NSG ask their queries and the plan shows the public cap.
std::uint64_t checkpointTime(std::uint64_t n, std::uint64_t end, int checkpoints, int k)
{
    return checkpoints == 1 ? end : n + (end - n) * std::uint64_t(k) / std::uint64_t(checkpoints - 1);
}

/// The budget's unit and total for PMWG and NSG, with their worst case.
LabPrivacy svtPrivacy(const Budget &budget, double worstCase)
{
    LabPrivacy privacy;
    privacy.rho = isZcdp(budget);
    privacy.worstCase = worstCase;
    privacy.totalReserved = privacy.rho ? *zcdpBudget(budget) : budget.epsilon;
    return privacy;
}

Result<PmwgResult> runPmwg(const GrowingLabConfig &c, const data::Rows *table, std::uint64_t seed,
                           std::uint64_t end)
{
    PBX_TRY(pmwg, Pmwg::create(c.pmwg));
    PmwgResult out;
    out.privacy = svtPrivacy(c.budget, pmwg.worstCase());
    out.sigmaN = pmwg.sigmaN();
    if (!table) {
        // The cap at the checkpoints is public: H(t) = ⌊c_0(1 + H_t − H_n)⌋.
        for (int k = 0; k < c.checkpoints; ++k) {
            const std::uint64_t t = checkpointTime(c.startSize, end, c.checkpoints, k);
            out.plannedCap.push_back(LabCap{t, pmwg.capAt(t)});
        }
        PBX_RETURN_IF_ERROR(addApproxTarget(c.budget, out.privacy));
        return out;
    }
    PBX_TRY(universe, cpsUniverse(*table, c.universe));
    PBX_TRY(run, simulatePmwg(c.pmwg, universe, *table, c.order, end, c.checkpoints, c.perCheckpoint, seed));
    // Realised and worst case in the budget's unit: ε (pure), or ρ (zcdp and approx: the rounds
    // opened, (49/18)Σf(s_i)²); an approx budget also gets both converted to ε at its δ.
    out.privacy.realised = run.realised;
    out.privacy.realisedEpsilon = run.realisedEpsilon;
    PBX_RETURN_IF_ERROR(addApproxTarget(c.budget, out.privacy));
    out.run = std::move(run);
    return out;
}

/// NSG's Monte Carlo over arrival orders: per checkpoint, the hard answers so far K(t) and the mean
/// |error| of the hard answers released so far (over the runs that have one), and per run its final
/// K, mean |error| and realised privacy (in the budget's unit; it depends on the data through the
/// hard-answer times, Cummings et al. 2018, §4).
class NsgErrors
{
public:
    explicit NsgErrors(std::size_t checkpoints) : m_hard(checkpoints), m_error(checkpoints) {}
    void add(const NsgRun &run)
    {
        std::size_t h = 0;
        double sum = 0.0;
        for (std::size_t k = 0; k < run.checkpoints.size() && k < m_hard.size(); ++k) {
            const auto &cp = run.checkpoints[k];
            for (; h < run.hardQueries.size() && run.hardQueries[h].time <= cp.time; ++h)
                sum += std::fabs(run.hardQueries[h].answer - run.hardQueries[h].trueAnswer);
            m_hard[k].push_back(double(cp.hard));
            if (h > 0)
                m_error[k].push_back(sum / double(h));
        }
        m_finalHard.push_back(double(run.hardQueries.size()));
        if (!run.hardQueries.empty())
            m_finalError.push_back(run.meanAbsNumericError);
        m_realised.push_back(run.realised);
    }
    NsgMonteCarlo summarise(int repetitions, const NsgRun &first) const
    {
        NsgMonteCarlo mc{repetitions, {}, band(m_finalHard), band(m_finalError), band(m_realised)};
        for (std::size_t k = 0; k < m_hard.size(); ++k)
            mc.checkpoints.push_back(NsgCheckpointBands{first.checkpoints[k].time, band(m_hard[k]),
                                                        band(m_error[k]), m_error[k].size()});
        return mc;
    }

private:
    std::vector<std::vector<double>> m_hard, m_error;
    std::vector<double> m_finalHard, m_finalError, m_realised;
};

Result<NsgResult> runNsg(const GrowingLabConfig &c, const data::Rows *table, std::uint64_t seed,
                         std::uint64_t end, const LabProgress &progress)
{
    PBX_TRY(unit, nsgNoiseUnit(c.nsg));
    NsgResult out;
    out.privacy = svtPrivacy(c.budget, nsgWorstCase(unit, c.nsg));
    out.sigmaN = unit.sigmaN;
    out.fN = unit.f(double(unit.startSize));
    if (!table) {
        for (int k = 0; k < c.checkpoints; ++k) {
            const std::uint64_t t = checkpointTime(c.startSize, end, c.checkpoints, k);
            out.plannedCap.push_back(LabCap{t, c.nsg.cap->at(c.startSize, t)});
        }
        PBX_RETURN_IF_ERROR(addApproxTarget(c.budget, out.privacy));
        return out;
    }
    if (c.queries.empty())
        return growingError(kInvalidConfig, "nsg.queries",
                            "a simulation needs predicates (use --plan-only otherwise)");
    PBX_TRY(data, compileQueries(c, *table));
    // Repetition r: the arrival order labOrderSeed(seed, r) and the noise labNoiseSeed(seed, r).
    // The transcript listed (hard answers, cap, rounds, privacy) is repetition 0's.
    NsgErrors errors(std::size_t(c.checkpoints));
    for (int rep = 0; rep < c.repetitions; ++rep) {
        PBX_TRY(order, arrivalOrder(*table, c.order, labOrderSeed(seed, rep)));
        PBX_TRY(one, simulateNsg(c.nsg, data.masks, order, end, c.checkpoints, labNoiseSeed(seed, rep)));
        errors.add(one);
        if (rep == 0)
            out.run = std::move(one);
        PBX_RETURN_IF_ERROR(reportLabProgress(progress, rep, c.repetitions));
    }
    out.privacy.realised = out.run->realised;
    out.privacy.realisedEpsilon = out.run->realisedEpsilon;
    PBX_RETURN_IF_ERROR(addApproxTarget(c.budget, out.privacy));
    out.monteCarlo = errors.summarise(c.repetitions, *out.run);
    return out;
}

/// ERMG's simulation: per repetition the rows arrive in the order labOrderSeed(seed, r), every
/// release refits the model (warm-started from the previous one) and scores `ermDraws` noisy copies
/// (progress after each fit);
/// one noise stream std::mt19937_64(seed ^ "ermg") through every repetition. The releases' own
/// fields (risk, excess risk, Newton's iterations) are repetition 0's; the Monte Carlo has, per
/// release, the median and band over the runs of the mean excess empirical risk.
Result<void> simulateErmg(const GrowingLabConfig &c, const data::Rows &table, std::uint64_t seed,
                          std::uint64_t end, ErmgResult &out, const LabProgress &progress)
{
    PBX_TRY(data, cpsErmData(table));
    auto &releases = out.releases;
    const Eigen::Index rows = Eigen::Index(end);
    Eigen::MatrixXd x(rows, data.features.cols());
    Eigen::VectorXd y(rows);
    std::mt19937_64 rng(seed ^ 0x65726d67u);
    std::vector<std::vector<double>> excess(releases.size());
    for (int rep = 0; rep < c.repetitions; ++rep) {
        PBX_TRY(order, arrivalOrder(table, c.order, labOrderSeed(seed, rep)));
        for (std::uint64_t r = 0; r < end; ++r) {
            x.row(Eigen::Index(r)) = data.features.row(Eigen::Index(order[r]));
            y(Eigen::Index(r)) = data.labels(Eigen::Index(order[r]));
        }
        Eigen::VectorXd theta;
        for (std::size_t i = 0; i < releases.size(); ++i) {
            const Eigen::Index t = Eigen::Index(releases[i].t);
            PBX_TRY(fit, fitLogistic(x.topRows(t), y.head(t), c.ermLambda, c.ermTol,
                                     theta.size() ? &theta : nullptr));
            theta = fit.theta;
            const auto risk
                = excessRisk(theta, releases[i].sigma, x.topRows(t), y.head(t), c.ermLambda, c.ermDraws, rng);
            excess[i].push_back(risk.mean);
            if (rep == 0) {
                releases[i].risk = logisticRisk(theta, x.topRows(t), y.head(t), c.ermLambda);
                releases[i].excessRisk = risk;
                releases[i].newtonIterations = fit.iterations;
            }
            // Progress after every fit: a repetition of the thinned grid takes seconds.
            if (auto ok = reportLabProgress(progress, rep, c.repetitions, i, releases.size()); !ok)
                return ok;
        }
    }
    ErmgMonteCarlo mc{c.repetitions, {}, {}};
    for (std::size_t i = 0; i < releases.size(); ++i) {
        mc.times.push_back(releases[i].t);
        mc.excessRiskMean.push_back(band(excess[i]));
    }
    out.monteCarlo = std::move(mc);
    return {};
}

/// ERMG's release times with their ρ: BBImprover's thinned grid or BBScheduler's epochs; `total` is
/// set to the reserved ρ.
Result<std::vector<ErmgRelease>> ermgReleases(const GrowingLabConfig &c, std::uint64_t end, double &total)
{
    std::vector<ErmgRelease> releases;
    const auto add = [&](std::uint64_t t, std::uint64_t last, double rho, double cumulative) {
        ErmgRelease r;
        r.t = t;
        r.end = last;
        r.rho = rho;
        r.cumulative = cumulative;
        releases.push_back(r);
    };
    if (c.ermScheduler) {
        const SchedulerConfig sc = schedulerConfigOf(c);
        PBX_TRY(epochs, planEpochs(sc, end));
        for (const auto &e : epochs)
            add(e.start, e.last, e.privacy.rho, e.privacy.cumulative);
        total = BBScheduler::create(sc)->total();
        return releases;
    }
    const ImproverConfig ic = improverConfigOf(c);
    PBX_TRY(improver, BBImprover::create(ic));
    total = improver.total();
    double cumulative = 0.0;
    for (std::uint64_t t = c.startSize; t <= end; t += c.every) {
        const auto step = improver.step(t);
        cumulative = std::min(total, math::addRoundUp(cumulative, step.rho));
        add(t, std::min(end, t + c.every - 1), step.rho, cumulative);
    }
    return releases;
}

/// ERMG: the release times with their ρ, the Gaussian σ = Δ_t/√(2ρ_t) of each, and (simulation) the
/// measured excess empirical risk.
Result<ErmgResult> runErmg(const GrowingLabConfig &c, const data::Rows *table, std::uint64_t seed,
                           std::uint64_t end, const LabProgress &progress)
{
    double total = 0.0;
    PBX_TRY(releases, ermgReleases(c, end, total));
    if (table && releases.size() > 1000)
        return growingError(kInvalidConfig, "schedule.every",
                            "a simulation solves at most 1000 models; " + std::to_string(releases.size())
                                + " releases were planned (raise schedule.every)");
    ErmgResult out;
    out.releases = std::move(releases);
    for (auto &r : out.releases) {
        if (!(r.rho > 0.0))
            return growingError(kInvalidBudget, "budget", "a release's rho underflowed to 0");
        r.sensitivity = ermSensitivity(r.t, c.ermLambda, c.ermTol);
        r.sigma = ermNoiseScale(r.t, c.ermLambda, c.ermTol, r.rho);
    }
    out.privacy.rho = true;
    out.privacy.totalReserved = total;
    out.privacy.spentRealised = out.releases.back().cumulative;
    PBX_RETURN_IF_ERROR(addApproxTarget(c.budget, out.privacy));
    if (!table)
        return out;
    PBX_RETURN_IF_ERROR(simulateErmg(c, *table, seed, end, out, progress));
    return out;
}

/// The stream's last time: "stream.end" (required for a plan) or the table's rows. Errors:
/// Unsupported (a table not marked public), INVALID_CONFIG ("black_box", "stream.end").
Result<std::uint64_t> streamEnd(const GrowingLabConfig &c, const data::Table *table)
{
    std::uint64_t end = 0;
    if (table) {
        if (!table->isPublic())
            return makeError(ErrorCode::Unsupported,
                             "the growing-database lab reads true answers, so it runs only on public data ('"
                                 + table->name() + "' is not marked public)");
        const bool smallDbg = c.algorithm == LabAlgorithm::BBScheduler && c.smallDbSize > 0;
        if ((c.algorithm == LabAlgorithm::BBScheduler || c.algorithm == LabAlgorithm::BBImprover) && !smallDbg
            && (c.box.kind != BlackBoxKind::LaplaceK || c.queries.empty()))
            return growingError(
                kInvalidConfig, "black_box",
                "a simulation needs a laplace-k box with predicates or (bbscheduler) a smalldb "
                "box with \"m\" (use --plan-only otherwise)");
        end = c.end.value_or(table->rowCount());
        if (end > table->rowCount())
            return growingError(kInvalidConfig, "stream.end",
                                "exceeds the dataset's " + std::to_string(table->rowCount()) + " rows");
    } else {
        if (!c.end)
            return growingError(kInvalidConfig, "stream.end",
                                "is required with --plan-only (no dataset is read)");
        end = *c.end;
    }
    if (end < c.startSize)
        return growingError(kInvalidConfig, "stream.end", "must be >= stream.start_size");
    return end;
}

template<typename Body>
Result<void> store(Result<Body> body, GrowingLabResult &out)
{
    if (!body)
        return body.error();
    out.body = std::move(*body);
    return {};
}

} // namespace

Result<GrowingLabResult> runGrowingLab(const GrowingLabConfig &c, const data::Table *table,
                                       std::uint64_t seed, bool planOnly, const LabProgress &progress)
{
    if (planOnly)
        table = nullptr;
    PBX_TRY(end, streamEnd(c, table));
    // Door (b) of core/data/rows.h: the rows of the public table checked above.
    std::optional<data::Rows> publicTable;
    if (table)
        publicTable = *data::publicRows(*table, "the growing-database lab");
    const data::Rows *rows = publicTable ? &*publicTable : nullptr;
    // Switching the uniform update off is a demonstration allowed in simulation only (labelled there).
    if (!table && c.algorithm == LabAlgorithm::Pmwg && !c.pmwg.uniformArrivals)
        return growingError(kInvalidConfig, "pmwg.uniform_update",
                            "false voids the privacy analysis and is a simulation-only demonstration");
    GrowingLabResult out{c, seed, planOnly, table != nullptr, end, {}};
    Result<void> ok;
    switch (c.algorithm) {
    case LabAlgorithm::BBScheduler:
        ok = store(runScheduler(c, rows, seed, end, progress), out);
        break;
    case LabAlgorithm::BBImprover:
        ok = store(runImprover(c, rows, seed, end, progress), out);
        break;
    case LabAlgorithm::Pmwg:
        ok = store(runPmwg(c, rows, seed, end), out);
        break;
    case LabAlgorithm::Nsg:
        ok = store(runNsg(c, rows, seed, end, progress), out);
        break;
    case LabAlgorithm::Ermg:
        ok = store(runErmg(c, rows, seed, end, progress), out);
        break;
    }
    if (!ok)
        return ok.error();
    return out;
}

} // namespace pbx::growing
