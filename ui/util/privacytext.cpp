// SPDX-License-Identifier: MIT
#include "ui/util/privacytext.h"

#include "ui/util/boundformat.h"
#include "ui/util/numberformat.h"

#include <QCoreApplication>

#include <cmath>

namespace pbx::ui {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("pbx::ui::PrivacyText", text);
}

} // namespace

QString chargeUnit(filters::ChargeKind kind)
{
    switch (kind) {
    case filters::ChargeKind::PureEpsilon:
        return QStringLiteral("ε");
    case filters::ChargeKind::Rho:
        return QStringLiteral("ρ");
    case filters::ChargeKind::ExPost:
        return tr("ex-post ε");
    case filters::ChargeKind::BoundedRange:
        return tr("bounded-range ε");
    }
    return QStringLiteral("ε");
}

QString chargeSymbol(filters::ChargeKind kind)
{
    return kind == filters::ChargeKind::Rho ? QStringLiteral("ρ") : QStringLiteral("ε");
}

QString mechanismLabel(session::ReleaseMethod kind)
{
    switch (kind) {
    case session::ReleaseMethod::Laplace:
        return tr("Laplace · one release");
    case session::ReleaseMethod::Gaussian:
        return tr("Gaussian · one release");
    case session::ReleaseMethod::DoublingLaplace:
        return tr("Doubling · Laplace");
    case session::ReleaseMethod::DoublingGaussian:
        return tr("Doubling · Gaussian");
    case session::ReleaseMethod::LaplaceNr:
        return tr("Laplace noise reduction");
    case session::ReleaseMethod::Brownian:
        return tr("Brownian noise reduction");
    }
    return {};
}

QString mechanismShortLabel(session::ReleaseMethod kind)
{
    switch (kind) {
    case session::ReleaseMethod::Laplace:
        return tr("one Laplace release");
    case session::ReleaseMethod::Gaussian:
        return tr("one Gaussian release");
    case session::ReleaseMethod::DoublingLaplace:
        return tr("Laplace doubling");
    case session::ReleaseMethod::DoublingGaussian:
        return tr("Gaussian doubling");
    case session::ReleaseMethod::LaplaceNr:
        return tr("Laplace NR");
    case session::ReleaseMethod::Brownian:
        return tr("Brownian NR");
    }
    return {};
}

QString unifiedSideOf(filters::ChargeKind kind, filters::FilterKind filter)
{
    if (filter != filters::FilterKind::Unified)
        return {};
    return kind == filters::ChargeKind::ExPost ? tr("ex-post side") : tr("zCDP side");
}

QString eventCostText(const session::LedgerEvent &event, int significant)
{
    QString text
        = QStringLiteral("%1 = %2").arg(chargeUnit(event.costKind), formatBound(event.cost, significant));
    if (event.costDelta > 0.0)
        text += QStringLiteral(", δ = %1").arg(formatBound(event.costDelta, 2));
    return text;
}

QString costPreviewText(const session::CostPreview &preview)
{
    const QString unit = chargeUnit(preview.kind);
    if (!std::isfinite(preview.remaining)) { // an odometer session: nothing remains or runs out
        if (preview.exact)
            return tr("costs %1 = %2 (no budget: the odometer's ε grows)")
                .arg(unit, formatBound(*preview.exact));
        return tr("costs at most %1 = %2 (no budget: the odometer's ε grows; the charge depends on the answer)")
            .arg(unit, formatBound(preview.atMost));
    }
    if (preview.shareOfRemaining > 1.0)
        return tr("needs %1 = %2, more than the %3 that remains: it will be refused")
            .arg(unit, formatBound(preview.atMost), formatLowerBound(preview.remaining));
    const QString share = formatPercent(preview.shareOfRemaining);
    if (preview.exact)
        return tr("costs %1 = %2 (%3 of what remains)").arg(unit, formatBound(*preview.exact), share);
    return tr("costs at most %1 = %2 (%3 of what remains; the charge depends on the answer)")
        .arg(unit, formatBound(preview.atMost), share);
}

} // namespace pbx::ui
