// SPDX-License-Identifier: MIT
// The time cursor's read-out: at t, the epoch or step the schedule is in, its share of the budget,
// the spend so far and the bound (and what the simulation measured there); PMWG's and NSG's cap.
#include "ui/growing/labcharts.h"
#include "ui/util/boundformat.h"

#include <variant>

namespace pbx::ui::growinglab {

QString cursorReadout(const LabView &view, double t, const GrowingChart &accuracy, const GrowingChart &pmwg)
{
    const growing::LabPrivacy &privacy = privacyOf(view.plan);
    const bool rho = privacy.rho;
    const QString unit = rho ? tr("ρ") : tr("ε");
    QString text = tr("t = %1").arg(integer(t));
    if (const auto *scheduler = std::get_if<growing::SchedulerResult>(&view.plan.body)) {
        for (const growing::EpochPlan &e : scheduler->epochs) {
            if (t < double(e.start) || t > double(e.last))
                continue;
            text += tr(" · epoch %1 (t %2 – %3) · %4_%1 = %5 · spent Σ = %6 of %7 · bound α + s = %8 "
                       "(α %9 + s %10)")
                        .arg(int(e.privacy.index))
                        .arg(integer(double(e.start)), integer(double(e.last)), unit)
                        // Losses rounded up, as the lessons quote them (issue 29 §3).
                        .arg(formatBound(rho ? e.privacy.rho : e.privacy.epsilon, 6))
                        .arg(formatBound(e.privacy.cumulative, 8))
                        .arg(num(privacy.totalReserved, 6))
                        .arg(num(e.bound))
                        .arg(num(e.alphaBlackBox))
                        .arg(num(e.staleness));
            const double measured = accuracy.valueAt(QStringLiteral("measured"), t);
            if (std::isfinite(measured))
                text += tr(" · measured (simulation) %1").arg(num(measured));
        }
    } else if (const auto *improver = std::get_if<growing::ImproverResult>(&view.plan.body)) {
        const growing::ImproverRow *at = nullptr;
        for (const growing::ImproverRow &s : improver->steps)
            if (double(s.t) <= t)
                at = &s;
        if (at)
            text += tr(" · ρ_t = %1 · spent Σρ = %2 of %3 · bound α + s = %4")
                        .arg(num(at->step.rho, 4))
                        .arg(num(at->cumulative, 6))
                        .arg(num(privacy.totalReserved, 6))
                        .arg(num(at->step.bound));
    } else if (const auto *ermg = std::get_if<growing::ErmgResult>(&view.plan.body)) {
        const growing::ErmgRelease *at = nullptr;
        for (const growing::ErmgRelease &r : ermg->releases)
            if (double(r.t) <= t)
                at = &r;
        if (at)
            text += tr(" · fit at t = %1 · ρ = %2 · Δ = %3 · σ_t = %4 · spent Σρ = %5 of %6")
                        .arg(integer(double(at->t)), num(at->rho, 4), num(at->sensitivity, 4),
                             num(at->sigma, 4), num(at->cumulative, 6), num(privacy.totalReserved, 6));
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
