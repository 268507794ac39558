// SPDX-License-Identifier: MIT
// A guided lesson: a short sequence of steps, each with an explanation, a setup of the app (a
// session on an embedded dataset, requests asked in it, a planned workload compared under every
// composition strategy, the view to look at), a question and an answer whose placeholders name
// numbers the app computes in that step (lesson_values.h). Read and written by lesson_json.h.
#pragma once

#include "core/accounting/event.h"
#include "core/session/ledger_event.h"
#include "core/session/session.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pbx::lessons {

/// The views a step may ask for: "main", "comparison", "noise-reduction", "privacy-risk",
/// "lab:relative-error", "lab:strategies", "lab:output-dp", "lab:growing".
const std::vector<std::string> &lessonViewNames();

/// The tabs a step may raise in `view` (its setup's "tab"), empty for a view without tabs:
/// "comparison": the charts "curve" (ε after k steps), "profile" (δ(ε)), "rdp" and "pld";
/// "lab:strategies": "bmi", "stability", "ranges", "inference", "quantiles", "selection";
/// "lab:output-dp": "cells", "filter-path", "sparse-vector", "propose-test-release",
/// "early-stopping", "budget-recovery", "crossover"; "lab:growing": "timeline", "pmwg", "atg".
/// In the order of the view's tabs (the runner maps a name to its index).
const std::vector<std::string> &lessonTabNames(const std::string &view);

/// A fresh session for the step (the previous one, if any, is left).
struct LessonSession
{
    /// An embedded dataset's name, or a CSV file whose metadata says "public": true (the runner
    /// refuses any other before anything is asked of it: lessons never query private data).
    std::string dataset = "cps1988";
    session::SessionSettings settings;
};

/// The composition strategies compared on a planned workload (or on the session's ledger).
struct LessonComparison
{
    /// The planned workload, in the `pbx-cli account --ledger` form (accounting/ledger_json.h);
    /// unset: the session's ledger as it is after the step's requests.
    std::optional<accounting::Ledger> plan;
    std::string planJson; ///< the plan as written in the lesson (kept for writing it back)
    double delta = 1e-5;  ///< the δ at which every strategy reports ε, in (0, 1)
    /// Strategies to run (names of accounting::allStrategyNames()); empty: all of them.
    std::vector<std::string> strategies;
};

struct LessonStep
{
    std::string title;
    std::string explanation;
    std::optional<LessonSession> session;
    /// Asked in order, each `repeat` times, in the step's session (the one set here or the last
    /// one set by an earlier step).
    std::vector<session::QueryRequest> requests;
    int repeat = 1; ///< 1 … 1000
    std::optional<LessonComparison> comparison;
    std::string view = "main"; ///< one of lessonViewNames()
    /// The tab of `view` the step is about, one of lessonTabNames(view); empty: the view's first
    /// (a lab opens on its first tab, the comparison on its first chart), never the tab an
    /// earlier step or the user left in front.
    std::string tab;
    std::string question;
    /// Shown on "Reveal answer": `{name}` placeholders are replaced by the step's values
    /// (lesson_values.h); `{{` and `}}` are literal braces.
    std::string answer;
};

struct Lesson
{
    static constexpr int formatVersion = 1;
    std::string id;      ///< a short name, unique among lessons ("composition")
    std::string title;   ///< "Composition: basic, advanced, zCDP, RDP and PLD"
    std::string summary; ///< one or two sentences for the lesson list
    std::vector<LessonStep> steps;
};

} // namespace pbx::lessons
