// SPDX-License-Identifier: MIT
#include "core/accounting/parallel_composition.h"

#include <algorithm>
#include <set>

namespace pbx::accounting {

std::vector<Ledger> splitByPartition(const Ledger &ledger)
{
    std::set<std::string> labels;
    for (const auto &e : ledger.events)
        if (!e.partition.empty())
            labels.insert(e.partition);
    auto make = [&](const std::string *label) {
        Ledger part;
        part.neighbours = ledger.neighbours;
        for (const auto &e : ledger.events) {
            if (e.mechanism == MechanismKind::PostProcessing)
                continue;
            if (e.partition.empty() || (label && e.partition == *label))
                part.events.push_back(e);
        }
        return part;
    };
    std::vector<Ledger> parts;
    if (labels.empty()) {
        parts.push_back(make(nullptr));
        return parts;
    }
    for (const auto &label : labels)
        parts.push_back(make(&label));
    return parts;
}

StrategyAnswer parallelCompose(const std::vector<StrategyAnswer> &parts, bool byEpsilon)
{
    if (parts.empty())
        return {};
    StrategyAnswer out = parts.front();
    for (std::size_t i = 1; i < parts.size(); ++i) {
        const StrategyAnswer &p = parts[i];
        const bool worse = byEpsilon ? p.epsilon > out.epsilon : p.delta > out.delta;
        auto keepMax = [](std::optional<double> &a, const std::optional<double> &b) {
            if (b && (!a || *b > *a))
                a = b;
        };
        std::optional<double> optEps = out.optimisticEpsilon, optDelta = out.optimisticDelta;
        keepMax(optEps, p.optimisticEpsilon);
        keepMax(optDelta, p.optimisticDelta);
        if (worse)
            out = p;
        out.optimisticEpsilon = optEps;
        out.optimisticDelta = optDelta;
    }
    if (parts.size() > 1)
        out.method += "; parallel composition over " + std::to_string(parts.size()) +
                      " disjoint partitions (max, McSherry 2009)";
    return out;
}

} // namespace pbx::accounting
