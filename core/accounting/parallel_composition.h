// SPDX-License-Identifier: MIT
// Parallel composition over disjoint partitions of the data, and post-processing.
#pragma once

#include "core/accounting/event.h"
#include "core/accounting/strategy.h"

#include <string>
#include <vector>

namespace pbx::accounting {

/// Splits a ledger by the events' `partition` labels for parallel composition (McSherry 2009,
/// PINQ Thm 4): a record lies in at most one labelled part, so it is affected by the unlabelled
/// (shared) events plus the events of its own part. Returns one ledger per label, each holding
/// the shared events and that part's events (in ledger order); a ledger without labels is
/// returned unchanged as the only element. Post-processing events are dropped everywhere: they
/// cost nothing (Dwork & Roth 2014, Prop. 2.1).
std::vector<Ledger> splitByPartition(const Ledger &ledger);

/// Parallel composition of the answers of the parts: the guarantee of the whole is the worst part,
/// i.e. the max of ε (at a common δ) or of δ (at a common ε), and the max of the optimistic bounds.
/// `byEpsilon` selects which coordinate is maximised. Empty input: (0, 0).
StrategyAnswer parallelCompose(const std::vector<StrategyAnswer> &parts, bool byEpsilon);

} // namespace pbx::accounting
