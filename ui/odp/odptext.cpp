// SPDX-License-Identifier: MIT
#include "ui/odp/odptext.h"

#include "ui/util/numberformat.h"

#include <QCoreApplication>

namespace pbx::ui {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("OdpText", text);
}
} // namespace

QString describeOdpRequest(const session::QueryRequest &request)
{
    if (!request.odp)
        return {};
    const auto &s = request.odp->svt;
    return tr("sparse vector(%1) ≥ %2, c = %3, ε = %4")
        .arg(QString::fromStdString(s.column))
        .arg(s.threshold)
        .arg(s.cutoff)
        .arg(formatNumber(s.epsilon, 4));
}

double odpReturnedEpsilon(const session::LedgerEvent &event)
{
    if (!event.odpRecord || !event.odpRecord->cell)
        return 0.0;
    return event.odpRecord->reservedEpsilon - event.odpRecord->settledEpsilon;
}

QString odpOutcomeText(const session::LedgerEvent &event)
{
    if (!event.odpRecord || !event.request.odp || event.status != session::EventStatus::Released)
        return {};
    const auto &r = *event.odpRecord;
    const QString reserved = tr("reserved ε = %1").arg(formatNumber(r.reservedEpsilon, 4));
    if (!r.cell)
        return tr("%1 · settled at the worst case ε = %2 (nothing returned)")
            .arg(reserved, formatNumber(r.settledEpsilon, 4));
    return tr("%1 · realised cell j = %2 of c = %3 · settled ε = %4 · returned %5")
        .arg(reserved)
        .arg(*r.cell)
        .arg(event.request.odp->svt.cutoff)
        .arg(formatNumber(r.settledEpsilon, 4), formatNumber(odpReturnedEpsilon(event), 4));
}

} // namespace pbx::ui
