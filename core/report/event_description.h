// SPDX-License-Identifier: MIT
// One ledger event described in words, for every front end: its request in one line (the ledger's
// Query and Target columns and the result card; the report's shorter form), which family of release
// it is, the notes under it (its reason and how its cost was accounted), an output-DP event's
// outcome (Hartmann, Bindschaedler, Bentkamp & West 2023, Algorithm 1 and Lemma 8;
// docs/output-dp.md §2–§3), and, for a growing-database stream, one line per released run (epoch,
// model, round) with its label, values and bound. The run lines are plain fields: the result card,
// the CLI's printers and the report format their numbers in their own style.
#pragma once

#include "core/session/ledger_event.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pbx::report {

/// A plain query in words: "count", "mean(wage) where region == \"south\"" (the predicate as
/// typed; a blank one, ASCII white space only, is left out).
std::string describeQuery(const data::QuerySpec &query);

/// An output-DP request in one line: "sparse vector(education) ≥ 500, c = 3, ε = 1", "PTR
/// interquartile range(wage), ε = 0.5 per test, median ε = 0.5", "early-stopped mean(wage), ε₀ =
/// 0.01 per step, at most 40 steps (basic)", "logistic regression(wage > 600) with budget
/// recovery, ε = 1 + 0.5" (numbers at four significant digits, as formatDisplay shows them).
std::string describeOdpRequest(const session::OdpRequestSpec &spec);

/// A request in one line, as the ledger's Query column and the result card show it, by family:
/// the plain query (describeQuery), a strategy request (session::describeStrategyRequest), an
/// output-DP request (describeOdpRequest) or a growing stream (session::describeGrowingRequest).
std::string requestLine(const session::QueryRequest &request);

/// The report's shorter form of a request (aggregate, column, bounds, predicate; strategy and
/// output-DP requests by kind): "mean(wage) clipped to [0, 5000] where region == \"south\"",
/// "histogram(region) over every row", "output-DP svt". Numbers as report::formatNumber.
std::string describeRequest(const session::QueryRequest &request);

/// False for output-DP requests and growing streams: their noise follows from their cell or
/// schedule, not from an accuracy target (the ledger shows "—").
bool hasAccuracyTarget(const session::QueryRequest &request);

/// An accuracy target as the ledger and the result card show it: "±50 @ 95 %" or "±5 % @ 99 %"
/// (the error at four significant digits, three for a relative one; the confidence at four, more
/// when four would round it up to 100 %).
std::string targetLine(const session::AccuracyTarget &target);

/// E* − E(cell) of an output-DP event: the ε the filter held at admission and gave back at
/// settlement (0 when settled at the worst case or without a record).
double odpReturnedEpsilon(const session::LedgerEvent &event);

/// "reserved ε = 1 · realised cell j = 2 of c = 3 · settled ε = 0.74 · returned 0.26" for a
/// released event with an output-DP record; when it was settled at its worst case (no cell), says
/// so. Empty for other events.
std::string odpOutcomeText(const session::LedgerEvent &event);

/// An output-DP event's headline: what the realised cell released ("j = 1 of c = 2 flagged", "IQR
/// ≈ 3.2, median 5.4", "mean ≈ 612.3 after 40 steps", "model released (noisy test error 0.31)"),
/// or "settled at the worst case". Empty for events without an output-DP request and record.
std::string odpHeadline(const session::LedgerEvent &event);

/// A released mode request's picks as its answer, in pick order: "south" (a mode) or "1. south,
/// 2. west" (a top k); empty for every other event (whose answer is a number). The released
/// values of a mode are categories: its numeric answer is only the first pick's index.
std::string selectionText(const session::LedgerEvent &event);

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
