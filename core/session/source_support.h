// SPDX-License-Identifier: MIT
// Which requests a data source can answer (docs/data-sources.md, "Wiring"). An in-memory table
// answers every kind. A database source answers what is pushed down into the database: count, sum
// and mean releases (single, doubling and noise reduction all use the one statistics call), and
// histograms over a categorical column with declared categories (one GROUP BY); derived answers
// read only released values. Every other kind reads each row, and is refused on a database source
// before anything is reserved or charged.
#pragma once

#include "core/data/source.h"
#include "core/data/table.h"
#include "core/session/ledger_event.h"
#include "core/util/result.h"

namespace pbx::session {

/// Whether the histogram `request` asks for is counted by Source's per-category counts: a
/// categorical column of `schema`, without Poisson subsampling (the sample is drawn per row).
/// Precondition: request.strategy() is set.
bool histogramIsPushedDown(const QueryRequest &request, const data::Table &schema);

/// Decided from the request and the source's kind alone (never from the data). Errors:
/// Unsupported, one line naming the request kind, why it needs an in-memory table and which kinds
/// a database source answers.
Result<void> checkRequestOnSource(const QueryRequest &request, const data::Table &schema,
                                  data::SourceKind kind);

} // namespace pbx::session
