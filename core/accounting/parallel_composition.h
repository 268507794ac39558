// SPDX-License-Identifier: MIT
// Parallel composition over disjoint partitions of the data, and post-processing.
#pragma once

#include "core/accounting/event.h"
#include "core/accounting/strategy.h"

#include <string>
#include <vector>

namespace pbx::accounting {

/// Splits a ledger by the events' `partition` labels for parallel composition. The parts are the
/// sets of events one changed record can affect; the ledger's guarantee is the worst of them
/// (parallelCompose). Post-processing events are dropped everywhere: they cost nothing (Dwork &
/// Roth 2014, Prop. 2.1). A ledger without labels is returned unchanged as the only element.
///
/// - Add/remove (McSherry 2009, PINQ Thm 4): an added or removed record lies in at most one
///   labelled part, so it affects the unlabelled (shared) events plus the events of its own part.
///   Returns one ledger per label: the shared events and that part's events (in ledger order).
/// - Replace: a replaced record can leave part a and enter part b, so both parts change (a sees a
///   removal, b an addition) besides the shared events. Returns one ledger per unordered pair of
///   labels {a, b}: the shared events and the events of both parts, composed sequentially; with a
///   single label, the shared events and that part. m labels give m(m−1)/2 ledgers. This is sound
///   when each part's events, stated for the replace relation, also bound one record added to or
///   removed from that part (true for counts, and for the app's sum sensitivities, whose replace
///   value max(U−L, |L|, |U|) is at least the add/remove value max(|L|, |U|)); see
///   docs/parallel-composition.md.
std::vector<Ledger> splitByPartition(const Ledger &ledger);

/// Combines the answers for the ledgers of splitByPartition(): the guarantee of the whole is the
/// worst of them, i.e. the max of ε (at a common δ) or of δ (at a common ε), and the max of the
/// optimistic bounds. Under replace the parts are pairs of partitions (sum over the pair by
/// sequential composition inside each ledger), so the max over them is the two-worst-parts rule.
/// `byEpsilon` selects which coordinate is maximised; `neighbours` only words the method note.
/// Empty input: (0, 0).
StrategyAnswer parallelCompose(const std::vector<StrategyAnswer> &parts, bool byEpsilon,
                               Neighbouring neighbours = Neighbouring::AddRemove);

} // namespace pbx::accounting
