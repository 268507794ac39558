// SPDX-License-Identifier: MIT
// The builders' shared helpers and the accuracy chart's choice of builder by algorithm.
#include "ui/growing/labcharts.h"

#include "ui/util/numberformat.h"

#include <QLocale>

#include <limits>
#include <variant>

namespace pbx::ui::growinglab {

double orNaN(const std::optional<double> &value)
{
    return value.value_or(std::numeric_limits<double>::quiet_NaN());
}

const growing::LabPrivacy &privacyOf(const growing::GrowingLabResult &result)
{
    return std::visit([](const auto &body) -> const growing::LabPrivacy & { return body.privacy; },
                      result.body);
}

QString integer(double x)
{
    return QLocale().toString(static_cast<qlonglong>(std::llround(x)));
}

QString num(double x, int digits)
{
    return std::isfinite(x) ? formatNumber(x, digits) : QStringLiteral("—");
}

GrowingChart::Series makeSeries(const QString &id, const QString &name, const QColor &colour,
                                GrowingChart::Kind kind, Qt::PenStyle style)
{
    GrowingChart::Series s;
    s.id = id;
    s.name = name;
    s.colour = colour;
    s.kind = kind;
    s.style = style;
    return s;
}

QString paperCitation()
{
    return QStringLiteral("Cummings, Krehbiel, Lai & Tantipongpipat, “Differential privacy for growing "
                          "databases”, NeurIPS 2018");
}

PrivacyReading privacyReading(const growing::LabPrivacy &privacy)
{
    PrivacyReading r;
    if (privacy.target) {
        r.unit = tr("ε at δ = %1").arg(formatNumber(privacy.target->delta, 3));
        r.budget = privacy.target->epsilon;
        r.worstCase = orNaN(privacy.worstCaseTargetEpsilon);
        r.realised = orNaN(privacy.realisedTargetEpsilon);
        r.note = tr("(In ρ: realised %1, worst case %2 of %3; converted to ε "
                    "at δ by the budget's conversion.)")
                     .arg(num(orNaN(privacy.realised)), num(orNaN(privacy.worstCase)),
                          num(privacy.totalReserved));
        return r;
    }
    r.unit = privacy.rho ? QStringLiteral("ρ") : QStringLiteral("ε");
    r.budget = privacy.totalReserved;
    r.worstCase = orNaN(privacy.worstCase);
    r.realised = orNaN(privacy.realised);
    return r;
}

QString drawAccuracy(GrowingChart &chart, const LabView &view)
{
    chart.setTitles(tr("Accuracy bound (fraction scale, probability ≥ 1 − β)"),
                    tr("t (rows arrived, log scale)"), tr("error"));
    using growing::LabAlgorithm;
    if (view.algorithm == LabAlgorithm::Nsg && view.simulation)
        return drawNsgErrors(chart, view);
    if (view.algorithm == LabAlgorithm::Pmwg || view.algorithm == LabAlgorithm::Nsg) {
        chart.clear(tr("Hard answers, privacy and errors: see the PMWG / NSG tab."));
        return tr("Hard answers, privacy and errors are in the PMWG / NSG tab.");
    }
    if (view.algorithm == LabAlgorithm::Ermg)
        return drawErmRisk(chart, view);
    return drawSchedulerAccuracy(chart, view);
}

} // namespace pbx::ui::growinglab
