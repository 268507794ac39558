// SPDX-License-Identifier: MIT
#include "ui/help/glossary.h"

#include <QCoreApplication>

namespace pbx::ui {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Glossary", text);
}

std::vector<GlossaryEntry> makeEntries()
{
    return {
        {QStringLiteral("dp"), tr("Differential privacy"),
         tr("A promise about a randomised analysis: adding or removing (or changing) one person's row changes "
            "the probability of any output by at most a factor e<sup>ε</sup>, plus δ. It limits what anyone "
            "can learn about one person, whatever else they know."),
         tr("Dwork, McSherry, Nissim & Smith 2006; Dwork & Roth 2014, Definition 2.4")},
        {QStringLiteral("epsilon"), tr("ε (epsilon)"),
         tr("The privacy-loss bound: the largest log-ratio of output probabilities between neighbouring datasets. "
            "Smaller ε means stronger privacy and noisier answers; a session's budget is an ε it never exceeds."),
         tr("Dwork & Roth 2014, Definition 2.4")},
        {QStringLiteral("delta"), tr("δ (delta)"),
         tr("The small probability with which the ε bound may fail. It should be far below 1/n for n rows "
            "(pbx's default is 10<sup>−6</sup>). Pure ε-DP has δ = 0."),
         tr("Dwork & Roth 2014, Definition 2.4")},
        {QStringLiteral("neighbouring"), tr("Neighbouring relation"),
         tr("Which datasets count as differing in one person. <i>Add/remove</i>: one row more or fewer. "
            "<i>Replace-one</i>: one row changed, the size fixed. Sensitivities, and so costs, depend on it: a "
            "count has sensitivity 1 under add/remove but also 1 under replace-one, while a histogram's ℓ1 "
            "sensitivity is 1 under add/remove and 2 under replace-one."),
         tr("Dwork & Roth 2014, §2.3; Kifer & Machanavajjhala 2011")},
        {QStringLiteral("sensitivity"), tr("Sensitivity (ℓ1, ℓ2)"),
         tr("How much a query's exact answer can move between neighbouring datasets: the ℓ1 norm for Laplace "
            "noise, the ℓ2 norm for Gaussian noise. Sums need public clipping bounds to have one."),
         tr("Dwork, McSherry, Nissim & Smith 2006, Definition 1")},
        {QStringLiteral("laplace"), tr("Laplace mechanism"),
         tr("Adds Laplace noise of scale b = Δ₁/ε: pure ε-DP. pbx draws exact discrete Laplace noise so that "
            "floating-point effects cannot leak."),
         tr("Dwork et al. 2006; Canonne, Kamath & Steinke 2020 (discrete)")},
        {QStringLiteral("gaussian"), tr("Gaussian mechanism"),
         tr("Adds Gaussian noise of standard deviation σ; it satisfies ρ-zCDP with ρ = Δ₂²/(2σ²), which "
            "converts to (ε, δ)-DP for any δ > 0."),
         tr("Bun & Steinke 2016, Proposition 1.6; Canonne, Kamath & Steinke 2020 (discrete)")},
        {QStringLiteral("rho"), tr("ρ (zCDP)"),
         tr("Zero-concentrated differential privacy bounds every Rényi divergence of order α by ρα. ρ adds up "
            "exactly under composition, which is why pbx's zCDP filter spends in ρ and shows the (ε, δ) it "
            "implies."),
         tr("Bun & Steinke 2016, Definition 1.1 and Proposition 1.3")},
        {QStringLiteral("rdp"), tr("Rényi DP and its order α"),
         tr("(α, ε)-RDP bounds the Rényi divergence of order α between the outputs on neighbouring datasets. "
            "An accountant keeps a whole curve over α and converts to (ε, δ) at the best order; the order "
            "shown is the one that gave the reported ε."),
         tr("Mironov 2017, Definition 4 and Proposition 3")},
        {QStringLiteral("composition"), tr("Composition"),
         tr("How privacy losses add up over many releases. <i>Basic</i>: ε's and δ's add. <i>Advanced</i>: "
            "about √k·ε for k releases at the price of an extra δ. <i>Optimal</i>: the exact best bound for "
            "identical (ε, δ) steps. zCDP, RDP and PLD accounting are tighter still for Gaussian noise."),
         tr("Dwork, Rothblum & Vadhan 2010; Kairouz, Oh & Viswanath 2015, Theorem 3.3")},
        {QStringLiteral("pld"), tr("Privacy-loss distribution (PLD)"),
         tr("The distribution of the privacy loss ln(P(o)/Q(o)) of an output o. Composition convolves PLDs, "
            "and δ(ε) is read off exactly; pbx discretises the loss on a grid, rounding pessimistically for an "
            "upper bound and optimistically for a lower bound, so the true ε lies in the bracket shown."),
         tr("Meiser & Mohammadi 2018; Koskela, Jälkö & Honkela 2020; Gopi, Lee & Wutschitz 2021")},
        {QStringLiteral("filter"), tr("Privacy filter"),
         tr("The gatekeeper of a session: it admits a request only if the total privacy loss would stay within "
            "the budget, whatever the analyst chose adaptively before. A refused request costs nothing."),
         tr("Rogers, Roth, Ullman & Vadhan 2016; Whitehouse, Ramdas, Rogers & Wu 2023")},
        {QStringLiteral("odometer"), tr("Privacy odometer"),
         tr("Tracks the privacy loss spent so far without a budget fixed in advance; a filter stops at a budget, "
            "an odometer only reports. pbx's gauge shows the odometer reading beside the filter's budget."),
         tr("Rogers, Roth, Ullman & Vadhan 2016")},
        {QStringLiteral("expost"), tr("Ex-post privacy"),
         tr("A privacy loss that depends on the output actually released: a mechanism that stopped early, at "
            "a noisier answer, is charged less. It is a property of the realised run, accounted by an ex-post "
            "filter."),
         tr("Ligett, Neel, Roth, Waggoner & Wu 2017 (Accuracy First)")},
        {QStringLiteral("noise-reduction"), tr("Noise reduction"),
         tr("Releases ever more accurate answers to one query, correlated so that only the last one is paid "
            "for. It lets pbx stop as soon as an answer meets the accuracy target (Laplace or Brownian noise "
            "reduction)."),
         tr("Ligett et al. 2017; Whitehouse, Ramdas, Rogers & Wu 2022")},
        {QStringLiteral("doubling"), tr("Doubling"),
         tr("The simple alternative to noise reduction: ask with a small budget, and if the answer is not "
            "accurate enough, ask again with twice the budget, paying for every attempt."),
         tr("Ligett et al. 2017 (Accuracy First)")},
        {QStringLiteral("accuracy-target"), tr("Accuracy target and confidence"),
         tr("What the user asks for instead of a noise level: the answer within ±a (absolute) or ±α·|answer| "
            "(relative), with probability at least the confidence 1 − β. The error bar shown holds at that "
            "confidence."),
         tr("Ligett et al. 2017 (Accuracy First)")},
        {QStringLiteral("post-processing"), tr("Post-processing"),
         tr("Anything computed from released answers alone, without the data, costs no privacy: sums of "
            "released cells, rounding, consistency fixes."),
         tr("Dwork & Roth 2014, Proposition 2.1")},
        {QStringLiteral("parallel"), tr("Parallel composition"),
         tr("Releases on disjoint parts of the data cost the maximum of their ε's, not the sum, under the "
            "add/remove relation. Under replace-one a changed row can move between parts, so two parts are "
            "affected."),
         tr("McSherry 2009 (PINQ)")},
        {QStringLiteral("subsampling"), tr("Amplification by subsampling"),
         tr("Running a mechanism on a random subsample (each row kept with probability q) makes it more "
            "private: an ε-DP step becomes ln(1 + q(e<sup>ε</sup> − 1))-DP."),
         tr("Li, Qardaji & Su 2012; Balle, Barthe & Gaboardi 2018")},
    };
}

} // namespace

const std::vector<GlossaryEntry> &glossaryEntries()
{
    static const std::vector<GlossaryEntry> entries = makeEntries();
    return entries;
}

const GlossaryEntry *glossaryEntry(const QString &anchor)
{
    for (const GlossaryEntry &entry : glossaryEntries())
        if (entry.anchor == anchor)
            return &entry;
    return nullptr;
}

QString glossaryHtml()
{
    QString html;
    for (const GlossaryEntry &entry : glossaryEntries())
        html += QStringLiteral("<h3><a name=\"%1\"></a>%2</h3><p>%3<br><i>%4</i></p>")
                    .arg(entry.anchor, entry.term.toHtmlEscaped(), entry.definition,
                         entry.source.toHtmlEscaped());
    return html;
}

} // namespace pbx::ui
