// SPDX-License-Identifier: MIT
// One ledger event described in words, for every front end: which family of release it is, the
// notes under it (its reason and how its cost was accounted), and, for a growing-database stream,
// one line per released run (epoch, model, round) with its label, values and bound. Plain fields,
// no formatting of numbers: the result card, the ledger model, the CLI's printers and the report
// format them in their own style.
#pragma once

#include "core/session/ledger_event.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pbx::report {

/// Which view an event needs: what was released decides what there is to say.
enum class EventKind {
    Refused,    ///< nothing released: the reason
    OutputDp,   ///< an output-DP mechanism: its reservation, realised cell and settled cost
    PmwgStream, ///< a PMWG stream: rounds, hard queries and checkpoint answers
    NsgStream,  ///< an NSG stream: sparse-vector rounds and their ⊤ answers
    RunStream,  ///< BBScheduler, BBImprover, ERMG or SmallDBG: one run per epoch
    Release,    ///< one answer with its error bar (single releases, doubling, noise reduction, strategies)
};

EventKind eventKind(const session::LedgerEvent &event);

/// The notes under an event, in order: its reason (if any) and "Accounting: <how>" (if any), the
/// accounting's exact fractions shown as decimals (readableFractions; exactParameters lists them).
std::vector<std::string> eventNotes(const session::LedgerEvent &event);

/// A text whose exact fractions were made readable, and those fractions as written.
struct ReadableText
{
    std::string text;               ///< "…, σ² ≈ 664"
    std::vector<std::string> exact; ///< "σ² = 1425840514581/2147483648", in order; only inexact ones
};

/// `text` with every "NAME = N/D" (N, D decimal integers: the exact discrete noise's rational
/// parameter, t or σ², Canonne, Kamath & Steinke 2020) shown as a decimal: "NAME ≈ d" with d in
/// formatDisplay's four significant digits, or "NAME = d" when d is N/D exactly (then it is not
/// listed in `exact`). Any other text is kept as it is. Example: "σ² = 1425840514581/2147483648"
/// → text "σ² ≈ 664", exact {"σ² = 1425840514581/2147483648"}.
ReadableText readableFractions(std::string_view text);

/// The exact fractions of an event's accounting line that its notes show as decimals
/// (readableFractions(event.accounting).exact): for a tooltip or a footnote.
std::vector<std::string> exactParameters(const session::LedgerEvent &event);

/// One released run of a stream, as listed under it.
struct RunLine
{
    std::string label;                  ///< session::growingEpochLabel: "BBScheduler epoch 0 of 5: t = …"
    std::vector<double> values;         ///< the answers (ERMG: θ; NSG: the ⊤ answer, if any)
    std::string database;               ///< SmallDBG: the synthetic database in words; else empty
    double bound = 0.0;                 ///< the run's error bound (NSG: 0)
    double scale = 0.0;                 ///< the noise scale (NSG: the ⊤ answer's, if any)
    double beta = 0.0;                  ///< the run's failure probability β_i (NSG: 0)
    std::optional<std::uint64_t> query; ///< NSG: the ⊤ query's index
};

/// A stream's lines: every run (RunStream) or round (NsgStream). When there are more than
/// 2·`keepEachEnd` of them and `keepEachEnd` > 0, only the first and last `keepEachEnd` are listed
/// and `elided` counts the others (shown between them); else `elided` is 0.
struct RunLines
{
    std::vector<RunLine> first;
    std::size_t elided = 0;
    std::vector<RunLine> last;
};

/// Whatever the event's status: a stream's record lists what it released. Other events (and PMWG
/// streams, whose rounds PmwgRecord lists) have no lines.
RunLines streamRunLines(const session::LedgerEvent &event, std::size_t keepEachEnd = 0);

} // namespace pbx::report
