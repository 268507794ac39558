// SPDX-License-Identifier: MIT
// The builders' shared helpers and the accuracy chart's choice of builder by algorithm.
#include "ui/growing/labcharts.h"

#include "ui/util/numberformat.h"

#include <QLocale>

#include <limits>

namespace pbx::ui::growinglab {

using io::json::Json;

double number(const Json &j)
{
    return j.is_number() ? j.get<double>() : std::numeric_limits<double>::quiet_NaN();
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

PrivacyReading privacyReading(const Json &privacy)
{
    PrivacyReading r;
    if (privacy.contains("target")) {
        const Json &target = privacy["target"];
        r.unit = tr("ε at δ = %1").arg(formatNumber(number(target["delta"]), 3));
        r.budget = number(target["epsilon"]);
        r.worstCase = number(privacy.value("worst_case_target_epsilon", Json()));
        r.realised = number(privacy.value("realised_target_epsilon", Json()));
        r.note = tr("(In ρ: realised %1, worst case %2 of %3; converted to ε "
                    "at δ by the budget's conversion.)")
                     .arg(num(number(privacy.value("realised", Json()))), num(number(privacy["worst_case"])),
                          num(number(privacy["total_reserved"])));
        return r;
    }
    const bool rho = privacy.value("unit", "epsilon") == "rho";
    r.unit = rho ? QStringLiteral("ρ") : QStringLiteral("ε");
    r.budget = number(privacy["total_reserved"]);
    r.worstCase = number(privacy["worst_case"]);
    r.realised = number(privacy.value("realised", Json()));
    return r;
}

QString drawAccuracy(GrowingChart &chart, const LabView &view)
{
    chart.setTitles(tr("Accuracy bound (fraction scale, probability ≥ 1 − β)"),
                    tr("t (rows arrived, log scale)"), tr("error"));
    if (view.algorithm == QStringLiteral("nsg") && view.simulation)
        return drawNsgErrors(chart, view);
    if (view.algorithm == QStringLiteral("pmwg") || view.algorithm == QStringLiteral("nsg")) {
        chart.clear(tr("Hard answers, privacy and errors: see the PMWG / NSG tab."));
        return tr("Hard answers, privacy and errors are in the PMWG / NSG tab.");
    }
    if (view.algorithm == QStringLiteral("ermg"))
        return drawErmRisk(chart, view);
    return drawSchedulerAccuracy(chart, view);
}

} // namespace pbx::ui::growinglab
