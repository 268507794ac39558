// SPDX-License-Identifier: MIT
// The numbers a lesson's answer reveals: a small vocabulary of placeholders, checked when the
// lesson is read and resolved from what the core computed in the step (the session's ledger and
// filter, compareStrategies on the step's plan), so a revealed number is always the app's own.
//
// Vocabulary (F is a request field, S a strategy of accounting::allStrategyNames()):
//   last.F          the last request the step asked
//   req.ID.F        the last request with id ID (asked in this step or an earlier one of the same session)
//   mean.ID.F       the mean of F over the step's requests with id ID (their repeats); numeric F only
//   coverage        % of the step's released count/sum/mean answers whose error bar holds the true value
//   coverage.ID     the same over the step's requests with id ID
//   spent.epsilon   the session's spend as ε (PrivacyFilter::epsilonSpent, an upper bound)
//   remaining       what remains in the filter's unit (ε, or ρ for the zCDP filters)
//   budget.epsilon  the session's ε budget
//   events          the number of events in the session's ledger
//   comparison.S.epsilon   ε at the comparison's δ under strategy S
//   comparison.best        the name of the strategy with the smallest ε
//   comparison.delta       the comparison's δ
//   comparison.steps       the number of steps (Σ count) of the compared ledger
//   comparison.crossover   the smallest k for which k copies of the plan's first event cost less
//                          under advanced than under basic composition (requires a plan)
//   growing.*             growing databases, computed by core/growing (lesson_growing.h)
// F: answer, halfwidth, truth (public datasets only), cost (in the event's unit), epsilon (the
// cost as ε: the filter's own conversion of a ρ, PrivacyFilter::epsilonOf, as the result card
// writes it "on its own"), unit ("ε" or "ρ"), mechanism, attempts, values (released values
// of a histogram or derived request), status ("released" or "refused"); for output-DP requests
// (odp_request.h) reserved (E*, the worst case held at admission), settled (E of the realised
// cell), returned (reserved − settled, given back to the filter) and cell (the realised cell j).
#pragma once

#include "core/accounting/comparison.h"
#include "core/session/session.h"
#include "core/util/result.h"

#include <optional>
#include <set>
#include <string>
#include <variant>

namespace pbx::lessons {

/// What a step's answer may refer to, known when the lesson is read.
struct PlaceholderContext
{
    std::set<std::string> requestIds; ///< asked in this step or earlier in the same session
    std::set<std::string> stepIds;    ///< asked in this step
    bool hasSession = false;
    bool hasComparison = false;
    bool hasPlan = false;
};

/// Checks every `{name}` in `text` against the vocabulary and `context`; `{{`/`}}` are literal.
/// Errors: Parse naming `path` and the placeholder (unknown name, unknown field, a request id not
/// asked, comparison values without a comparison, an unclosed brace).
Result<void> checkAnswerTemplate(const std::string &text, const PlaceholderContext &context,
                                 const std::string &path);

/// What a step computed, for resolving its placeholders.
struct StepOutcome
{
    const session::Session *session = nullptr; ///< the step's session (null: none)
    std::size_t firstEvent = 0;                ///< index of the step's first event in the ledger
    const accounting::Comparison *comparison = nullptr;
    double comparisonDelta = 0.0;
    const accounting::Ledger *comparedLedger = nullptr; ///< what the comparison composed
    const accounting::Ledger *plan = nullptr;           ///< the step's plan, if it has one
};

using LessonValue = std::variant<double, std::string>;

/// The error of a placeholder `{name}` whose value this step cannot give: NotFound, "{name}: why".
Error lessonValueUnavailable(const std::string &name, const std::string &why);

/// The value of one placeholder. Errors: NotFound when the step did not produce it (no such
/// request, a refused request has no answer, a strategy that does not apply, …), Unsupported for
/// `truth`/`coverage` on a dataset that is not public; the message names the placeholder.
Result<LessonValue> lessonValue(const std::string &name, const StepOutcome &outcome);

/// `text` with every placeholder replaced by formatLessonValue of its value. Errors: those of
/// lessonValue, and Parse for a malformed template.
Result<std::string> fillAnswer(const std::string &text, const StepOutcome &outcome);

/// How a placeholder's number is written: as the view that shows it writes it (formatDisplay of
/// core/util/number_format.h: "28,152", "0.02981", "1.5e-7"; significantFor(name) digits), so an
/// answer quotes the number on the screen. Privacy losses (cost, epsilon, reserved, settled,
/// spent.*, comparison.*.epsilon, comparison.delta) are rounded up and `remaining` and `returned`
/// down, as the views round them.
std::string formatLessonValue(const std::string &name, const LessonValue &value);

/// The rounding direction formatLessonValue uses for `name`: +1 up, −1 down, 0 nearest.
int roundingFor(const std::string &name);
/// The significant digits formatLessonValue writes for `name`: those of the result card and the
/// ledger for a request's answer (and truth), 6 ("8,682.43"), and half-width, 3 ("±352"); those
/// of the growing lab's read-out for an epoch's ε, 6, and cumulative ε, 8; 4 for everything else
/// (costs, spends, comparison values: the card, the gauge and the comparison table).
int significantFor(const std::string &name);
/// `x` as formatDisplay writes it (`significant` significant digits, 1 … 17), rounded in
/// `direction` (+1 up, −1 down, 0 nearest).
std::string formatNumber(double x, int direction, int significant = 4);

/// The smallest k ≤ 10⁶ for which k copies of `event` (its count ignored) cost less under
/// advanced composition (Dwork, Rothblum & Vadhan 2010, Thm III.3; Dwork & Roth 2014, Thm 3.20)
/// than under basic composition, both as the core's "advanced" and "basic" strategies report ε
/// at δ for `neighbours`. Bisection after doubling: relies on advanced/basic falling with k for
/// a fixed event (√k against k). Errors: NotFound when advanced never wins up to 10⁶; the
/// strategies' own errors (Unsupported for events they cannot account).
Result<std::int64_t> advancedCrossover(const accounting::PrivacyEvent &event,
                                       accounting::Neighbouring neighbours, double delta);

} // namespace pbx::lessons
