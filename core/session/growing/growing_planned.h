// SPDX-License-Identifier: MIT
// What ERMG and SmallDBG streams in a session share (Cummings, Krehbiel, Lai & Tantipongpipat,
// "Differential privacy for growing databases", NeurIPS 2018): both re-run their own black box
// (an output-perturbed ERM solver, SmallDB) at times fixed in advance by a schedule, so each
// release is one charge fixed by the parameters alone, made to the filter before the release's
// noise or sampling; a refusal stops the stream and keeps what was released
// (docs/growing-databases.md, §9 "In a session").
#pragma once

#include "core/data/table.h"
#include "core/filters/privacy_filter.h"
#include "core/growing/stream_model.h"
#include "core/session/growing/growing_release.h"
#include "core/session/ledger_event.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace pbx::session {

/// The request's budget as the lab's growing::Budget. Errors: INVALID_BUDGET naming "budget.kind",
/// "budget.conversion" or the value (growing::validate).
Result<growing::Budget> growingStreamBudget(const GrowingRequestSpec &spec);

/// Checks that BBScheduler's epochs t_0 = n < t_1 < … ≤ end (spec.startSize, spec.gamma) number at
/// most `limit`, counting them before any plan is built, so a tiny γ is refused cheaply; returns
/// their number. `what` names the epochs and why they are limited, e.g. "releases (each is a model
/// fit)". Errors: INVALID_CONFIG naming "schedule.gamma"; growing::nextEpochStart's errors.
Result<std::uint64_t> checkEpochCount(const GrowingRequestSpec &spec, std::uint64_t end, std::uint64_t limit,
                                      const std::string &what);

/// What one planned release returns once it is charged: the released values (θ̃ + noise, or the
/// synthetic database's answers) and, for SmallDBG, the synthetic database itself.
struct PlannedRelease
{
    std::vector<double> values;
    std::vector<std::uint32_t> cells;
};

/// Runs a planned stream: for each run in `plan`, charges run.charge to `filter` first (never after
/// its noise), then calls release(run) and records it (one attempt per run whose releases carry
/// `quantity` at run.scale). A BudgetExceeded refusal stops the stream with event.reason in the
/// house style (releasedBefore) and keeps what was released. Sets event.status, answer (the last
/// run's first value), errorBound (its bound), cost (the rounded-up sum of the charges), targetMet
/// and accounting (naming `title` and `unit`). Errors: a filter error other than BudgetExceeded
/// before anything is charged; release's error (the source failing after a charge: Io).
Result<void> runPlannedStream(const std::vector<GrowingRunPlan> &plan, const std::string &title,
                              const std::string &unit, const std::string &quantity,
                              filters::PrivacyFilter &filter,
                              const std::function<Result<PlannedRelease>(const GrowingRunPlan &)> &release,
                              LedgerEvent &event, GrowingRecord &record);

/// pbx-cli verify for a planned stream: the record's plan (count, end, series total) as the
/// parameters give it, every run's times, ε, ρ, β, scale and bound equal to `plan`'s, each
/// attempt's cost its run's charge (bit for bit) and its `values` releases equal to the record,
/// the runs consecutive from 0, a stream cut short only by a recorded refusal, and the event's cost
/// the rounded-up sum. `check(i)` adds the mechanism's own checks of run i. Errors: Parse naming
/// the event and what differs.
Result<void> auditPlannedEvent(const LedgerEvent &e, const std::vector<GrowingRunPlan> &plan,
                               std::uint64_t end, double seriesTotal, const std::string &unit,
                               std::size_t values, const std::function<Result<void>(std::size_t)> &check);

} // namespace pbx::session
