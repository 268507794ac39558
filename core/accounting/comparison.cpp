// SPDX-License-Identifier: MIT
#include "core/accounting/comparison.h"

#include "core/accounting/evaluation.h"
#include "core/accounting/optimal_composition.h"
#include "core/accounting/parallel_composition.h"
#include "core/accounting/per_step_dp.h"
#include "core/accounting/pld_accountant.h"
#include "core/accounting/rdp_accountant.h"
#include "core/privacy/rdp_conversion.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

namespace pbx::accounting {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::size_t kUnknown = std::numeric_limits<std::size_t>::max(); ///< no ledger index known

/// A number for a one-line message, all significant digits.
std::string show(double x)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", x);
    return text;
}

/// The ledger split for parallel composition, with each part's events' indices in the ledger
/// (so that a strategy's "events[i] (…)" message can name the ledger's event).
struct Parts
{
    std::vector<Ledger> ledgers;
    std::vector<std::vector<std::size_t>> origins;
};

bool sameEvent(const PrivacyEvent &a, const PrivacyEvent &b, bool ignoreCount)
{
    return a.mechanism == b.mechanism && a.sigma == b.sigma && a.scale == b.scale
           && a.sensitivity == b.sensitivity && a.epsilon == b.epsilon && a.delta == b.delta && a.rho == b.rho
           && (ignoreCount || a.count == b.count) && a.sampling.kind == b.sampling.kind
           && a.sampling.rate == b.sampling.rate && a.partition == b.partition && a.expost == b.expost
           && a.outputDp == b.outputDp;
}

Parts split(const Ledger &ledger)
{
    Parts parts;
    parts.ledgers = splitByPartition(ledger);
    // Each part is a subsequence of the ledger selected by mechanism and partition label, both
    // compared by sameEvent: matching greedily in order recovers the indices exactly.
    for (const Ledger &part : parts.ledgers) {
        std::vector<std::size_t> origin;
        std::size_t next = 0;
        for (const auto &e : part.events) {
            while (next < ledger.events.size() && !sameEvent(ledger.events[next], e, false))
                ++next;
            origin.push_back(next < ledger.events.size() ? next++ : kUnknown);
        }
        parts.origins.push_back(std::move(origin));
    }
    return parts;
}

/// "events[j] (…): …" of a part's ledger → "events[i] (…): …" with i the ledger's index.
Error inLedger(Error error, const std::vector<std::size_t> &origin)
{
    static const std::string head = "events[";
    if (error.message.rfind(head, 0) != 0)
        return error;
    const std::size_t close = error.message.find(']', head.size());
    if (close == std::string::npos)
        return error;
    const std::string digits = error.message.substr(head.size(), close - head.size());
    if (digits.empty()
        || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return error;
    const std::size_t j = std::stoul(digits);
    if (j < origin.size() && origin[j] != kUnknown)
        error.message = head + std::to_string(origin[j]) + error.message.substr(close);
    return error;
}

PldOptions pldOptions(double interval, double tailMass, double maxBins, bool optimistic,
                      ProgressCallback progress)
{
    PldOptions o;
    o.interval = interval;
    o.tailMass = tailMass;
    o.maxBins = maxBins;
    o.optimistic = optimistic;
    o.progress = std::move(progress);
    return o;
}

/// The PMF of one direction rebinned to about `bins` bins over the range holding all but 1e-9
/// of the finite mass.
PldHistogram histogram(const PldPmf &pmf, int bins)
{
    PldHistogram out;
    out.infinityMass = pmf.infinityMass;
    out.interval = pmf.interval;
    const std::size_t n = pmf.probs.size();
    if (n == 0)
        return out;
    double total = 0.0;
    for (double p : pmf.probs)
        total += p;
    const double cut = total * 5e-10;
    std::size_t lo = 0;
    for (double acc = 0.0; lo + 1 < n && acc + pmf.probs[lo] <= cut; ++lo)
        acc += pmf.probs[lo];
    std::size_t hi = n - 1;
    for (double acc = 0.0; hi > lo && acc + pmf.probs[hi] <= cut; --hi)
        acc += pmf.probs[hi];
    const std::size_t span = hi - lo + 1;
    const auto perBin = static_cast<std::size_t>(std::max(1, bins));
    const std::size_t per = std::max<std::size_t>(1, (span + perBin - 1) / perBin);
    out.binWidth = static_cast<double>(per) * pmf.interval;
    for (std::size_t start = lo; start <= hi; start += per) {
        const std::size_t end = std::min(hi + 1, start + per);
        double mass = 0.0;
        for (std::size_t j = start; j < end; ++j)
            mass += pmf.probs[j];
        // The bin [ℓ_start, ℓ_start + per·d): plotted at its centre.
        out.loss.push_back(pmf.lossAt(start) + 0.5 * static_cast<double>(per - 1) * pmf.interval);
        out.mass.push_back(mass);
    }
    return out;
}

/// Exact atoms (PldAccountant::exactAtoms) in bins of a whole number of intervals, about `bins`
/// of them over the range holding all but 1e-9 of the finite mass; each plotted at its centre.
PldHistogram histogram(const AtomPld &atoms, double interval, int bins)
{
    PldHistogram out;
    out.infinityMass = atoms.infinityMass;
    out.interval = interval;
    const std::size_t n = atoms.mass.size();
    if (n == 0)
        return out;
    double total = 0.0;
    for (double m : atoms.mass)
        total += m;
    const double cut = total * 5e-10;
    std::size_t lo = 0;
    for (double acc = 0.0; lo + 1 < n && acc + atoms.mass[lo] <= cut; ++lo)
        acc += atoms.mass[lo];
    std::size_t hi = n - 1;
    for (double acc = 0.0; hi > lo && acc + atoms.mass[hi] <= cut; --hi)
        acc += atoms.mass[hi];
    const double span = (atoms.loss[hi] - atoms.loss[lo]) / interval;
    const double per = std::max(1.0, std::ceil(span / std::max(1, bins)));
    out.binWidth = per * interval;
    const auto count = static_cast<std::size_t>(std::floor(span / per)) + 1;
    out.mass.assign(count, 0.0);
    for (std::size_t j = 0; j < count; ++j)
        out.loss.push_back(atoms.loss[lo] + (static_cast<double>(j) + 0.5) * out.binWidth);
    for (std::size_t j = lo; j <= hi; ++j) {
        const auto b = static_cast<std::size_t>((atoms.loss[j] - atoms.loss[lo]) / out.binWidth);
        out.mass[std::min(b, count - 1)] += atoms.mass[j];
    }
    return out;
}

/// One strategy built on every part, with each part's answer to the table's query and its ε at
/// the query's δ.
struct Built
{
    std::vector<std::unique_ptr<CompositionStrategy>> parts;
    std::vector<StrategyAnswer> answers;
    std::vector<StrategyAnswer> atDelta;
    bool ok() const { return !parts.empty(); }
    /// The part that decides the table's answer (the first largest ε, or δ in δ-at-ε mode, as
    /// parallelCompose picks it): the curves of that part show the table's number.
    std::size_t worstPart(bool byEpsilon) const
    {
        std::size_t w = 0;
        for (std::size_t p = 1; p < answers.size(); ++p)
            if (byEpsilon ? answers[p].epsilon > answers[w].epsilon : answers[p].delta > answers[w].delta)
                w = p;
        return w;
    }
};

/// Basic, advanced and optimal composition take the per-step (ε, δ) view when asked.
bool takesPerStepView(const std::string &name)
{
    return name == "basic" || name == "advanced" || name == "optimal";
}

Result<void> validateQuery(const ComparisonQuery &q)
{
    if ((q.epsilonAtDelta || q.curves || !q.prefixes.empty()) && !(q.delta > 0.0 && q.delta < 1.0))
        return makeError(ErrorCode::InvalidArgument,
                         "delta: must lie strictly between 0 and 1, got " + show(q.delta));
    if (!q.epsilonAtDelta && !(q.epsilon >= 0.0 && std::isfinite(q.epsilon)))
        return makeError(ErrorCode::InvalidArgument,
                         "epsilon: must be a finite number ≥ 0, got " + show(q.epsilon));
    for (double d : {q.pldInterval, q.prefixPldInterval > 0.0 ? q.prefixPldInterval : q.pldInterval})
        if (!(d > 0.0 && d <= 1.0))
            return makeError(ErrorCode::InvalidArgument, "pldInterval: must lie in (0, 1], got " + show(d));
    if (!(q.perStepDelta == 0.0 || (q.perStepDelta > 0.0 && q.perStepDelta < 1.0)))
        return makeError(ErrorCode::InvalidArgument,
                         "perStepDelta: must be 0 (off) or lie strictly between 0 and 1, got "
                             + show(q.perStepDelta));
    if (!(q.pldMaxBins >= 1.0 && q.pldMaxBins <= kMaxPldBins))
        return makeError(ErrorCode::InvalidArgument,
                         "pldMaxBins: must lie in [1, " + show(kMaxPldBins) + "], got " + show(q.pldMaxBins));
    const auto known = allStrategyNames();
    for (const auto &name : q.strategies)
        if (std::find(known.begin(), known.end(), name) == known.end())
            return makeError(ErrorCode::NotFound,
                             "unknown strategy \"" + name
                                 + "\" (known: basic, advanced, optimal, zcdp, rdp, pld)");
    return {};
}

} // namespace

std::vector<std::string> allStrategyNames()
{
    return {"basic", "advanced", "optimal", "zcdp", "rdp", "pld"};
}

const StrategyResult *Comparison::find(const std::string &name) const
{
    for (const auto &s : strategies)
        if (s.name == name)
            return &s;
    return nullptr;
}

Ledger ledgerPrefix(const Ledger &ledger, std::int64_t steps)
{
    Ledger prefix;
    prefix.neighbours = ledger.neighbours;
    for (const auto &e : ledger.events) {
        if (steps <= 0)
            break;
        prefix.events.push_back(e);
        prefix.events.back().count = std::min(e.count, steps);
        steps -= prefix.events.back().count;
    }
    return prefix;
}

std::vector<PrefixPoint> stepPrefixes(const Ledger &ledger, std::size_t maxPoints)
{
    std::vector<PrefixPoint> points;
    std::int64_t total = 0;
    for (const auto &e : ledger.events)
        total += e.count;
    if (total <= 0 || maxPoints == 0)
        return points;
    const std::int64_t n = std::min<std::int64_t>(total, static_cast<std::int64_t>(maxPoints));
    std::int64_t previous = 0;
    for (std::int64_t i = 1; i <= n; ++i) {
        const std::int64_t steps = (i * total + n - 1) / n; // ⌈i·total/n⌉: the last is the whole
        if (steps > previous)
            points.push_back({static_cast<double>(steps), steps});
        previous = steps;
    }
    return points;
}

std::vector<PrefixPoint> groupPrefixes(const Ledger &ledger, const std::vector<std::size_t> &origins,
                                       int groups, std::size_t maxPoints)
{
    std::vector<PrefixPoint> points;
    if (groups <= 0 || maxPoints == 0)
        return points;
    const int maxP = static_cast<int>(maxPoints);
    const int stride = std::max(1, (groups + maxP - 1) / maxP);
    for (int r = stride;; r = std::min(groups, r + stride)) {
        std::int64_t steps = 0;
        for (std::size_t i = 0; i < origins.size() && i < ledger.events.size(); ++i)
            if (origins[i] < static_cast<std::size_t>(r))
                steps += ledger.events[i].count;
        points.push_back({static_cast<double>(r), steps});
        if (r == groups)
            break;
    }
    return points;
}

double prefixPldInterval(const Ledger &ledger, double pldInterval)
{
    // Unsampled Gaussians merge exactly into one; every other distinct step is a convolution.
    std::vector<const PrivacyEvent *> distinct;
    for (const auto &e : ledger.events) {
        const bool mergedGaussian
            = e.mechanism == MechanismKind::Gaussian && e.sampling.kind == SamplingKind::None;
        if (mergedGaussian || distinct.size() > kManyDistinctSteps)
            continue;
        if (std::none_of(distinct.begin(), distinct.end(),
                         [&](const auto *d) { return sameEvent(*d, e, true); }))
            distinct.push_back(&e);
    }
    return distinct.size() > kManyDistinctSteps && pldInterval < kCoarsePrefixInterval ? kCoarsePrefixInterval
                                                                                       : pldInterval;
}

namespace {

using Phase = ComparisonProgress::Phase;

/// The state of one compareStrategies run shared by its phases: the ledger split into parts (and
/// its per-step (ε, δ) view), the progress reporter and the phase boundaries.
class ComparisonRun
{
public:
    ComparisonRun(const Ledger &l, const ComparisonQuery &q, const ComparisonProgressCallback &progress)
        : ledger(l), query(q), names(q.strategies), m_progress(progress)
    {
        nStrategies = static_cast<double>(std::max<std::size_t>(1, names.size()));
        // Phases: strategies 0–0.4 (the PLD and a heterogeneous optimal dominate), profile, RDP
        // and histogram 0.4–0.45, ε(k) 0.45–1; without prefixes the first two stretch.
        prefixes = !query.prefixes.empty();
        strategiesEnd = prefixes ? 0.4 : 0.9;
        summaryEnd = prefixes ? 0.45 : 1.0;
        needAtDelta = query.epsilonAtDelta || query.curves || prefixes;
        parts = split(ledger);
        const double curveInterval
            = query.prefixPldInterval > 0.0 ? query.prefixPldInterval : query.pldInterval;
        if (prefixes && parts.ledgers.size() == 1 && curveInterval == query.pldInterval)
            tableCache = std::make_shared<PldSelfCompositionCache>(false);
        // The per-step (ε, δ) view for basic, advanced and optimal (per_step_dp.h): the same
        // events, Gaussian and zCDP ones restated as (ε, δ) at the per-step δ.
        perStepView = query.perStepDelta > 0.0 && hasNonPureEvents(ledger);
        if (perStepView) {
            if (auto converted = perStepLedger(ledger, query.perStepDelta)) {
                stepLedger = std::move(converted).value();
                stepParts = split(stepLedger.ledger);
            } else {
                stepError = converted.error();
            }
        }
    }

    /// Reports progress; false when the caller asked to stop. The fraction never decreases.
    bool report(ComparisonProgress p)
    {
        m_reached = std::max(m_reached, std::clamp(p.fraction, 0.0, 1.0));
        p.fraction = m_reached;
        return !m_progress || m_progress(p);
    }
    bool stepView(const std::string &name) const { return perStepView && takesPerStepView(name); }
    const Parts &partsFor(const std::string &name) const { return stepView(name) ? stepParts : parts; }
    std::size_t indexOf(const char *name) const
    {
        return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
    }

    const Ledger &ledger;
    const ComparisonQuery &query;
    const std::vector<std::string> &names;
    double nStrategies = 1.0;
    bool prefixes = false;
    double strategiesEnd = 0.9;
    double summaryEnd = 1.0;
    bool needAtDelta = true;
    Parts parts;
    bool perStepView = false;
    PerStepLedger stepLedger;
    std::optional<Error> stepError;
    Parts stepParts;
    /// The ε(k) prefixes' memo of self-compositions: a group of the same steps on the same grid
    /// is composed once for all the prefixes that hold it (bit-identical results).
    std::shared_ptr<PldSelfCompositionCache> prefixCache = std::make_shared<PldSelfCompositionCache>();
    /// The table's PLD build keeps its self-compositions here for the ε(k) curve's running
    /// products (one part, the same grid): each event's steps are then self-composed once in all.
    std::shared_ptr<PldSelfCompositionCache> tableCache;
    /// The PLD's ε(k) by running products (a ledger without partitions); a prefix it cannot
    /// answer is composed afresh.
    std::unique_ptr<PldPrefixComposer> pldPrefixes;
    /// The optimal strategy's ε(k) by a running product past the exact atoms (a ledger, or its
    /// per-step view, without partitions); a prefix it does not answer is composed afresh.
    std::unique_ptr<OptimalPrefixComposer> optimalPrefixes;
    /// The RDP's ε(k) by one running sum of the events' curves (a ledger without partitions).
    std::unique_ptr<RdpPrefixComposer> rdpPrefixes;

private:
    const ComparisonProgressCallback &m_progress;
    double m_reached = 0.0;
};

const Error kCancelled = makeError(ErrorCode::Cancelled, "cancelled");

/// Strategy `i` on every part: its table row in `result`, the built parts in the return value
/// (empty when it does not apply). Errors: Cancelled only.
Result<Built> buildStrategy(ComparisonRun &run, std::size_t i, StrategyResult &result)
{
    const ComparisonQuery &query = run.query;
    const std::string &name = run.names[i];
    const double from = run.strategiesEnd * static_cast<double>(i) / run.nStrategies;
    const double span = run.strategiesEnd / run.nStrategies;
    if (!run.report({Phase::Strategy, from, name, 0, 0}))
        return kCancelled;
    result.name = name;
    Built b;
    const Parts &strategyParts = run.partsFor(name);
    const double nParts = static_cast<double>(std::max<std::size_t>(1, strategyParts.ledgers.size()));
    if (run.stepView(name) && run.stepError)
        result.error = *run.stepError;
    for (std::size_t p = 0; p < strategyParts.ledgers.size() && !result.error; ++p) {
        const auto onCore = [&](std::int64_t done, std::int64_t total) {
            const double inPart = total > 0 ? static_cast<double>(done) / static_cast<double>(total) : 0.0;
            return run.report({Phase::Strategy, from + span * (static_cast<double>(p) + inPart) / nParts,
                               name, done, total});
        };
        PldOptions options
            = pldOptions(query.pldInterval, query.pldTailMass, query.pldMaxBins, query.pldOptimistic, onCore);
        if (name == "pld" && !run.stepView(name))
            options.selfCompositionCache = run.tableCache;
        auto strategy = makeStrategy(name, strategyParts.ledgers[p], options);
        if (!strategy) {
            if (strategy.error().code == ErrorCode::Cancelled)
                return kCancelled;
            result.error = inLedger(strategy.error(), strategyParts.origins[p]);
            break;
        }
        auto answer = query.epsilonAtDelta ? strategy.value()->epsilonForDelta(query.delta)
                                           : strategy.value()->deltaForEpsilon(query.epsilon);
        Result<StrategyAnswer> atDelta = answer;
        if (!query.epsilonAtDelta && run.needAtDelta)
            atDelta = strategy.value()->epsilonForDelta(query.delta);
        if (!answer || !atDelta) {
            result.error = inLedger((!answer ? answer : atDelta).error(), strategyParts.origins[p]);
            break;
        }
        b.answers.push_back(answer.value());
        b.atDelta.push_back(atDelta.value());
        b.parts.push_back(std::move(strategy.value()));
    }
    if (!run.report({Phase::Strategy, from + span, name, 0, 0}))
        return kCancelled;
    if (result.error)
        return Built{};
    // Parallel composition: the worst part (docs/parallel-composition.md).
    result.answer = parallelCompose(b.answers, query.epsilonAtDelta, run.ledger.neighbours);
    if (run.needAtDelta)
        result.epsilonAtDelta
            = query.epsilonAtDelta ? result.answer->epsilon : parallelCompose(b.atDelta, true).epsilon;
    if (run.stepView(name) && run.stepLedger.convertedSteps > 0) {
        const std::size_t w = b.worstPart(query.epsilonAtDelta);
        auto stepsDelta = sumOfStepDeltas(strategyParts.ledgers[w]);
        result.perStep = PerStepSummary{query.perStepDelta, run.stepLedger.convertedSteps,
                                        stepsDelta ? stepsDelta.value() : 1.0};
    }
    return b;
}

/// The PLD's and the optimal strategy's δ(ε) profile: each part's composed PMF swept once for
/// every ε (upperDeltas), the max over parts. False (nothing written) when `b` is neither or a
/// part fails.
bool pldProfile(const Built &b, const std::vector<double> &epsilons, std::vector<double> &deltas)
{
    std::vector<double> worst(epsilons.size(), 0.0);
    for (const auto &part : b.parts) {
        Result<std::vector<double>> d = makeError(ErrorCode::Unsupported, "no sweep");
        if (const auto *pld = dynamic_cast<const PldAccountant *>(part.get()))
            d = pld->upperDeltas(epsilons);
        else if (const auto *optimal = dynamic_cast<const OptimalComposition *>(part.get()))
            d = optimal->upperDeltas(epsilons);
        if (!d)
            return false;
        for (std::size_t j = 0; j < worst.size(); ++j)
            worst[j] = std::max(worst[j], d.value()[j]);
    }
    deltas = std::move(worst);
    return true;
}

/// The δ(ε) profile over [0, ε_max]: a few times the smallest finite ε at δ, and far enough to
/// show the queried ε. Each PLD (and heterogeneous optimal) part answers from its composed PMF (and its lower
/// bound's suffix sums, built once). Errors: Cancelled.
Result<void> profileCurve(ComparisonRun &run, const std::vector<Built> &built, Comparison &out)
{
    if (!run.report({Phase::Profile, run.strategiesEnd, {}, 0, 0}))
        return kCancelled;
    double smallest = std::numeric_limits<double>::infinity();
    for (const auto &s : out.strategies)
        if (s.applicable() && std::isfinite(s.epsilonAtDelta) && s.epsilonAtDelta > 0.0)
            smallest = std::min(smallest, s.epsilonAtDelta);
    double epsilonMax = std::isfinite(smallest) ? 2.5 * smallest : 2.0;
    if (!run.query.epsilonAtDelta)
        epsilonMax = std::max(epsilonMax, 1.5 * run.query.epsilon);
    const int points = std::max(8, run.query.profilePoints);
    for (int j = 0; j < points; ++j)
        out.profileEpsilons.push_back(epsilonMax * j / (points - 1));
    out.profileDeltas.assign(run.names.size(), std::vector<double>(out.profileEpsilons.size(), kNaN));
    for (std::size_t i = 0; i < run.names.size(); ++i) {
        if (!built[i].ok())
            continue;
        if (pldProfile(built[i], out.profileEpsilons, out.profileDeltas[i])) {
            if (!run.report({Phase::Profile, run.strategiesEnd, {}, 0, 0}))
                return kCancelled;
            continue;
        }
        for (std::size_t j = 0; j < out.profileEpsilons.size(); ++j) {
            std::vector<StrategyAnswer> deltas;
            for (const auto &part : built[i].parts) {
                auto d = part->deltaForEpsilon(out.profileEpsilons[j]);
                if (!d)
                    break;
                deltas.push_back(d.value());
            }
            if (deltas.size() == built[i].parts.size())
                out.profileDeltas[i][j] = parallelCompose(deltas, false).delta;
        }
        if (!run.report({Phase::Profile, run.strategiesEnd, {}, 0, 0}))
            return kCancelled;
    }
    return {};
}

/// The RDP curve of the part deciding the RDP answer, and what each order alone certifies.
void rdpCurve(const ComparisonRun &run, const std::vector<Built> &built, Comparison &out)
{
    const std::size_t r = run.indexOf("rdp");
    if (r >= built.size() || !built[r].ok())
        return;
    const std::size_t w = built[r].worstPart(run.query.epsilonAtDelta);
    const auto *rdp = dynamic_cast<const RdpAccountant *>(built[r].parts[w].get());
    if (!rdp)
        return;
    // By order, with the answer's own split of δ (δ_extra of (ε, δ) events first): the lowest
    // point of the curve is the table's RDP number, not a neighbour of it.
    out.rdp.orders = rdp->orders();
    out.rdp.values = rdp->rdp();
    if (auto e = rdp->epsilonByOrder(run.query.delta))
        out.rdp.epsilonByOrder = std::move(e).value();
    out.rdp.optimalOrder = built[r].atDelta[w].optimalOrder.value_or(0.0);
    if (!run.query.epsilonAtDelta) {
        if (auto d = rdp->deltaByOrder(run.query.epsilon))
            out.rdp.deltaByOrder = std::move(d).value();
        out.rdp.deltaOptimalOrder = built[r].answers[w].optimalOrder.value_or(0.0);
    }
}

/// The PLD as a histogram: the composed PMF the table answered from (no second composition), in
/// the direction with the larger δ at the PLD's ε.
void pldHistogram(const ComparisonRun &run, const std::vector<Built> &built, Comparison &out)
{
    const std::size_t p = run.indexOf("pld");
    if (p >= built.size() || !built[p].ok())
        return;
    const std::size_t w = built[p].worstPart(run.query.epsilonAtDelta);
    const auto *pld = dynamic_cast<const PldAccountant *>(built[p].parts[w].get());
    if (!pld)
        return;
    // The threshold the table's query is about: the PLD's ε at δ, or the query's ε.
    const double eps = run.query.epsilonAtDelta ? built[p].answers[w].epsilon : run.query.epsilon;
    const double probe = std::isfinite(eps) ? eps : 0.0;
    if (const AtomPld *atoms = pld->exactAtoms()) { // both directions alike
        out.pld = histogram(*atoms, run.query.pldInterval, run.query.histogramBins);
    } else {
        const bool add = pmfDeltaForEpsilon(pld->pessimisticAdd(), probe)
                         > pmfDeltaForEpsilon(pld->pessimisticRemove(), probe);
        out.pld = histogram(add ? pld->pessimisticAdd() : pld->pessimisticRemove(), run.query.histogramBins);
        out.pld.addDirection = add;
    }
    out.pld.threshold = eps;
}

/// ε at δ (and δ at ε) of strategy `i` on one prefix split into parts; NaN where it does not
/// apply. The PLD without its optimistic twin (only the upper bound is drawn), and a prefix of
/// unsampled Gaussians only from the closed form (PldOptions::gaussianClosedForm). Errors:
/// Cancelled.
Result<std::pair<double, double>> prefixValue(ComparisonRun &run, std::size_t i, const Parts &prefixParts,
                                              std::int64_t steps, double interval,
                                              const ProgressCallback &onCore)
{
    const ComparisonQuery &query = run.query;
    const std::optional<double> atEpsilon
        = query.epsilonAtDelta ? std::nullopt : std::optional<double>(query.epsilon);
    if (run.names[i] == "pld" && run.pldPrefixes)
        if (auto v = run.pldPrefixes->upTo(steps, query.delta, atEpsilon))
            return v.value();
    if (run.names[i] == "optimal" && run.optimalPrefixes)
        if (auto v = run.optimalPrefixes->upTo(steps, query.delta, atEpsilon))
            return v.value();
    if (run.names[i] == "rdp" && run.rdpPrefixes)
        if (auto v = run.rdpPrefixes->upTo(steps, query.delta, atEpsilon))
            return v.value();
    std::vector<StrategyAnswer> answers;
    std::vector<StrategyAnswer> deltas;
    for (std::size_t p = 0; p < prefixParts.ledgers.size(); ++p) {
        PldOptions options = pldOptions(interval, query.pldTailMass, query.pldMaxBins, false, onCore);
        options.gaussianClosedForm = true;
        options.selfCompositionCache = run.prefixCache;
        auto s = makeStrategy(run.names[i], prefixParts.ledgers[p], options);
        if (!s) {
            if (s.error().code == ErrorCode::Cancelled)
                return kCancelled;
            break;
        }
        auto a = s.value()->epsilonForDelta(query.delta);
        if (!a)
            break;
        answers.push_back(a.value());
        if (!query.epsilonAtDelta)
            if (auto d = s.value()->deltaForEpsilon(query.epsilon))
                deltas.push_back(d.value());
    }
    const std::size_t n = prefixParts.ledgers.size();
    const double value = n > 0 && answers.size() == n ? parallelCompose(answers, true).epsilon : kNaN;
    const double deltaValue = n > 0 && deltas.size() == n ? parallelCompose(deltas, false).delta : kNaN;
    return std::pair{value, deltaValue};
}

/// ε(k) at δ over the prefixes; the whole ledger's values are reused for the last prefix when the
/// grid is the table's. Errors: Cancelled.
Result<void> prefixCurves(ComparisonRun &run, const std::vector<Built> &built, Comparison &out)
{
    const ComparisonQuery &query = run.query;
    const double prefixInterval = query.prefixPldInterval > 0.0 ? query.prefixPldInterval : query.pldInterval;
    const bool reuseWhole = prefixInterval == query.pldInterval;
    out.prefixPldInterval = prefixInterval;
    // One part: the part is the ledger without its post-processing events, which the composer
    // skips while counting their steps as ledgerPrefix does.
    if (run.parts.ledgers.size() == 1 && run.indexOf("pld") < run.names.size()) {
        PldOptions options = pldOptions(prefixInterval, query.pldTailMass, query.pldMaxBins, false, {});
        options.selfCompositionCache = run.tableCache;
        run.pldPrefixes = std::make_unique<PldPrefixComposer>(run.ledger, options);
    }
    if (const std::size_t rdp = run.indexOf("rdp"); run.parts.ledgers.size() == 1 && rdp < run.names.size()) {
        // The table's accountant lends its per-event curves (same ledger, default orders).
        const auto *table
            = built[rdp].ok() ? dynamic_cast<const RdpAccountant *>(built[rdp].parts.front().get()) : nullptr;
        run.rdpPrefixes = table ? std::make_unique<RdpPrefixComposer>(run.ledger, *table)
                                : std::make_unique<RdpPrefixComposer>(run.ledger);
    }
    const bool optimalStepView = run.stepView("optimal");
    if (run.indexOf("optimal") < run.names.size() && run.partsFor("optimal").ledgers.size() == 1
        && !(optimalStepView && run.stepError)) {
        const PldOptions options = pldOptions(prefixInterval, query.pldTailMass, query.pldMaxBins, false, {});
        run.optimalPrefixes = std::make_unique<OptimalPrefixComposer>(
            optimalStepView ? run.stepLedger.ledger : run.ledger, options);
    }
    std::int64_t totalSteps = 0;
    for (const auto &e : run.ledger.events)
        totalSteps += e.count;
    const auto nPrefixes = static_cast<std::int64_t>(query.prefixes.size());
    const bool prefixDeltas = !query.epsilonAtDelta;
    out.prefixEpsilons.assign(run.names.size(), {});
    if (prefixDeltas)
        out.prefixDeltas.assign(run.names.size(), {});
    for (std::int64_t k = 0; k < nPrefixes; ++k) {
        const PrefixPoint &point = query.prefixes[static_cast<std::size_t>(k)];
        out.prefixX.push_back(point.x);
        out.prefixSteps.push_back(point.steps);
        const double from
            = run.summaryEnd
              + (1.0 - run.summaryEnd) * static_cast<double>(k) / static_cast<double>(nPrefixes);
        const double span = (1.0 - run.summaryEnd) / static_cast<double>(nPrefixes);
        if (point.steps >= totalSteps && reuseWhole) {
            for (std::size_t i = 0; i < run.names.size(); ++i) {
                out.prefixEpsilons[i].push_back(built[i].ok() ? out.strategies[i].epsilonAtDelta : kNaN);
                if (prefixDeltas)
                    out.prefixDeltas[i].push_back(built[i].ok() ? out.strategies[i].answer->delta : kNaN);
            }
            if (!run.report({Phase::Prefixes, from + span, {}, k + 1, nPrefixes}))
                return kCancelled;
            continue;
        }
        const Parts prefixParts = split(ledgerPrefix(run.ledger, point.steps));
        const Parts stepPrefixParts = run.perStepView && !run.stepError
                                          ? split(ledgerPrefix(run.stepLedger.ledger, point.steps))
                                          : Parts{};
        const bool empty = point.steps <= 0 || run.ledger.events.empty();
        for (std::size_t i = 0; i < run.names.size(); ++i) {
            const ComparisonProgress at{Phase::Prefixes,
                                        from + span * static_cast<double>(i) / run.nStrategies,
                                        {},
                                        k + 1,
                                        nPrefixes};
            if (!run.report(at))
                return kCancelled;
            std::pair<double, double> value{0.0, 0.0};
            if (!empty) {
                PBX_TRY(v, prefixValue(run, i, run.stepView(run.names[i]) ? stepPrefixParts : prefixParts,
                                       point.steps, prefixInterval,
                                       [&](std::int64_t, std::int64_t) { return run.report(at); }));
                value = v;
            }
            out.prefixEpsilons[i].push_back(value.first);
            if (prefixDeltas)
                out.prefixDeltas[i].push_back(value.second);
        }
    }
    return {};
}

} // namespace

Result<Comparison> compareStrategies(const Ledger &ledger, const ComparisonQuery &query,
                                     const ComparisonProgressCallback &progress,
                                     const ComparisonSummaryCallback &summary)
{
    PBX_RETURN_IF_ERROR(validateLedger(ledger));
    PBX_RETURN_IF_ERROR(validateQuery(query));
    ComparisonRun run(ledger, query, progress);
    Comparison out;
    out.partitions = run.parts.ledgers.size();
    std::vector<Built> built(run.names.size());
    for (std::size_t i = 0; i < run.names.size(); ++i) {
        StrategyResult result;
        PBX_TRY(b, buildStrategy(run, i, result));
        built[i] = std::move(b);
        out.strategies.push_back(std::move(result));
    }
    if (query.curves) {
        PBX_RETURN_IF_ERROR(profileCurve(run, built, out));
        rdpCurve(run, built, out);
        pldHistogram(run, built, out);
    }
    if (!run.report({Phase::Profile, run.summaryEnd, {}, 0, 0}))
        return kCancelled;
    if (!run.prefixes) {
        run.report({Phase::Done, 1.0, {}, 0, 0});
        return out;
    }
    if (summary)
        summary(out);
    PBX_RETURN_IF_ERROR(prefixCurves(run, built, out));
    run.report({Phase::Done, 1.0, {}, 0, 0});
    return out;
}

} // namespace pbx::accounting
