// SPDX-License-Identifier: MIT
// Session::askStrategy and the checks of strategy requests. Derivations:
// docs/strategies-inference.md (histograms and parallel composition, derived answers, quantiles,
// range strategies).
#include "core/session/strategies/strategy_release.h"

#include "core/data/predicate.h"
#include "core/math/directed_rounding.h"
#include "core/mechanisms/noise_source.h"
#include "core/session/source_support.h"
#include "core/session/strategies/strategy_transform.h"
#include "core/strategies/constrained_inference.h"
#include "core/strategies/derived_answers.h"
#include "core/strategies/histogram.h"
#include "core/strategies/quantiles.h"
#include "core/strategies/range_workload.h"
#include "core/strategies/selection.h"
#include "core/strategies/tree_strategy.h"
#include "core/util/number_format.h"
#include "core/util/parameter_checks.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

namespace pbx::session {

namespace {

using strategies::Range;
using strategies::RangeStrategy;
using strategies::RangeStrategyKind;

/// Largest workload a session releases (the transcript lists every answer).
constexpr std::size_t kMaxSessionWorkload = 100'000;

Error fieldError(const Error &e, const char *field)
{
    return makeError(e.code, std::string(field) + ": " + e.message);
}

struct NumericDomain
{
    std::size_t column = 0;
    double lo = 0.0;
    double hi = 0.0;
};

Result<NumericDomain> numericDomain(const QueryRequest &r, const data::Table &table, bool integer)
{
    const auto index = table.columnIndex(r.query.column);
    if (r.query.column.empty())
        return makeError(ErrorCode::InvalidArgument, "column: required");
    if (!index)
        return makeError(ErrorCode::NotFound, "column: no column '" + r.query.column + "'");
    if (table.columnInfo(*index).type != data::ColumnType::Numeric)
        return makeError(ErrorCode::InvalidArgument, "column: '" + r.query.column + "' is not numeric");
    std::optional<data::Bounds> bounds
        = r.query.bounds ? r.query.bounds : table.columnInfo(*index).declaredBounds;
    if (!bounds)
        return makeError(ErrorCode::InvalidArgument, "bounds: the column declares none; give [lower, upper]");
    if (!(bounds->lower < bounds->upper))
        return strategies::strategyError(strategies::kInvalidBounds, "bounds: need lower < upper");
    if (integer) {
        if (bounds->lower != std::floor(bounds->lower) || bounds->upper != std::floor(bounds->upper))
            return strategies::strategyError(strategies::kInvalidBounds,
                                             "bounds: an ordinal domain needs integer bounds");
        if (bounds->upper - bounds->lower + 1.0 > static_cast<double>(strategies::kMaxCells))
            return strategies::strategyError(strategies::kInvalidBounds, "bounds: more than 65,536 values");
    }
    return NumericDomain{*index, bounds->lower, bounds->upper};
}

Result<std::vector<double>> quantileGrid(const QueryRequest &r, const NumericDomain &d)
{
    double step = r.strategy()->step;
    if (step == 0.0) {
        const bool integer = d.lo == std::floor(d.lo) && d.hi == std::floor(d.hi);
        step = integer && d.hi - d.lo <= 65535.0 ? 1.0 : (d.hi - d.lo) / 1000.0;
    }
    PBX_RETURN_IF_ERROR(checkPositive(step, "step:"));
    const double n = std::floor((d.hi - d.lo) / step + 1e-9) + 1.0;
    if (n > static_cast<double>(strategies::kMaxCells))
        return strategies::strategyError(strategies::kInvalidBounds,
                                         "step: the grid has more than 65,536 candidates");
    std::vector<double> grid;
    for (double i = 0; i < n; i += 1.0)
        grid.push_back(d.lo + i * step);
    return grid;
}

Result<std::vector<Range>> workloadRanges(const StrategyRequestSpec &s, std::size_t k)
{
    if (s.workload == "explicit") {
        PBX_RETURN_IF_ERROR(strategies::checkRanges(s.ranges, k));
        return s.ranges;
    }
    return strategies::namedWorkload(s.workload, k);
}

std::size_t strategySensitivity(const RangeStrategy &s, std::size_t k, data::Neighbouring n)
{
    switch (s.kind) {
    case RangeStrategyKind::Identity:
        return n == data::Neighbouring::AddRemove ? 1 : 2;
    case RangeStrategyKind::AllRanges:
        return static_cast<std::size_t>(strategies::allRangesSensitivityL1(k, n));
    case RangeStrategyKind::Tree:
        return strategies::TreeShape::create(k, s.branching, s.root)->sensitivityL1(n);
    case RangeStrategyKind::Haar:
        return 0;
    }
    return 0;
}

/// A derived answer and the released histogram it reads: the last released histogram event among
/// `events` whose id is `spec.of` (post-processing, no data access).
struct Derivation
{
    const LedgerEvent *source = nullptr;
    strategies::DerivedAnswer answer;
};

Result<Derivation> deriveFromLedger(const StrategyRequestSpec &spec, std::span<const LedgerEvent> events,
                                    data::Neighbouring neighbours, double beta)
{
    Derivation out;
    for (const auto &old : events)
        if (old.request.id == spec.of && old.status == EventStatus::Released && old.strategyRecord()
            && old.request.strategy() && old.request.strategy()->kind == StrategyRequestKind::Histogram)
            out.source = &old;
    if (!out.source)
        return makeError(ErrorCode::InvalidArgument, "of: no released histogram with id '" + spec.of + "'");
    const auto &src = *out.source->strategyRecord();
    PBX_TRY(parameter, mechanisms::rationalAtLeast(src.noiseScale));
    PBX_TRY(cell, mechanisms::DiscreteNoiseMechanism::withParameter(mechanisms::DiscreteNoiseKind::Laplace,
                                                                    parameter, 1));
    strategies::HistogramPlan plan{cell, neighbours, 0.0, strategies::discreteNoiseVariance(cell)};
    strategies::HistogramRelease released;
    released.labels = src.labels;
    for (const double v : src.values)
        released.noisy.push_back(static_cast<std::int64_t>(v));
    PBX_TRY(answer, strategies::deriveAnswer(released, plan, {spec.derived, spec.cells, spec.other}, beta));
    out.answer = std::move(answer);
    return out;
}

/// The exponential mechanism's ε for a quantile request over `candidates` grid points: the
/// McSherry–Talwar bound rank error ≤ (2/ε) ln(|grid|/β) w.p. ≥ 1 − β solved for ε at the target
/// (at least 2^-20, the exact sampler's floor), or, when that would cost more than max_cost, the
/// largest ε within it (`capped` set).
Result<double> quantileEpsilon(const QueryRequest &request, std::size_t candidates, unsigned stability,
                               bool &capped)
{
    const auto &spec = *request.strategy();
    const double beta = 1.0 - request.target.confidence;
    double epsilon = std::max(std::ldexp(1.0, -20),
                              2.0 * std::log(static_cast<double>(candidates) / beta) / request.target.error);
    capped = false;
    PBX_TRY(full, transformedCharge(spec, stability, epsilon));
    if (request.maxCost && full > *request.maxCost) {
        epsilon = baseEpsilonWithin(spec, stability, *request.maxCost);
        capped = true;
    }
    return epsilon;
}

/// The categories of a mode request's column (declared, so public): checked by checkStrategyRequest.
std::size_t modeCandidates(const QueryRequest &request, const data::Table &table)
{
    return table.columnInfo(*table.columnIndex(request.query.column)).categories.size();
}

/// The ε of ONE pick of a mode request over `candidates` categories: the one whose gap bound
/// (strategies::selectionGapBound) meets the target at its confidence, or, when k picks at that ε
/// would cost more than max_cost, max_cost/k rounded down (`capped` set). 0 for one category (the
/// public category set answers it without looking at the data).
double modeEpsilon(const QueryRequest &request, std::size_t candidates, data::Neighbouring neighbours,
                   bool &capped)
{
    const auto &spec = *request.strategy();
    capped = false;
    if (candidates < 2)
        return 0.0;
    const double beta = 1.0 - request.target.confidence;
    // On the sampler's grid of η (2^−32), rounded up: the bar holds at the η the sampler uses.
    double epsilon = strategies::selectionEpsilonOnGrid(
        strategies::selectionEpsilonFor(spec.selection, request.target.error, beta, candidates, spec.picks,
                                        neighbours),
        neighbours);
    const auto k = static_cast<double>(spec.picks);
    if (request.maxCost && math::multiplyRoundUp(epsilon, k) > *request.maxCost) {
        epsilon = math::nudgeDown(*request.maxCost / k, 2);
        capped = true;
    }
    return epsilon;
}

/// What a mode event pays for `picks` picks at ε each: the exponential mechanism's picks are
/// ε-bounded-range (zCDP filters charge k·ε²/8), report-noisy-max's are ε-DP charged k·ε at once.
filters::Charge modeCharge(strategies::SelectionMechanism mechanism, double epsilon, std::size_t picks)
{
    if (mechanism == strategies::SelectionMechanism::Exponential)
        return {filters::ChargeKind::BoundedRange, epsilon, 0.0, picks};
    return {filters::ChargeKind::PureEpsilon, math::multiplyRoundUp(epsilon, static_cast<double>(picks)),
            0.0};
}

Result<void> checkModeRequest(const QueryRequest &r, const data::Table &table)
{
    const auto &s = *r.strategy();
    if (r.target.kind != TargetKind::Absolute)
        return makeError(ErrorCode::InvalidArgument,
                         "target.kind: a mode takes an absolute target (the count gap, in rows)");
    if (s.transform || s.subsample != 1.0)
        return makeError(ErrorCode::InvalidArgument,
                         "transform, subsample: a mode request selects from the column's own counts");
    const auto index = table.columnIndex(r.query.column);
    if (!index)
        return makeError(ErrorCode::NotFound, "column: no column '" + r.query.column + "'");
    const auto &info = table.columnInfo(*index);
    if (info.type != data::ColumnType::Categorical)
        return makeError(ErrorCode::InvalidArgument,
                         "column: '" + r.query.column + "' is numeric; a mode selects among categories");
    if (info.domainFromData || info.categories.empty())
        return strategies::strategyError(
            strategies::kInvalidBounds,
            "column: its categories were inferred from the data; declare them in metadata");
    if (s.picks < 1 || s.picks > std::min(info.categories.size(), strategies::kMaxSelectionPicks))
        return makeError(
            ErrorCode::InvalidArgument,
            "k: between 1 and "
                + std::to_string(std::min(info.categories.size(), strategies::kMaxSelectionPicks))
                + " (the column's categories, at most 64)");
    if (info.categories.size() > strategies::kMaxSelectionCandidates)
        return strategies::strategyError(strategies::kInvalidBounds, "column: more than 65,536 categories");
    bool capped = false;
    const double epsilon = modeEpsilon(r, info.categories.size(), data::Neighbouring::AddRemove, capped);
    if (info.categories.size() >= 2 && !strategies::selectionEtaNumerator(epsilon))
        return makeError(ErrorCode::InvalidArgument,
                         capped
                             ? "max_cost: too small for the exact selection sampler (ε per pick below 2^-32)"
                             : "target.error: too tight (it needs more than 2^20 of ε per pick)");
    return {};
}

} // namespace

ModeCost modeCost(const QueryRequest &request, const data::Table &table, data::Neighbouring neighbours)
{
    ModeCost out;
    const std::size_t m = modeCandidates(request, table);
    out.epsilonPerPick = modeEpsilon(request, m, neighbours, out.capped);
    out.picks = m < 2 ? 1 : request.strategy()->picks;
    out.charge = modeCharge(request.strategy()->selection, out.epsilonPerPick, out.picks);
    out.cost = m < 2 ? 0.0 : math::multiplyRoundUp(out.epsilonPerPick, static_cast<double>(out.picks));
    return out;
}

Result<void> checkStrategyRequest(const QueryRequest &r, const data::Table &table,
                                  data::Neighbouring neighbours)
{
    const auto &s = *r.strategy();
    if (!r.query.where.empty())
        if (auto p = data::Predicate::compile(r.query.where, table); !p)
            return fieldError(p.error(), "where");
    if (s.kind == StrategyRequestKind::Derived) {
        if (s.transform || s.subsample != 1.0 || s.post.any())
            return makeError(ErrorCode::InvalidArgument,
                             "transform, subsample, post: a derived answer only reads released values");
    } else if (s.kind != StrategyRequestKind::Mode
               && (s.picks != 1 || s.selection != strategies::SelectionMechanism::Exponential)) {
        return makeError(ErrorCode::InvalidArgument, "mechanism, k: only a mode request selects");
    } else if (auto stability = requestStability(s, neighbours); !stability) {
        return stability.error();
    }
    if (s.kind != StrategyRequestKind::Workload && s.post.any())
        return makeError(ErrorCode::InvalidArgument,
                         "post: constrained inference applies to workload requests (derived answers of a "
                         "histogram need none)");
    switch (s.kind) {
    case StrategyRequestKind::Histogram: {
        if (r.target.kind != TargetKind::Absolute)
            return makeError(ErrorCode::InvalidArgument,
                             "target.kind: a histogram takes an absolute target (per cell)");
        const auto index = table.columnIndex(r.query.column);
        if (!index)
            return makeError(ErrorCode::NotFound, "column: no column '" + r.query.column + "'");
        const auto &info = table.columnInfo(*index);
        if (info.type == data::ColumnType::Categorical) {
            if (!s.bins.empty())
                return strategies::strategyError(strategies::kInvalidBounds,
                                                 "bins: a categorical column's cells are its categories");
            if (info.domainFromData)
                return strategies::strategyError(
                    strategies::kInvalidBounds,
                    "column: its categories were inferred from the data; declare them in metadata");
            return {};
        }
        if (s.bins.empty()) {
            auto d = numericDomain(r, table, true);
            return d ? Result<void>() : Result<void>(d.error());
        }
        auto cells = strategies::histogramCells(table, {r.query.column, s.bins});
        return cells ? Result<void>() : Result<void>(cells.error());
    }
    case StrategyRequestKind::Quantile: {
        if (r.target.kind != TargetKind::Absolute)
            return makeError(ErrorCode::InvalidArgument,
                             "target.kind: a quantile takes an absolute target (rank error in rows)");
        if (auto ok = strategies::checkQuantile(s.q); !ok)
            return fieldError(ok.error(), "q");
        PBX_TRY(d, numericDomain(r, table, false));
        auto grid = quantileGrid(r, d);
        return grid ? Result<void>() : Result<void>(grid.error());
    }
    case StrategyRequestKind::Mode:
        return checkModeRequest(r, table);
    case StrategyRequestKind::Derived:
        if (s.of.empty())
            return makeError(ErrorCode::InvalidArgument, "of: the id of a released histogram is required");
        if (s.cells.empty())
            return makeError(ErrorCode::InvalidArgument, "cells: at least one cell");
        return {};
    case StrategyRequestKind::Workload: {
        if (r.target.kind != TargetKind::Absolute)
            return makeError(ErrorCode::InvalidArgument,
                             "target.kind: a workload takes an absolute target (per range)");
        if (s.strategy.kind == RangeStrategyKind::Haar)
            return makeError(ErrorCode::Unsupported,
                             "strategy: haar releases real-valued coefficients; sessions release "
                             "integer strategies (identity, tree, all-ranges); the lab has haar");
        PBX_TRY(d, numericDomain(r, table, true));
        const auto k = static_cast<std::size_t>(d.hi - d.lo + 1.0);
        if (s.strategy.kind == RangeStrategyKind::Tree) {
            auto shape = strategies::TreeShape::create(k, s.strategy.branching, s.strategy.root);
            if (!shape)
                return fieldError(shape.error(), "strategy");
            if (s.strategy.consistency && !s.strategy.root && shape->padded > strategies::kMaxDenseDomain)
                return strategies::strategyError(strategies::kDomainTooLarge,
                                                 "strategy: least squares without the root needs K <= 4096");
        }
        auto ranges = workloadRanges(s, k);
        if (!ranges)
            return fieldError(ranges.error(), "workload");
        if (s.post.isotonicPrefix && s.workload != "prefixes")
            return makeError(ErrorCode::InvalidArgument,
                             "post.isotonic_prefix: needs the prefixes workload (cumulative answers are "
                             "non-decreasing; the answers of '"
                                 + s.workload + "' need not be)");
        if (ranges->size() > kMaxSessionWorkload)
            return strategies::strategyError(strategies::kDomainTooLarge,
                                             "workload: more than 100,000 ranges in one session request");
        auto v = strategies::rangeVariances(s.strategy, k, *ranges, 1.0, neighbours);
        return v ? Result<void>() : Result<void>(fieldError(v.error(), "strategy"));
    }
    }
    return {};
}

namespace {

/// What the three charged kinds share while they draw: the request, the rows the mechanism reads
/// (the predicate's, thinned by Poisson sampling when asked) and the transformation's stability.
struct StrategyDraw
{
    const QueryRequest &request;
    const StrategyRequestSpec &spec;
    const data::Table &table;
    data::Rows privateRows;
    data::Neighbouring neighbours;
    double beta = 0.0;
    unsigned stability = 1;
    std::string transformText;
    std::vector<std::uint8_t> rows;
    mechanisms::RandomBits &bits;
    /// A categorical histogram's counts from the source (one GROUP BY), computed before the draw;
    /// unset when the cells are counted over `rows`.
    std::optional<strategies::HistogramCounts> pushedCounts;

    Result<double> chargeFor(double base) const { return transformedCharge(spec, stability, base); }
};

/// What one kind drew, before anything is charged (a failing noise source leaves nothing spent).
struct StrategyDrawn
{
    double charge = 0.0;
    bool targetMet = true;
    bool capped = false; ///< max_cost bought less accuracy than the target asks
    Attempt attempt;
    StrategyRecord record;
    double answer = 0.0;
    double errorBound = 0.0;
    std::string accounting;
    EventMechanism mechanism = EventMechanism::None;
    /// What the filter is charged: pure ε = `charge` unless set (a mode's bounded-range picks).
    std::optional<filters::Charge> filterCharge;
};

/// A derived answer: post-processing of a released histogram, no data access, no charge.
Result<LedgerEvent> derivedEvent(const QueryRequest &request, std::span<const LedgerEvent> events,
                                 data::Neighbouring neighbours, double beta)
{
    const auto &spec = *request.strategy();
    PBX_TRY(derived, deriveFromLedger(spec, events, neighbours, beta));
    const LedgerEvent *source = derived.source;
    const strategies::DerivedAnswer *answer = &derived.answer;
    LedgerEvent e;
    e.request = request;
    e.costKind = filters::ChargeKind::PureEpsilon;
    e.status = EventStatus::Released;
    e.mechanism = EventMechanism::PostProcessing;
    e.accounting
        = "post-processing of '" + spec.of + "' (event " + std::to_string(source->index) + "): no charge";
    e.answer = answer->value;
    e.errorBound = std::max(answer->value - answer->low, answer->high - answer->value);
    e.targetMet = e.errorBound <= request.target.error;
    StrategyRecord record;
    record.labels = {std::string(strategies::derivedKindName(spec.derived))};
    record.values = {answer->value};
    record.halfWidths = {e.errorBound};
    record.variances = {answer->variance};
    record.note = answer->method;
    e.record = std::move(record);
    return e;
}

/// Every cell of the histogram with discrete Laplace noise (parallel composition).
Result<StrategyDrawn> drawHistogram(const StrategyDraw &d)
{
    const QueryRequest &request = d.request;
    const bool replace = d.neighbours == data::Neighbouring::Replace;
    StrategyDrawn out;
    std::vector<double> bins = d.spec.bins;
    const auto index = *d.table.columnIndex(request.query.column);
    if (bins.empty() && d.table.columnInfo(index).type == data::ColumnType::Numeric) {
        const auto domain = *numericDomain(request, d.table, true);
        bins = *strategies::unitEdges(domain.lo, domain.hi);
    }
    PBX_TRY(counts, d.pushedCounts ? Result<strategies::HistogramCounts>(*d.pushedCounts)
                                   : strategies::countHistogramRows(d.privateRows,
                                                                    {request.query.column, bins}, d.rows));
    auto cell = mechanisms::DiscreteNoiseMechanism::forAbsoluteError(mechanisms::DiscreteNoiseKind::Laplace,
                                                                     request.target.error, d.beta, 1);
    if (!cell)
        return fieldError(cell.error(), "target");
    strategies::HistogramPlan plan{*cell, d.neighbours, replace ? 2.0 * cell->cost() : cell->cost(),
                                   strategies::discreteNoiseVariance(*cell)};
    PBX_TRY(full, d.chargeFor(plan.charge));
    if (request.maxCost && full > *request.maxCost) {
        auto cheaper = strategies::planHistogram(mechanisms::DiscreteNoiseKind::Laplace,
                                                 baseEpsilonWithin(d.spec, d.stability, *request.maxCost),
                                                 d.neighbours);
        if (!cheaper)
            return fieldError(cheaper.error(), "max_cost");
        plan = *cheaper;
        out.capped = true;
    }
    PBX_TRY(released, strategies::releaseHistogram(counts, plan, d.beta, d.bits));
    PBX_TRY(charged, d.chargeFor(plan.charge));
    out.charge = charged;
    out.targetMet = static_cast<double>(released.halfWidth) <= request.target.error;
    StrategyRecord &record = out.record;
    record.labels = released.labels;
    record.noiseScale = plan.cell.parameter().toDouble();
    record.sensitivity = replace ? 2 : 1;
    double total = 0.0;
    for (std::size_t i = 0; i < released.noisy.size(); ++i) {
        const double v = static_cast<double>(released.noisy[i]);
        record.values.push_back(v);
        record.halfWidths.push_back(static_cast<double>(released.halfWidth));
        record.variances.push_back(plan.cellVariance);
        out.attempt.releases.push_back({"cell", record.noiseScale, v, plan.cell.cost()});
        total += v;
    }
    record.note
        = std::string("every cell at once: parallel composition")
          + (replace ? " (replace-one: a changed row moves between two cells, charged twice the per-cell ε)"
                     : "")
          + "; per-cell error bars from the exact discrete-Laplace tail" + d.transformText;
    // The event's scalar answer is the total of the noisy cells, with the total's own interval
    // (derived, free); the per-cell bars are in the record.
    std::vector<std::size_t> all(released.noisy.size());
    for (std::size_t i = 0; i < all.size(); ++i)
        all[i] = i;
    PBX_TRY(totalBar,
            strategies::deriveAnswer(released, plan, {strategies::DerivedKind::Sum, all, {}}, d.beta));
    out.answer = total;
    out.errorBound = totalBar.high - totalBar.value;
    out.accounting = "answer: the total of " + std::to_string(all.size()) + " noisy cells (± "
                     + formatSignificant(out.errorBound) + "); each cell ± "
                     + std::to_string(released.halfWidth) + ", the target's unit";
    out.mechanism = EventMechanism::Histogram;
    return out;
}

/// A quantile by the exponential mechanism over a public grid of candidates.
Result<StrategyDrawn> drawQuantile(const StrategyDraw &d)
{
    const QueryRequest &request = d.request;
    StrategyDrawn out;
    const auto domain = *numericDomain(request, d.table, false);
    const auto grid = *quantileGrid(request, domain);
    std::vector<double> values;
    const auto column = d.privateRows.numeric(domain.column);
    for (std::size_t r = 0; r < column.size(); ++r)
        if (d.rows[r])
            values.push_back(std::clamp(column[r], domain.lo, domain.hi));
    // McSherry–Talwar: rank error ≤ (2/ε) ln(|grid|/β) w.p. ≥ 1 − β, so ε = 2 ln(|grid|/β)/a.
    // (At least 2^-20, the exact sampler's floor: a looser target then gets a tighter bar.)
    PBX_TRY(chosen, quantileEpsilon(request, grid.size(), d.stability, out.capped));
    const double epsilon = chosen;
    PBX_TRY(pick, strategies::sampleGridQuantile(values, d.spec.q, epsilon, grid, d.bits));
    PBX_TRY(charged, d.chargeFor(epsilon));
    out.charge = charged;
    out.answer = grid[pick];
    out.errorBound = strategies::quantileRankErrorBound(epsilon, grid.size(), d.beta);
    out.targetMet = !out.capped;
    out.record.labels = {"q=" + formatSignificant(d.spec.q)};
    out.record.values = {out.answer};
    out.record.halfWidths = {out.errorBound};
    out.record.variances = {0.0};
    out.record.note = "exponential mechanism over " + std::to_string(grid.size())
                      + " public candidates; the error bar is a rank distance in rows (McSherry-Talwar)"
                      + d.transformText;
    out.attempt.releases.push_back({"quantile", 0.0, out.answer, epsilon});
    out.mechanism = EventMechanism::ExponentialMechanism;
    return out;
}

/// The mode (or top k) of a categorical column: `picks` categories selected from the per-category
/// counts by the exponential mechanism or report-noisy-max, sampled exactly (strategies/selection.h).
/// The released values are the picked categories (their labels; the values are their indices);
/// no count is released.
Result<StrategyDrawn> drawMode(const StrategyDraw &d)
{
    const QueryRequest &request = d.request;
    const auto &spec = d.spec;
    StrategyDrawn out;
    const strategies::HistogramCounts &counts = *d.pushedCounts;
    const std::size_t m = counts.counts.size(); // the declared categories, in their order
    const ModeCost cost = modeCost(request, d.table, d.neighbours);
    const double epsilon = cost.epsilonPerPick;
    out.capped = cost.capped;
    std::vector<std::size_t> picks;
    double eta = 0.0, bar = 0.0;
    if (m < 2) { // one public category: the answer needs no data
        picks = {0};
    } else {
        PBX_TRY(num, strategies::selectionEtaNumerator(strategies::selectionEta(epsilon, d.neighbours)));
        eta = strategies::selectionEtaOf(num);
        const std::vector<std::int64_t> c(counts.counts.begin(), counts.counts.end());
        PBX_TRY(drawn, strategies::sampleSelection(spec.selection, c, num, spec.picks, d.bits));
        picks = std::move(drawn);
        bar = strategies::selectionGapBound(spec.selection, eta, d.beta, m, spec.picks);
    }
    out.filterCharge = cost.charge;
    out.charge = cost.cost;
    out.targetMet = !out.capped && bar <= request.target.error;
    for (const std::size_t j : picks) {
        out.record.labels.push_back(counts.labels[j]);
        out.record.values.push_back(static_cast<double>(j));
        out.record.halfWidths.push_back(bar);
        out.record.variances.push_back(0.0);
        out.attempt.releases.push_back(
            {"pick", eta > 0.0 ? 1.0 / eta : 0.0, static_cast<double>(j), epsilon});
    }
    const bool em = spec.selection == strategies::SelectionMechanism::Exponential;
    out.mechanism = em ? EventMechanism::ExponentialMechanism : EventMechanism::ReportNoisyMax;
    out.answer = static_cast<double>(picks.front());
    out.errorBound = bar;
    out.record.note
        = m < 2 ? std::string("one declared category: it is the mode, no data read, no charge")
                : std::string(
                      em ? "exponential mechanism (sampled exactly; equal in distribution to Gumbel-max)"
                         : "report-noisy-max with exponential noise (exact permute-and-flip)")
                      + " over " + std::to_string(m) + " declared categories, η = " + formatSignificant(eta)
                      + " per row; each pick's count is within " + formatSignificant(bar)
                      + " rows of the largest count left (union bound); no count is released";
    out.accounting = m < 2 ? std::string("no charge")
                           : std::to_string(picks.size()) + (picks.size() == 1 ? " pick" : " picks")
                                 + " at ε = " + filters::formatAmount(epsilon)
                                 + (em ? ", each ε-bounded-range (a zCDP filter pays ε²/8 per pick)"
                                       : ", each ε-DP (a zCDP filter pays the pure ε's ε²/2)");
    return out;
}

/// The workload's range answers from the strategy's noisy measurements (`draw` releases one
/// measurement of an exact value): leaves, all ranges, or a tree (with consistency when asked).
Result<std::vector<double>> measureRanges(const RangeStrategy &strategy, std::size_t k,
                                          const std::vector<Range> &ranges, const std::vector<double> &leaves,
                                          const std::function<Result<double>(double)> &draw)
{
    std::vector<double> answers(ranges.size());
    auto fromLeaves = [&](const std::vector<double> &est) {
        std::vector<double> prefix(k + 1, 0.0);
        for (std::size_t i = 0; i < k; ++i)
            prefix[i + 1] = prefix[i] + est[i];
        for (std::size_t r = 0; r < ranges.size(); ++r)
            answers[r] = prefix[ranges[r].last + 1] - prefix[ranges[r].first];
    };
    if (strategy.kind == RangeStrategyKind::Identity) {
        std::vector<double> est(k);
        for (std::size_t i = 0; i < k; ++i) {
            PBX_TRY(v, draw(leaves[i]));
            est[i] = v;
        }
        fromLeaves(est);
        return answers;
    }
    if (strategy.kind == RangeStrategyKind::AllRanges) {
        std::vector<double> prefix(k + 1, 0.0);
        for (std::size_t i = 0; i < k; ++i)
            prefix[i + 1] = prefix[i] + leaves[i];
        for (std::size_t r = 0; r < ranges.size(); ++r) {
            PBX_TRY(v, draw(prefix[ranges[r].last + 1] - prefix[ranges[r].first]));
            answers[r] = v;
        }
        return answers;
    }
    const auto shape = *strategies::TreeShape::create(k, strategy.branching, strategy.root);
    auto nodes = strategies::treeNodeCounts(shape, leaves);
    for (std::size_t i = strategy.root ? 0 : 1; i < nodes.size(); ++i) {
        PBX_TRY(v, draw(nodes[i]));
        nodes[i] = v;
    }
    if (!strategy.root)
        nodes[0] = 0.0; // not measured, not used
    if (strategy.consistency && strategy.root) {
        const auto fitted = strategies::hayConsistentTree(shape, nodes);
        fromLeaves(
            {fitted.begin() + static_cast<std::ptrdiff_t>(shape.levelOffset(shape.height)), fitted.end()});
    } else if (strategy.consistency) {
        PBX_TRY(fitted, strategies::leastSquaresLeaves(shape, nodes));
        fromLeaves({fitted.data(), fitted.data() + fitted.size()});
    } else {
        for (std::size_t r = 0; r < ranges.size(); ++r) {
            double sum = 0.0;
            for (const auto node : strategies::canonicalNodes(shape, ranges[r]))
                sum += nodes[node];
            answers[r] = sum;
        }
    }
    return answers;
}

/// Constrained inference (post-processing) of a workload's answers when asked: the answers as
/// released are kept in the record so verify can recompute the projection. Returns the note's text.
Result<std::string> projectWorkload(const StrategyRequestSpec &spec, const std::vector<double> &variances,
                                    std::vector<double> &answers, StrategyRecord &record)
{
    if (!spec.post.any())
        return std::string();
    PBX_TRY(projected,
            strategies::projectAnswers(answers, variances, spec.post.isotonicPrefix, spec.post.nonNegative));
    record.unprojected = answers;
    answers = std::move(projected);
    return std::string("; then ")
           + (spec.post.isotonicPrefix ? "isotonic regression (PAVA, weights 1/variance)" : "")
           + (spec.post.isotonicPrefix && spec.post.nonNegative ? " and " : "")
           + (spec.post.nonNegative ? "clipping at 0" : "")
           + " (post-processing, free: the answer vector's squared error cannot grow; the "
             "bars are those of the answers before the projection)";
}

/// A workload of range queries answered by a strategy with discrete Laplace noise, one charge.
Result<StrategyDrawn> drawWorkload(const StrategyDraw &d)
{
    const QueryRequest &request = d.request;
    StrategyDrawn out;
    const auto domain = *numericDomain(request, d.table, true);
    const auto k = static_cast<std::size_t>(domain.hi - domain.lo + 1.0);
    auto counts = *strategies::countHistogramRows(
        d.privateRows, {request.query.column, *strategies::unitEdges(domain.lo, domain.hi)}, d.rows);
    const auto ranges = *workloadRanges(d.spec, k);
    const auto &strategy = d.spec.strategy;
    const std::size_t delta = strategySensitivity(strategy, k, d.neighbours);
    // Per-range Chebyshev: √(Var/β) ≤ a with Var = Var₁/ε² gives ε = √(max Var₁/β)/a.
    const auto unit = *strategies::rangeVariances(strategy, k, ranges, 1.0, d.neighbours);
    // (The relative nudge keeps the bar within the target after the scale is rounded up.)
    double epsilon = std::sqrt(*std::max_element(unit.begin(), unit.end()) / d.beta) / request.target.error
                     * (1.0 + 1e-9);
    if (auto full = d.chargeFor(epsilon); !full) {
        return full.error();
    } else if (request.maxCost && *full > *request.maxCost) {
        epsilon = baseEpsilonWithin(d.spec, d.stability, *request.maxCost);
        out.capped = true;
    }
    auto noise
        = mechanisms::DiscreteNoiseMechanism::forCost(mechanisms::DiscreteNoiseKind::Laplace, epsilon, delta);
    if (!noise)
        return fieldError(noise.error(), "target");
    const double t = noise->parameter().toDouble();
    const std::vector<double> leaves(counts.counts.begin(), counts.counts.end());
    auto measured = measureRanges(strategy, k, ranges, leaves, [&](double exact) -> Result<double> {
        PBX_TRY(v, noise->release(static_cast<std::int64_t>(exact), d.bits));
        out.attempt.releases.push_back({"measurement", t, static_cast<double>(v), 0.0});
        return static_cast<double>(v);
    });
    if (!measured)
        return measured.error();
    std::vector<double> answers = std::move(*measured);
    // Variances at the scale actually used (t ≥ Δ/ε); the continuous-Laplace variance 2t²
    // bounds the discrete one.
    const auto variances
        = *strategies::rangeVariances(strategy, k, ranges, static_cast<double>(delta) / t, d.neighbours);
    PBX_TRY(charged, d.chargeFor(noise->cost()));
    out.charge = charged;
    PBX_TRY(postText, projectWorkload(d.spec, variances, answers, out.record));
    StrategyRecord &record = out.record;
    record.noiseScale = t;
    record.sensitivity = delta;
    double widest = 0.0;
    for (std::size_t r = 0; r < ranges.size(); ++r) {
        record.labels.push_back("[" + formatSignificant(domain.lo + static_cast<double>(ranges[r].first))
                                + ", " + formatSignificant(domain.lo + static_cast<double>(ranges[r].last))
                                + "]");
        record.values.push_back(answers[r]);
        record.variances.push_back(variances[r]);
        record.halfWidths.push_back(std::sqrt(variances[r] / d.beta));
        widest = std::max(widest, record.halfWidths.back());
    }
    out.targetMet = widest <= request.target.error;
    record.note = strategy.label() + ", one charge for the whole strategy (l1 sensitivity "
                  + std::to_string(delta) + "); per-range error bars by Chebyshev on the exact variance"
                  + postText + d.transformText;
    out.answer = answers.front();
    out.errorBound = widest;
    out.mechanism = EventMechanism::Workload;
    return out;
}

} // namespace

Result<LedgerEvent> Session::askStrategy(QueryRequest request)
{
    PBX_RETURN_IF_ERROR(checkStrategyRequest(request, *m_table, m_settings.neighbours));
    if (request.id.empty())
        request.id = "q" + std::to_string(m_events.size() + 1);
    const auto &spec = *request.strategy();
    const double beta = 1.0 - request.target.confidence;
    if (spec.kind == StrategyRequestKind::Derived) {
        PBX_TRY(derived, derivedEvent(request, m_events, m_settings.neighbours, beta));
        return append(std::move(derived));
    }

    PBX_TRY(source, nextNoiseSource());
    auto &bits = source.bits();
    data::Predicate predicate;
    if (!request.query.where.empty())
        predicate = *data::Predicate::compile(request.query.where, *m_table);
    const unsigned stability = *requestStability(spec, m_settings.neighbours);
    StrategyDraw draw{request,
                      spec,
                      *m_table,
                      privateRows(),
                      m_settings.neighbours,
                      beta,
                      stability,
                      transformNote(spec, stability),
                      {},
                      bits,
                      {}};
    if (histogramIsPushedDown(request, *m_table)) {
        // Per-category counts from the source (a GROUP BY in a database), whole before anything
        // is drawn or charged: a failed database call refuses with nothing spent.
        PBX_TRY(counts, privateAggregates().categoryCounts(request.query.column, predicate));
        draw.pushedCounts = strategies::HistogramCounts{std::move(counts.labels), std::move(counts.counts)};
    } else {
        // The rows the mechanism reads: the predicate's, thinned by Poisson sampling when asked
        // (the sample is drawn from the session's noise source, like the noise).
        predicate.evaluate(privateRows(), draw.rows);
        PBX_RETURN_IF_ERROR(poissonSample(spec.subsample, draw.rows, bits));
    }

    // Each kind computes the charge and draws every noisy value before anything is charged, so a
    // failing noise source leaves nothing spent.
    PBX_TRY(drawn, spec.kind == StrategyRequestKind::Histogram  ? drawHistogram(draw)
                   : spec.kind == StrategyRequestKind::Quantile ? drawQuantile(draw)
                   : spec.kind == StrategyRequestKind::Mode     ? drawMode(draw)
                                                                : drawWorkload(draw));
    const filters::Charge charge
        = drawn.filterCharge.value_or(filters::Charge{filters::ChargeKind::PureEpsilon, drawn.charge, 0.0});
    if (auto charged = m_filter->charge(charge); !charged) {
        LedgerEvent refused;
        refused.request = request;
        refused.status = EventStatus::Refused;
        refused.mechanism = drawn.mechanism;
        refused.reason = charged.error().message;
        return append(std::move(refused));
    }
    LedgerEvent e;
    e.request = request;
    e.costKind = charge.kind;
    e.status = EventStatus::Released;
    e.mechanism = drawn.mechanism;
    e.accounting = std::move(drawn.accounting);
    e.answer = drawn.answer;
    e.errorBound = drawn.errorBound;
    e.cost = drawn.charge;
    e.targetMet = drawn.targetMet;
    if (!drawn.targetMet)
        e.reason = drawn.capped ? "the per-query maximum (max_cost) bought less accuracy than the target asks"
                                : "the error bar exceeds the target";
    Attempt attempt = std::move(drawn.attempt);
    attempt.estimate = e.answer;
    attempt.halfWidth = e.errorBound;
    attempt.cost = drawn.charge;
    attempt.accepted = drawn.targetMet;
    e.attempts.push_back(std::move(attempt));
    e.record = std::move(drawn.record);
    return append(std::move(e));
}

namespace {

/// verify's check of a released mode event: its ε per pick is recomputed from the request (target,
/// confidence, declared categories, max_cost), the cost kind and cost follow from it, and the picks
/// are distinct declared categories with the error bar that ε gives.
Result<void> auditModeEvent(const LedgerEvent &e, const data::Table &table, const SessionSettings &settings,
                            const std::function<Error(const std::string &)> &fail)
{
    const auto &spec = *e.request.strategy();
    if (auto ok = checkModeRequest(e.request, table); !ok)
        return fail(ok.error().message);
    const std::size_t m = modeCandidates(e.request, table);
    const ModeCost expected = modeCost(e.request, table, settings.neighbours);
    const bool capped = expected.capped;
    const double epsilon = expected.epsilonPerPick;
    const std::size_t picks = expected.picks;
    const filters::Charge &charge = expected.charge;
    const double cost = expected.cost;
    if (e.costKind != charge.kind || e.cost != cost || e.attempts.size() != 1 || e.attempts[0].cost != cost)
        return fail("a mode by " + std::string(strategies::selectionMechanismName(spec.selection)) + " over "
                    + std::to_string(m) + " categories at its target"
                    + (capped ? " (capped by max_cost)" : "") + " costs " + filters::formatAmount(cost) + " "
                    + std::string(filters::chargeKindName(charge.kind)) + " in one attempt, not "
                    + filters::formatAmount(e.cost) + " " + std::string(filters::chargeKindName(e.costKind)));
    const auto &releases = e.attempts[0].releases;
    const auto *record = e.strategyRecord();
    const auto &categories = table.columnInfo(*table.columnIndex(e.request.query.column)).categories;
    if (!record || releases.size() != picks || record->labels.size() != picks
        || record->values.size() != picks)
        return fail("it must record " + std::to_string(picks) + " picks");
    double bar = 0.0;
    if (m >= 2) {
        auto num = strategies::selectionEtaNumerator(strategies::selectionEta(epsilon, settings.neighbours));
        if (!num)
            return fail(num.error().message);
        bar = strategies::selectionGapBound(spec.selection, strategies::selectionEtaOf(*num),
                                            1.0 - e.request.target.confidence, m, picks);
    }
    std::vector<bool> seen(m, false);
    for (std::size_t i = 0; i < picks; ++i) {
        const double v = record->values[i];
        const auto j = static_cast<std::size_t>(v);
        if (!(v >= 0.0) || v != std::floor(v) || j >= m || seen[j] || categories[j] != record->labels[i]
            || releases[i].value != v || releases[i].cost != epsilon || record->halfWidths.size() != picks
            || record->halfWidths[i] != bar)
            return fail("pick " + std::to_string(i + 1)
                        + " is not a distinct declared category with the ε and error bar its target gives");
        seen[j] = true;
    }
    if (e.answer != record->values[0] || e.errorBound != bar)
        return fail("its answer is not its first pick");
    return {};
}

} // namespace

Result<void> auditStrategyEvent(const LedgerEvent &e, const data::Table &table,
                                const SessionSettings &settings)
{
    const std::string where = "event " + std::to_string(e.index) + " ('" + e.request.id + "')";
    auto fail = [&](const std::string &what) { return makeError(ErrorCode::Parse, where + ": " + what); };
    if (e.status == EventStatus::Refused) {
        if (e.cost != 0.0 || !e.attempts.empty())
            return fail("a refused request has a cost or releases");
        return {};
    }
    const auto &spec = *e.request.strategy();
    if (spec.kind == StrategyRequestKind::Derived) {
        if (e.cost != 0.0 || !e.attempts.empty())
            return fail("a derived answer is post-processing: it costs nothing and releases nothing new");
        return {}; // its value is recomputed by auditDerivedEvent, which sees the earlier events
    }
    if (spec.kind == StrategyRequestKind::Mode)
        return auditModeEvent(e, table, settings, fail);
    if (e.costKind != filters::ChargeKind::PureEpsilon)
        return fail("strategy requests are charged in pure epsilon");
    auto stability = requestStability(spec, settings.neighbours);
    if (!stability)
        return fail(stability.error().message);
    if (e.attempts.size() != 1 || e.attempts[0].cost != e.cost || !(e.cost > 0.0))
        return fail("one attempt must carry the whole cost");
    const bool replace = settings.neighbours == data::Neighbouring::Replace;
    if (spec.kind == StrategyRequestKind::Quantile) {
        // The exponential mechanism's ε is recomputed from the request (its target, confidence,
        // grid and max_cost), as askStrategy chose it; the event pays for it through the
        // transformation and the sampling; the error bar is the one that ε gives.
        const auto &releases = e.attempts[0].releases;
        if (releases.size() != 1)
            return fail("a quantile releases one value");
        auto d = numericDomain(e.request, table, false);
        if (!d)
            return fail(d.error().message);
        auto grid = quantileGrid(e.request, *d);
        if (!grid)
            return fail(grid.error().message);
        bool capped = false;
        auto epsilon = quantileEpsilon(e.request, grid->size(), *stability, capped);
        if (!epsilon)
            return fail(epsilon.error().message);
        if (!(std::fabs(releases[0].cost - *epsilon) <= 1e-12 * *epsilon))
            return fail("its exponential mechanism ran at epsilon " + filters::formatAmount(releases[0].cost)
                        + ", but its target (" + formatSignificant(e.request.target.error) + " at "
                        + formatSignificant(e.request.target.confidence) + " over "
                        + std::to_string(grid->size()) + " candidates"
                        + (capped ? ", capped by max_cost" : "") + ") gives "
                        + filters::formatAmount(*epsilon));
        auto implied = transformedCharge(spec, *stability, *epsilon);
        if (!implied || e.cost < *implied * (1.0 - 1e-12))
            return fail("its exponential mechanism's epsilon implies a larger cost than recorded");
        const double bar
            = strategies::quantileRankErrorBound(*epsilon, grid->size(), 1.0 - e.request.target.confidence);
        if (!(std::fabs(e.errorBound - bar) <= 1e-12 * bar))
            return fail("its error bar " + formatSignificant(e.errorBound)
                        + " is not the one its epsilon gives (" + formatSignificant(bar) + ")");
        if (!std::binary_search(grid->begin(), grid->end(), e.answer) || releases[0].value != e.answer
            || !e.strategyRecord() || e.strategyRecord()->values != std::vector<double>{e.answer}
            || e.strategyRecord()->halfWidths != std::vector<double>{e.errorBound})
            return fail("its answer is not the candidate it records on the public grid");
        return {};
    }
    if (!e.strategyRecord() || !(e.strategyRecord()->noiseScale > 0.0))
        return fail("the noise scale is missing");
    const double t = e.strategyRecord()->noiseScale;
    double implied = 0.0;
    if (spec.kind == StrategyRequestKind::Histogram) {
        implied = (replace ? 2.0 : 1.0) / t;
    } else {
        auto d = numericDomain(e.request, table, true);
        if (!d)
            return fail(d.error().message);
        const auto k = static_cast<std::size_t>(d->hi - d->lo + 1.0);
        if (spec.strategy.kind == RangeStrategyKind::Tree
            && !strategies::TreeShape::create(k, spec.strategy.branching, spec.strategy.root))
            return fail("the strategy does not fit the column's domain");
        implied = static_cast<double>(strategySensitivity(spec.strategy, k, settings.neighbours)) / t;
        const auto &record = *e.strategyRecord();
        if (spec.post.any() != !record.unprojected.empty())
            return fail("post-processing asked and answers before the projection recorded must go together");
        if (spec.post.any()) {
            auto projected = strategies::projectAnswers(record.unprojected, record.variances,
                                                        spec.post.isotonicPrefix, spec.post.nonNegative);
            if (!projected)
                return fail("before_projection: " + projected.error().message);
            for (std::size_t i = 0; i < projected->size(); ++i)
                if (!(std::fabs((*projected)[i] - record.values[i])
                      <= 1e-9 * (1.0 + std::fabs(record.values[i]))))
                    return fail("answer " + std::to_string(i)
                                + " is not the projection of the released answers it records");
        }
    }
    if (auto charged = transformedCharge(spec, *stability, implied); charged)
        implied = *charged;
    else
        return fail(charged.error().message);
    if (e.cost < implied * (1.0 - 1e-12))
        return fail("its noise scale implies epsilon " + filters::formatAmount(implied)
                    + ", more than the recorded cost " + filters::formatAmount(e.cost));
    return {};
}

Result<void> auditDerivedEvent(const LedgerEvent &e, std::span<const LedgerEvent> earlier,
                               const SessionSettings &settings)
{
    const std::string where = "event " + std::to_string(e.index) + " ('" + e.request.id + "')";
    auto fail = [&](const std::string &what) { return makeError(ErrorCode::Parse, where + ": " + what); };
    if (e.status != EventStatus::Released || !e.request.strategy()
        || e.request.strategy()->kind != StrategyRequestKind::Derived)
        return {};
    const auto &spec = *e.request.strategy();
    auto derived = deriveFromLedger(spec, earlier, settings.neighbours, 1.0 - e.request.target.confidence);
    if (!derived)
        return fail("its answer cannot be derived again: " + derived.error().message);
    const strategies::DerivedAnswer &a = derived->answer;
    const double bar = std::max(a.value - a.low, a.high - a.value);
    const auto close = [](double x, double y) { return std::fabs(x - y) <= 1e-9 * (1.0 + std::fabs(y)); };
    if (!e.strategyRecord() || e.strategyRecord()->values.size() != 1
        || e.strategyRecord()->halfWidths.size() != 1 || !close(e.answer, a.value)
        || !close(e.strategyRecord()->values[0], a.value) || !close(e.errorBound, bar)
        || !close(e.strategyRecord()->halfWidths[0], bar))
        return fail("its answer " + formatSignificant(e.answer) + " ± " + formatSignificant(e.errorBound)
                    + " is not the one derived again from '" + spec.of + "' (event "
                    + std::to_string(derived->source->index) + "): " + formatSignificant(a.value) + " ± "
                    + formatSignificant(bar));
    return {};
}

} // namespace pbx::session

namespace pbx::session {

std::string_view strategyRequestKindName(StrategyRequestKind kind)
{
    switch (kind) {
    case StrategyRequestKind::Histogram:
        return "histogram";
    case StrategyRequestKind::Quantile:
        return "quantile";
    case StrategyRequestKind::Derived:
        return "derived";
    case StrategyRequestKind::Workload:
        return "workload";
    case StrategyRequestKind::Mode:
        return "mode";
    }
    return "histogram";
}

std::optional<StrategyRequestKind> strategyRequestKindFor(std::string_view aggregate)
{
    for (const auto k :
         {StrategyRequestKind::Histogram, StrategyRequestKind::Quantile, StrategyRequestKind::Derived,
          StrategyRequestKind::Workload, StrategyRequestKind::Mode})
        if (strategyRequestKindName(k) == aggregate)
            return k;
    return std::nullopt;
}

} // namespace pbx::session

namespace pbx::session {

std::string describeStrategyRequest(const QueryRequest &request)
{
    const auto &s = *request.strategy();
    auto list = [](const std::vector<std::size_t> &cells) {
        std::string out;
        for (std::size_t i = 0; i < cells.size(); ++i)
            out += (i ? ", " : "") + std::to_string(cells[i]);
        return out;
    };
    std::string text;
    switch (s.kind) {
    case StrategyRequestKind::Histogram:
        text = "histogram of " + request.query.column;
        break;
    case StrategyRequestKind::Quantile:
        text = "quantile q=" + formatSignificant(s.q) + " of " + request.query.column;
        break;
    case StrategyRequestKind::Derived:
        text = std::string(strategies::derivedKindName(s.derived)) + " of " + s.of + ": cells "
               + list(s.cells);
        if (!s.other.empty())
            text += (s.derived == strategies::DerivedKind::Share ? " within " : " minus ") + list(s.other);
        return text;
    case StrategyRequestKind::Mode:
        text = (s.picks == 1 ? std::string("mode of ") : "top " + std::to_string(s.picks) + " of ")
               + request.query.column + " (" + std::string(strategies::selectionMechanismName(s.selection))
               + ")";
        break;
    case StrategyRequestKind::Workload:
        text = "workload " + s.workload + " of " + request.query.column + " (" + s.strategy.label() + ")";
        break;
    }
    if (!request.query.where.empty())
        text += " where " + request.query.where;
    return text;
}

} // namespace pbx::session
