// SPDX-License-Identifier: MIT
#include "core/lessons/lesson_values.h"

#include "core/filters/advanced_filter.h"

#include "core/accounting/evaluation.h"
#include "core/accounting/strategy_titles.h"
#include "core/data/query.h"
#include "core/filters/advanced_filter.h"
#include "core/lessons/lesson_growing.h"
#include "core/privacy/zcdp_conversion.h"
#include "core/util/number_format.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace pbx::lessons {

namespace {

const std::vector<std::string> kNumericFields
    = {"answer", "halfwidth", "truth",   "cost",     "epsilon", "attempts",
       "values", "reserved",  "settled", "returned", "cell"};
const std::vector<std::string> kTextFields = {"unit", "mechanism", "status"};

bool contains(const std::vector<std::string> &list, const std::string &s)
{
    return std::find(list.begin(), list.end(), s) != list.end();
}

std::vector<std::string> split(const std::string &name)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (;;) {
        const std::size_t dot = name.find('.', start);
        parts.push_back(name.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
        if (dot == std::string::npos)
            return parts;
        start = dot + 1;
    }
}

/// A request id may itself contain dots ("q.1"): req.ID.F takes the last part as F.
struct Parsed
{
    std::string head;  ///< last, req, mean, coverage, spent, …
    std::string id;    ///< req/mean/coverage: the request id; comparison: the strategy
    std::string field; ///< the field
};

Parsed parse(const std::string &name)
{
    const auto parts = split(name);
    Parsed p;
    p.head = parts.front();
    if ((p.head == "req" || p.head == "mean" || p.head == "comparison") && parts.size() >= 3) {
        p.field = parts.back();
        const std::size_t idStart = p.head.size() + 1;
        p.id = name.substr(idStart, name.size() - idStart - p.field.size() - 1);
    } else if (parts.size() >= 2) {
        p.field = name.substr(p.head.size() + 1);
    }
    return p;
}

Error placeholderError(const std::string &path, const std::string &name, const std::string &problem)
{
    return makeError(ErrorCode::Parse, path + ": {" + name + "}: " + problem);
}

/// Splits a template into literal text and placeholder names. Errors: Parse naming `path`.
Result<std::vector<std::pair<bool, std::string>>> tokens(const std::string &text, const std::string &path)
{
    std::vector<std::pair<bool, std::string>> out; // (isPlaceholder, text)
    std::string literal;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if ((c == '{' || c == '}') && i + 1 < text.size() && text[i + 1] == c) {
            literal += c;
            ++i;
            continue;
        }
        if (c == '}')
            return makeError(ErrorCode::Parse, path + ": a '}' without '{' (write '}}' for a brace)");
        if (c != '{') {
            literal += c;
            continue;
        }
        const std::size_t close = text.find('}', i + 1);
        if (close == std::string::npos)
            return makeError(ErrorCode::Parse,
                             path + ": a '{' that is never closed (write '{{' for a brace)");
        out.emplace_back(false, literal);
        literal.clear();
        out.emplace_back(true, text.substr(i + 1, close - i - 1));
        i = close;
    }
    out.emplace_back(false, literal);
    return out;
}

Result<double> truthOf(const session::LedgerEvent &event, const data::Table &table, const std::string &name)
{
    if (!table.isPublic())
        return makeError(ErrorCode::Unsupported,
                         "{" + name + "}: true values are shown only for public datasets");
    if (event.request.strategy() || event.request.odp())
        return lessonValueUnavailable(name, "only count, sum and mean requests have one true value");
    auto compiled = data::CompiledQuery::compile(event.request.query, table);
    if (!compiled)
        return lessonValueUnavailable(name, compiled.error().message);
    const auto stats
        = compiled->evaluate(*data::publicRows(table, "a lesson's true value")); // public: checked above
    switch (event.request.query.aggregate) {
    case data::Aggregate::Count:
        return stats.count;
    case data::Aggregate::Sum:
        return stats.clippedSum;
    case data::Aggregate::Mean:
        if (stats.count <= 0.0)
            return lessonValueUnavailable(name, "the mean of no rows");
        return stats.clippedSum / stats.count;
    }
    return lessonValueUnavailable(name, "unknown aggregate");
}

Result<LessonValue> fieldOf(const session::LedgerEvent &event, const std::string &field,
                            const session::Session &s, const std::string &name)
{
    const bool released = event.status == session::EventStatus::Released;
    if (field == "status")
        return LessonValue(std::string(session::eventStatusName(event.status)));
    if (field == "mechanism")
        return LessonValue(event.mechanismName());
    if (field == "unit")
        return LessonValue(std::string(filters::chargeUnitSymbol(event.costKind)));
    if (field == "attempts")
        return LessonValue(static_cast<double>(event.attempts.size()));
    if (field == "cost")
        return LessonValue(event.cost);
    if (field == "epsilon") {
        if (event.costKind != filters::ChargeKind::Rho)
            return LessonValue(event.cost);
        // The filter's own conversion, as the result card gives it ("ε ≈ … on its own"): a unified
        // filter's zCDP side converts at its share of δ, not at the session's δ.
        const double eps = s.filter().epsilonOf(event.cost);
        if (!std::isfinite(eps))
            return lessonValueUnavailable(name, "the filter gives no finite ε for this ρ");
        return LessonValue(eps);
    }
    if (field == "reserved" || field == "settled" || field == "returned" || field == "cell") {
        // Output DP (odp_request.h): E* held at admission, E(cell) settled, and what came back.
        if (!event.odpRecord())
            return lessonValueUnavailable(name,
                                          "request '" + event.request.id + "' is not an output-DP request");
        const auto &odp = *event.odpRecord();
        if (field == "reserved")
            return LessonValue(odp.reservedEpsilon);
        if (field == "settled")
            return LessonValue(odp.settledEpsilon);
        if (field == "returned")
            return LessonValue(odp.reservedEpsilon - odp.settledEpsilon);
        if (!odp.cell)
            return lessonValueUnavailable(name,
                                          "request '" + event.request.id + "' was settled at its worst case");
        return LessonValue(static_cast<double>(*odp.cell));
    }
    if (!released)
        return lessonValueUnavailable(name,
                                      "request '" + event.request.id + "' was refused: " + event.reason);
    if (field == "answer")
        return LessonValue(event.answer);
    if (field == "halfwidth")
        return LessonValue(event.errorBound);
    if (field == "values") {
        if (!event.strategyRecord())
            return lessonValueUnavailable(name, "request '" + event.request.id
                                                    + "' released one value, not a list");
        return LessonValue(static_cast<double>(event.strategyRecord()->values.size()));
    }
    if (field == "truth") {
        PBX_TRY(t, truthOf(event, s.table(), name));
        return LessonValue(t);
    }
    return lessonValueUnavailable(name, "unknown field '" + field + "'");
}

/// Coverage (%) of the step's released scalar answers with id `id` (empty: all).
Result<LessonValue> coverage(const StepOutcome &o, const std::string &id, const std::string &name)
{
    const auto &events = o.session->events();
    std::size_t covered = 0, total = 0;
    for (std::size_t i = o.firstEvent; i < events.size(); ++i) {
        const auto &e = events[i];
        if (e.status != session::EventStatus::Released || e.request.strategy() || e.request.odp()
            || (!id.empty() && e.request.id != id) || !std::isfinite(e.errorBound))
            continue;
        PBX_TRY(truth, truthOf(e, o.session->table(), name));
        ++total;
        covered += std::abs(e.answer - truth) <= e.errorBound ? 1 : 0;
    }
    if (total == 0)
        return lessonValueUnavailable(name, "the step released no count, sum or mean with an error bar");
    return LessonValue(100.0 * static_cast<double>(covered) / static_cast<double>(total));
}

Result<LessonValue> comparisonValue(const Parsed &p, const StepOutcome &o, const std::string &name)
{
    if (!o.comparison)
        return lessonValueUnavailable(name, "the step has no comparison");
    if (p.field == "delta" && p.id.empty())
        return LessonValue(o.comparisonDelta);
    if (p.field == "steps" && p.id.empty()) {
        double steps = 0.0;
        for (const auto &e : o.comparedLedger->events)
            steps += static_cast<double>(e.count);
        return LessonValue(steps);
    }
    const accounting::StrategyResult *best = nullptr;
    for (const auto &r : o.comparison->strategies)
        if (r.applicable() && (!best || r.answer->epsilon < best->answer->epsilon))
            best = &r;
    if (p.field == "best" && p.id.empty()) {
        if (!best)
            return lessonValueUnavailable(name, "no strategy applies");
        return LessonValue(std::string(accounting::strategyTitle(best->name)));
    }
    if (p.field == "crossover" && p.id.empty()) {
        if (!o.plan || o.plan->events.empty())
            return lessonValueUnavailable(name, "the step has no plan");
        auto k = advancedCrossover(o.plan->events.front(), o.plan->neighbours, o.comparisonDelta);
        if (!k)
            return lessonValueUnavailable(name, k.error().message);
        return LessonValue(static_cast<double>(*k));
    }
    if ((p.field == "filter_crossover" || p.field == "filter_crossover_epsilon") && p.id.empty()) {
        // The advanced-composition filter at a budget of ε = 1 and the comparison's δ (as the
        // comparison view explains it without a session): k* and ε₀*.
        auto filter = filters::AdvancedFilter::create(1.0, o.comparisonDelta);
        if (!filter)
            return lessonValueUnavailable(name, filter.error().message);
        return LessonValue(p.field == "filter_crossover" ? std::ceil((*filter)->crossoverCount())
                                                         : (*filter)->crossoverEpsilon());
    }
    const auto *r = p.id == "best" ? best : o.comparison->find(p.id);
    if (!r)
        return lessonValueUnavailable(name, p.id == "best"
                                                ? std::string("no strategy applies")
                                                : "the comparison did not run strategy '" + p.id + "'");
    if (!r->applicable())
        return lessonValueUnavailable(name, "strategy '" + p.id + "' does not apply: " + r->error->message);
    if (p.field == "times_basic") {
        // How many times smaller than basic composition's ε: "by how much" as one number.
        const auto *basic = o.comparison->find("basic");
        if (!basic || !basic->applicable())
            return lessonValueUnavailable(name, "basic composition does not apply");
        return LessonValue(basic->answer->epsilon / r->answer->epsilon);
    }
    return LessonValue(r->answer->epsilon);
}

} // namespace

Result<void> checkAnswerTemplate(const std::string &text, const PlaceholderContext &context,
                                 const std::string &path)
{
    PBX_TRY(parts, tokens(text, path));
    const auto strategies = accounting::allStrategyNames();
    // Not a structured binding: clang before 16 cannot capture one in the lambda below.
    for (const auto &part : parts) {
        if (!part.first)
            continue;
        const std::string &name = part.second;
        const Parsed p = parse(name);
        const auto needSession = [&]() -> Result<void> {
            if (!context.hasSession)
                return placeholderError(path, name,
                                        "the step has no session (set one in this or an earlier step)");
            return {};
        };
        if (p.head == "last" || p.head == "req" || p.head == "mean") {
            if (!contains(kNumericFields, p.field) && !contains(kTextFields, p.field))
                return placeholderError(path, name,
                                        "unknown field '" + p.field
                                            + "' (expected answer, halfwidth, truth, cost, epsilon, "
                                              "attempts, values, reserved, settled, returned, cell, "
                                              "unit, mechanism or status)");
            if (p.head == "last" && context.stepIds.empty())
                return placeholderError(path, name, "the step asks no request");
            if (p.head == "req" && !context.requestIds.contains(p.id))
                return placeholderError(path, name, "no request with id '" + p.id + "' is asked by then");
            if (p.head == "mean" && !context.stepIds.contains(p.id))
                return placeholderError(path, name, "the step asks no request with id '" + p.id + "'");
            if (p.head == "mean" && !contains(kNumericFields, p.field))
                return placeholderError(path, name, "a mean needs a numeric field");
            continue;
        }
        if (p.head == "coverage") {
            if (context.stepIds.empty())
                return placeholderError(path, name, "the step asks no request");
            if (!p.field.empty() && !context.stepIds.contains(p.field))
                return placeholderError(path, name, "the step asks no request with id '" + p.field + "'");
            continue;
        }
        if (name == "spent.epsilon" || name == "remaining" || name == "budget.epsilon" || name == "events") {
            PBX_RETURN_IF_ERROR(needSession());
            continue;
        }
        if (p.head == "comparison") {
            if (!context.hasComparison)
                return placeholderError(path, name, "the step has no comparison");
            if (name == "comparison.delta" || name == "comparison.best" || name == "comparison.steps"
                || name == "comparison.filter_crossover" || name == "comparison.filter_crossover_epsilon")
                continue;
            if (name == "comparison.crossover") {
                if (!context.hasPlan)
                    return placeholderError(path, name, "needs a comparison with a plan");
                continue;
            }
            if ((!contains(strategies, p.id) && p.id != "best")
                || (p.field != "epsilon" && p.field != "times_basic"))
                return placeholderError(path, name,
                                        "expected comparison.S.epsilon or comparison.S.times_basic with "
                                        "S one of basic, advanced, optimal, zcdp, rdp, pld or best (or "
                                        "comparison.best, .delta, .steps, .crossover, .filter_crossover, "
                                        ".filter_crossover_epsilon)");
            continue;
        }
        if (isGrowingPlaceholder(name)) {
            if (auto ok = checkGrowingPlaceholder(name, context.hasSession); !ok)
                return placeholderError(path, name, ok.error().message);
            continue;
        }
        return placeholderError(path, name, "unknown placeholder");
    }
    return {};
}

Result<LessonValue> lessonValue(const std::string &name, const StepOutcome &o)
{
    const Parsed p = parse(name);
    if (isGrowingPlaceholder(name)) {
        PBX_TRY(v, growingValue(name, o.session));
        return LessonValue(v);
    }
    if (p.head == "comparison")
        return comparisonValue(p, o, name);
    if (!o.session)
        return lessonValueUnavailable(name, "the step has no session");
    const session::Session &s = *o.session;
    const auto &events = s.events();
    if (name == "spent.epsilon")
        return LessonValue(s.filter().epsilonSpent());
    if (name == "remaining")
        return LessonValue(s.filter().remaining());
    if (name == "budget.epsilon")
        return LessonValue(s.filter().epsilonBudget());
    if (name == "events")
        return LessonValue(static_cast<double>(events.size()));
    if (p.head == "coverage")
        return coverage(o, p.field, name);
    if (p.head == "last") {
        if (events.size() <= o.firstEvent)
            return lessonValueUnavailable(name, "the step asked nothing");
        return fieldOf(events.back(), p.field, s, name);
    }
    if (p.head == "req") {
        for (auto it = events.rbegin(); it != events.rend(); ++it)
            if (it->request.id == p.id)
                return fieldOf(*it, p.field, s, name);
        return lessonValueUnavailable(name, "no request with id '" + p.id + "' was asked");
    }
    if (p.head == "mean") {
        double sum = 0.0;
        std::size_t n = 0;
        for (std::size_t i = o.firstEvent; i < events.size(); ++i) {
            if (events[i].request.id != p.id)
                continue;
            PBX_TRY(v, fieldOf(events[i], p.field, s, name));
            const double *x = std::get_if<double>(&v);
            if (!x)
                return lessonValueUnavailable(name, "a mean needs a numeric field");
            sum += *x;
            ++n;
        }
        if (n == 0)
            return lessonValueUnavailable(name, "the step asked no request with id '" + p.id + "'");
        return LessonValue(sum / static_cast<double>(n));
    }
    return lessonValueUnavailable(name, "unknown placeholder");
}

int roundingFor(const std::string &name)
{
    const Parsed p = parse(name);
    if (isGrowingPlaceholder(name))
        return growingIsPrivacyLoss(name) ? +1 : 0;
    if (name == "remaining")
        return -1;
    // An output-DP refund is the reservation minus the settled loss: shown smaller, never larger.
    if ((p.head == "last" || p.head == "req" || p.head == "mean") && p.field == "returned")
        return -1;
    // The per-request ε₀ below which the advanced-composition filter wins: a threshold, shown smaller.
    if (name == "comparison.filter_crossover_epsilon")
        return -1;
    if (p.head == "spent" || name == "comparison.delta" || (p.head == "comparison" && p.field == "epsilon"))
        return +1;
    if ((p.head == "last" || p.head == "req" || p.head == "mean")
        && (p.field == "cost" || p.field == "epsilon" || p.field == "reserved" || p.field == "settled"))
        return +1;
    return 0;
}

int significantFor(const std::string &name)
{
    if (isGrowingPlaceholder(name)) {
        // As the growing lab's read-out at the epoch (labcursor.cpp): ε_i with 6 digits, the
        // cumulative with 8 (it creeps towards the budget: 0.99902344, never 1).
        if (name.starts_with("growing.epoch.") && name.ends_with(".epsilon"))
            return 6;
        if (name.starts_with("growing.epoch.") && name.ends_with(".cumulative"))
            return 8;
        return 4;
    }
    const Parsed p = parse(name);
    if (p.head == "last" || p.head == "req" || p.head == "mean") {
        if (p.field == "answer" || p.field == "truth")
            return 6; // the result card's headline and the ledger's Answer column
        if (p.field == "halfwidth")
            return 3; // "± 352" on the card, "±352" in the ledger
    }
    return 4;
}

std::string formatNumber(double x, int direction, int significant)
{
    return formatDisplay(x,
                         direction > 0   ? Rounding::Up
                         : direction < 0 ? Rounding::Down
                                         : Rounding::Nearest,
                         significant);
}

std::string formatLessonValue(const std::string &name, const LessonValue &value)
{
    if (const auto *text = std::get_if<std::string>(&value))
        return *text;
    return formatNumber(std::get<double>(value), roundingFor(name), significantFor(name));
}

Result<std::string> fillAnswer(const std::string &text, const StepOutcome &outcome)
{
    PBX_TRY(parts, tokens(text, "answer"));
    std::string out;
    for (const auto &[isName, piece] : parts) {
        if (!isName) {
            out += piece;
            continue;
        }
        PBX_TRY(value, lessonValue(piece, outcome));
        out += formatLessonValue(piece, value);
    }
    return out;
}

Result<std::int64_t> advancedCrossover(const accounting::PrivacyEvent &event,
                                       accounting::Neighbouring neighbours, double delta)
{
    const auto wins = [&](std::int64_t k) -> Result<bool> {
        accounting::Ledger ledger{neighbours, {event}};
        ledger.events.front().count = k;
        const accounting::AccountingQuery query{true, delta};
        PBX_TRY(basic, accounting::evaluateStrategy("basic", ledger, query));
        PBX_TRY(advanced, accounting::evaluateStrategy("advanced", ledger, query));
        return advanced.epsilon < basic.epsilon;
    };
    constexpr std::int64_t kMax = 1'000'000;
    std::int64_t hi = 1;
    for (;;) {
        PBX_TRY(w, wins(hi));
        if (w)
            break;
        if (hi >= kMax)
            return makeError(ErrorCode::NotFound,
                             "advanced composition does not beat basic up to 10^6 steps");
        hi = std::min(kMax, hi * 2);
    }
    std::int64_t lo = hi / 2; // advanced does not win at lo (or lo = 0)
    while (hi - lo > 1) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        PBX_TRY(w, wins(mid));
        (w ? hi : lo) = mid;
    }
    return hi;
}

Error lessonValueUnavailable(const std::string &name, const std::string &why)
{
    return makeError(ErrorCode::NotFound, "{" + name + "}: " + why);
}

} // namespace pbx::lessons
