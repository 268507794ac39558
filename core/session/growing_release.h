// SPDX-License-Identifier: MIT
// Growing-database streams in a session (Cummings, Krehbiel, Lai & Tantipongpipat, "Differential
// privacy for growing databases", NeurIPS 2018, §3.1 BBScheduler): the plan (data-free), the
// checks run before anything is spent, and the audit `pbx-cli verify` runs on a recorded event.
// Each epoch's run is its own charge to the session's filter, made when the epoch starts; a
// filter refusal stops the stream and everything released before it stays recorded and charged
// (docs/growing-databases.md, "In a session").
#pragma once

#include "core/data/table.h"
#include "core/growing/bb_scheduler.h"
#include "core/session/session.h"

#include <string>
#include <vector>

namespace pbx::session {

/// Largest number of epochs, and of epochs × queries, one stream may have in a session: every
/// answer is recorded in the ledger, so a γ so small that the stream has tens of thousands of
/// epochs is refused with a message instead of writing a huge transcript.
inline constexpr std::uint64_t kMaxGrowingEpochs = 10000;
inline constexpr std::uint64_t kMaxGrowingAnswers = 1000000;

/// The scheduler configuration of a request (Laplace-k box with k = the number of predicates).
/// Errors (code word and field, growing_error.h): INVALID_CONFIG ("algorithm" other than
/// bbscheduler), INVALID_START_SIZE, INVALID_GAMMA, INVALID_BUDGET, INVALID_SCHEDULE (a pure
/// schedule with a zcdp/approx budget or the reverse), INVALID_BETA, INVALID_BLACK_BOX (no
/// predicates).
Result<growing::SchedulerConfig> growingSchedulerConfig(const GrowingRequestSpec &spec);

/// The stream's last time: spec.end, or the table's row count. Errors: INVALID_CONFIG
/// ("stream.end") when it exceeds the rows or is below start_size.
Result<std::uint64_t> growingStreamEnd(const GrowingRequestSpec &spec, const data::Table &table);

/// Every epoch whose start is ≤ end (growing::planEpochs): ε_i, ρ_i, β_i and the bounds, all from
/// the parameters alone. Errors: as growingSchedulerConfig and growingStreamEnd; INVALID_CONFIG
/// ("schedule.gamma") beyond kMaxGrowingEpochs epochs or kMaxGrowingAnswers answers, or when an
/// epoch's ε underflows to 0; EPOCH_OVERFLOW.
Result<std::vector<growing::EpochPlan>> growingEpochPlan(const GrowingRequestSpec &spec,
                                                         const data::Table &table);

/// The charge of one planned epoch: ρ_i for zCDP schedules (the box runs at ε_i = √(2ρ_i) rounded
/// down, and ε_i-DP implies ε_i²/2 ≤ ρ_i-zCDP, Bun & Steinke 2016 Prop. 1.4), else ε_i (pure
/// ε_i-DP: the noise scale k/(ε_i t_i) is rounded up).
filters::Charge growingEpochCharge(const GrowingRequestSpec &spec, const growing::EpochPlan &epoch);

/// Checks a growing request before anything is spent: the session's neighbouring relation is
/// replace-one (GROWING_NEIGHBOURS_UNSUPPORTED otherwise: the analysis is for replace-one
/// neighbouring streams, whose size equals the time), the plan exists, every predicate compiles
/// against the table (INVALID_BLACK_BOX naming "black_box.queries[j]"), a "sorted:<predicate>"
/// order compiles, and the session's filter can account the charge kind at all (Unsupported: a
/// zCDP schedule's ρ under the basic, ex-post or odp filter).
Result<void> checkGrowingRequest(const QueryRequest &request, const data::Table &table,
                                 const SessionSettings &settings);

/// "BBScheduler epoch 3 of 5: t = 8000, ε = 0.0625" (ρ for zCDP schedules; epochs numbered from 0
/// as in the paper's t_i = n(1+γ)^i). Precondition: e.growingRecord with that epoch.
std::string growingEpochLabel(const LedgerEvent &event, std::size_t epoch);

/// "BBScheduler stream, t = 1000 … 28155, geometric γ = 1, ε ≤ 0.5, 2 queries": the ledger's
/// description of a growing request. Precondition: request.growing.
std::string describeGrowingRequest(const QueryRequest &request);

/// Recomputes a growing event from its request (pbx-cli verify): the plan's t_i, last time, ε_i,
/// ρ_i, β_i, scale and bound for every recorded epoch, each attempt's cost equal to its epoch's
/// charge and its releases equal to the recorded answers, the epochs consecutive from 0, the
/// event's cost the rounded-up sum, and a stream cut short only by a recorded refusal.
/// Errors: Parse naming the event and what differs.
Result<void> auditGrowingEvent(const LedgerEvent &event, const data::Table &table,
                               const SessionSettings &settings);

} // namespace pbx::session
