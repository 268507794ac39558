// SPDX-License-Identifier: MIT
// `pbx-cli compare`: the comparison view's numbers from the command line — every composition
// strategy on a ledger and the curves the view draws (δ(ε) profile, ε(k) over prefixes, RDP over
// orders, the PLD histogram), from the same core computation (core/accounting/comparison.h).
#pragma once

#include "core/accounting/comparison.h"
#include "core/util/result.h"

#include <ostream>
#include <string>
#include <vector>

namespace pbx::cli {

/// The query the comparison view uses for a planned ledger: the table's ε at δ (or δ at ε), the
/// PLD interval, ε(k) over at most 30 prefixes of the steps and the coarser prefix grid for long
/// heterogeneous ledgers (accounting::stepPrefixes, accounting::prefixPldInterval).
accounting::ComparisonQuery viewQuery(const accounting::Ledger &ledger, bool epsilonAtDelta, double delta,
                                      double epsilon, double pldInterval);

/// `args` are the words after "compare": --ledger FILE [--delta D | --epsilon E] [--interval D]
/// [--per-step-delta D | auto] [--json] [--out FILE]. Prints a text table (or JSON,
/// accounting::comparisonToJson) to `out` or to the --out file. --per-step-delta runs basic,
/// advanced and optimal composition on the per-step (ε, δ) view (ComparisonQuery::perStepDelta,
/// 0 < D < δ; "auto": accounting::autoPerStepDelta, the comparison view's δ/(2k)), and the text
/// adds per strategy the steps' Σδᵢ and the composition's share of the total δ. Returns 0 on success; 1 on
/// bad input (an unreadable or invalid ledger, an option value out of range, an unwritable --out) with one
/// line on `err` naming the file, field or option; 2 on usage errors (unknown or repeated option, missing
/// value).
int runCompareCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);

} // namespace pbx::cli
