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
    if (!request.odp())
        return {};
    const auto &spec = *request.odp();
    if (spec.mechanism == session::OdpMechanism::PtrIqr) {
        const auto &p = spec.ptrIqr;
        return tr("PTR interquartile range(%1), ε = %2 per test, median ε = %3")
            .arg(QString::fromStdString(p.column), formatNumber(p.epsilon, 4),
                 formatNumber(p.medianEpsilon, 4));
    }
    if (spec.mechanism == session::OdpMechanism::EarlyStop) {
        const auto &e = spec.earlyStop;
        return tr("early-stopped mean(%1), ε₀ = %2 per step, at most %3 steps (%4)")
            .arg(QString::fromStdString(e.column), formatNumber(e.stepEpsilon, 4))
            .arg(e.stops.empty() ? 0 : e.stops.back())
            .arg(QString::fromStdString(e.composition));
    }
    if (spec.mechanism == session::OdpMechanism::Recover) {
        const auto &r = spec.recover;
        return tr("logistic regression(%1 > %2) with budget recovery, ε = %3 + %4")
            .arg(QString::fromStdString(r.labelColumn), formatNumber(r.labelThreshold, 6),
                 formatNumber(r.epsilonModel, 4), formatNumber(r.epsilonTest, 4));
    }
    const auto &s = spec.svt;
    return tr("sparse vector(%1) ≥ %2, c = %3, ε = %4")
        .arg(QString::fromStdString(s.column))
        .arg(s.threshold)
        .arg(s.cutoff)
        .arg(formatNumber(s.epsilon, 4));
}

double odpReturnedEpsilon(const session::LedgerEvent &event)
{
    if (!event.odpRecord() || !event.odpRecord()->cell)
        return 0.0;
    return event.odpRecord()->reservedEpsilon - event.odpRecord()->settledEpsilon;
}

QString odpOutcomeText(const session::LedgerEvent &event)
{
    if (!event.odpRecord() || !event.request.odp() || event.status != session::EventStatus::Released)
        return {};
    const auto &r = *event.odpRecord();
    const QString reserved = tr("reserved ε = %1").arg(formatNumber(r.reservedEpsilon, 4));
    if (!r.cell)
        return tr("%1 · settled at the worst case ε = %2 (nothing returned)")
            .arg(reserved, formatNumber(r.settledEpsilon, 4));
    const QString settled
        = tr("settled ε = %1 · returned %2")
              .arg(formatNumber(r.settledEpsilon, 4), formatNumber(odpReturnedEpsilon(event), 4));
    const auto &mechanism = event.request.odp()->mechanism;
    QString cell;
    if (mechanism == session::OdpMechanism::PtrIqr)
        cell = tr("PTR case %1 of 3").arg(*r.cell);
    else if (mechanism == session::OdpMechanism::EarlyStop)
        cell = r.earlyStop ? tr("stopped after %1")
                                 .arg(formatCount(static_cast<qint64>(r.earlyStop->iterates.size()),
                                                  tr("step"), tr("steps")))
                           : tr("stopping point %1").arg(*r.cell);
    else if (mechanism == session::OdpMechanism::Recover)
        cell = *r.cell == 0 ? tr("model withheld (test failed)") : tr("model released");
    else
        cell = tr("realised cell j = %1 of c = %2").arg(*r.cell).arg(event.request.odp()->svt.cutoff);
    return tr("%1 · %2 · %3").arg(reserved, cell, settled);
}

QString odpHeadline(const session::LedgerEvent &event)
{
    if (!event.odpRecord() || !event.request.odp())
        return {};
    const auto &r = *event.odpRecord();
    if (!r.cell)
        return tr("settled at the worst case");
    const auto &mechanism = event.request.odp()->mechanism;
    if (mechanism == session::OdpMechanism::PtrIqr && r.ptrIqr) {
        if (!r.ptrIqr->iqr)
            return tr("PTR: both tests failed (⊥)");
        QString text = tr("IQR ≈ %1").arg(formatNumber(*r.ptrIqr->iqr, 4));
        if (r.ptrIqr->median)
            text += tr(", median %1").arg(formatNumber(*r.ptrIqr->median, 6));
        return text;
    }
    if (mechanism == session::OdpMechanism::EarlyStop && r.earlyStop)
        return tr("mean ≈ %1 after %2 steps")
            .arg(formatNumber(r.earlyStop->estimate, 6))
            .arg(r.earlyStop->iterates.size());
    if (mechanism == session::OdpMechanism::Recover && r.recovery)
        return r.recovery->released
                   ? tr("model released (noisy test error %1)").arg(formatNumber(r.recovery->noisyError, 4))
                   : tr("model withheld: noisy test error %1").arg(formatNumber(r.recovery->noisyError, 4));
    return tr("j = %1 of c = %2 flagged").arg(*r.cell).arg(event.request.odp()->svt.cutoff);
}

} // namespace pbx::ui
