// SPDX-License-Identifier: MIT
#include "core/growing/pmwg.h"

#include "core/growing/growing_error.h"
#include "core/growing/stream_model.h"
#include "core/util/try.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace pbx::growing {

namespace {

constexpr std::size_t kMaxUniverse = std::size_t{1} << 24;

} // namespace

Result<Universe> universeShape(std::string_view name, std::string_view field)
{
    Universe u;
    u.name = std::string(name);
    if (name == "small")
        u.sizes = {4, 2, 2, 2, 5};
    else if (name == "full")
        u.sizes = {4, 2, 2, 2, 5, 5, 6};
    else
        return growingError(kInvalidUniverse, field, "expected \"small\" (N = 160) or \"full\" (N = 4800)");
    u.cells = 1;
    for (const auto s : u.sizes)
        u.cells *= s;
    return u;
}

std::vector<double> conjunctionQuery(const Universe &universe,
                                     std::span<const std::pair<std::size_t, std::size_t>> terms)
{
    std::vector<double> q(universe.cells, 0.0);
    for (std::size_t cell = 0; cell < universe.cells; ++cell) {
        // Decode the attributes (most significant first).
        std::size_t rest = cell;
        std::vector<std::size_t> value(universe.sizes.size());
        for (std::size_t a = universe.sizes.size(); a-- > 0;) {
            value[a] = rest % universe.sizes[a];
            rest /= universe.sizes[a];
        }
        bool match = true;
        for (const auto &[attribute, v] : terms)
            match = match && value[attribute] == v;
        q[cell] = match ? 1.0 : 0.0;
    }
    return q;
}

void multiplicativeWeightsUpdate(std::vector<double> &histogram, std::span<const double> query,
                                 double released, double eta)
{
    double estimate = 0.0;
    for (std::size_t j = 0; j < histogram.size(); ++j)
        estimate += query[j] * histogram[j];
    const bool raise = released >= estimate; // r = 1 − q: lower the cells q does not cover
    double total = 0.0;
    for (std::size_t j = 0; j < histogram.size(); ++j) {
        const double r = raise ? 1.0 - query[j] : query[j];
        histogram[j] *= std::exp(-eta * r);
        total += histogram[j];
    }
    for (auto &x : histogram)
        x /= total;
}

void uniformUpdate(std::vector<double> &histogram, std::uint64_t t, std::uint64_t m)
{
    const double u = 1.0 / double(histogram.size());
    const double T = double(t), M = double(m);
    for (auto &x : histogram)
        x = (T * x + M * u) / (T + M);
}

PmwgConfig PmwgConfig::resolved() const
{
    PmwgConfig c = *this;
    if (mode == PmwgMode::Theory) {
        c.threshold = 0.75 * alpha;
        c.eta = 0.25 * alpha;
        c.c0 = 16.0 * std::log(double(universeSize)) / (alpha * alpha);
    }
    return c;
}

Result<void> validate(const PmwgConfig &config)
{
    if (auto ok = checkStartSize(config.startSize, "stream.start_size"); !ok)
        return ok;
    if (config.universeSize < 2 || config.universeSize > kMaxUniverse)
        return growingError(kInvalidUniverse, "pmwg.universe", "needs 2 <= N <= 2^24 cells");
    if (config.mode == PmwgMode::Theory && !(config.alpha > 0.0 && config.alpha < 1.0))
        return growingError(kInvalidAlpha, "pmwg.alpha", "must be a number with 0 < alpha < 1");
    if (!(config.exponent >= 0.0 && config.exponent < 1.0))
        return growingError(kInvalidNoiseExponent, "pmwg.p", "must be a number with 0 <= p < 1");
    const PmwgConfig c = config.resolved();
    if (!(c.c0 >= 1.0 && std::isfinite(c.c0)))
        return growingError(kInvalidCap, "pmwg.c0", "must be a finite number >= 1");
    if (!(c.threshold > 0.0 && c.threshold < 1.0))
        return growingError(kInvalidThreshold, "pmwg.T", "must be a number with 0 < T < 1");
    if (!(c.eta > 0.0 && c.eta <= 1.0))
        return growingError(kInvalidLearningRate, "pmwg.eta", "must be a number with 0 < eta <= 1");
    return validate(config.budget);
}

Result<Pmwg> Pmwg::create(const PmwgConfig &config)
{
    PBX_RETURN_IF_ERROR(validate(config));
    Pmwg p;
    p.m_config = config.resolved();
    const HardQueryCap cap{true, p.m_config.c0};
    PBX_TRY(sigma, nsgSigmaForBudget(config.startSize, config.exponent, cap, config.budget));
    PBX_TRY(svt, GrowingSparseVector::create(NoiseUnit{config.startSize, sigma, config.exponent}, cap));
    p.m_svt = std::move(svt);
    p.m_histogram.assign(config.universeSize, 1.0 / double(config.universeSize));
    p.m_t = config.startSize;
    return p;
}

void Pmwg::arrive(std::uint64_t m)
{
    if (m_config.uniformArrivals)
        uniformUpdate(m_histogram, m_t, m);
    m_t += m;
}

Result<Pmwg::Answer> Pmwg::query(std::span<const double> q, std::span<const double> truth,
                                 std::mt19937_64 &rng)
{
    if (q.size() != m_histogram.size() || truth.size() != m_histogram.size())
        return growingError(kInvalidQuery, "query", "needs one weight per universe cell");
    PBX_RETURN_IF_ERROR(checkQueryWeights(q));
    double estimate = 0.0, trueAnswer = 0.0;
    for (std::size_t j = 0; j < q.size(); ++j) {
        estimate += q[j] * m_histogram[j];
        trueAnswer += q[j] * truth[j];
    }
    estimate = std::clamp(estimate, 0.0, 1.0);
    trueAnswer = std::clamp(trueAnswer, 0.0, 1.0);
    Answer a;
    a.value = estimate;
    // Hardness |q(x_t) − q(x̂)|: x̂ is public, so its count has sensitivity 1 like q's.
    PBX_TRY(test, m_svt.query(m_t, std::fabs(trueAnswer - estimate), m_config.threshold, rng, trueAnswer));
    if (!test.answered) {
        a.capped = true;
        return a;
    }
    if (test.hard) {
        a.hard = true;
        a.value = *test.numeric;
        multiplicativeWeightsUpdate(m_histogram, q, a.value, m_config.eta);
    }
    return a;
}

double Pmwg::worstCase() const
{
    const HardQueryCap cap{true, m_config.c0};
    return isZcdp(m_config.budget) ? nsgWorstCaseRho(m_svt.unit(), cap)
                                   : nsgWorstCaseEpsilon(m_svt.unit(), cap);
}

} // namespace pbx::growing

namespace pbx::growing {

Result<PmwgRun> simulatePmwg(const PmwgConfig &config, const Universe &universe, const data::Rows &table,
                             std::string_view order, std::uint64_t end, int checkpoints, int perCheckpoint,
                             std::uint64_t seed)
{
    if (universe.rowCells.size() != table.rowCount() || universe.cells != config.universeSize)
        return growingError(kInvalidUniverse, "pmwg.universe",
                            "does not match the table or the configuration");
    if (end < config.startSize || end > table.rowCount())
        return growingError(kInvalidConfig, "stream.end",
                            "must be between stream.start_size and the table's rows");
    if (checkpoints < 1 || checkpoints > 100000 || perCheckpoint < 1 || perCheckpoint > 100000)
        return growingError(kInvalidConfig, "pmwg.checkpoints",
                            "needs 1 to 100000 checkpoints and queries per checkpoint");
    PBX_TRY(pmwg, Pmwg::create(config));
    PBX_TRY(rows, arrivalOrder(table, order, seed));
    std::mt19937_64 rng(seed ^ 0x706d7767u);
    const std::size_t N = universe.cells;
    std::vector<double> counts(N, 0.0);
    std::uint64_t t = 0;
    auto advance = [&](std::uint64_t to) {
        for (; t < to; ++t)
            counts[universe.rowCells[rows[t]]] += 1.0;
    };
    advance(config.startSize);
    PmwgRun run;
    run.sigmaN = pmwg.sigmaN();
    std::vector<double> errors;
    std::vector<double> truth(N);
    double baseline = 0.0;
    const std::size_t total = std::size_t(checkpoints) * std::size_t(perCheckpoint);
    for (int c = 0; c < checkpoints; ++c) {
        const std::uint64_t target = checkpoints == 1 ? end
                                                      : config.startSize
                                                            + (end - config.startSize) * std::uint64_t(c)
                                                                  / std::uint64_t(checkpoints - 1);
        if (target > t) {
            pmwg.arrive(target - t);
            advance(target);
        }
        for (std::size_t j = 0; j < N; ++j)
            truth[j] = counts[j] / double(t);
        baseline += double(total) / (config.budget.kind == BudgetKind::Pure ? config.budget.epsilon : 1.0)
                    / double(t);
        for (int k = 0; k < perCheckpoint; ++k) {
            // A conjunction on 2 or 3 distinct attributes with uniformly chosen values.
            const std::size_t m = 2 + rng() % 2;
            std::vector<std::size_t> attributes(universe.sizes.size());
            for (std::size_t a = 0; a < attributes.size(); ++a)
                attributes[a] = a;
            std::shuffle(attributes.begin(), attributes.end(), rng);
            std::vector<std::pair<std::size_t, std::size_t>> terms;
            for (std::size_t a = 0; a < m && a < attributes.size(); ++a)
                terms.emplace_back(attributes[a], rng() % universe.sizes[attributes[a]]);
            const auto q = conjunctionQuery(universe, terms);
            PBX_TRY(answer, pmwg.query(q, truth, rng));
            double trueAnswer = 0.0;
            for (std::size_t j = 0; j < N; ++j)
                trueAnswer += q[j] * truth[j];
            if (answer.hard)
                run.hardQueries.push_back({t, run.queries});
            errors.push_back(std::fabs(answer.value - trueAnswer));
            ++run.queries;
        }
        run.checkpoints.push_back({t, pmwg.capAt(t), run.hardQueries.size()});
    }
    std::sort(errors.begin(), errors.end());
    double sum = 0.0;
    for (const double e : errors)
        sum += e;
    run.meanAbsError = sum / double(errors.size());
    run.q95AbsError = errors[static_cast<std::size_t>(0.95 * double(errors.size() - 1))];
    run.maxAbsError = errors.back();
    run.laplaceBaselineMeanError = baseline / double(checkpoints);
    run.realisedEpsilon = pmwg.realisedEpsilon();
    run.realisedRho = pmwg.realisedRho();
    run.realised = pmwg.realised();
    run.worstCase = pmwg.worstCase();
    double kl = 0.0;
    for (std::size_t j = 0; j < N; ++j)
        if (truth[j] > 0.0)
            kl += truth[j] * std::log(truth[j] / pmwg.publicHistogram()[j]);
    run.finalDivergence = kl;
    return run;
}

} // namespace pbx::growing
