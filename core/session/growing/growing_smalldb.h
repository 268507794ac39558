// SPDX-License-Identifier: MIT
// SmallDBG streams in a session (Cummings, Krehbiel, Lai & Tantipongpipat, "Differential privacy for
// growing databases", NeurIPS 2018, §3.1: BBScheduler with SmallDB as its black box) on the lab's
// CPS1988 teaching instance (growing::cpsSmallDbInstance: universe region × smsa × parttime, N = 16
// cells, the 28 one- and two-way marginal cells as queries). At each epoch start t_i the exact
// SmallDB sampler (growing::SmallDb, Blum, Ligett & Roth 2008; Dwork & Roth 2014, Thm 4.5) draws a
// synthetic database of m universe elements from the first t_i arriving rows at the epoch's ε_i,
// and its 28 answers are released with it. Each epoch is charged ε_i (pure schedules) or ρ_i (zCDP
// schedules; the sampler runs at ε_i = √(2ρ_i) rounded down) before its draw. Why the charges never
// under-report: docs/growing-databases.md, §9 "ERMG and SmallDBG in a session".
#pragma once

#include "core/data/table.h"
#include "core/filters/privacy_filter.h"
#include "core/mechanisms/noise_source.h"
#include "core/session/growing/growing_release.h"
#include "core/session/ledger_event.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace pbx::session {

/// Largest number of epochs of one SmallDBG stream in a session (each draw enumerates up to
/// 5·10⁶ candidates).
inline constexpr std::uint64_t kMaxSmallDbEpochs = 1000;

/// The epochs of a "smalldb" request from its parameters alone (growing::planEpochs with the SmallDB
/// box N = 16, |Q| = 28): t_i, last, ε_i (the sampler's), ρ_i (zCDP schedules), β_i, the bound
/// α_i + s_i, scale 0 (a sample, not additive noise) and the charge (growingEpochCharge). Checked
/// before anything is charged: C(16+m−1, m) ≤ 5·10⁶ (SMALLDB_TOO_LARGE naming "black_box.m",
/// ResourceLimit), 1 ≤ m ≤ 255 (INVALID_BLACK_BOX "black_box.m"), every ε_i within the sampler's
/// 2^−20 … 2^20 (INVALID_CONFIG "schedule.gamma"). Errors also: INVALID_SCHEDULE ("schedule.kind"
/// a pure schedule with a zcdp/approx budget or the reverse), INVALID_GAMMA, INVALID_START_SIZE,
/// INVALID_BUDGET, INVALID_BETA, INVALID_CONFIG ("stream.end"; "schedule.gamma" beyond
/// kMaxSmallDbEpochs epochs), EPOCH_OVERFLOW.
Result<std::vector<GrowingRunPlan>> smallDbRunPlan(const GrowingRequestSpec &spec, const data::Table &table);

/// The schedule's total (ε or ρ) over the unbounded series. Errors: as smallDbRunPlan.
Result<double> smallDbSeriesTotal(const GrowingRequestSpec &spec);

/// Whether the table has the teaching instance's columns and categories. Errors: NotFound,
/// INVALID_BLACK_BOX, ROW_OUTSIDE_UNIVERSE (growing::cpsSmallDbInstance).
Result<void> checkSmallDbData(const data::Table &table);

/// Runs the stream: at each epoch start the cell counts of the first t_i arriving rows of `order`
/// go to the exact sampler at ε_i after the epoch's charge; each epoch records the synthetic
/// database (counts per cell, summing to m) and releases its 28 answers (one attempt, 28 "fraction"
/// releases at scale 0). Errors: as growing::SmallDb::sample (Io: the source failing after a
/// charge), as runPlannedStream.
Result<void> runSmallDbStream(const GrowingRequestSpec &spec, const std::vector<GrowingRunPlan> &plan,
                              const data::Rows &table, std::span<const std::uint32_t> order,
                              filters::PrivacyFilter &filter, mechanisms::NoiseSource &noise,
                              LedgerEvent &event, GrowingRecord &record);

/// "SmallDBG epoch 2 of 5: t = 4000, ε = 0.0833" (ρ for zCDP schedules). Precondition: a recorded epoch.
std::string smallDbEpochLabel(const LedgerEvent &event, std::size_t epoch);

/// The synthetic database of a recorded epoch as text: "m = 8: south·no·no ×3, west·yes·no, …".
std::string smallDbDatabaseText(const GrowingEpochRecord &epoch);

/// The names of the 28 queries of the teaching instance, in release order ("region == \"south\"", …).
/// Errors: as checkSmallDbData.
Result<std::vector<std::string>> smallDbQueryNames(const data::Table &table);

/// "SmallDBG stream, t = 1000 … all rows, geometric γ = 1, m = 8, ε ≤ 1, 28 marginal queries".
std::string describeSmallDbRequest(const GrowingRequestSpec &spec, const std::string &budget);

/// pbx-cli verify for a SmallDBG event: the plan re-derived (auditPlannedEvent: times, ε_i, ρ_i, β_i,
/// bound and each charge bit for bit), and per epoch a synthetic database of 16 cells summing to m
/// whose answers are the 28 released values. Errors: Parse naming the event and what differs.
Result<void> auditSmallDbEvent(const LedgerEvent &event, const data::Table &table);

} // namespace pbx::session
