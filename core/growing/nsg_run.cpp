// SPDX-License-Identifier: MIT
#include "core/growing/nsg_run.h"

#include "core/growing/growing_error.h"
#include "core/util/try.h"

#include <cmath>
#include <random>

namespace pbx::growing {

Result<void> validate(const NsgConfig &config)
{
    if (auto ok = checkStartSize(config.startSize, "stream.start_size"); !ok)
        return ok;
    if (!config.cap)
        return growingError(
            kCapRequired, "nsg.cap",
            "NSG's privacy depends on a cap on hard answers: give {\"kind\": \"time\", \"c0\": …} "
            "or {\"kind\": \"constant\", \"c\": …}");
    if (!(config.exponent >= 0.0 && config.exponent <= 1.0))
        return growingError(kInvalidNoiseExponent, "nsg.p", "must be a number with 0 <= p <= 1");
    if (config.cap->timeCap && config.exponent >= 1.0)
        return growingError(
            kInvalidNoiseExponent, "nsg.p",
            "a time cap needs p < 1 (with p = 1 only a constant cap keeps the privacy sum finite)");
    if (auto ok = validate(*config.cap, config.exponent, "nsg.cap"); !ok)
        return ok;
    if (!(config.threshold >= 0.0 && config.threshold <= 1.0))
        return growingError(kInvalidThreshold, "nsg.T", "must be a finite number in [0, 1]");
    return validate(config.budget);
}

Result<NoiseUnit> nsgNoiseUnit(const NsgConfig &config)
{
    PBX_RETURN_IF_ERROR(validate(config));
    PBX_TRY(sigma, nsgSigmaForBudget(config.startSize, config.exponent, *config.cap, config.budget));
    return NoiseUnit{config.startSize, sigma, config.exponent};
}

double nsgWorstCase(const NoiseUnit &unit, const NsgConfig &config)
{
    return isZcdp(config.budget) ? nsgWorstCaseRho(unit, *config.cap)
                                 : nsgWorstCaseEpsilon(unit, *config.cap);
}

std::vector<NsgRound> nsgRounds(const NoiseUnit &unit, const std::vector<std::uint64_t> &roundStarts,
                                const std::vector<std::uint64_t> &hardTimes)
{
    std::vector<NsgRound> rounds;
    for (std::size_t i = 0; i < roundStarts.size(); ++i) {
        NsgRound r;
        r.start = roundStarts[i];
        if (i < hardTimes.size())
            r.halt = hardTimes[i];
        r.atgCost = atgLoss(unit, r.start, r.halt);
        r.cost = natgLoss(unit, r.start, r.halt);
        rounds.push_back(r);
    }
    return rounds;
}

Result<NsgRun> simulateNsg(const NsgConfig &config, const std::vector<std::vector<std::uint8_t>> &masks,
                           std::span<const std::uint32_t> order, std::uint64_t end, int checkpoints,
                           std::uint64_t seed)
{
    PBX_TRY(unit, nsgNoiseUnit(config));
    if (end < config.startSize || end > order.size())
        return growingError(kInvalidConfig, "stream.end",
                            "must be between stream.start_size and the table's rows");
    if (checkpoints < 1 || checkpoints > 100000)
        return growingError(kInvalidConfig, "nsg.checkpoints", "must be an integer from 1 to 100000");
    if (masks.empty())
        return growingError(kInvalidConfig, "nsg.queries", "needs at least one counting query (a predicate)");
    PBX_TRY(svt, GrowingSparseVector::create(unit, *config.cap));
    const PrefixCounts counts(masks, order.first(end));
    std::mt19937_64 rng(seed ^ 0x6e7367u);
    NsgRun run;
    run.unit = unit;
    double numericError = 0.0;
    for (int c = 0; c < checkpoints; ++c) {
        const std::uint64_t t = checkpoints == 1 ? end
                                                 : config.startSize
                                                       + (end - config.startSize) * std::uint64_t(c)
                                                             / std::uint64_t(checkpoints - 1);
        NsgRun::Checkpoint cp;
        cp.time = t;
        for (std::size_t j = 0; j < masks.size(); ++j) {
            const double truth = counts.fraction(j, t);
            PBX_TRY(a, svt.query(t, truth, config.threshold, rng));
            ++run.queries;
            if (!a.answered) {
                ++cp.capped;
                continue;
            }
            if (a.hard != (truth >= config.threshold))
                ++cp.misjudged;
            if (a.hard) {
                run.hardQueries.push_back({t, j, *a.numeric, truth});
                numericError += std::fabs(*a.numeric - truth);
            }
        }
        cp.cap = svt.capAt(t);
        cp.hard = svt.hardCount();
        run.checkpoints.push_back(cp);
    }
    run.rounds = nsgRounds(unit, svt.roundStarts(), svt.hardTimes());
    run.realisedEpsilon = svt.realisedLoss();
    run.realisedRho = svt.realisedRho();
    run.realised = isZcdp(config.budget) ? run.realisedRho : run.realisedEpsilon;
    run.worstCase = nsgWorstCase(unit, config);
    if (!run.hardQueries.empty())
        run.meanAbsNumericError = numericError / double(run.hardQueries.size());
    return run;
}

} // namespace pbx::growing
