// SPDX-License-Identifier: MIT
#include "core/session/odp/odp_mechanisms.h"

#include <algorithm>
#include <cmath>

namespace pbx::session {

Result<BoundedColumn> boundedColumnShape(const data::Table &table, const std::string &name,
                                         const std::string &field)
{
    const auto col = table.columnIndex(name);
    if (!col)
        return makeError(ErrorCode::NotFound, field + ": unknown column '" + name + "'");
    const auto &info = table.columnInfo(*col);
    if (info.type != data::ColumnType::Numeric || !info.declaredBounds)
        return makeError(ErrorCode::InvalidArgument,
                         field + ": '" + name + "' must be a numeric column with declared bounds");
    BoundedColumn out;
    out.lo = info.declaredBounds->lower;
    out.hi = info.declaredBounds->upper;
    if (!(std::isfinite(out.lo) && std::isfinite(out.hi) && out.lo < out.hi))
        return makeError(ErrorCode::InvalidArgument, field + ": '" + name + "' has invalid declared bounds");
    out.rows = table.rowCount();
    return out;
}

Result<BoundedColumn> boundedColumn(const data::Rows &rows, const std::string &name, const std::string &field)
{
    auto out = boundedColumnShape(rows.table(), name, field);
    if (!out)
        return out;
    out->values.reserve(out->rows);
    for (double v : rows.numeric(*rows.columnIndex(name)))
        out->values.push_back(std::isnan(v) ? out->lo : std::clamp(v, out->lo, out->hi));
    return out;
}

std::string_view odpMechanismName(OdpMechanism mechanism)
{
    switch (mechanism) {
    case OdpMechanism::Svt:
        return "svt";
    case OdpMechanism::PtrIqr:
        return "ptr-iqr";
    case OdpMechanism::EarlyStop:
        return "early-stop";
    case OdpMechanism::Recover:
        return "recover";
    }
    return "svt";
}

std::optional<OdpMechanism> odpMechanismFromName(std::string_view name)
{
    for (OdpMechanism m :
         {OdpMechanism::Svt, OdpMechanism::PtrIqr, OdpMechanism::EarlyStop, OdpMechanism::Recover})
        if (odpMechanismName(m) == name)
            return m;
    return std::nullopt;
}

Result<void> requireReplaceOne(data::Neighbouring neighbours, const std::string &mechanism)
{
    if (neighbours != data::Neighbouring::Replace)
        return makeError(ErrorCode::Unsupported,
                         "mechanism: '" + mechanism
                             + "' needs the replace-one relation (n public); use --neighbours replace");
    return {};
}

} // namespace pbx::session
