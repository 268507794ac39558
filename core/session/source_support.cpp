// SPDX-License-Identifier: MIT
#include "core/session/source_support.h"

#include "core/session/strategies/strategy_request.h"

#include <string>
#include <utility>

namespace pbx::session {

namespace {

/// What needs rows, and why ("kind (why)"), for the refusal's message; empty for a kind a database
/// source answers.
std::pair<std::string, std::string> rowReadingKind(const QueryRequest &request, const data::Table &schema)
{
    switch (request.family()) {
    case RequestFamily::Release:
        return {};
    case RequestFamily::Odp:
        return {"an output-DP request", "its mechanism runs over each row"};
    case RequestFamily::Growing:
        return {"a growing-database stream", "it replays the rows one arrival at a time"};
    case RequestFamily::Strategy:
        break;
    }
    const auto &spec = *request.strategy();
    switch (spec.kind) {
    case StrategyRequestKind::Derived:
        return {};
    case StrategyRequestKind::Histogram:
        if (histogramIsPushedDown(request, schema))
            return {};
        if (spec.subsample != 1.0)
            return {"a Poisson-subsampled histogram", "the sample is drawn row by row"};
        return {"a histogram of a numeric column", "its bins are counted row by row"};
    case StrategyRequestKind::Quantile:
        return {"a quantile", "the exponential mechanism scores every candidate over the sorted rows"};
    case StrategyRequestKind::Workload:
        return {"a range workload", "its unit cells are counted row by row"};
    }
    return {};
}

} // namespace

bool histogramIsPushedDown(const QueryRequest &request, const data::Table &schema)
{
    const auto &spec = *request.strategy();
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
    const auto [what, why] = rowReadingKind(request, schema);
    if (what.empty())
        return {};
    return makeError(ErrorCode::Unsupported,
                     what + " needs an in-memory table (" + why + "): a "
                         + std::string(data::sourceKindName(kind))
                         + " source answers counts, sums and means and histograms of a categorical "
                           "column, computed in the database; load the table as a CSV file for this request");
}

} // namespace pbx::session
