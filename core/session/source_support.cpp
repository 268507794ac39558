// SPDX-License-Identifier: MIT
#include "core/session/source_support.h"

#include "core/session/strategies/strategy_request.h"
#include "core/util/try.h"

#include <string>
#include <utility>

namespace pbx::session {

namespace {

/// What needs rows, and why ("kind (why)"), for the refusal's message; empty for a kind a database
/// source answers.
std::pair<std::string, std::string> rowReadingKind(SourceRequestKind kind)
{
    switch (kind) {
    case SourceRequestKind::Release:
    case SourceRequestKind::CategoricalHistogram:
    case SourceRequestKind::Derived:
        return {};
    case SourceRequestKind::NumericHistogram:
        return {"a histogram of a numeric column", "its bins are counted row by row"};
    case SourceRequestKind::SubsampledHistogram:
        return {"a Poisson-subsampled histogram", "the sample is drawn row by row"};
    case SourceRequestKind::Quantile:
        return {"a quantile", "the exponential mechanism scores every candidate over the sorted rows"};
    case SourceRequestKind::Workload:
        return {"a range workload", "its unit cells are counted row by row"};
    case SourceRequestKind::Odp:
        return {"an output-DP request", "its mechanism runs over each row"};
    case SourceRequestKind::Growing:
        return {"a growing-database stream", "it replays the rows one arrival at a time"};
    }
    return {};
}

} // namespace

SourceRequestKind sourceRequestKind(const QueryRequest &request, const data::Table &schema)
{
    switch (request.family()) {
    case RequestFamily::Release:
        return SourceRequestKind::Release;
    case RequestFamily::Odp:
        return SourceRequestKind::Odp;
    case RequestFamily::Growing:
        return SourceRequestKind::Growing;
    case RequestFamily::Strategy:
        break;
    }
    const auto &spec = *request.strategy();
    if (spec.kind != StrategyRequestKind::Histogram)
        return sourceRequestKind(spec.kind);
    if (histogramIsPushedDown(request, schema))
        return SourceRequestKind::CategoricalHistogram;
    return spec.subsample != 1.0 ? SourceRequestKind::SubsampledHistogram
                                 : SourceRequestKind::NumericHistogram;
}

SourceRequestKind sourceRequestKind(StrategyRequestKind kind)
{
    switch (kind) {
    case StrategyRequestKind::Histogram:
        return SourceRequestKind::CategoricalHistogram;
    case StrategyRequestKind::Quantile:
        return SourceRequestKind::Quantile;
    case StrategyRequestKind::Derived:
        return SourceRequestKind::Derived;
    case StrategyRequestKind::Workload:
        return SourceRequestKind::Workload;
    case StrategyRequestKind::Mode: // a selection from the per-category counts (one GROUP BY)
        return SourceRequestKind::CategoricalHistogram;
    }
    return SourceRequestKind::Workload;
}

std::string sourceRefusal(SourceRequestKind kind, data::SourceKind source)
{
    if (source == data::SourceKind::InMemory)
        return {};
    const auto [what, why] = rowReadingKind(kind);
    if (what.empty())
        return {};
    return what + " needs an in-memory table (" + why + "): a " + std::string(data::sourceKindName(source))
           + " source answers counts, sums and means and histograms of a categorical column, computed in the "
             "database; load the table as a CSV file for this request";
}

bool histogramIsPushedDown(const QueryRequest &request, const data::Table &schema)
{
    const auto &spec = *request.strategy();
    if (spec.kind == StrategyRequestKind::Mode) // per-category counts of declared categories
        return true;
    if (spec.kind != StrategyRequestKind::Histogram || spec.subsample != 1.0)
        return false;
    const auto index = schema.columnIndex(request.query.column);
    return index && schema.columnInfo(*index).type == data::ColumnType::Categorical;
}

Result<void> checkRequestOnSource(const QueryRequest &request, const data::Table &schema,
                                  data::SourceKind kind)
{
    if (kind == data::SourceKind::InMemory)
        return {};
    if (std::string refusal = sourceRefusal(sourceRequestKind(request, schema), kind); !refusal.empty())
        return makeError(ErrorCode::Unsupported, std::move(refusal));
    return {};
}

Result<std::size_t> releaseRowCount(const data::Source &source)
{
    PBX_TRY(counted, source.publicRowCount()); // a public table's COUNT(*) on first use, or its failure
    if (counted)
        return *counted;
    return makeError(ErrorCode::InvalidArgument,
                     "rows: the dataset's metadata declares no row count, which a release needs to bound its "
                     "sensitivity; declare \"rows\" in the metadata");
}

} // namespace pbx::session
