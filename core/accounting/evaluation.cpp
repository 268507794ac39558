// SPDX-License-Identifier: MIT
#include "core/accounting/evaluation.h"

#include "core/accounting/advanced_composition.h"
#include "core/accounting/basic_composition.h"
#include "core/accounting/optimal_composition.h"
#include "core/accounting/rdp_accountant.h"
#include "core/accounting/zcdp_accountant.h"
#include "core/util/try.h"

#include <cmath>

namespace pbx::accounting {

namespace {
template<typename T>
Result<std::unique_ptr<CompositionStrategy>> upcast(Result<std::unique_ptr<T>> r)
{
    if (!r)
        return r.error();
    return std::unique_ptr<CompositionStrategy>(std::move(r.value()));
}

nlohmann::json number(double x)
{
    if (std::isinf(x))
        return x > 0 ? "inf" : "-inf";
    if (std::isnan(x))
        return "nan";
    return x;
}
} // namespace

Result<std::unique_ptr<CompositionStrategy>> makeStrategy(const std::string &name, const Ledger &ledger,
                                                          const PldOptions &pldOptions)
{
    if (name == "basic")
        return upcast(BasicComposition::fromLedger(ledger));
    if (name == "advanced")
        return upcast(AdvancedComposition::fromLedger(ledger));
    if (name == "optimal")
        return upcast(OptimalComposition::fromLedger(ledger, pldOptions));
    if (name == "zcdp")
        return upcast(ZcdpAccountant::fromLedger(ledger));
    if (name == "rdp")
        return upcast(RdpAccountant::fromLedger(ledger));
    if (name == "pld")
        return upcast(PldAccountant::fromLedger(ledger, pldOptions));
    return makeError(ErrorCode::NotFound,
                     "unknown strategy \"" + name + "\" (known: basic, advanced, optimal, zcdp, rdp, pld)");
}

namespace {

ComparisonQuery tableQuery(const AccountingQuery &query, const std::vector<std::string> &strategies,
                           const PldOptions &pldOptions)
{
    ComparisonQuery q;
    q.epsilonAtDelta = query.epsilonAtDelta;
    (query.epsilonAtDelta ? q.delta : q.epsilon) = query.value;
    q.strategies = strategies;
    q.pldInterval = pldOptions.interval;
    q.pldTailMass = pldOptions.tailMass;
    q.pldMaxBins = pldOptions.maxBins;
    q.pldOptimistic = pldOptions.optimistic;
    q.perStepDelta = query.perStepDelta;
    q.curves = false;
    return q;
}

/// The PLD's (done, total) callback, fed from the comparison's progress.
ComparisonProgressCallback forward(const ProgressCallback &progress)
{
    if (!progress)
        return {};
    return [progress](const ComparisonProgress &p) {
        return p.phase != ComparisonProgress::Phase::Strategy || p.total <= 0 || progress(p.done, p.total);
    };
}

nlohmann::json strategyJson(const StrategyResult &s)
{
    if (!s.answer) {
        nlohmann::json j = {{"applicable", false}, {"reason", s.error ? s.error->message : std::string()}};
        if (s.error && s.error->code == ErrorCode::ResourceLimit)
            j["resourceLimit"] = true;
        return j;
    }
    const StrategyAnswer &a = *s.answer;
    nlohmann::json j = {{"applicable", true},
                        {"epsilon", number(a.epsilon)},
                        {"delta", number(a.delta)},
                        {"method", a.method}};
    if (a.optimalOrder)
        j["optimalOrder"] = number(*a.optimalOrder);
    if (a.rho)
        j["rho"] = number(*a.rho);
    if (a.simpleEpsilon)
        j["simpleEpsilon"] = number(*a.simpleEpsilon);
    if (a.discretisationInterval)
        j["discretisationInterval"] = *a.discretisationInterval;
    if (a.optimisticEpsilon)
        j["optimisticEpsilon"] = number(*a.optimisticEpsilon);
    if (a.optimisticDelta)
        j["optimisticDelta"] = number(*a.optimisticDelta);
    return j;
}

/// A curve's values: NaN (not applicable there) as null, ±∞ as "inf"/"-inf".
nlohmann::json series(const std::vector<double> &values)
{
    nlohmann::json out = nlohmann::json::array();
    for (double v : values)
        out.push_back(std::isnan(v) ? nlohmann::json(nullptr) : number(v));
    return out;
}

} // namespace

Result<StrategyAnswer> evaluateStrategy(const std::string &name, const Ledger &ledger,
                                        const AccountingQuery &query, const PldOptions &pldOptions)
{
    PBX_TRY(comparison,
            compareStrategies(ledger, tableQuery(query, {name}, pldOptions), forward(pldOptions.progress)));
    const StrategyResult &s = comparison.strategies.front();
    if (!s.answer)
        return s.error.value_or(makeError(ErrorCode::Unsupported, "not applicable"));
    return *s.answer;
}

Result<nlohmann::json> evaluateLedger(const Ledger &ledger, const AccountingQuery &query,
                                      const std::vector<std::string> &strategies,
                                      const PldOptions &pldOptions)
{
    const ComparisonQuery q = tableQuery(query, strategies, pldOptions);
    PBX_TRY(comparison, compareStrategies(ledger, q, forward(pldOptions.progress)));
    for (const StrategyResult &s : comparison.strategies)
        if (s.error && s.error->code == ErrorCode::InvalidArgument)
            return *s.error;
    return comparisonToJson(comparison, q);
}

nlohmann::json comparisonToJson(const Comparison &c, const ComparisonQuery &query)
{
    nlohmann::json out = nlohmann::json::object();
    out["query"] = query.epsilonAtDelta ? nlohmann::json{{"delta", query.delta}}
                                        : nlohmann::json{{"epsilon", query.epsilon}};
    if (!query.epsilonAtDelta && query.curves)
        out["query"]["delta"] = query.delta; // the curves' δ
    if (query.perStepDelta > 0.0)
        out["query"]["perStepDelta"] = query.perStepDelta;
    for (const StrategyResult &s : c.strategies) {
        out[s.name] = strategyJson(s);
        if (s.answer && !query.epsilonAtDelta && query.curves)
            out[s.name]["epsilonAtDelta"] = number(s.epsilonAtDelta);
        if (s.perStep)
            out[s.name]["perStep"] = {{"stepDelta", s.perStep->stepDelta},
                                      {"convertedSteps", s.perStep->convertedSteps},
                                      {"stepsDelta", number(s.perStep->stepsDelta)}};
    }
    if (!query.curves && c.prefixX.empty())
        return out;
    nlohmann::json curves = nlohmann::json::object();
    if (query.curves) {
        nlohmann::json deltas = nlohmann::json::object();
        for (std::size_t i = 0; i < c.strategies.size() && i < c.profileDeltas.size(); ++i)
            deltas[c.strategies[i].name] = series(c.profileDeltas[i]);
        curves["profile"] = {{"epsilon", series(c.profileEpsilons)}, {"delta", deltas}};
        if (!c.rdp.orders.empty()) {
            curves["rdp"] = {{"orders", series(c.rdp.orders)},
                             {"values", series(c.rdp.values)},
                             {"epsilonByOrder", series(c.rdp.epsilonByOrder)},
                             {"optimalOrder", number(c.rdp.optimalOrder)}};
            if (!c.rdp.deltaByOrder.empty()) {
                curves["rdp"]["deltaByOrder"] = series(c.rdp.deltaByOrder);
                curves["rdp"]["deltaOptimalOrder"] = number(c.rdp.deltaOptimalOrder);
            }
        }
        if (!c.pld.loss.empty())
            curves["pld"] = {
                {"loss", series(c.pld.loss)},          {"mass", series(c.pld.mass)},
                {"binWidth", c.pld.binWidth},          {"infinityMass", c.pld.infinityMass},
                {"interval", c.pld.interval},          {"direction", c.pld.addDirection ? "add" : "remove"},
                {"threshold", number(c.pld.threshold)}};
    }
    if (!c.prefixX.empty()) {
        nlohmann::json eps = nlohmann::json::object();
        for (std::size_t i = 0; i < c.strategies.size() && i < c.prefixEpsilons.size(); ++i)
            eps[c.strategies[i].name] = series(c.prefixEpsilons[i]);
        curves["prefixes"] = {{"x", series(c.prefixX)},
                              {"steps", c.prefixSteps},
                              {"epsilon", eps},
                              {"pldInterval", c.prefixPldInterval}};
        if (!c.prefixDeltas.empty()) {
            nlohmann::json deltas = nlohmann::json::object();
            for (std::size_t i = 0; i < c.strategies.size() && i < c.prefixDeltas.size(); ++i)
                deltas[c.strategies[i].name] = series(c.prefixDeltas[i]);
            curves["prefixes"]["delta"] = std::move(deltas);
        }
    }
    out["curves"] = std::move(curves);
    return out;
}

} // namespace pbx::accounting
