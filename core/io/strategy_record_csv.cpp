// SPDX-License-Identifier: MIT
#include "core/io/strategy_record_csv.h"

#include "core/io/transcript_csv.h"

#include <sstream>

namespace pbx::io {

Result<std::string> writeStrategyRecordCsv(const session::LedgerEvent &e)
{
    if (e.status != session::EventStatus::Released || !e.strategyRecord())
        return makeError(ErrorCode::InvalidArgument,
                         "event '" + e.request.id
                             + "': not a released histogram, quantile, derived or workload answer");
    const auto &r = *e.strategyRecord();
    std::ostringstream out;
    out << "id,label,value,half_width,confidence,variance,before_projection\r\n";
    for (std::size_t i = 0; i < r.values.size(); ++i) {
        out << csvField(e.request.id) << ',' << csvField(i < r.labels.size() ? r.labels[i] : std::string())
            << ',' << csvNumber(r.values[i]) << ','
            << (i < r.halfWidths.size() ? csvNumber(r.halfWidths[i]) : "") << ','
            << csvNumber(e.request.target.confidence) << ','
            << (i < r.variances.size() ? csvNumber(r.variances[i]) : "") << ','
            << (i < r.unprojected.size() ? csvNumber(r.unprojected[i]) : "") << "\r\n";
    }
    return out.str();
}

} // namespace pbx::io
