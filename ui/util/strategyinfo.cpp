// SPDX-License-Identifier: MIT
#include "ui/util/strategyinfo.h"

#include "ui/util/palette.h"

#include "core/accounting/strategy_titles.h"

#include <QCoreApplication>

namespace pbx::ui {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("pbx::ui::StrategyInfo", text);
}

/// The row's name, as the lessons and the report write it (core/accounting/strategy_titles.h).
QString title(const char *id)
{
    const std::string_view text = accounting::strategyTitle(id);
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QList<StrategyInfo> makeInfos()
{
    // Okabe–Ito colours (distinguishable with the common colour-vision deficiencies); the PLD,
    // the tightest numerical reference, is drawn dark.
    return {
        {QStringLiteral("basic"), title("basic"), QColor(0xd5, 0x5e, 0x00),
         tr("ε = Σ ε<sub>j</sub>, &nbsp; δ = 1 − Π(1 − δ<sub>j</sub>) ≤ Σ δ<sub>j</sub>"),
         tr("Dwork, McSherry, Nissim &amp; Smith 2006; Dwork &amp; Roth 2014, Thm 3.16."),
         tr("Adds the worst case of every step. That is tight for one unlucky outcome (every "
            "Laplace draw on the same side) but ignores that losses average out, so it grows "
            "linearly in k. It needs an (ε, δ) per step: Gaussian steps enter only through the "
            "per-step (ε, δ) view (each converted at the per-step δ you set); it is "
            "the only strategy that accepts ex-post losses (Laplace noise reduction).")},
        {QStringLiteral("advanced"), title("advanced"), QColor(0xe6, 0x9f, 0x00),
         tr("ε′ = √(2 ln(1/δ′) Σ ε<sub>j</sub><sup>2</sup>) + Σ ε<sub>j</sub>(e<sup>ε<sub>j</sub></sup> − 1), "
            "&nbsp; δ = δ′ + Σ δ<sub>j</sub> &nbsp; (k equal steps: ε√(2k ln(1/δ′)) + kε(e<sup>ε</sup> − 1))"),
         tr("Dwork, Rothblum &amp; Vadhan 2010; Dwork &amp; Roth 2014, Thm 3.20."),
         tr("Azuma's inequality on the privacy-loss martingale: it grows like √k instead of k, "
            "but pays e<sup>ε</sup> − 1 per step and a factor √(2 ln(1/δ′)), so it only helps for "
            "long ledgers of small steps. When basic composition is smaller the table reports "
            "basic (both are valid).")},
        {QStringLiteral("optimal"), title("optimal"), QColor(0xcc, 0x79, 0xa7),
         tr("δ(ε) = (1+e<sup>ε₀</sup>)<sup>−k</sup> Σ<sub>l</sub> C(k,l) max(0, "
            "e<sup>(k−l)ε₀</sup> − e<sup>ε+lε₀</sup>), then 1 − (1−δ₀)<sup>k</sup>(1 − δ)"),
         tr("Kairouz, Oh &amp; Viswanath 2015, Thm 3.3 (k equal steps); Murtagh &amp; Vadhan "
            "2016 for unequal steps (computed here through a PLD)."),
         tr("The best bound that knows nothing but each step's (ε, δ): the worst mechanism with "
            "that guarantee is randomized response, and this is its exact composition. It cannot "
            "use that Laplace noise behaves better than randomized response at the same ε (RDP "
            "and the PLD can), and Gaussian steps enter it only through the per-step (ε, δ) view.")},
        {QStringLiteral("zcdp"), title("zcdp"), QColor(0x00, 0x9e, 0x73),
         tr("ρ<sub>j</sub> = Δ²/(2σ²) (Gaussian), ε tanh(ε/2) (ε-DP); ρ = Σ ρ<sub>j</sub>; "
            "ε = inf<sub>α</sub> αρ + ln(1−1/α) + (ln(1/δ) − ln α)/(α−1)"),
         tr("Bun &amp; Steinke 2016; conversion: Canonne, Kamath &amp; Steinke 2020, Prop. 12 "
            "(the simpler ρ + 2√(ρ ln(1/δ)) is shown as detail)."),
         tr("One number per step that adds exactly for Gaussian noise, so it is close to the PLD "
            "for Gaussian ledgers and loses only in the final conversion. It cannot express "
            "amplification by subsampling (DP-SGD) nor an (ε, δ) step with δ &gt; 0.")},
        {QStringLiteral("rdp"), title("rdp"), QColor(0x00, 0x72, 0xb2),
         tr("ε̂(α) = Σ<sub>j</sub> ε̂<sub>j</sub>(α) on a grid of orders; "
            "ε = min<sub>α</sub> ε̂(α) + ln(1−1/α) − (ln δ + ln α)/(α−1)"),
         tr("Mironov 2017; improved conversion: Canonne, Kamath &amp; Steinke 2020, Asoodeh et "
            "al. 2020, Balle et al. 2020 (as in Opacus and TF Privacy)."),
         tr("A whole curve per mechanism, so it captures subsampled Gaussians (DP-SGD) and "
            "Laplace noise far better than one ε or ρ. It loses in the conversion to (ε, δ) and "
            "on the finite order grid; the optimal order is shown. The RDP chart plots ε̂(α) "
            "and the ε each order would give.")},
        {QStringLiteral("pld"), title("pld"), palette::chartInk,
         tr("L = ln(P(y)/Q(y)) discretised on a grid of step d and composed by FFT; "
            "δ(ε) = E[(1 − e<sup>ε−L</sup>)<sub>+</sub>] + P[L = ∞]"),
         tr("Meiser &amp; Mohammadi 2018; Koskela, Jälkö &amp; Honkela 2020; Doroshenko et al. "
            "2022 (connect the dots), as in Google's dp_accounting."),
         tr("Tracks the whole distribution of the privacy loss, so it is exact up to "
            "discretisation: the pessimistic PMF gives an upper bound, the optimistic one a lower "
            "bound, and their bracket shows the discretisation error. Usually the smallest ε, and "
            "the most computation (long ledgers run in the background).")},
    };
}

} // namespace

const QList<StrategyInfo> &strategyInfos()
{
    static const QList<StrategyInfo> infos = makeInfos();
    return infos;
}

const StrategyInfo &strategyInfo(const QString &name)
{
    static const StrategyInfo unknown{QString(), QString(), QColor(Qt::gray), {}, {}, {}};
    const int i = strategyIndex(name);
    return i >= 0 ? strategyInfos().at(i) : unknown;
}

int strategyIndex(const QString &name)
{
    const auto &infos = strategyInfos();
    for (int i = 0; i < infos.size(); ++i)
        if (infos.at(i).name == name)
            return i;
    return -1;
}

} // namespace pbx::ui
