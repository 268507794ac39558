// SPDX-License-Identifier: MIT
#include "core/report/mechanism_notes.h"

#include <vector>

namespace pbx::report {

namespace {

constexpr const char *kCalibration
    = " The noise scale is calibrated to the accuracy target before anything is drawn, and the "
      "error bar is the exact tail bound of the noise at the requested confidence, so it is "
      "computed from the released values and public parameters alone.";

bool startsWith(std::string_view text, std::string_view prefix)
{
    return text.substr(0, prefix.size()) == prefix;
}

/// One note per recorded mechanism name (or name prefix: "histogram (…)", "workload (…)").
struct NoteEntry
{
    std::string_view name;
    bool prefix = false; ///< matches every name that starts with `name`
    MethodNote note;
};

/// The session's release methods and the output-DP mechanisms.
std::vector<NoteEntry> releaseNotes()
{
    return {
        {"laplace", false,
         MethodNote{
             "Laplace mechanism",
             std::string("One release with exact discrete Laplace noise of scale t = Δ₁/ε, where Δ₁ is the "
                         "query's ℓ1 sensitivity under the session's neighbouring relation (sums and means "
                         "use the clipping bounds shown). It is pure ε-DP and is charged ε.")
                 + kCalibration,
             "Dwork, McSherry, Nissim & Smith 2006 (Laplace mechanism); Canonne, Kamath & Steinke 2020 "
             "(exact discrete Laplace sampling)"}},
        {"gaussian", false,
         MethodNote{
             "Gaussian mechanism",
             std::string("One release with exact discrete Gaussian noise of variance σ²; it is ρ-zCDP with "
                         "ρ = Δ₂²/(2σ²) and is charged ρ (rounded up).")
                 + kCalibration,
             "Bun & Steinke 2016, Proposition 1.6; Canonne, Kamath & Steinke 2020 (discrete Gaussian)"}},
        {"doubling-laplace", false,
         MethodNote{
             "Doubling (Laplace)",
             "Fresh noise at a sequence of levels, each with more budget than the last, until an answer's "
             "error bar meets the target. Every level drawn was released and is paid for, so the cost is "
             "the sum of the attempts shown. The confidence is split over the levels (union bound), so the "
             "error bar of the accepted answer holds at the requested confidence.",
             "Ligett, Neel, Roth, Waggoner & Wu 2017 (Accuracy First, the doubling baseline)"}},
        {"doubling-gaussian", false,
         MethodNote{
             "Doubling (Gaussian)",
             "Fresh noise at a sequence of levels, each with more budget than the last, until an answer's "
             "error bar meets the target. Every level drawn was released and is paid for, so the cost is "
             "the sum of the attempts shown. The confidence is split over the levels (union bound), so the "
             "error bar of the accepted answer holds at the requested confidence.",
             "Ligett, Neel, Roth, Waggoner & Wu 2017 (Accuracy First, the doubling baseline)"}},
        {"laplace-nr", false,
         MethodNote{
             "Laplace noise reduction",
             "A chain of ever less noisy Laplace releases of one query, correlated so that only the last "
             "level is paid: the ex-post privacy loss is ε = Δ/b at the level where the stopping rule "
             "accepted the answer. The loss depends on the realised run, so it is charged to an ex-post "
             "filter and only basic composition applies to it.",
             "Ligett, Neel, Roth, Waggoner & Wu 2017 (Accuracy First, Laplace noise reduction)"}},
        {"brownian", false,
         MethodNote{
             "Brownian noise reduction",
             "The answer plus a Brownian motion observed at decreasing times T; each level's noise has "
             "variance T, and stopping at T_stop costs what a single Gaussian release with variance T_stop "
             "costs: ρ = Δ²/(2·T_stop) in a zCDP filter, or an ex-post loss with a boundary in the ex-post "
             "filter. The event's accounting line says which side paid.",
             "Whitehouse, Ramdas, Rogers & Wu 2022 (Brownian noise reduction); Rogers, Samorodnitsky, Wu & "
             "Ramdas 2023"}},
        {"svt", false,
         MethodNote{"Sparse vector (output DP)",
                    "Above-threshold answers to a stream of queries against a noisy threshold; under output "
                    "differential privacy the cost depends on the released cell (how many ⊤ answers), is "
                    "reserved at its worst case before any noise is drawn and settled at the realised cell.",
                    "Dwork & Roth 2014 §3.6; Hartmann, Bindschaedler, Bentkamp & West 2023 (output DP)"}},
        {"ptr-iqr", false,
         MethodNote{
             "Propose-test-release (interquartile range)",
             "A noisy stability test decides whether the interquartile range is released; the median is "
             "released with the exponential mechanism on a public grid. The cost is that of the realised "
             "case (Hartmann et al. 2023, Lemma 10), reserved at the worst case first.",
             "Dwork & Lei 2009; Hartmann, Bindschaedler, Bentkamp & West 2023, Lemma 10"}},
        {"early-stop", false,
         MethodNote{"Early stopping (output DP)",
                    "Iterations with Laplace noise that halt at the first public stopping point where the "
                    "estimate is precise enough; the cost is the composition up to the realised stop.",
                    "Hartmann, Bindschaedler, Bentkamp & West 2023, Lemma 11"}},
        {"recover", false,
         MethodNote{
             "Budget recovery (output DP)",
             "A private model is trained and tested; the test's outcome decides which cell is released, and "
             "an unused part of the budget is recovered.",
             "Hartmann, Bindschaedler, Bentkamp & West 2023, Theorem 17"}},
    };
}

/// The growing-database streams.
std::vector<NoteEntry> streamNotes()
{
    return {
        {"bbscheduler", false,
         MethodNote{
             "Growing database (BBScheduler)",
             "The session's rows arrive one at a time in a public, seeded order. At each epoch start "
             "t_i = n(1+γ)^i a Laplace-k black box answers every query on the rows so far at ε_i, and its "
             "answers are held until the next epoch; each answer is (count + Z)/t with Z exact discrete "
             "Laplace noise on the count (scale at least k/ε_i counts). Each epoch is its own ε_i (or ρ_i) "
             "charge to the filter, and the ε_i form a series that never exceeds the stream's budget, "
             "whatever the horizon. The bound of an epoch is the discrete noise's exact tail α_i plus the "
             "staleness s_i of an answer held while rows keep arriving. "
             "Sessions recorded before the streams drew exact noise carry continuous Laplace noise on the "
             "fractions instead, with the continuous tail as their bound (verify accepts both).",
             "Cummings, Krehbiel, Lai & Tantipongpipat 2018 (Differential privacy for growing databases, "
             "BBScheduler); Dwork, McSherry, Nissim & Smith 2006 (Laplace mechanism); Canonne, Kamath & "
             "Steinke 2020 (discrete Laplace, exact sampling)"}},
        {"bbimprover", false,
         MethodNote{
             "Growing database (BBImprover)",
             "The session's rows arrive one at a time in a public, seeded order. At t = n, n+m, n+2m, … a "
             "Laplace-k black box answers every query on the rows so far, and its answers are held for the "
             "next m − 1 arrivals; each run is its own ρ_t charge to the filter (the box runs at ε_t = "
             "√(2ρ_t)), and ρ_t ∝ t^−(1+a) sums to at most the stream's ρ over an unbounded horizon, so "
             "the accuracy keeps improving as rows accumulate. Each answer is (count + Z)/t with Z exact "
             "discrete Laplace noise on the count. The bound of a run is the discrete noise's exact tail "
             "α_t plus the staleness of answers held for m − 1 more arrivals. "
             "Sessions recorded before the streams drew exact noise carry continuous Laplace noise on the "
             "fractions instead, with the continuous tail as their bound (verify accepts both).",
             "Cummings, Krehbiel, Lai & Tantipongpipat 2018 (Differential privacy for growing databases, "
             "BBImprover); Bun & Steinke 2016 (zCDP); Dwork, McSherry, Nissim & Smith 2006 (Laplace "
             "mechanism); Canonne, Kamath & Steinke 2020 (discrete Laplace, exact sampling)"}},
        {"nsg", false,
         MethodNote{
             "Growing database (NSG, sparse vector)",
             "The session's rows arrive in a public, seeded order; at evenly spaced checkpoints every "
             "counting query is compared, on the count scale, with a noisy threshold. Most answers are "
             "⊥ (below); a ⊤ releases the count's fraction with exact discrete Laplace noise on the count and ends the round, and a "
             "cap H(t) bounds the ⊤ answers by time t. Each round is charged when it opens with its whole "
             "worst case (7/3)f(s) (or its square over 2 as ρ), f(s) = 1/(sσ(s)), so the filter is never "
             "charged less than the round can lose.",
             "Cummings, Krehbiel, Lai & Tantipongpipat 2018 (Differential privacy for growing databases, "
             "NSG); Dwork & Roth 2014, Thm 3.23 (sparse vector); Bun & Steinke 2016 (zCDP); Canonne, Kamath & "
             "Steinke 2020 (discrete Laplace)"}},
        {"ermg", false,
         MethodNote{
             "Growing database (ERMG, private logistic regression)",
             "The session's rows arrive in a public, seeded order. At release times fixed in advance "
             "(BBImprover's grid t = n, n+m, … or BBScheduler's epochs) an L2-regularised logistic "
             "regression is fitted on the rows so far; its parameters θ are snapped to a power-of-two grid g "
             "and released as g·(k + Z) with Z exact discrete Gaussian noise, calibrated so the release "
             "is ρ_t-zCDP (its scale is at least σ_t = Δ_t/√(2ρ_t), Δ_t = 2/(tλ) + 2·tol/λ); each release "
             "is its own ρ_t charge to the filter, made before its noise is drawn, and the ρ_t sum to at "
             "most the stream's ρ. The bound of a release is the discrete noise's exact per-coordinate "
             "tail. Sessions recorded before the streams drew exact noise carry continuous Gaussian noise "
             "of scale σ_t instead, with the continuous tail as their bound (verify accepts both).",
             "Cummings, Krehbiel, Lai & Tantipongpipat 2018 (Differential privacy for growing databases, "
             "ERMG); Chaudhuri, Monteleoni & Sarwate 2011 (output perturbation); Bun & Steinke 2016 "
             "(zCDP); Canonne, Kamath & Steinke 2020 (discrete Gaussian, Thm 14, exact sampling)"}},
        {"smalldb", false,
         MethodNote{
             "Growing database (SmallDBG, synthetic data)",
             "The session's rows arrive in a public, seeded order. At each epoch start t_i = n(1+γ)^i the "
             "SmallDB mechanism draws, with the exact exponential mechanism at ε_i, a small synthetic "
             "database of m universe elements (region × smsa × parttime) whose 28 marginal answers are "
             "released and held until the next epoch; each epoch is its own ε_i (or ρ_i) charge to the "
             "filter, made before its draw, and the charges never exceed the stream's budget.",
             "Cummings, Krehbiel, Lai & Tantipongpipat 2018 (Differential privacy for growing databases, "
             "SmallDBG); Blum, Ligett & Roth 2008 (SmallDB); Dwork & Roth 2014, Thm 4.5; McSherry & "
             "Talwar 2007 (exponential mechanism)"}},
        {"pmwg", false,
         MethodNote{
             "Growing database (PMWG, private multiplicative weights)",
             "The session's rows arrive in a public, seeded order. A public histogram over a coarse "
             "universe moves towards the uniform distribution as rows arrive and answers every query for "
             "free; a sparse vector (on the count scale) tests whether a query's true answer is far from "
             "the histogram's. Only such a hard query reads the data: its answer is released with exact "
             "discrete Laplace noise on the count and corrects the histogram by a multiplicative-weights step, and a cap H(t) bounds "
             "the hard queries by time t. Each sparse-vector round is charged when it opens with its "
             "whole worst case (7/3)f(s) (or its square over 2 as ρ), so the filter is never charged "
             "less than the round can lose.",
             "Cummings, Krehbiel, Lai & Tantipongpipat 2018 (Differential privacy for growing databases, "
             "PMWG); Dwork & Roth 2014, Thm 3.23 (sparse vector) and Thm 4.10 (multiplicative weights); "
             "Bun & Steinke 2016 (zCDP); Canonne, Kamath & Steinke 2020 (discrete Laplace)"}},
    };
}

/// Histograms, workloads, quantiles and derived answers.
std::vector<NoteEntry> strategyNotes()
{
    return {
        {"histogram", true,
         MethodNote{
             "Histogram (discrete Laplace)",
             "Every cell of the histogram gets independent discrete Laplace noise of scale t = Δ₁/ε; the "
             "cells are disjoint, so the ℓ1 sensitivity is 1 under add/remove and 2 under replace-one. "
             "Each cell's error bar is the noise's tail bound at the requested confidence.",
             "Dwork, McSherry, Nissim & Smith 2006; Canonne, Kamath & Steinke 2020"}},
        {"workload", true,
         MethodNote{
             "Range workload (strategy matrix)",
             "A strategy (hierarchical tree or Haar wavelet) is released with discrete Laplace noise and "
             "the workload's answers are derived from it; constrained inference, when chosen, projects "
             "them to a consistent set. Derivation is post-processing and costs nothing more.",
             "Hay, Rastogi, Miklau & Suciu 2010; Xiao, Wang & Gehrke 2010"}},
        {"exponential-mechanism", false,
         MethodNote{
             "Exponential mechanism (quantile, mode)",
             "A quantile chosen on a public grid with probability ∝ exp(−ε·|rank error|/(2Δ)), or the mode / "
             "top k of a categorical column chosen with probability ∝ exp(η·count) (η = ε under add/remove, "
             "ε/2 under replace-one), sampled exactly; pure ε-DP. A mode's picks are also ε-bounded-range, "
             "so a zCDP filter charges ε²/8 per pick instead of ε²/2.",
             "McSherry & Talwar 2007; Smith 2011 (private quantiles); Durfee & Rogers 2019; Cesar & Rogers "
             "2021 (bounded range ⇒ ε²/8-zCDP)"}},
        {"report-noisy-max", false,
         MethodNote{
             "Report-noisy-max (mode)",
             "The category whose count plus Exponential(1/η) noise is largest (permute-and-flip, sampled "
             "exactly); pure ε-DP but not bounded-range, so a zCDP filter charges ε²/2 per pick.",
             "Dwork & Roth 2014, Claim 3.9; McKenna & Sheldon 2020; Ding et al. 2021"}},
        {"post-processing", false,
         MethodNote{
             "Post-processing",
             "Values derived from answers already released (sums of cells, differences, shares) without "
             "touching the data: they cost nothing, and their error bars follow from the released ones.",
             "Dwork & Roth 2014, Proposition 2.1"}},
    };
}

const std::vector<NoteEntry> &noteEntries()
{
    static const std::vector<NoteEntry> entries = [] {
        std::vector<NoteEntry> all;
        for (auto group : {releaseNotes(), streamNotes(), strategyNotes()})
            all.insert(all.end(), group.begin(), group.end());
        return all;
    }();
    return entries;
}

} // namespace

MethodNote mechanismNote(std::string_view m)
{
    // Growing streams recorded before they drew exact noise (session::recordedNoiseDesign).
    if (m == "bbscheduler:continuous" || m == "bbimprover:continuous") {
        MethodNote note = mechanismNote(m.substr(0, m.find(':')));
        note.title += ", continuous noise";
        note.text
            = "Recorded before the streams drew exact noise: the same schedule and charges as now, but each "
              "answer is the count's fraction plus continuous Laplace noise of scale k/(ε_t t), drawn in "
              "floating point, and the bound of a run is the continuous Laplace tail plus the staleness. "
              "pbx-cli verify recomputes it against that design.";
        note.sources = "Cummings, Krehbiel, Lai & Tantipongpipat 2018 (Differential privacy for growing "
                       "databases); Dwork, McSherry, Nissim & Smith 2006 (Laplace mechanism)";
        return note;
    }
    if (m == "ermg:continuous")
        return {"Growing database (ERMG, private logistic regression), continuous noise",
                "Recorded before the streams drew exact noise: the same release times and ρ_t charges as "
                "now, but θ was released with continuous Gaussian noise of scale σ_t = Δ_t/√(2ρ_t), drawn "
                "in floating point, and the bound of a release is the continuous Gaussian's per-coordinate "
                "tail. pbx-cli verify recomputes it against that design.",
                "Cummings, Krehbiel, Lai & Tantipongpipat 2018 (Differential privacy for growing databases, "
                "ERMG); Chaudhuri, Monteleoni & Sarwate 2011 (output perturbation); Bun & Steinke 2016 "
                "(zCDP)"};
    for (const NoteEntry &entry : noteEntries())
        if (entry.prefix ? startsWith(m, entry.name) : m == entry.name)
            return entry.note;
    return {std::string(m), "Recorded as is; pbx has no further description of this mechanism.", ""};
}

MethodNote filterNote(filters::FilterKind kind)
{
    using filters::FilterKind;
    switch (kind) {
    case FilterKind::Basic:
        return {
            "Basic composition filter",
            "A request is admitted only if the sum of the ε's charged so far, its own included, stays "
            "within the budget ε, even when each ε was chosen after seeing earlier answers. The session is "
            "(ε, 0)-DP.",
            "Rogers, Roth, Ullman & Vadhan 2016 (privacy filters)"};
    case FilterKind::Zcdp:
    case FilterKind::BrownianZcdp:
        return {"zCDP filter",
                "A request is admitted only if the sum of the ρ's charged so far stays within ρ(ε, δ), the "
                "largest ρ with ρ + 2√(ρ·ln(1/δ)) ≤ ε (rounded down). Pure ε charges enter as ρ = ε²/2. The "
                "stopped session is (ε, δ)-DP with fully adaptive costs.",
                "Whitehouse, Ramdas, Rogers & Wu 2023 (fully adaptive composition); Bun & Steinke 2016, "
                "Propositions 1.3 and 1.4"};
    case FilterKind::ExPost:
        return {
            "Ex-post filter",
            "Realised ex-post losses add up (basic composition of ex-post privacy) and a request is "
            "admitted only while the sum, with its worst case, stays within ε; the mechanisms' δ's add up "
            "by a union bound.",
            "Rogers, Samorodnitsky, Wu & Ramdas 2023, Lemmas 5.1 and 5.2"};
    case FilterKind::Unified:
        return {
            "Unified filter",
            "Two sub-filters under one (ε, δ): a zCDP side and an ex-post side, with the split shown under "
            "Budget. Each request is paid by one side; the two compose (Rogers et al. 2023, Theorem 3).",
            "Rogers, Samorodnitsky, Wu & Ramdas 2023, Theorem 3"};
    case FilterKind::Odp:
        return {
            "Output-DP filter",
            "Each output-DP mechanism is admitted by its worst-case cost and then debited the cost of the "
            "cell it actually released; the sum of settled costs stays within ε and the session is "
            "(ε, δ)-DP.",
            "Hartmann, Bindschaedler, Bentkamp & West 2023, Algorithm 1 and Theorem 7"};
    case FilterKind::Rdp:
        return {"Rényi (RDP) filter",
                "A grid of 24 Rényi orders, each with its own budget B(α) from (ε, δ/24) by the improved "
                "conversion; every request is charged its Rényi curve at every order (pure ε at the tight "
                "ε-DP curve, ρ at ρα) and is admitted while some order stays within its budget. Splitting δ "
                "over the orders makes the grid valid: the stopped session is (ε, δ)-DP.",
                "Feldman & Zrnic 2021 (Rényi filter); Lécuyer 2021 (filters over several orders); Canonne, "
                "Kamath & Steinke 2020, Prop. 12 (conversion)"};
    case FilterKind::Advanced:
        return {"Advanced-composition filter",
                "A request of ε_j is admitted only if √(2·ln(1/δ)·Σε_j²) + Σε_j²/2 stays within ε, its own "
                "included, even when each ε_j was chosen after seeing earlier answers: the advanced "
                "composition rate with adaptive parameters. Many small requests fit where basic "
                "composition runs out.",
                "Whitehouse, Ramdas, Rogers & Wu 2023 (fully adaptive composition); Bun & Steinke 2016, "
                "Proposition 1.4"};
    case FilterKind::Odometer:
        return {
            "Privacy odometer (no ε budget)",
            "Every request is answered; only δ was fixed in advance. After each release the session "
            "states a running ε_n = min(Σε_i, min_j (1 + λ_j)·R_n + ln(25/δ)/λ_j), λ_j = 2^{j/2}, "
            "j = 0 … 24, with R_n the sum of the ρ's (pure ε as ε²/2), and the probability that the "
            "privacy loss ever exceeds ε_n, at any n, is at most δ: the session may stop at any time, "
            "for any reason, and is then (ε_n, δ)-DP. It pays for not committing to a budget: a filter "
            "whose budget was exactly this spend would state less.",
            "Rogers, Roth, Ullman & Vadhan 2016 (privacy odometers); Whitehouse, Ramdas, Rogers & Wu 2023 "
            "(fully adaptive composition); Ville's inequality on the zCDP supermartingales"};
    }
    return {"Privacy filter", "", ""};
}

MethodNote comparisonNote()
{
    return {
        "Composition comparison",
        "The session's releases as a ledger of privacy events (each Laplace release or growing-database run one pure-ε event, each "
        "ERMG release one ρ (zCDP) event, each Gaussian release or Brownian reduction one Gaussian event), accounted by every composition "
        "strategy at the session's δ. Each ε is an upper bound, rounded up. The filter above is what "
        "guarantees the session; the comparison shows what the same releases would cost if their "
        "parameters had been fixed in advance. The PLD uses the Gaussian's exact privacy profile. Basic, advanced "
        "and optimal composition compose (ε, δ) guarantees only: as the comparison view does by default, each "
        "Gaussian or zCDP step is stated as (ε, δ) at a per-step δ of δ/(2k) for the k such steps, and the "
        "steps' δ is part of the total.",
        "Dwork, Rothblum & Vadhan 2010 (advanced); Kairouz, Oh & Viswanath 2015, Theorem 3.3 (optimal); "
        "Bun & Steinke 2016 (zCDP); Mironov 2017 (RDP); Balle & Wang 2018, Theorem 8 (Gaussian profile); "
        "Canonne, Kamath & Steinke 2020, Prop. 12 (zCDP as (ε, δ)); "
        "Koskela, Jälkö & Honkela 2020 and Gopi, Lee & Wutschitz 2021 (PLD)"};
}

} // namespace pbx::report
