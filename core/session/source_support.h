// SPDX-License-Identifier: MIT
// Which requests a data source can answer (docs/data-sources.md, "Wiring"). An in-memory table
// answers every kind. A database source answers what is pushed down into the database: count, sum
// and mean releases (single, doubling and noise reduction all use the one statistics call), and
// histograms over a categorical column with declared categories (one GROUP BY); derived answers
// read only released values. Every other kind reads each row, and is refused on a database source
// before anything is reserved or charged.
//
// The rule lives here alone: Session::ask, the ledger audit and pbx-cli run refuse with
// checkRequestOnSource, and the GUI disables what a source cannot answer, with the same line, from
// sourceRefusal (the strategy dialog's kinds, the sparse-vector and growing-stream actions).
#pragma once

#include "core/data/source.h"
#include "core/data/table.h"
#include "core/session/ledger_event.h"
#include "core/util/result.h"

#include <string>

namespace pbx::session {

/// A request's kind as far as where the rows live matters; decided from public facts only (the
/// family, the strategy kind, the column's declared type and the sample rate), never from the data.
enum class SourceRequestKind {
    Release,              ///< count, sum or mean: single release, doubling, noise reduction
    CategoricalHistogram, ///< a histogram of a categorical column, not subsampled (one GROUP BY)
    Derived,              ///< an answer derived from released cells (reads no rows)
    NumericHistogram,     ///< a histogram of a numeric column (bins counted row by row)
    SubsampledHistogram,  ///< a Poisson-subsampled histogram (the sample is drawn row by row)
    Quantile,             ///< the exponential mechanism over the sorted rows
    Workload,             ///< a range workload (unit cells counted row by row)
    Odp,                  ///< an output-DP request (its mechanism runs over each row)
    Growing,              ///< a growing-database stream (the rows replayed one at a time)
};

/// The kind of `request` against the public `schema` (a histogram's column type decides between
/// CategoricalHistogram and NumericHistogram; an unknown column counts as numeric).
SourceRequestKind sourceRequestKind(const QueryRequest &request, const data::Table &schema);
/// The kind of a strategy request of `kind` as far as the kind alone tells, for a list of kinds
/// offered before a column is chosen: a histogram is CategoricalHistogram here — whether it needs
/// rows depends on its column and sample rate (the overload above).
SourceRequestKind sourceRequestKind(StrategyRequestKind kind);

/// Why a source of kind `source` cannot answer `kind`, in one line: which request needs an
/// in-memory table, why, and which kinds a database source answers. Empty when it can (every kind
/// on an in-memory table; Release, CategoricalHistogram and Derived on a database).
std::string sourceRefusal(SourceRequestKind kind, data::SourceKind source);

/// Whether the histogram `request` asks for is counted by Source's per-category counts: a
/// categorical column of `schema`, without Poisson subsampling (the sample is drawn per row).
/// Precondition: request.strategy() is set.
bool histogramIsPushedDown(const QueryRequest &request, const data::Table &schema);

/// Decided from the request and the source's kind alone (never from the data). Errors:
/// Unsupported, sourceRefusal(sourceRequestKind(request, schema), kind).
Result<void> checkRequestOnSource(const QueryRequest &request, const data::Table &schema,
                                  data::SourceKind kind);

/// The public row count a count, sum or mean release plans with: source.publicRowCount() — the
/// declared count, or a public database table's own COUNT(*) (run on the first call, then cached).
/// Errors: that count's failure (Io, ResourceLimit: "rows: cannot count the rows of table …");
/// InvalidArgument naming "rows" when there is none (a private database table whose metadata has
/// no "rows"): a release needs n to bound its sensitivity. Session::ask, previewCost and pbx-cli
/// run refuse with this one line, before anything is charged.
Result<std::size_t> releaseRowCount(const data::Source &source);

} // namespace pbx::session
