// SPDX-License-Identifier: MIT
// ERMG streams in a session (Cummings, Krehbiel, Lai & Tantipongpipat, "Differential privacy for
// growing databases", NeurIPS 2018: a private ERM black box re-run on the growing database) with the
// lab's box: L2-regularised logistic regression on the CPS1988 teaching instance (growing::cpsErmData:
// nine features, label wage ≥ 500) released by output perturbation θ̃_t + N(0, σ_t² I) (Chaudhuri,
// Monteleoni & Sarwate 2011, §3), σ_t = Δ_t/√(2ρ_t) rounded up (Bun & Steinke 2016, Prop. 1.6), drawn
// exactly: θ̃_t snapped to a power-of-two grid plus discrete Gaussian noise (Canonne, Kamath & Steinke
// 2020), calibrated to the same ρ_t.
// The release times and their ρ_t are BBImprover's thinned grid (§3.2; "schedule.kind": "improver")
// or BBScheduler's epochs under a zCDP schedule (§3.1), exactly as the lab plans them. Each release
// is charged ρ_t to the session's filter before its noise is drawn. Why the charges never
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

/// d of the CPS1988 teaching instance: every release has nine coordinates.
inline constexpr std::size_t kErmgDimension = 9;
/// Largest number of releases of one ERMG stream in a session (each is a Newton solve on up to the
/// whole table; the lab's simulation has the same limit).
inline constexpr std::uint64_t kMaxErmgReleases = 1000;

/// The releases of an "ermg" request from its parameters alone: times t (improver: n, n+m, …;
/// scheduler: the epoch starts t_i ≤ end), each with ρ_t (growing::BBImprover::step(t).rho, or the
/// schedule's ρ_i), β_t, the exact noise (docs/growing-databases.md §9, "Exact discrete noise"):
/// the grid g, a power of two ≤ max(min(Δ_t, σ_t)·2^-20, σ_t·2^-28) with σ_t =
/// growing::ermNoiseScale(t, λ, tol, ρ_t), and σ_g² = (Δ_t/g + 3)²/(2ρ_t) rounded up (`noise`; the
/// multivariate discrete Gaussian is then ≤ ρ_t-zCDP, CKS 2020 Thm 14); `scale` g·σ_g ≥ σ_t (rounded
/// up), the bound g·(w + ½) with w the smallest integer whose exact discrete tail is ≤ β_t/d (with
/// probability ≥ 1 − β_t every coordinate is within it of the fitted θ̃_t; ε is 0) and the charge ρ_t. Errors
/// (code word and field): INVALID_SCHEDULE ("budget.kind" pure: ERMG's noise is Gaussian; "schedule.kind" not
/// improver/zcdp-*), INVALID_CONFIG ("erm.lambda" ≤ 0, "erm.tol" outside 1e-10 … 1e-2,
/// "schedule.every"/"schedule.gamma" beyond kMaxErmgReleases releases, "stream.end"),
/// INVALID_DECAY, INVALID_GAMMA, INVALID_START_SIZE, INVALID_BUDGET ("budget.rho": a ρ_t
/// underflowing to 0, or σ_g² beyond the sampler's 2^60), INVALID_CONFIG ("erm.lambda": (1 + tol)/λ
/// beyond 2^52 grid steps), INVALID_BETA, EPOCH_OVERFLOW. With `design` Continuous (transcripts
/// recorded before the exact noise, for verify): `scale` σ_t itself, the bound σ_t √(2 ln(2d/β_t))
/// rounded up (the continuous Gaussian's tail), no grid and no sampler limit.
Result<std::vector<GrowingRunPlan>> ermgRunPlan(const GrowingRequestSpec &spec, const data::Table &table,
                                                GrowingNoiseDesign design = GrowingNoiseDesign::Exact);

/// The whole unbounded series' ρ (the improver's or the schedule's total; at most the budget's ρ).
/// Errors: as ermgRunPlan.
Result<double> ermgSeriesTotal(const GrowingRequestSpec &spec);

/// Whether the table has the teaching instance's columns. Errors: NotFound (a missing column),
/// INVALID_CONFIG ("dataset": a column of the wrong type).
Result<void> checkErmgData(const data::Table &table);

/// Runs the stream: every model θ̃_t is fitted (Newton, warm-started, ‖∇‖ ≤ tol) on the first t
/// arriving rows of `order` and snapped to its release's grid before anything is charged, so a
/// solver failure spends nothing; then each release is charged ρ_t and released as g·(k + Z), k the
/// snapped θ̃_t and Z_j exact discrete Gaussian N_ℤ(0, σ_g²) (one attempt, nine "theta" releases at
/// the recorded scale g·σ_g; ermgRunPlan). Errors: ResourceLimit (Newton not converging), as
/// runPlannedStream; the source's error (Io) when a draw fails after a charge (nothing released).
Result<void> runErmgStream(const GrowingRequestSpec &spec, const std::vector<GrowingRunPlan> &plan,
                           const data::Rows &table, std::span<const std::uint32_t> order,
                           filters::PrivacyFilter &filter, mechanisms::NoiseSource &noise, LedgerEvent &event,
                           GrowingRecord &record);

/// "ERMG release 3 of 28: t = 4000, ρ = 0.0012, σ = 1.7". Precondition: a recorded release.
std::string ermgReleaseLabel(const LedgerEvent &event, std::size_t release);

/// "ERMG stream, t = 1000 … all rows, improver a = 0.1, every 1000 rows, λ = 0.01, ρ ≤ 0.5, logistic
/// regression on 9 features". `budget` is the budget as describeGrowingRequest writes it.
std::string describeErmgRequest(const GrowingRequestSpec &spec, const std::string &budget);

/// pbx-cli verify for an ERMG event: the plan re-derived (auditPlannedEvent: times, ρ_t, β_t, σ
/// (g·σ_g), bound and each charge bit for bit), nine released coordinates per release, each a
/// multiple of the release's grid g (the exact noise releases g·(k + Z)), no synthetic database.
/// An event recorded before the exact noise (its first σ_t and bound the continuous design's,
/// recordedNoiseDesign) is audited against that design, with the same checks but the grid's.
/// Errors: Parse naming the event and what differs.
Result<void> auditErmgEvent(const LedgerEvent &event, const data::Table &table);

} // namespace pbx::session
