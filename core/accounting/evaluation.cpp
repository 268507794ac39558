// SPDX-License-Identifier: MIT
#include "core/accounting/evaluation.h"

#include "core/accounting/advanced_composition.h"
#include "core/accounting/basic_composition.h"
#include "core/accounting/optimal_composition.h"
#include "core/accounting/parallel_composition.h"
#include "core/accounting/rdp_accountant.h"
#include "core/accounting/zcdp_accountant.h"

#include <cmath>

namespace pbx::accounting {

std::vector<std::string> allStrategyNames()
{
    return {"basic", "advanced", "optimal", "zcdp", "rdp", "pld"};
}

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
    return makeError(ErrorCode::NotFound, "unknown strategy \"" + name +
                                              "\" (known: basic, advanced, optimal, zcdp, rdp, pld)");
}

Result<StrategyAnswer> evaluateStrategy(const std::string &name, const Ledger &ledger,
                                        const AccountingQuery &query, const PldOptions &pldOptions)
{
    std::vector<StrategyAnswer> answers;
    for (const Ledger &part : splitByPartition(ledger)) {
        auto strategy = makeStrategy(name, part, pldOptions);
        if (!strategy)
            return strategy.error();
        auto answer = query.epsilonAtDelta ? strategy.value()->epsilonForDelta(query.value)
                                           : strategy.value()->deltaForEpsilon(query.value);
        if (!answer)
            return answer.error();
        answers.push_back(std::move(answer.value()));
    }
    return parallelCompose(answers, query.epsilonAtDelta, ledger.neighbours);
}

Result<nlohmann::json> evaluateLedger(const Ledger &ledger, const AccountingQuery &query,
                                      const std::vector<std::string> &strategies, const PldOptions &pldOptions)
{
    if (auto ok = validateLedger(ledger); !ok)
        return ok.error();
    nlohmann::json out = nlohmann::json::object();
    out["query"] = query.epsilonAtDelta ? nlohmann::json{{"delta", query.value}}
                                        : nlohmann::json{{"epsilon", query.value}};
    for (const std::string &name : strategies) {
        auto answer = evaluateStrategy(name, ledger, query, pldOptions);
        if (!answer) {
            const Error &e = answer.error();
            if (e.code == ErrorCode::Cancelled || e.code == ErrorCode::NotFound ||
                e.code == ErrorCode::InvalidArgument)
                return e;
            out[name] = {{"applicable", false}, {"reason", e.message}};
            if (e.code == ErrorCode::ResourceLimit)
                out[name]["resourceLimit"] = true;
            continue;
        }
        const StrategyAnswer &a = answer.value();
        nlohmann::json j = {{"applicable", true}, {"epsilon", number(a.epsilon)}, {"delta", number(a.delta)},
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
        out[name] = std::move(j);
    }
    return out;
}

} // namespace pbx::accounting
