// SPDX-License-Identifier: MIT
#include "core/session/growing/cost_audit_growing.h"

#include "core/session/growing/growing_ermg.h"
#include "core/session/growing/growing_nsg.h"
#include "core/session/growing/growing_pmwg.h"
#include "core/session/growing/growing_release.h"
#include "core/session/growing/growing_smalldb.h"
#include "core/util/try.h"

#include <string>

namespace pbx::session {

namespace {

Error parseError(const LedgerEvent &e, const std::string &what)
{
    return Error{ErrorCode::Parse, "event " + std::to_string(e.index) + " ('" + e.request.id + "'): " + what};
}

/// Where the replay of an NSG stream stopped: the time the refused round opens at, if any.
struct NsgReplay
{
    std::optional<std::uint64_t> refusedAt;
};

Result<NsgReplay> replayNsg(const LedgerEvent &e, const GrowingRequestSpec &spec)
{
    const GrowingRecord &r = *e.growingRecord();
    const NsgRecord &nsg = *r.nsg;
    NsgReplay out;
    std::size_t hardSoFar = 0, roundsSoFar = 0;
    bool open = false;
    for (std::size_t ci = 0; ci < nsg.checkpoints.size() && !out.refusedAt; ++ci) {
        const NsgCheckpointRecord &cp = nsg.checkpoints[ci];
        const bool last = ci + 1 == nsg.checkpoints.size();
        const std::uint64_t t = cp.time;
        std::uint64_t capped = 0;
        for (std::size_t j = 0; j < spec.queries.size(); ++j) {
            if (hardSoFar >= cp.cap) {
                ++capped;
                continue;
            }
            const std::string name = "query " + std::to_string(j) + " at t = " + std::to_string(t);
            if (!open) { // a round opens here (or was refused here)
                if (roundsSoFar == nsg.rounds.size()) {
                    if (!r.refusedEpoch || !last)
                        return parseError(e, "a round should open at " + name
                                                 + " (the first uncapped query "
                                                   "after a ⊤), but none is recorded");
                    out.refusedAt = t;
                    break;
                }
                if (nsg.rounds[roundsSoFar].start != t)
                    return parseError(e, "round " + std::to_string(roundsSoFar) + ": it opens at t = "
                                             + std::to_string(nsg.rounds[roundsSoFar].start)
                                             + ", but the replay opens it at " + name
                                             + " (the first uncapped query after a ⊤)");
                ++roundsSoFar;
                open = true;
            }
            if (hardSoFar < nsg.hard.size() && nsg.hard[hardSoFar].time == t
                && nsg.hard[hardSoFar].query == j) {
                ++hardSoFar;
                open = false;
            }
        }
        if (capped != cp.capped || cp.hard != hardSoFar)
            return parseError(e, "checkpoint " + std::to_string(ci) + " (t = " + std::to_string(t)
                                     + "): its capped or ⊤ counts are not the replayed ones");
    }
    if (hardSoFar != nsg.hard.size() || roundsSoFar != nsg.rounds.size())
        return parseError(e, "it records ⊤ answers or rounds the replay never reaches");
    if (r.refusedEpoch && !out.refusedAt)
        return parseError(e, "it records a refused round where the replay opens none");
    return out;
}

} // namespace

Result<void> auditNsgRoundOpenings(const LedgerEvent &e, const data::Table &table)
{
    (void)table;
    if (!e.request.growing() || e.request.growing()->algorithm != GrowingAlgorithm::Nsg || !e.growingRecord()
        || !e.growingRecord()->nsg)
        return {};
    PBX_RETURN_IF_ERROR(replayNsg(e, *e.request.growing()));
    return {};
}

Result<std::optional<filters::Charge>> growingRefusedCharge(const LedgerEvent &e, const data::Table &table)
{
    if (!e.request.growing() || !e.growingRecord() || !e.growingRecord()->refusedEpoch)
        return std::optional<filters::Charge>{};
    const GrowingRequestSpec &spec = *e.request.growing();
    const GrowingRecord &r = *e.growingRecord();
    const std::uint64_t refused = *r.refusedEpoch;
    if (spec.algorithm == GrowingAlgorithm::Nsg) {
        PBX_TRY(replay, replayNsg(e, spec));
        auto unit = growingNsgUnit(spec);
        if (!unit)
            return parseError(e, unit.error().message);
        return std::optional<filters::Charge>{nsgRoundCharge(spec, *unit, *replay.refusedAt)};
    }
    if (spec.algorithm == GrowingAlgorithm::Pmwg) {
        if (!r.pmwg || r.pmwg->checkpoints.empty())
            return parseError(e, "a refused PMWG round without its checkpoint");
        auto unit = growingPmwgUnit(spec);
        if (!unit)
            return parseError(e, unit.error().message);
        return std::optional<filters::Charge>{pmwgRoundCharge(spec, *unit, r.pmwg->checkpoints.back().time)};
    }
    auto plan = spec.algorithm == GrowingAlgorithm::Ermg      ? ermgRunPlan(spec, table)
                : spec.algorithm == GrowingAlgorithm::SmallDb ? smallDbRunPlan(spec, table)
                                                              : growingRunPlan(spec, table);
    // A stream recorded before the exact noise: the continuous design charges the same and has no
    // sampler limits (auditGrowingEvent accepts it).
    if (!plan && spec.algorithm != GrowingAlgorithm::SmallDb)
        plan = growingRunPlan(spec, table, GrowingNoiseDesign::Continuous);
    if (!plan)
        return parseError(e, plan.error().message);
    if (refused >= plan->size())
        return parseError(e, "it records a refusal of epoch " + std::to_string(refused) + " of "
                                 + std::to_string(plan->size()));
    return std::optional<filters::Charge>{(*plan)[refused].charge};
}

} // namespace pbx::session
