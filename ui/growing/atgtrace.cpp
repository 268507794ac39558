// SPDX-License-Identifier: MIT
#include "ui/growing/atgtrace.h"

#include "core/data/predicate.h"
#include "core/growing/stream_model.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <span>

namespace pbx::ui {

std::vector<std::uint64_t> atgQueryTimes(std::uint64_t n, std::uint64_t end, int count)
{
    std::vector<std::uint64_t> times;
    const double ratio = double(end) / double(n);
    for (int i = 0; i < count; ++i) {
        const double x = count > 1 ? double(i) / double(count - 1) : 0.0;
        const auto t
            = std::clamp(static_cast<std::uint64_t>(std::llround(double(n) * std::pow(ratio, x))), n, end);
        if (times.empty() || t > times.back())
            times.push_back(t);
    }
    return times;
}

Result<AtgTrace> traceAtg(const data::Table &table, const AtgTraceConfig &c, std::uint64_t seed)
{
    // It replays true counts: door (b) of core/data/rows.h, public data only.
    PBX_TRY(rows, data::publicRows(table, "the ATG trace"));
    PBX_TRY(svt, growing::GrowingSparseVector::create(c.unit, c.cap));
    if (!(c.threshold >= 0.0 && c.threshold <= 1.0))
        return makeError(ErrorCode::InvalidArgument,
                         "INVALID_THRESHOLD: threshold: must be a number in [0, 1]");
    const std::uint64_t end = c.end == 0 ? table.rowCount() : c.end;
    if (end < c.unit.startSize || end > table.rowCount())
        return makeError(ErrorCode::InvalidArgument, "end: must lie between the start size n and the table's "
                                                         + std::to_string(table.rowCount()) + " rows");
    if (c.queries < 2 || c.queries > 10000)
        return makeError(ErrorCode::InvalidArgument, "queries: must be an integer from 2 to 10000");
    PBX_TRY(predicate, data::Predicate::compile(c.predicate, table));
    std::vector<std::vector<std::uint8_t>> masks(1);
    predicate.evaluate(rows, masks.front());
    PBX_TRY(order, growing::arrivalOrder(rows, c.order, seed));
    const growing::PrefixCounts counts(masks, std::span<const std::uint32_t>(order).first(end));

    AtgTrace trace;
    trace.end = end;
    std::mt19937_64 rng(seed);
    std::optional<double> roundThreshold; // ρ of the open round (counts)
    const auto internal = [](const std::string &what) {
        return makeError(ErrorCode::Unsupported, "the ATG replay disagrees with the core (" + what + ")");
    };
    for (const std::uint64_t t : atgQueryTimes(c.unit.startSize, end, c.queries)) {
        const double time = double(t);
        const double fraction = counts.fraction(0, t);
        AtgTracePoint point;
        point.t = t;
        point.trueCount = growing::toCountScale(fraction, time);
        point.publicThreshold = growing::toCountScale(c.threshold, time);
        std::mt19937_64 replay = rng; // the core draws from rng; the same draws are redone here
        auto answer = svt.query(t, fraction, c.threshold, rng);
        if (!answer)
            return answer.error();
        point.answered = answer->answered;
        if (point.answered) {
            // The core's order (growing_svt.cpp): ρ at a round's first query, ν, and on ⊤ the numeric answer.
            const double countNoise = time * c.unit.sigma(time);
            if (!roundThreshold) {
                roundThreshold
                    = growing::simulationLaplace(replay, growing::kThresholdMultiplier * countNoise);
                trace.rounds.push_back({t, std::nullopt, 0.0, 0.0, 0.0});
            }
            const double nu = growing::simulationLaplace(replay, growing::kQueryMultiplier * countNoise);
            point.noisyValue = point.trueCount + nu;
            point.noisyThreshold = point.publicThreshold + *roundThreshold;
            point.hard = point.noisyValue >= point.noisyThreshold;
            point.round = static_cast<int>(trace.rounds.size()) - 1;
            if (point.hard) {
                (void)growing::simulationLaplace(replay, growing::kNumericMultiplier * c.unit.sigma(time));
                trace.rounds.back().halt = t;
                roundThreshold.reset();
            }
            if (point.hard != answer->hard)
                return internal("decision at t = " + std::to_string(t));
        }
        if (!(replay == rng))
            return internal("generator state at t = " + std::to_string(t));
        trace.points.push_back(point);
    }
    for (AtgRound &r : trace.rounds) {
        r.loss = growing::atgLoss(c.unit, r.start, r.halt);
        r.naiveClaim = r.loss;
        if (r.halt)
            r.naiveLoss = growing::naiveFractionScaleLoss(c.unit, r.start, *r.halt);
    }
    trace.hardTimes = svt.hardTimes();
    trace.nsgRealised = svt.realisedLoss();
    trace.nsgWorstCase = svt.worstCaseLoss();
    return trace;
}

} // namespace pbx::ui
