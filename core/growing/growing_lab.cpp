// SPDX-License-Identifier: MIT
#include "core/growing/growing_lab.h"
#include "core/growing/lab_monte_carlo.h"

#include "core/data/predicate.h"
#include "core/growing/growing_error.h"
#include "core/growing/growing_svt.h"
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

/// A reader's Parse error (which already names "path.key") under a growing code word.
Error recode(std::string_view code, const Error &error)
{
    return growingError(code, "", error.message);
}

Result<const Json *> objectAt(const Json &doc, const char *key, bool required)
{
    if (!doc.contains(key) || doc[key].is_null()) {
        if (required)
            return growingError(kInvalidConfig, key, "missing (an object is required)");
        return static_cast<const Json *>(nullptr);
    }
    if (!doc[key].is_object())
        return growingError(kInvalidConfig, key, "expected an object");
    return &doc[key];
}

Result<Budget> parseBudget(const Json &b)
{
    Budget budget;
    auto kind = io::json::string(b, "kind", "budget");
    if (!kind)
        return recode(kInvalidBudget, kind.error());
    auto readNumber = [&](const char *key) -> Result<double> {
        auto v = io::json::number(b, key, "budget");
        if (!v)
            return recode(kInvalidBudget, v.error());
        return *v;
    };
    if (*kind == "pure") {
        budget.kind = BudgetKind::Pure;
        auto e = readNumber("epsilon");
        if (!e)
            return e.error();
        budget.epsilon = *e;
    } else if (*kind == "zcdp") {
        budget.kind = BudgetKind::Zcdp;
        auto r = readNumber("rho");
        if (!r)
            return r.error();
        budget.rho = *r;
    } else if (*kind == "approx") {
        budget.kind = BudgetKind::Approx;
        auto e = readNumber("epsilon");
        if (!e)
            return e.error();
        auto d = readNumber("delta");
        if (!d)
            return d.error();
        budget.epsilon = *e;
        budget.delta = *d;
        auto conversion = io::json::optionalString(b, "conversion", "budget", "cks");
        if (!conversion)
            return recode(kInvalidBudget, conversion.error());
        if (*conversion == "cks")
            budget.conversion = ZcdpConversion::Cks;
        else if (*conversion == "simple")
            budget.conversion = ZcdpConversion::Simple;
        else
            return growingError(kInvalidBudget, "budget.conversion", "expected cks or simple");
    } else {
        return growingError(kInvalidBudget, "budget.kind", "expected pure, zcdp or approx");
    }
    if (auto ok = validate(budget); !ok)
        return ok.error();
    return budget;
}

Result<void> parseBlackBox(const Json &b, GrowingLabConfig &c)
{
    auto kind = io::json::optionalString(b, "kind", "black_box", "laplace-k");
    if (!kind)
        return recode(kInvalidBlackBox, kind.error());
    auto count = [&](const char *key, std::size_t &out) -> Result<void> {
        auto v = io::json::unsignedInteger(b, key, "black_box");
        if (!v)
            return recode(kInvalidBlackBox, v.error());
        out = static_cast<std::size_t>(std::min<std::uint64_t>(*v, std::uint64_t{1} << 40));
        return {};
    };
    if (*kind == "laplace-k") {
        c.box.kind = BlackBoxKind::LaplaceK;
        if (!b.contains("queries"))
            return growingError(kInvalidBlackBox, "black_box.queries",
                                "missing (a list of predicates or a count)");
        const Json &q = b["queries"];
        if (q.is_array()) {
            for (const auto &item : q) {
                if (!item.is_string())
                    return growingError(kInvalidBlackBox, "black_box.queries", "expected predicate strings");
                c.queries.push_back(item.get<std::string>());
            }
            c.box.queries = c.queries.size();
        } else if (auto ok = count("queries", c.box.queries); !ok) {
            return ok;
        }
    } else if (*kind == "noisy-histogram") {
        c.box.kind = BlackBoxKind::NoisyHistogram;
        if (auto ok = count("universe", c.box.universe); !ok)
            return ok;
        if (b.contains("cells_per_query"))
            if (auto ok = count("cells_per_query", c.box.cellsPerQuery); !ok)
                return ok;
    } else if (*kind == "smalldb") {
        c.box.kind = BlackBoxKind::SmallDb;
        if (b.contains("m")) {
            // SmallDBG's CPS1988 teaching instance: N = 16 cells, the 28 marginal cells, enumerated.
            std::size_t m = 0;
            if (auto ok = count("m", m); !ok)
                return ok;
            c.smallDbSize = m;
            c.box.universe = SmallDbInstance::kCells;
            c.box.queries = kCpsSmallDbQueries;
            for (const auto &[key, expected] :
                 {std::pair{"universe", c.box.universe}, std::pair{"queries", c.box.queries}}) {
                if (!b.contains(key))
                    continue;
                std::size_t given = 0;
                if (auto ok = count(key, given); !ok)
                    return ok;
                if (given != expected)
                    return growingError(
                        kInvalidBlackBox, std::string("black_box.") + key,
                        "the SmallDB teaching instance (with \"m\") has N = 16 cells and 28 queries");
            }
            if (auto ok = SmallDb::create(SmallDbInstance::kCells,
                                          {std::vector<std::uint8_t>(SmallDbInstance::kCells, 1)}, m);
                !ok)
                return ok.error();
        } else {
            if (auto ok = count("universe", c.box.universe); !ok)
                return ok;
            if (auto ok = count("queries", c.box.queries); !ok)
                return ok;
        }
    } else {
        return growingError(kInvalidBlackBox, "black_box.kind",
                            "expected laplace-k, noisy-histogram or smalldb");
    }
    return validate(c.box);
}

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

Result<void> parsePmwg(const Json &doc, GrowingLabConfig &c)
{
    auto block = objectAt(doc, "pmwg", false);
    if (!block)
        return block.error();
    PmwgConfig &p = c.pmwg;
    if (*block) {
        const Json &b = **block;
        auto universe = io::json::optionalString(b, "universe", "pmwg", "small");
        if (!universe)
            return recode(kInvalidUniverse, universe.error());
        c.universe = *universe;
        auto mode = io::json::optionalString(b, "mode", "pmwg", "practical");
        if (!mode)
            return recode(kInvalidConfig, mode.error());
        if (*mode == "theory")
            p.mode = PmwgMode::Theory;
        else if (*mode == "practical")
            p.mode = PmwgMode::Practical;
        else
            return growingError(kInvalidConfig, "pmwg.mode", "expected theory or practical");
        struct Field
        {
            const char *key;
            double *target;
            std::string_view code;
        };
        for (const auto &f :
             {Field{"alpha", &p.alpha, kInvalidAlpha}, Field{"p", &p.exponent, kInvalidNoiseExponent},
              Field{"c0", &p.c0, kInvalidCap}, Field{"T", &p.threshold, kInvalidThreshold},
              Field{"eta", &p.eta, kInvalidLearningRate}}) {
            auto v = io::json::optionalNumber(b, f.key, "pmwg");
            if (!v)
                return recode(f.code, v.error());
            if (*v)
                *f.target = **v;
        }
        auto uniform = io::json::optionalBool(b, "uniform_update", "pmwg", true);
        if (!uniform)
            return recode(kInvalidConfig, uniform.error());
        p.uniformArrivals = *uniform;
        for (const auto &[key, target] :
             {std::pair{"checkpoints", &c.checkpoints}, std::pair{"per_checkpoint", &c.perCheckpoint}}) {
            if (!b.contains(key))
                continue;
            auto v = io::json::unsignedInteger(b, key, "pmwg");
            if (!v || *v < 1 || *v > 100000)
                return growingError(kInvalidConfig, std::string("pmwg.") + key,
                                    "must be an integer from 1 to 100000");
            *target = static_cast<int>(*v);
        }
    }
    auto shape = universeShape(c.universe);
    if (!shape)
        return shape.error();
    p.universeSize = shape->cells;
    p.startSize = c.startSize;
    p.budget = c.budget;
    return validate(p);
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

Result<void> parseNsg(const Json &doc, GrowingLabConfig &c)
{
    auto block = objectAt(doc, "nsg", false);
    if (!block)
        return block.error();
    NsgConfig &n = c.nsg;
    n.startSize = c.startSize;
    n.budget = c.budget;
    if (!*block)
        return validate(n); // CAP_REQUIRED: nsg.cap
    const Json &b = **block;
    auto p = io::json::optionalNumber(b, "p", "nsg");
    if (!p)
        return recode(kInvalidNoiseExponent, p.error());
    if (*p)
        n.exponent = **p;
    auto threshold = io::json::optionalNumber(b, "T", "nsg");
    if (!threshold)
        return recode(kInvalidThreshold, threshold.error());
    if (*threshold)
        n.threshold = **threshold;
    if (b.contains("cap") && !b["cap"].is_null()) {
        if (!b["cap"].is_object())
            return growingError(kInvalidCap, "nsg.cap", "expected an object {\"kind\": \"time\", \"c0\": …}");
        const Json &cap = b["cap"];
        auto kind = io::json::optionalString(cap, "kind", "nsg.cap", "time");
        if (!kind)
            return recode(kInvalidCap, kind.error());
        if (*kind != "time" && *kind != "constant")
            return growingError(kInvalidCap, "nsg.cap.kind", "expected \"time\" or \"constant\"");
        const bool time = *kind == "time";
        const char *key = time ? "c0" : "c";
        auto value = io::json::number(cap, key, "nsg.cap");
        if (!value)
            return recode(kInvalidCap, value.error());
        n.cap = HardQueryCap{time, *value};
    }
    if (b.contains("queries")) {
        if (!b["queries"].is_array())
            return growingError(kInvalidConfig, "nsg.queries", "expected a list of predicate strings");
        for (const auto &item : b["queries"]) {
            if (!item.is_string())
                return growingError(kInvalidConfig, "nsg.queries", "expected predicate strings");
            c.queries.push_back(item.get<std::string>());
        }
    }
    if (b.contains("checkpoints")) {
        auto v = io::json::unsignedInteger(b, "checkpoints", "nsg");
        if (!v || *v < 1 || *v > 100000)
            return growingError(kInvalidConfig, "nsg.checkpoints", "must be an integer from 1 to 100000");
        c.checkpoints = static_cast<int>(*v);
    }
    return validate(n);
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

/// BBImprover's "schedule" fields {"a", "every"} (BBImprover's own, and ERMG's improver grid).
Result<void> parseImproverSchedule(const Json &sch, GrowingLabConfig &c)
{
    auto a = io::json::optionalNumber(sch, "a", "schedule");
    if (!a)
        return recode(kInvalidDecay, a.error());
    if (*a)
        c.decay = **a;
    if (sch.contains("every")) {
        auto every = io::json::unsignedInteger(sch, "every", "schedule");
        if (!every)
            return recode(kInvalidConfig, every.error());
        c.every = *every;
    }
    return {};
}

/// ERMG's "schedule" ({"kind": "improver", "a", "every"} or {"kind": "zcdp-equalised" |
/// "zcdp-geometric", "gamma"}) and "erm" ({"lambda", "tol", "draws"}) blocks.
Result<void> parseErmg(const Json &doc, const Json *schedule, GrowingLabConfig &c)
{
    c.every = 1000; // the thinned grid: one Newton solve per 1000 arrivals unless told otherwise
    if (!isZcdp(c.budget))
        return growingError(kInvalidSchedule, "budget.kind",
                            "ermg releases Gaussian noise and needs a zcdp or approx budget");
    if (schedule) {
        const Json &sch = *schedule;
        auto kind = io::json::optionalString(sch, "kind", "schedule", "improver");
        if (!kind)
            return recode(kInvalidSchedule, kind.error());
        if (*kind == "improver") {
            if (auto ok = parseImproverSchedule(sch, c); !ok)
                return ok;
        } else {
            auto parsed = parseScheduleKind(*kind);
            if (!parsed)
                return parsed.error();
            if (!scheduleIsZcdp(*parsed))
                return growingError(kInvalidSchedule, "schedule.kind",
                                    "ermg takes \"improver\", \"zcdp-equalised\" or \"zcdp-geometric\"");
            c.ermScheduler = true;
            c.schedule = *parsed;
            if (!sch.contains("gamma") || !sch["gamma"].is_number())
                return growingError(kInvalidGamma, "schedule.gamma", "expected a number");
            c.gamma = sch["gamma"].get<double>();
            if (auto ok = checkGamma(*c.gamma); !ok)
                return ok.error();
        }
    }
    auto block = objectAt(doc, "erm", false);
    if (!block)
        return block.error();
    if (*block) {
        const Json &b = **block;
        for (const auto &[key, target] : {std::pair{"lambda", &c.ermLambda}, std::pair{"tol", &c.ermTol}}) {
            auto v = io::json::optionalNumber(b, key, "erm");
            if (!v)
                return recode(kInvalidConfig, v.error());
            if (*v)
                *target = **v;
        }
        if (b.contains("draws")) {
            auto v = io::json::unsignedInteger(b, "draws", "erm");
            if (!v || *v < 1 || *v > 100000)
                return growingError(kInvalidConfig, "erm.draws", "must be an integer from 1 to 100000");
            c.ermDraws = static_cast<int>(*v);
        }
    }
    if (!(c.ermLambda > 0.0) || !std::isfinite(c.ermLambda))
        return growingError(kInvalidConfig, "erm.lambda", "must be a finite number > 0");
    if (!(c.ermTol >= 1e-10 && c.ermTol <= 1e-2))
        return growingError(kInvalidConfig, "erm.tol", "must be a number with 1e-10 <= tol <= 1e-2");
    // The box's accuracy function is not used by ERMG; a Laplace box satisfies the schedulers' checks.
    c.box = BlackBox{};
    if (c.ermScheduler) {
        const SchedulerConfig sc = schedulerConfigOf(c);
        return validate(sc);
    }
    const ImproverConfig ic = improverConfigOf(c);
    return validate(ic);
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

SchedulerConfig schedulerConfigOf(const GrowingLabConfig &c)
{
    return SchedulerConfig{c.startSize, c.gamma.value_or(1.0), c.budget, c.schedule, c.beta, c.box};
}

ImproverConfig improverConfigOf(const GrowingLabConfig &c)
{
    return ImproverConfig{c.startSize, c.decay, c.every, c.budget, c.beta, c.box};
}

std::string_view labAlgorithmName(LabAlgorithm algorithm)
{
    switch (algorithm) {
    case LabAlgorithm::BBScheduler:
        return "bbscheduler";
    case LabAlgorithm::BBImprover:
        return "bbimprover";
    case LabAlgorithm::Pmwg:
        return "pmwg";
    case LabAlgorithm::Nsg:
        return "nsg";
    case LabAlgorithm::Ermg:
        return "ermg";
    }
    return "bbscheduler";
}

Result<GrowingLabConfig> parseGrowingLab(const Json &doc)
{
    if (!doc.is_object())
        return growingError(kInvalidConfig, "", "expected a JSON object");
    auto format = io::json::string(doc, "format", "");
    if (!format || *format != "pbx-growing-lab")
        return growingError(kInvalidConfig, "format", "expected \"pbx-growing-lab\"");
    auto version = io::json::unsignedInteger(doc, "version", "");
    if (!version || *version != 1)
        return growingError(kInvalidConfig, "version", "expected 1");
    GrowingLabConfig c;
    auto algorithm = io::json::string(doc, "algorithm", "");
    if (!algorithm)
        return recode(kInvalidConfig, algorithm.error());
    if (*algorithm == "bbscheduler")
        c.algorithm = LabAlgorithm::BBScheduler;
    else if (*algorithm == "bbimprover")
        c.algorithm = LabAlgorithm::BBImprover;
    else if (*algorithm == "pmwg")
        c.algorithm = LabAlgorithm::Pmwg;
    else if (*algorithm == "nsg")
        c.algorithm = LabAlgorithm::Nsg;
    else if (*algorithm == "ermg")
        c.algorithm = LabAlgorithm::Ermg;
    else
        return growingError(kInvalidConfig, "algorithm",
                            "expected bbscheduler, bbimprover, pmwg, nsg or ermg");
    auto dataset = io::json::optionalString(doc, "dataset", "", "cps1988");
    if (!dataset)
        return recode(kInvalidConfig, dataset.error());
    c.dataset = *dataset;
    auto neighbours = io::json::optionalString(doc, "neighbours", "", "replace");
    if (!neighbours)
        return recode(kInvalidConfig, neighbours.error());
    if (*neighbours != "replace")
        return growingError(kNeighboursUnsupported, "neighbours",
                            "growing-database mechanisms are analysed for replace-one neighbouring streams");

    auto stream = objectAt(doc, "stream", true);
    if (!stream)
        return stream.error();
    const Json &s = **stream;
    if (!s.contains("start_size") || !s["start_size"].is_number_integer()
        || s["start_size"].get<std::int64_t>() < 0)
        return growingError(kInvalidStartSize, "stream.start_size", "must be an integer with 1 <= n <= 2^53");
    c.startSize = s["start_size"].get<std::uint64_t>();
    if (auto ok = checkStartSize(c.startSize, "stream.start_size"); !ok)
        return ok.error();
    auto order = io::json::optionalString(s, "order", "stream", "random");
    if (!order)
        return recode(kInvalidConfig, order.error());
    c.order = *order;
    if (c.order != "random" && !c.order.starts_with("sorted:"))
        return growingError(kInvalidConfig, "stream.order", "expected \"random\" or \"sorted:<predicate>\"");
    if (s.contains("end") && !s["end"].is_null()) {
        auto end = io::json::unsignedInteger(s, "end", "stream");
        if (!end)
            return recode(kInvalidConfig, end.error());
        if (*end < c.startSize || *end > kMaxTime)
            return growingError(kInvalidConfig, "stream.end", "must be >= stream.start_size and <= 2^53");
        c.end = *end;
    }

    auto budget = objectAt(doc, "budget", true);
    if (!budget)
        return budget.error();
    auto parsedBudget = parseBudget(**budget);
    if (!parsedBudget)
        return parsedBudget.error();
    c.budget = *parsedBudget;

    auto schedule = objectAt(doc, "schedule", c.algorithm == LabAlgorithm::BBScheduler);
    if (schedule && *schedule && (c.algorithm == LabAlgorithm::Pmwg || c.algorithm == LabAlgorithm::Nsg))
        return growingError(kInvalidConfig, "schedule",
                            c.algorithm == LabAlgorithm::Pmwg ? "pmwg takes its parameters from \"pmwg\""
                                                              : "nsg takes its parameters from \"nsg\"");
    if (!schedule)
        return schedule.error();
    if (c.algorithm == LabAlgorithm::BBScheduler) {
        const Json &sch = **schedule;
        auto kind = io::json::string(sch, "kind", "schedule");
        if (!kind)
            return recode(kInvalidSchedule, kind.error());
        auto parsed = parseScheduleKind(*kind);
        if (!parsed)
            return parsed.error();
        c.schedule = *parsed;
        if (sch.contains("gamma") && sch["gamma"].is_string()
            && sch["gamma"].get<std::string>() == "optimal") {
            c.gamma.reset();
        } else {
            if (!sch.contains("gamma") || !sch["gamma"].is_number())
                return growingError(kInvalidGamma, "schedule.gamma", "expected a number or \"optimal\"");
            c.gamma = sch["gamma"].get<double>();
            if (auto ok = checkGamma(*c.gamma); !ok)
                return ok.error();
        }
        if (scheduleIsZcdp(c.schedule) != isZcdp(c.budget))
            return growingError(
                kInvalidSchedule, "schedule.kind",
                "'" + *kind + "' needs "
                    + (scheduleIsZcdp(c.schedule) ? "a zcdp or approx budget" : "a pure budget")
                    + " (budget.kind is '" + std::string(budgetKindName(c.budget.kind)) + "')");
    } else if (c.algorithm == LabAlgorithm::BBImprover && *schedule) {
        // (ermg reads its schedule in parseErmg)
        if (auto ok = parseImproverSchedule(**schedule, c); !ok)
            return ok.error();
    }

    if (c.algorithm == LabAlgorithm::Pmwg) {
        if (auto ok = parsePmwg(doc, c); !ok)
            return ok.error();
    } else if (c.algorithm == LabAlgorithm::Nsg) {
        if (auto ok = parseNsg(doc, c); !ok)
            return ok.error();
    } else if (c.algorithm == LabAlgorithm::Ermg) {
        if (auto ok = parseErmg(doc, *schedule, c); !ok)
            return ok.error();
    } else {
        auto box = objectAt(doc, "black_box", true);
        if (!box)
            return box.error();
        if (auto ok = parseBlackBox(**box, c); !ok)
            return ok.error();
    }

    auto beta = io::json::optionalNumber(doc, "beta", "");
    if (!beta)
        return recode(kInvalidBeta, beta.error());
    if (*beta)
        c.beta = **beta;
    if (auto ok = checkBeta(c.beta); !ok)
        return ok.error();
    if (doc.contains("repetitions")) {
        auto reps = io::json::unsignedInteger(doc, "repetitions", "");
        if (!reps || *reps < 1 || *reps > 100000)
            return growingError(kInvalidConfig, "repetitions", "must be an integer from 1 to 100000");
        c.repetitions = static_cast<int>(*reps);
    } else if (c.algorithm == LabAlgorithm::Nsg || c.algorithm == LabAlgorithm::Ermg) {
        // Without "repetitions" NSG and ERMG run the one seeded order they always ran (an ERMG
        // repetition refits every model: about a second on CPS1988).
        c.repetitions = 1;
    }
    // The whole configuration through the core's own checks.
    if (c.algorithm == LabAlgorithm::BBImprover) {
        const ImproverConfig ic = improverConfigOf(c);
        if (auto ok = validate(ic); !ok)
            return ok.error();
    }
    return c;
}

Json growingLabSettings(const GrowingLabConfig &c, std::uint64_t seed, bool planOnly)
{
    Json s{{"algorithm", labAlgorithmName(c.algorithm)}, {"dataset", c.dataset}, {"neighbours", "replace"}};
    s["stream"] = Json{{"start_size", c.startSize}, {"order", c.order}};
    if (c.end)
        s["stream"]["end"] = *c.end;
    Json budget{{"kind", budgetKindName(c.budget.kind)}};
    if (c.budget.kind == BudgetKind::Zcdp)
        budget["rho"] = c.budget.rho;
    else
        budget["epsilon"] = c.budget.epsilon;
    if (c.budget.kind == BudgetKind::Approx) {
        budget["delta"] = c.budget.delta;
        budget["conversion"] = c.budget.conversion == ZcdpConversion::Cks ? "cks" : "simple";
    }
    s["budget"] = std::move(budget);
    if (c.algorithm == LabAlgorithm::Pmwg) {
        const PmwgConfig r = c.pmwg.resolved();
        s["pmwg"] = Json{{"universe", c.universe},
                         {"mode", c.pmwg.mode == PmwgMode::Theory ? "theory" : "practical"},
                         {"alpha", c.pmwg.alpha},
                         {"p", c.pmwg.exponent},
                         {"c0", r.c0},
                         {"T", r.threshold},
                         {"eta", r.eta},
                         {"uniform_update", c.pmwg.uniformArrivals},
                         {"checkpoints", c.checkpoints},
                         {"per_checkpoint", c.perCheckpoint}};
        s["beta"] = c.beta;
        s["seed"] = seed;
        s["plan_only"] = planOnly;
        return s;
    }
    if (c.algorithm == LabAlgorithm::Ermg) {
        s["schedule"] = c.ermScheduler ? Json{{"kind", scheduleKindName(c.schedule)}, {"gamma", *c.gamma}}
                                       : Json{{"kind", "improver"}, {"a", c.decay}, {"every", c.every}};
        s["erm"] = Json{
            {"model", "logistic-l2"}, {"lambda", c.ermLambda}, {"tol", c.ermTol}, {"draws", c.ermDraws}};
        s["repetitions"] = c.repetitions;
        s["seed"] = seed;
        s["plan_only"] = planOnly;
        return s;
    }
    if (c.algorithm == LabAlgorithm::Nsg) {
        Json nsg{{"p", c.nsg.exponent},
                 {"T", c.nsg.threshold},
                 {"queries", c.queries},
                 {"checkpoints", c.checkpoints}};
        if (c.nsg.cap)
            nsg["cap"] = c.nsg.cap->timeCap ? Json{{"kind", "time"}, {"c0", c.nsg.cap->c}}
                                            : Json{{"kind", "constant"}, {"c", c.nsg.cap->c}};
        s["nsg"] = std::move(nsg);
        s["repetitions"] = c.repetitions;
        s["seed"] = seed;
        s["plan_only"] = planOnly;
        return s;
    }
    if (c.algorithm == LabAlgorithm::BBScheduler)
        s["schedule"] = Json{{"kind", scheduleKindName(c.schedule)},
                             {"gamma", c.gamma ? Json(*c.gamma) : Json("optimal")}};
    else
        s["schedule"] = Json{{"a", c.decay}, {"every", c.every}};
    Json box{{"kind", blackBoxKindName(c.box.kind)}};
    if (c.box.kind == BlackBoxKind::LaplaceK) {
        if (c.queries.empty())
            box["queries"] = c.box.queries;
        else
            box["queries"] = c.queries;
    } else {
        box["universe"] = c.box.universe;
        if (c.smallDbSize > 0)
            box["m"] = c.smallDbSize;
        box[c.box.kind == BlackBoxKind::SmallDb ? "queries" : "cells_per_query"]
            = c.box.kind == BlackBoxKind::SmallDb ? c.box.queries : c.box.cellsPerQuery;
    }
    s["black_box"] = std::move(box);
    s["beta"] = c.beta;
    s["repetitions"] = c.repetitions;
    s["seed"] = seed;
    s["plan_only"] = planOnly;
    return s;
}

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
