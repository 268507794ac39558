// SPDX-License-Identifier: MIT
#include "core/accounting/parallel_composition.h"

#include <algorithm>
#include <iterator>
#include <set>

namespace pbx::accounting {

std::vector<Ledger> splitByPartition(const Ledger &ledger)
{
    std::set<std::string> labels;
    for (const auto &e : ledger.events)
        if (!e.partition.empty())
            labels.insert(e.partition);
    // The events one changed record can touch: the shared ones and those of parts `a` and `b`.
    auto make = [&](const std::string *a, const std::string *b) {
        Ledger part;
        part.neighbours = ledger.neighbours;
        for (const auto &e : ledger.events) {
            if (e.mechanism == MechanismKind::PostProcessing)
                continue;
            if (e.partition.empty() || (a && e.partition == *a) || (b && e.partition == *b))
                part.events.push_back(e);
        }
        return part;
    };
    std::vector<Ledger> parts;
    if (labels.empty()) {
        parts.push_back(make(nullptr, nullptr));
        return parts;
    }
    if (ledger.neighbours == Neighbouring::AddRemove || labels.size() == 1) {
        for (const auto &label : labels)
            parts.push_back(make(&label, nullptr));
        return parts;
    }
    // Replace: the record leaves one part and enters another.
    for (auto a = labels.begin(); a != labels.end(); ++a)
        for (auto b = std::next(a); b != labels.end(); ++b)
            parts.push_back(make(&*a, &*b));
    return parts;
}

StrategyAnswer parallelCompose(const std::vector<StrategyAnswer> &parts, bool byEpsilon,
                               Neighbouring neighbours)
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
        out.method
            += neighbours == Neighbouring::Replace
                   ? "; parallel composition under replace-one: worst of " + std::to_string(parts.size())
                         + " pairs of partitions (a replaced record can leave one part and enter another)"
                   : "; parallel composition over " + std::to_string(parts.size())
                         + " disjoint partitions (max, McSherry 2009)";
    return out;
}

} // namespace pbx::accounting
