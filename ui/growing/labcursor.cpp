// SPDX-License-Identifier: MIT
// The time cursor's read-out: at t, the epoch or step the schedule is in, its share of the budget,
// the spend so far and the bound (and what the simulation measured there); PMWG's and NSG's cap.
#include "ui/growing/labcharts.h"

namespace pbx::ui::growinglab {

using io::json::Json;

QString cursorReadout(const LabView &view, double t, const GrowingChart &accuracy, const GrowingChart &pmwg)
{
    const bool rho = view.plan["privacy"].value("unit", "epsilon") == "rho";
    const QString unit = rho ? tr("ρ") : tr("ε");
    QString text = tr("t = %1").arg(integer(t));
    if (view.algorithm == QStringLiteral("bbscheduler")) {
        for (const Json &e : view.plan["epochs"]) {
            if (t < number(e["start"]) || t > number(e["end"]))
                continue;
            text += tr(" · epoch %1 (t %2 – %3) · %4_%1 = %5 · spent Σ = %6 of %7 · bound α + s = %8 "
                       "(α %9 + s %10)")
                        .arg(e["index"].get<int>())
                        .arg(integer(number(e["start"])), integer(number(e["end"])), unit)
                        .arg(num(number(rho ? e["rho"] : e["epsilon"]), 6))
                        .arg(num(number(e["cumulative"]), 8))
                        .arg(num(number(view.plan["privacy"]["total_reserved"]), 6))
                        .arg(num(number(e["bound"])))
                        .arg(num(number(e["alpha_black_box"])))
                        .arg(num(number(e["staleness"])));
            const double measured = accuracy.valueAt(QStringLiteral("measured"), t);
            if (std::isfinite(measured))
                text += tr(" · measured (simulation) %1").arg(num(measured));
        }
    } else if (view.algorithm == QStringLiteral("bbimprover")) {
        const Json *at = nullptr;
        for (const Json &s : view.plan["steps"])
            if (number(s["t"]) <= t)
                at = &s;
        if (at)
            text += tr(" · ρ_t = %1 · spent Σρ = %2 of %3 · bound α + s = %4")
                        .arg(num(number((*at)["rho"]), 4))
                        .arg(num(number((*at)["cumulative"]), 6))
                        .arg(num(number(view.plan["privacy"]["total_reserved"]), 6))
                        .arg(num(number((*at)["bound"])));
    } else if (view.algorithm == QStringLiteral("ermg")) {
        const Json *at = nullptr;
        for (const Json &r : view.plan["releases"])
            if (number(r["t"]) <= t)
                at = &r;
        if (at)
            text += tr(" · fit at t = %1 · ρ = %2 · Δ = %3 · σ_t = %4 · spent Σρ = %5 of %6")
                        .arg(integer(number((*at)["t"])), num(number((*at)["rho"]), 4),
                             num(number((*at)["sensitivity"]), 4), num(number((*at)["sigma"]), 4),
                             num(number((*at)["cumulative"]), 6),
                             num(number(view.plan["privacy"]["total_reserved"]), 6));
    } else {
        const double cap = pmwg.valueAt(QStringLiteral("cap"), t);
        const double hard = pmwg.valueAt(QStringLiteral("hard"), t);
        text += tr(" · cap H(t) = %1").arg(std::isfinite(cap) ? integer(cap) : QStringLiteral("—"));
        if (std::isfinite(hard))
            text += tr(" · hard queries so far %1 (simulation)").arg(integer(hard));
    }
    return text;
}

} // namespace pbx::ui::growinglab
