// SPDX-License-Identifier: MIT
#include "core/simulation/growing_lab_run.h"

#include "core/data/predicate.h"
#include "core/datasets/cps1988_ermg.h"
#include "core/datasets/cps1988_pmwg.h"
#include "core/datasets/cps1988_smalldb.h"
#include "core/growing/growing_error.h"
#include "core/growing/growing_svt.h"
#include "core/growing/lab_monte_carlo.h"
#include "core/io/growing_lab_json.h"
#include "core/math/directed_rounding.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>

namespace pbx::growing {

using io::json::Json;

namespace {

constexpr const char *kSimulationNote
    = "simulation mode: true answers are read to score accuracy, never to decide";
constexpr const char *kPlanNote = "plan only: no data were read";

Json summary(const std::vector<double> &sample)
{
    return Json{{"median", labQuantile(sample, 0.5)},
                {"q95", labQuantile(sample, 0.95)},
                {"max", *std::max_element(sample.begin(), sample.end())}};
}

/// The median and the band the lab draws around it (kLabBandLow … kLabBandHigh); null for an empty
/// sample (e.g. no run had a hard answer yet).
Json band(const std::vector<double> &sample)
{
    if (sample.empty())
        return Json(nullptr);
    return Json{{"median", labQuantile(sample, 0.5)},
                {"q05", labQuantile(sample, kLabBandLow)},
                {"q95", labQuantile(sample, kLabBandHigh)}};
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
    Json document(int repetitions) const
    {
        Json mc{{"repetitions", repetitions},
                {"max_error", summary(m_worstPerRun)},
                {"runs_exceeding", m_exceeding}};
        Json median = Json::array(), q05 = Json::array(), q95 = Json::array();
        for (const auto &sample : m_perEpoch) {
            median.push_back(labQuantile(sample, 0.5));
            q05.push_back(labQuantile(sample, kLabBandLow));
            q95.push_back(labQuantile(sample, 0.95));
        }
        mc["epoch_max_error_median"] = std::move(median);
        mc["epoch_max_error_q05"] = std::move(q05);
        mc["epoch_max_error_q95"] = std::move(q95);
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
    auto data = compileQueries(c, table);
    if (!data)
        return data.error();
    std::mt19937_64 noise(seed);
    for (int rep = 0; rep < c.repetitions; ++rep) {
        auto order = arrivalOrder(table, c.order, labOrderSeed(seed, rep));
        if (!order)
            return order.error();
        const double error
            = run(PrefixCounts(data->masks, std::span<const std::uint32_t>(*order).first(end)), noise);
        if (auto ok = reportLabProgress(progress, rep, c.repetitions, 0, 1, error); !ok)
            return ok;
    }
    return {};
}

/// SmallDBG's Monte Carlo (BBScheduler with the SmallDB box on the CPS teaching instance): per
/// repetition the rows arrive in a seeded order; at each epoch start SmallDB runs on the first t_i
/// rows at the epoch's ε_i (√(2ρ_i) under a zCDP schedule) with the exact sampler, and its 28
/// answers are scored against the true fractions at every time of the epoch.
Result<Json> simulateSmallDbg(const GrowingLabConfig &c, const data::Rows &table, std::uint64_t seed,
                              std::uint64_t end, const std::vector<EpochPlan> &epochs, Json doc,
                              const LabProgress &progress)
{
    auto inst = cpsSmallDbInstance(table);
    if (!inst)
        return inst.error();
    auto db = SmallDb::create(SmallDbInstance::kCells, inst->queries, c.smallDbSize);
    if (!db)
        return db.error();
    std::vector<std::vector<std::uint32_t>> columns(SmallDbInstance::kCells);
    for (std::size_t q = 0; q < inst->queries.size(); ++q)
        for (std::size_t j = 0; j < SmallDbInstance::kCells; ++j)
            if (inst->queries[q][j])
                columns[j].push_back(static_cast<std::uint32_t>(q));
    EpochErrors errors(epochs);
    // Progress after every epoch: each one is a SmallDB draw over the whole range (≈ 50 ms at m = 8).
    for (int rep = 0; rep < c.repetitions; ++rep) {
        auto order = arrivalOrder(table, c.order, labOrderSeed(seed, rep));
        if (!order)
            return order.error();
        mechanisms::SeededRandomBits bits(seed, std::uint64_t(rep));
        std::vector<std::uint64_t> cells(SmallDbInstance::kCells, 0);
        std::vector<std::uint64_t> queryCounts(inst->queries.size(), 0);
        std::uint64_t t = 0;
        auto arrive = [&](std::uint64_t to) {
            for (; t < to; ++t) {
                const auto cell = inst->rowCells[(*order)[t]];
                ++cells[cell];
                for (const auto q : columns[cell])
                    ++queryCounts[q];
            }
        };
        for (std::size_t i = 0; i < epochs.size(); ++i) {
            const auto &e = epochs[i];
            arrive(e.start);
            auto y = db->sample(cells, e.privacy.epsilon, bits);
            if (!y)
                return y.error();
            const auto answers = db->answers(*y);
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
            if (auto ok = reportLabProgress(progress, rep, c.repetitions, i, epochs.size(), runError); !ok)
                return ok.error();
        }
    }
    Json mc = errors.document(c.repetitions);
    // The best any m-row database could do on the whole table (a property of the data, simulation
    // only; the stream's last database when it ends at the last row).
    if (end == table.rowCount()) {
        std::vector<std::uint64_t> all(SmallDbInstance::kCells, 0);
        for (const auto cell : inst->rowCells)
            ++all[cell];
        auto best = db->bestMaxError(all);
        if (!best)
            return best.error();
        doc["smalldb"]["best_max_error_at_end"] = *best;
    }
    doc["monte_carlo"] = std::move(mc);
    return doc;
}

Result<Json> runScheduler(const GrowingLabConfig &c, const data::Rows *table, std::uint64_t seed,
                          std::uint64_t end, Json doc, const LabProgress &progress)
{
    SchedulerConfig sc = schedulerConfigOf(c);
    if (!c.gamma) {
        auto best = optimalGamma(sc, c.startSize);
        if (!best)
            return best.error();
        sc.gamma = best->gamma;
        doc["settings"]["schedule"]["gamma_chosen"] = best->gamma;
    }
    auto epochs = planEpochs(sc, end);
    if (!epochs)
        return epochs.error();
    const bool zcdp = scheduleIsZcdp(c.schedule);
    Json list = Json::array();
    for (const auto &e : *epochs) {
        Json j{{"index", e.privacy.index}, {"start", e.start}, {"end", e.last}};
        if (zcdp)
            j["rho"] = e.privacy.rho;
        j["epsilon"] = e.privacy.epsilon;
        j["cumulative"] = e.privacy.cumulative;
        j["beta"] = e.privacy.beta;
        j["alpha_black_box"] = io::json::finiteOrNull(e.alphaBlackBox);
        j["staleness"] = e.staleness;
        j["bound"] = io::json::finiteOrNull(e.bound);
        list.push_back(std::move(j));
    }
    doc["epochs"] = std::move(list);
    auto scheduler = BBScheduler::create(sc);
    Json privacy{{"unit", zcdp ? "rho" : "epsilon"},
                 {"total_reserved", scheduler->total()},
                 {"spent_realised", epochs->back().privacy.cumulative}};
    if (c.budget.kind == BudgetKind::Approx)
        privacy["target"]
            = Json{{"epsilon", c.budget.epsilon},
                   {"delta", c.budget.delta},
                   {"conversion", c.budget.conversion == ZcdpConversion::Cks ? "cks" : "simple"}};
    doc["privacy"] = std::move(privacy);
    if (c.smallDbSize > 0)
        doc["smalldb"] = Json{{"m", c.smallDbSize},
                              {"universe", SmallDbInstance::kCells},
                              {"queries", kCpsSmallDbQueries},
                              {"range_size", smallDbRangeSize(SmallDbInstance::kCells, c.smallDbSize)}};
    if (!table)
        return doc;
    if (c.smallDbSize > 0)
        return simulateSmallDbg(c, *table, seed, end, *epochs, std::move(doc), progress);

    // Monte Carlo: the rows arrive in a seeded order; each epoch answers every query from one
    // Laplace-k run on its first t_i rows; the error of every answer at every time is scored.
    const std::size_t k = c.queries.size();
    EpochErrors errors(*epochs);
    auto simulated = forEachRepetition(
        c, *table, seed, end, progress, [&](const PrefixCounts &counts, std::mt19937_64 &noise) {
            for (std::size_t i = 0; i < epochs->size(); ++i) {
                const auto &e = (*epochs)[i];
                const double scale = laplaceKScale(k, e.privacy.epsilon, double(e.start));
                errors.add(i, heldRunWorstError(counts, k, e.start, e.last, scale, noise));
            }
            return errors.endRepetition();
        });
    if (!simulated)
        return simulated.error();
    doc["monte_carlo"] = errors.document(c.repetitions);
    return doc;
}

Result<Json> runImprover(const GrowingLabConfig &c, const data::Rows *table, std::uint64_t seed,
                         std::uint64_t end, Json doc, const LabProgress &progress)
{
    const ImproverConfig ic = improverConfigOf(c);
    auto improver = BBImprover::create(ic);
    if (!improver)
        return improver.error();
    // Checkpoints: the run times n, n+m, … thinned to ~60 log-spaced ones, plus the last run.
    std::vector<std::uint64_t> times;
    const std::uint64_t lastRun = c.startSize + (end - c.startSize) / c.every * c.every;
    for (std::uint64_t t = c.startSize; t <= lastRun;) {
        times.push_back(t);
        const std::uint64_t grown = static_cast<std::uint64_t>(double(t) * 1.06);
        const std::uint64_t next
            = c.startSize + ((std::max(grown, t + 1) - c.startSize + c.every - 1) / c.every) * c.every;
        t = next;
    }
    if (times.back() != lastRun)
        times.push_back(lastRun);
    Json steps = Json::array();
    for (const auto t : times) {
        const auto s = improver->step(t);
        steps.push_back(Json{{"t", t},
                             {"rho", s.rho},
                             {"epsilon", s.epsilon},
                             {"cumulative", improver->cumulative(t + c.every - 1)},
                             {"beta", s.beta},
                             {"alpha_black_box", io::json::finiteOrNull(s.alphaBlackBox)},
                             {"staleness", s.staleness},
                             {"bound", io::json::finiteOrNull(s.bound)}});
    }
    doc["steps"] = std::move(steps);
    doc["normaliser"] = improver->normaliser();
    // The crossover with BBScheduler (zcdp-equalised at its optimal γ for the same budget and box).
    SchedulerConfig sc = schedulerConfigOf(c);
    sc.schedule = ScheduleKind::ZcdpEqualised;
    auto best = optimalGamma(sc, c.startSize, 0.01, 4.0, 2000);
    if (!best)
        return best.error();
    sc.gamma = best->gamma;
    auto cross = improverCrossover(ic, sc, std::uint64_t{1} << 50);
    if (!cross)
        return cross.error();
    doc["crossover"] = Json{{"scheduler", "zcdp-equalised"},
                            {"gamma", best->gamma},
                            {"scheduler_worst_bound", best->worstBound},
                            {"first_t", *cross ? Json(**cross) : Json(nullptr)},
                            {"within_horizon", cross->has_value() && **cross <= end}};
    doc["privacy"] = Json{{"unit", "rho"},
                          {"total_reserved", improver->total()},
                          {"spent_realised", improver->cumulative(lastRun + c.every - 1)}};
    if (!table)
        return doc;

    const std::size_t k = c.queries.size();
    std::vector<double> atEnd;
    int exceeding = 0;
    auto simulated = forEachRepetition(
        c, *table, seed, end, progress, [&](const PrefixCounts &counts, std::mt19937_64 &noise) {
            bool exceeded = false;
            double last = 0.0;
            for (std::uint64_t t = c.startSize; t <= lastRun; t += c.every) {
                const auto s = improver->step(t);
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
    doc["monte_carlo"] = Json{
        {"repetitions", c.repetitions}, {"max_error_at_end", summary(atEnd)}, {"runs_exceeding", exceeding}};
    return doc;
}

/// Checkpoint k of `checkpoints` evenly spaced times from n to `end` (one checkpoint: at end), where
/// PMWG and NSG ask their queries and the plan shows the public cap.
std::uint64_t checkpointTime(std::uint64_t n, std::uint64_t end, int checkpoints, int k)
{
    return checkpoints == 1 ? end : n + (end - n) * std::uint64_t(k) / std::uint64_t(checkpoints - 1);
}

/// For an approx budget: "target" = {ε, δ, conversion} and the realised / worst-case ρ converted
/// to ε at δ ("realised_target_epsilon", "worst_case_target_epsilon"). Nothing for other kinds.
Result<void> addApproxTarget(const Budget &budget, Json &privacy)
{
    if (budget.kind != BudgetKind::Approx)
        return {};
    privacy["target"] = Json{{"epsilon", budget.epsilon},
                             {"delta", budget.delta},
                             {"conversion", budget.conversion == ZcdpConversion::Cks ? "cks" : "simple"}};
    for (const auto &[from, to] : {std::pair{"realised", "realised_target_epsilon"},
                                   std::pair{"worst_case", "worst_case_target_epsilon"}}) {
        if (!privacy.contains(from) || !privacy[from].is_number())
            continue;
        auto e = approxEpsilonOf(budget, privacy[from].get<double>());
        if (!e)
            return e.error();
        privacy[to] = *e;
    }
    return {};
}

Result<Json> runPmwg(const GrowingLabConfig &c, const data::Rows *table, std::uint64_t seed,
                     std::uint64_t end, Json doc)
{
    auto pmwg = Pmwg::create(c.pmwg);
    if (!pmwg)
        return pmwg.error();
    const bool zcdp = isZcdp(c.budget);
    Json privacy{{"unit", zcdp ? "rho" : "epsilon"}, {"worst_case", pmwg->worstCase()}};
    privacy["total_reserved"] = zcdp ? *zcdpBudget(c.budget) : c.budget.epsilon;
    doc["sigma_n"] = pmwg->sigmaN();
    if (!table) {
        // The cap at the checkpoints is public: H(t) = ⌊c_0(1 + H_t − H_n)⌋.
        Json caps = Json::array();
        for (int k = 0; k < c.checkpoints; ++k) {
            const std::uint64_t t = checkpointTime(c.startSize, end, c.checkpoints, k);
            caps.push_back(Json{{"time", t}, {"cap", pmwg->capAt(t)}});
        }
        doc["cap"] = std::move(caps);
        if (auto ok = addApproxTarget(c.budget, privacy); !ok)
            return ok.error();
        doc["privacy"] = std::move(privacy);
        return doc;
    }
    auto universe = cpsUniverse(*table, c.universe);
    if (!universe)
        return universe.error();
    auto run = simulatePmwg(c.pmwg, *universe, *table, c.order, end, c.checkpoints, c.perCheckpoint, seed);
    if (!run)
        return run.error();
    Json hard = Json::array();
    for (const auto &h : run->hardQueries)
        hard.push_back(Json{{"time", h.time}, {"query", h.query}});
    doc["hard_queries"] = std::move(hard);
    Json caps = Json::array();
    for (const auto &cp : run->checkpoints)
        caps.push_back(Json{{"time", cp.time}, {"cap", cp.cap}, {"hard", cp.hard}});
    doc["cap"] = std::move(caps);
    // Realised and worst case in the budget's unit: ε (pure), or ρ (zcdp and approx: the rounds
    // opened, (49/18)Σf(s_i)²); an approx budget also gets both converted to ε at its δ.
    privacy["realised"] = run->realised;
    privacy["realised_epsilon"] = run->realisedEpsilon;
    if (auto ok = addApproxTarget(c.budget, privacy); !ok)
        return ok.error();
    doc["privacy"] = std::move(privacy);
    doc["errors"] = Json{{"queries", run->queries},
                         {"mean_abs", run->meanAbsError},
                         {"q95_abs", run->q95AbsError},
                         {"max_abs", run->maxAbsError},
                         {"laplace_baseline_mean_abs", run->laplaceBaselineMeanError},
                         {"final_kl", run->finalDivergence}};
    if (!c.pmwg.uniformArrivals)
        doc["warning"] = "uniform update off: not private as analysed (a simulation-only demonstration)";
    return doc;
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
    Json document(int repetitions, const NsgRun &first) const
    {
        Json checkpoints = Json::array();
        for (std::size_t k = 0; k < m_hard.size(); ++k)
            checkpoints.push_back(Json{{"time", first.checkpoints[k].time},
                                       {"hard", band(m_hard[k])},
                                       {"hard_mean_abs", band(m_error[k])},
                                       {"runs_with_hard", m_error[k].size()}});
        return Json{{"repetitions", repetitions},
                    {"checkpoints", std::move(checkpoints)},
                    {"hard", band(m_finalHard)},
                    {"hard_mean_abs", band(m_finalError)},
                    {"realised", band(m_realised)}};
    }

private:
    std::vector<std::vector<double>> m_hard, m_error;
    std::vector<double> m_finalHard, m_finalError, m_realised;
};

Result<Json> runNsg(const GrowingLabConfig &c, const data::Rows *table, std::uint64_t seed, std::uint64_t end,
                    Json doc, const LabProgress &progress)
{
    auto unit = nsgNoiseUnit(c.nsg);
    if (!unit)
        return unit.error();
    const bool zcdp = isZcdp(c.budget);
    Json privacy{{"unit", zcdp ? "rho" : "epsilon"}, {"worst_case", nsgWorstCase(*unit, c.nsg)}};
    privacy["total_reserved"] = zcdp ? *zcdpBudget(c.budget) : c.budget.epsilon;
    doc["sigma_n"] = unit->sigmaN;
    doc["f_n"] = unit->f(double(unit->startSize));
    if (!table) {
        Json caps = Json::array();
        for (int k = 0; k < c.checkpoints; ++k) {
            const std::uint64_t t = checkpointTime(c.startSize, end, c.checkpoints, k);
            caps.push_back(Json{{"time", t}, {"cap", c.nsg.cap->at(c.startSize, t)}});
        }
        doc["cap"] = std::move(caps);
        if (auto ok = addApproxTarget(c.budget, privacy); !ok)
            return ok.error();
        doc["privacy"] = std::move(privacy);
        return doc;
    }
    if (c.queries.empty())
        return growingError(kInvalidConfig, "nsg.queries",
                            "a simulation needs predicates (use --plan-only otherwise)");
    auto data = compileQueries(c, *table);
    if (!data)
        return data.error();
    // Repetition r: the arrival order labOrderSeed(seed, r) and the noise labNoiseSeed(seed, r).
    // The transcript listed (hard answers, cap, rounds, privacy) is repetition 0's.
    std::optional<NsgRun> run;
    NsgErrors errors(std::size_t(c.checkpoints));
    for (int rep = 0; rep < c.repetitions; ++rep) {
        auto order = arrivalOrder(*table, c.order, labOrderSeed(seed, rep));
        if (!order)
            return order.error();
        auto one = simulateNsg(c.nsg, data->masks, *order, end, c.checkpoints, labNoiseSeed(seed, rep));
        if (!one)
            return one.error();
        errors.add(*one);
        if (rep == 0)
            run = std::move(*one);
        if (auto ok = reportLabProgress(progress, rep, c.repetitions); !ok)
            return ok.error();
    }
    Json hard = Json::array();
    for (const auto &h : run->hardQueries)
        hard.push_back(
            Json{{"time", h.time}, {"query", h.query}, {"answer", h.answer}, {"true", h.trueAnswer}});
    doc["hard_queries"] = std::move(hard);
    Json caps = Json::array();
    for (const auto &cp : run->checkpoints)
        caps.push_back(Json{{"time", cp.time},
                            {"cap", cp.cap},
                            {"hard", cp.hard},
                            {"capped", cp.capped},
                            {"threshold_side_differs", cp.misjudged}});
    doc["cap"] = std::move(caps);
    Json rounds = Json::array();
    for (const auto &r : run->rounds)
        rounds.push_back(Json{{"start", r.start},
                              {"halt", r.halt ? Json(*r.halt) : Json(nullptr)},
                              {"cost_atg", r.atgCost},
                              {"cost", r.cost}});
    doc["rounds"] = std::move(rounds);
    privacy["realised"] = run->realised;
    privacy["realised_epsilon"] = run->realisedEpsilon;
    if (auto ok = addApproxTarget(c.budget, privacy); !ok)
        return ok.error();
    doc["privacy"] = std::move(privacy);
    doc["errors"] = Json{{"queries", run->queries}, {"hard_mean_abs", run->meanAbsNumericError}};
    doc["monte_carlo"] = errors.document(c.repetitions, *run);
    return doc;
}

/// One ERMG release: a model fitted on the first t rows, held to `last`, charged ρ.
struct ErmRelease
{
    std::uint64_t t = 0, last = 0;
    double rho = 0.0, cumulative = 0.0;
};

/// ERMG's simulation: per repetition the rows arrive in the order labOrderSeed(seed, r), every
/// release refits the model (warm-started from the previous one) and scores `ermDraws` noisy copies
/// (progress after each fit);
/// one noise stream std::mt19937_64(seed ^ "ermg") through every repetition. The releases' own
/// fields (risk, excess_risk, newton_iterations) are repetition 0's; "monte_carlo" has, per release,
/// the median and band over the runs of the mean excess empirical risk.
Result<void> simulateErmg(const GrowingLabConfig &c, const data::Rows &table, std::uint64_t seed,
                          std::uint64_t end, const std::vector<ErmRelease> &releases, Json &doc,
                          const LabProgress &progress)
{
    auto data = cpsErmData(table);
    if (!data)
        return data.error();
    const Eigen::Index rows = Eigen::Index(end);
    Eigen::MatrixXd x(rows, data->features.cols());
    Eigen::VectorXd y(rows);
    std::mt19937_64 rng(seed ^ 0x65726d67u);
    std::vector<std::vector<double>> excess(releases.size());
    auto &out = doc["releases"];
    for (int rep = 0; rep < c.repetitions; ++rep) {
        auto order = arrivalOrder(table, c.order, labOrderSeed(seed, rep));
        if (!order)
            return order.error();
        for (std::uint64_t r = 0; r < end; ++r) {
            x.row(Eigen::Index(r)) = data->features.row(Eigen::Index((*order)[r]));
            y(Eigen::Index(r)) = data->labels(Eigen::Index((*order)[r]));
        }
        Eigen::VectorXd theta;
        for (std::size_t i = 0; i < releases.size(); ++i) {
            const Eigen::Index t = Eigen::Index(releases[i].t);
            auto fit = fitLogistic(x.topRows(t), y.head(t), c.ermLambda, c.ermTol,
                                   theta.size() ? &theta : nullptr);
            if (!fit)
                return fit.error();
            theta = fit->theta;
            const auto risk = excessRisk(theta, out[i]["sigma"].get<double>(), x.topRows(t), y.head(t),
                                         c.ermLambda, c.ermDraws, rng);
            excess[i].push_back(risk.mean);
            if (rep == 0) {
                out[i]["risk"] = logisticRisk(theta, x.topRows(t), y.head(t), c.ermLambda);
                out[i]["excess_risk"] = Json{{"mean", risk.mean}, {"median", risk.median}};
                out[i]["newton_iterations"] = fit->iterations;
            }
            // Progress after every fit: a repetition of the thinned grid takes seconds.
            if (auto ok = reportLabProgress(progress, rep, c.repetitions, i, releases.size()); !ok)
                return ok;
        }
    }
    Json perRelease = Json::array();
    for (std::size_t i = 0; i < releases.size(); ++i)
        perRelease.push_back(Json{{"t", releases[i].t}, {"excess_risk_mean", band(excess[i])}});
    doc["monte_carlo"] = Json{{"repetitions", c.repetitions}, {"releases", std::move(perRelease)}};
    return {};
}

/// ERMG: the release times with their ρ (BBImprover's thinned grid or BBScheduler's epochs), the
/// Gaussian σ = Δ_t/√(2ρ_t) of each, and (simulation) the measured excess empirical risk.
Result<Json> runErmg(const GrowingLabConfig &c, const data::Rows *table, std::uint64_t seed,
                     std::uint64_t end, Json doc, const LabProgress &progress)
{
    std::vector<ErmRelease> releases;
    double total = 0.0;
    if (c.ermScheduler) {
        const SchedulerConfig sc = schedulerConfigOf(c);
        auto epochs = planEpochs(sc, end);
        if (!epochs)
            return epochs.error();
        for (const auto &e : *epochs)
            releases.push_back({e.start, e.last, e.privacy.rho, e.privacy.cumulative});
        total = BBScheduler::create(sc)->total();
    } else {
        const ImproverConfig ic = improverConfigOf(c);
        auto improver = BBImprover::create(ic);
        if (!improver)
            return improver.error();
        total = improver->total();
        double cumulative = 0.0;
        for (std::uint64_t t = c.startSize; t <= end; t += c.every) {
            const auto step = improver->step(t);
            cumulative = std::min(total, math::addRoundUp(cumulative, step.rho));
            releases.push_back({t, std::min(end, t + c.every - 1), step.rho, cumulative});
        }
    }
    if (table && releases.size() > 1000)
        return growingError(kInvalidConfig, "schedule.every",
                            "a simulation solves at most 1000 models; " + std::to_string(releases.size())
                                + " releases were planned (raise schedule.every)");
    Json list = Json::array();
    for (const auto &r : releases) {
        if (!(r.rho > 0.0))
            return growingError(kInvalidBudget, "budget", "a release's rho underflowed to 0");
        list.push_back(Json{{"t", r.t},
                            {"end", r.last},
                            {"rho", r.rho},
                            {"cumulative", r.cumulative},
                            {"sensitivity", ermSensitivity(r.t, c.ermLambda, c.ermTol)},
                            {"sigma", ermNoiseScale(r.t, c.ermLambda, c.ermTol, r.rho)}});
    }
    doc["releases"] = std::move(list);
    Json privacy{{"unit", "rho"}, {"total_reserved", total}, {"spent_realised", releases.back().cumulative}};
    if (auto ok = addApproxTarget(c.budget, privacy); !ok)
        return ok.error();
    doc["privacy"] = std::move(privacy);
    if (!table)
        return doc;
    if (auto ok = simulateErmg(c, *table, seed, end, releases, doc, progress); !ok)
        return ok.error();
    return doc;
}

} // namespace

Result<Json> runGrowingLab(const GrowingLabConfig &c, const data::Table *table, std::uint64_t seed,
                           bool planOnly, const LabProgress &progress)
{
    if (planOnly)
        table = nullptr;
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
    // Door (b) of core/data/rows.h: the rows of the public table checked above.
    std::optional<data::Rows> publicTable;
    if (table)
        publicTable = *data::publicRows(*table, "the growing-database lab");
    const data::Rows *rows = publicTable ? &*publicTable : nullptr;
    // Switching the uniform update off is a demonstration allowed in simulation only (labelled there).
    if (!table && c.algorithm == LabAlgorithm::Pmwg && !c.pmwg.uniformArrivals)
        return growingError(kInvalidConfig, "pmwg.uniform_update",
                            "false voids the privacy analysis and is a simulation-only demonstration");
    Json doc{{"format", "pbx-simulation"},
             {"version", 1},
             {"simulation", "growing-" + std::string(labAlgorithmName(c.algorithm))},
             {"settings", growingLabSettings(c, seed, planOnly)}};
    auto result = c.algorithm == LabAlgorithm::BBScheduler
                      ? runScheduler(c, rows, seed, end, std::move(doc), progress)
                  : c.algorithm == LabAlgorithm::BBImprover
                      ? runImprover(c, rows, seed, end, std::move(doc), progress)
                  : c.algorithm == LabAlgorithm::Pmwg ? runPmwg(c, rows, seed, end, std::move(doc))
                  : c.algorithm == LabAlgorithm::Nsg  ? runNsg(c, rows, seed, end, std::move(doc), progress)
                                                      : runErmg(c, rows, seed, end, std::move(doc), progress);
    if (!result)
        return result;
    (*result)["note"] = table ? kSimulationNote : kPlanNote;
    return result;
}

} // namespace pbx::growing
