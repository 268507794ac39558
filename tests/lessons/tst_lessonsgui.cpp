// SPDX-License-Identifier: MIT
// Every shipped lesson run end to end in the main window (offscreen): each step's setup is
// applied, its answer revealed, and every number in the revealed answer is checked against the
// value this test computes itself from the core (the session's ledger, compareStrategies,
// evaluateStrategy). Back replays a step identically (seeded), ending a lesson restores the
// user's session, the user's lesson folder lists bad files with their error, and every step is
// photographed at 1024×700 and 1920×1080. lessonNumbersMatchTheScreen reads every number of every
// shipped answer off the view that shows it (issue 29 §3) and checks the raised view and tab and
// the query box after each step (a Range strategies tab set to the step's workload, a user lesson's
// privacy-risk view showing the budget it quotes; the relative-error lab, which runs its own
// experiment, may not be raised); queryBoxFollowsTheSteps does the box field by field.
#include "core/accounting/comparison.h"
#include "core/accounting/evaluation.h"
#include "core/data/query.h"
#include "core/growing/bb_scheduler.h"
#include "core/growing/growing_lab.h"
#include "core/growing/growing_svt.h"
#include "core/io/growing_lab_json.h"
#include "core/io/session_journal.h"
#include "core/lessons/lesson_json.h"
#include "core/lessons/lesson_values.h"
#include "core/privacy/zcdp_conversion.h"
#include "core/session/ledger/session_ledger.h"
#include "core/session/mechanism_choice.h"
#include "core/simulation/growing_lab_run.h"
#include "tests/cli/clitestutils.h"
#include "tests/test_rows.h"
#include "tests/ui/transcriptfixture.h"
#include "tests/ui/uitestutils.h"
#include "ui/appsettings.h"
#include "ui/charts/comparisoncharts.h"
#include "ui/charts/privacylosspathchart.h"
#include "ui/comparison/comparisonlayout.h"
#include "ui/comparison/comparisonview.h"
#include "ui/comparison/planmodel.h"
#include "ui/comparison/strategyresultsmodel.h"
#include "ui/growing/atgpanel.h"
#include "ui/growing/growinglabdialog.h"
#include "ui/lab/labdialog.h"
#include "ui/lessons/lessoncatalog.h"
#include "ui/lessons/lessonrunner.h"
#include "ui/lessons/lessonspanel.h"
#include "ui/lessons/welcome.h"
#include "ui/mainwindow.h"
#include "ui/models/ledgermodel.h"
#include "ui/noisereduction/noisereductionview.h"
#include "ui/odp/odplabdialog.h"
#include "ui/panels/querybuilder.h"
#include "ui/risk/privacyriskview.h"
#include "ui/sessiondocument.h"
#include "ui/strategies/strategieslabdialog.h"
#include "ui/util/numberformat.h"
#include "ui/util/strategyinfo.h"
#include "ui/widgets/budgetgauge.h"
#include "ui/widgets/resultcard.h"

#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTimer>

#include <cmath>
#include <functional>
#include <map>

using namespace pbx;
using namespace pbx::ui;

namespace {

/// BBScheduler, n = 1000, γ = 1, pure ε = 1, geometric, Laplace-k (k = 10), β = 0.05: the worked plan.
growing::SchedulerConfig workedPlan()
{
    growing::SchedulerConfig c;
    c.startSize = 1000;
    c.gamma = 1.0;
    c.budget.epsilon = 1.0;
    c.schedule = growing::ScheduleKind::Geometric;
    c.beta = 0.05;
    c.box.queries = 10;
    return c;
}

/// The last epoch's median largest error of the lesson's staleness simulation, via the lab document.
double stalenessMedian(const session::Session &s, const char *order)
{
    using io::json::Json;
    const Json doc{
        {"format", "pbx-growing-lab"},
        {"version", 1u},
        {"algorithm", "bbscheduler"},
        {"dataset", "cps1988"},
        {"stream", Json{{"start_size", 1000u}, {"order", order}}},
        {"budget", Json{{"kind", "pure"}, {"epsilon", 1.0}}},
        {"schedule", Json{{"kind", "geometric"}, {"gamma", 1.0}}},
        {"black_box", Json{{"kind", "laplace-k"}, {"queries", Json::array({"region == \"south\""})}}},
        {"beta", 0.05},
        {"repetitions", 100u}};
    auto config = growing::parseGrowingLab(doc);
    auto out = growing::runGrowingLab(*config, &s.table(), s.settings().seed.value(), false);
    return std::get<growing::SchedulerResult>(out->body).monteCarlo->epochMedian.back();
}

/// growing.* placeholders, from core/growing directly.
QString expectedGrowing(const QStringList &parts, const session::Session *s,
                        const std::function<QString(double)> &number)
{
    const growing::NoiseUnit unit{1000, 0.002, 0.5};
    const QString what = parts.value(1);
    if (what == QLatin1String("budget"))
        return number(1.0);
    if (what == QLatin1String("optimal_gamma"))
        return number(growing::optimalGamma(workedPlan(), 1000)->gamma);
    if (what == QLatin1String("epoch")) {
        const int i = parts[2].toInt();
        const auto epochs = *growing::planEpochs(workedPlan(), std::uint64_t(1000) << (i + 1));
        const auto &e = epochs[std::size_t(i)];
        const QString f = parts[3];
        return number(f == QLatin1String("start")        ? double(e.start)
                      : f == QLatin1String("end")        ? double(e.last)
                      : f == QLatin1String("epsilon")    ? e.privacy.epsilon
                      : f == QLatin1String("cumulative") ? e.privacy.cumulative
                      : f == QLatin1String("alpha")      ? e.alphaBlackBox
                      : f == QLatin1String("staleness")  ? e.staleness
                                                         : e.bound);
    }
    if (what == QLatin1String("staleness"))
        return number(stalenessMedian(*s, parts[2] == QLatin1String("sorted") ? "sorted:region == \"south\""
                                                                              : "random"));
    const std::uint64_t start = parts[2].toULongLong();
    const std::uint64_t halt = parts[3].toULongLong();
    return number(what == QLatin1String("atg") ? growing::atgLoss(unit, start, halt)
                                               : growing::naiveFractionScaleLoss(unit, start, halt));
}

/// The test's own computation of one placeholder, from the core, without lesson_values.cpp.
QString expectedValue(const std::string &name, const session::Session *s, std::size_t firstEvent,
                      const lessons::LessonStep &step)
{
    const auto number = [&](double x) {
        return QString::fromStdString(
            lessons::formatNumber(x, lessons::roundingFor(name), lessons::significantFor(name)));
    };
    QStringList parts = QString::fromStdString(name).split(u'.');
    const QString head = parts.front();
    if (head == QLatin1String("growing"))
        return expectedGrowing(parts, s, number);
    if (head == QLatin1String("comparison")) {
        accounting::Ledger ledger;
        if (step.comparison->plan)
            ledger = *step.comparison->plan;
        else
            ledger = *accounting::ledgerFromSession(*s);
        const accounting::AccountingQuery query{true, step.comparison->delta};
        const QString what = parts.value(1);
        if (parts.size() == 2 && what == QLatin1String("delta"))
            return number(step.comparison->delta);
        if (parts.size() == 2 && what == QLatin1String("steps")) {
            double steps = 0;
            for (const auto &e : ledger.events)
                steps += static_cast<double>(e.count);
            return number(steps);
        }
        if (parts.size() == 2
            && (what == QLatin1String("filter_crossover")
                || what == QLatin1String("filter_crossover_epsilon"))) {
            // The advanced-composition filter at ε = 1: Σε_j² ≤ 2ρ(1, δ) against Σε_j ≤ 1, so equal
            // requests of ε₀ do better than basic once ε₀ < 2ρ, beyond 1/(2ρ) of them.
            const double rho = privacy::rhoFromEpsilon(1.0, step.comparison->delta).value();
            return number(what == QLatin1String("filter_crossover") ? std::ceil(1.0 / (2.0 * rho))
                                                                    : 2.0 * rho);
        }
        if (parts.size() == 2 && what == QLatin1String("crossover")) {
            // A plain linear scan (the lesson code searches by bisection).
            auto event = ledger.events.front();
            for (std::int64_t k = 1; k < 100000; ++k) {
                event.count = k;
                const accounting::Ledger one{ledger.neighbours, {event}};
                if (accounting::evaluateStrategy("advanced", one, query)->epsilon
                    < accounting::evaluateStrategy("basic", one, query)->epsilon)
                    return number(static_cast<double>(k));
            }
            return QStringLiteral("(no crossover)");
        }
        std::vector<std::string> names = step.comparison->strategies;
        if (names.empty())
            names = accounting::allStrategyNames();
        std::string best;
        double bestEpsilon = INFINITY;
        for (const auto &n : names)
            if (auto a = accounting::evaluateStrategy(n, ledger, query); a.ok() && a->epsilon < bestEpsilon) {
                bestEpsilon = a->epsilon;
                best = n;
            }
        // The name the comparison view's row shows.
        if (parts.size() == 2 && what == QLatin1String("best"))
            return ui::strategyInfo(QString::fromStdString(best)).title;
        const std::string strategy = what == QLatin1String("best") ? best : what.toStdString();
        auto answer = accounting::evaluateStrategy(strategy, ledger, query);
        if (!answer.ok())
            return QStringLiteral("(not applicable)");
        if (parts.value(2) == QLatin1String("times_basic"))
            return number(accounting::evaluateStrategy("basic", ledger, query)->epsilon / answer->epsilon);
        return number(answer->epsilon);
    }
    const auto &events = s->events();
    if (name == "spent.epsilon")
        return number(s->filter().epsilonSpent());
    if (name == "budget.epsilon")
        return number(s->settings().epsilon);
    if (name == "remaining")
        return number(s->filter().remaining());
    if (name == "events")
        return number(static_cast<double>(events.size()));
    const auto truthOf = [&](const session::LedgerEvent &e) {
        const auto stats = data::CompiledQuery::compile(e.request.query, s->table())
                               ->evaluate(pbx::test::PublicRows(s->table()));
        switch (e.request.query.aggregate) {
        case data::Aggregate::Count:
            return stats.count;
        case data::Aggregate::Sum:
            return stats.clippedSum;
        case data::Aggregate::Mean:
            break;
        }
        return stats.clippedSum / stats.count;
    };
    if (head == QLatin1String("coverage")) {
        const std::string id = parts.size() > 1 ? parts[1].toStdString() : std::string();
        int covered = 0, total = 0;
        for (std::size_t i = firstEvent; i < events.size(); ++i) {
            const auto &e = events[i];
            if (e.status != session::EventStatus::Released || (!id.empty() && e.request.id != id))
                continue;
            ++total;
            covered += std::abs(e.answer - truthOf(e)) <= e.errorBound ? 1 : 0;
        }
        return number(100.0 * covered / total);
    }
    const QString field = parts.back();
    const auto fieldOf = [&](const session::LedgerEvent &e) -> double {
        if (field == QLatin1String("answer"))
            return e.answer;
        if (field == QLatin1String("halfwidth"))
            return e.errorBound;
        if (field == QLatin1String("cost"))
            return e.cost;
        if (field == QLatin1String("attempts"))
            return static_cast<double>(e.attempts.size());
        if (field == QLatin1String("values"))
            return static_cast<double>(e.strategyRecord()->values.size());
        if (field == QLatin1String("truth"))
            return truthOf(e);
        if (field == QLatin1String("reserved"))
            return e.odpRecord()->reservedEpsilon;
        if (field == QLatin1String("settled"))
            return e.odpRecord()->settledEpsilon;
        if (field == QLatin1String("returned"))
            return e.odpRecord()->reservedEpsilon - e.odpRecord()->settledEpsilon;
        if (field == QLatin1String("cell"))
            return static_cast<double>(e.odpRecord()->cell.value());
        if (field == QLatin1String("epsilon"))
            return e.costKind == filters::ChargeKind::Rho ? s->filter().epsilonOf(e.cost) : e.cost;
        return NAN;
    };
    const std::string id = parts.mid(1, parts.size() - 2).join(u'.').toStdString();
    if (head == QLatin1String("last"))
        return number(fieldOf(events.back()));
    if (head == QLatin1String("req")) {
        for (auto it = events.rbegin(); it != events.rend(); ++it)
            if (it->request.id == id)
                return number(fieldOf(*it));
    }
    if (head == QLatin1String("mean")) {
        double sum = 0;
        int n = 0;
        for (std::size_t i = firstEvent; i < events.size(); ++i)
            if (events[i].request.id == id) {
                sum += fieldOf(events[i]);
                ++n;
            }
        return number(sum / n);
    }
    return QStringLiteral("(unknown %1)").arg(QString::fromStdString(name));
}

/// Every number an answer quotes from a view is the string that view shows: the comparison
/// table's ε of each strategy (and the name of the cheapest), and the gauge's spent and remaining.
void checkAnswerAgainstViews(MainWindow &w, const lessons::LessonStep &step, const session::Session *s,
                             std::size_t firstEvent)
{
    static const QRegularExpression placeholder(QStringLiteral("\\{([a-z_.]+)\\}"));
    const QString answer = QString::fromStdString(step.answer);
    for (auto it = placeholder.globalMatch(answer); it.hasNext();) {
        const std::string name = it.next().captured(1).toStdString();
        const QString expected = expectedValue(name, s, firstEvent, step);
        const QStringList parts = QString::fromStdString(name).split(u'.');
        if (parts.front() == QLatin1String("comparison") && parts.size() == 3
            && parts[2] == QLatin1String("epsilon") && step.view == "comparison") {
            const auto *model = w.comparisonView()->resultsModel();
            QString shown;
            // The view composes in the background: wait for its row.
            QTRY_VERIFY_WITH_TIMEOUT(
                [&] {
                    for (int row = 0; row < model->rowCount(); ++row) {
                        const QString rowName
                            = model->index(row, 0).data(ui::StrategyResultsModel::NameRole).toString();
                        const QString value
                            = model->index(row, ui::StrategyResultsModel::Value).data().toString();
                        if (parts[1] == QLatin1String("best")
                                ? model->index(row, 0).data().toString()
                                      == expectedValue("comparison.best", s, firstEvent, step)
                                : rowName == parts[1]) {
                            shown = value;
                            return value == expected;
                        }
                    }
                    return false;
                }(),
                60000);
            QCOMPARE(shown, expected);
        }
        if (name == "spent.epsilon" || name == "remaining") {
            const QString readout = w.budgetGauge()->readout();
            QVERIFY2(readout.contains(expected),
                     qPrintable(QString::fromStdString(name) + u' ' + expected
                                + QStringLiteral(" not in the gauge's ") + readout));
        }
    }
}

/// The answer as the test expects it: every placeholder replaced by expectedValue.
QString expectedAnswer(const lessons::LessonStep &step, const session::Session *s, std::size_t firstEvent)
{
    QString text = QString::fromStdString(step.answer);
    QString out;
    static const QRegularExpression token(QStringLiteral("\\{\\{|\\}\\}|\\{([^{}]*)\\}"));
    qsizetype at = 0;
    for (auto it = token.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        out += text.mid(at, m.capturedStart() - at);
        if (m.captured(0) == QLatin1String("{{"))
            out += u'{';
        else if (m.captured(0) == QLatin1String("}}"))
            out += u'}';
        else
            out += expectedValue(m.captured(1).toStdString(), s, firstEvent, step);
        at = m.capturedEnd();
    }
    return out + text.mid(at);
}

void photograph(MainWindow &w, const QString &name)
{
    for (const QSize size : {QSize(1024, 700), QSize(1920, 1080)}) {
        w.resize(size);
        QTest::qWait(50);
        w.flushViews();
        const QString suffix = QStringLiteral("-%1x%2").arg(size.width()).arg(size.height());
        QVERIFY(!test::saveScreenshot(w, name + suffix).isEmpty());
        if (w.comparisonDock()->isVisible() && w.comparisonDock()->isFloating()) {
            w.comparisonDock()->resize(size.boundedTo(QSize(1400, 900)));
            QVERIFY(!test::saveScreenshot(*w.comparisonDock(), name + QStringLiteral("-comparison") + suffix)
                         .isEmpty());
        }
    }
}

/// `number` as a whole token of `text` (not a piece of "0.15", "14" or "4,000").
bool showsNumber(const QString &text, const QString &number)
{
    const QRegularExpression token(
        QStringLiteral("(?<![0-9.,])%1(?![0-9]|[.,][0-9])").arg(QRegularExpression::escape(number)));
    return token.match(text).hasMatch();
}

/// Every number written in `text` ("8,784", "0.02981", "1.5e-7", "95").
QStringList numbersIn(const QString &text)
{
    static const QRegularExpression number(QStringLiteral("[0-9]+(?:[.,][0-9]+)*(?:e[-−+]?[0-9]+)?"));
    QStringList out;
    for (auto it = number.globalMatch(text); it.hasNext();)
        out << it.next().captured(0);
    return out;
}

/// Numbers a shipped answer writes in its prose (not placeholders): none is a value a view shows.
struct ProseNumber
{
    const char *lesson;
    int step; ///< 1-based
    const char *number;
    const char *why;
};
// clang-format off
const ProseNumber kProseNumbers[] = {
    {"accuracy-cost", 1, "100", "the request's target ±100 (the ledger's Target column says \"±100 @ 95 %\")"},
    {"accuracy-cost", 1, "50", "the request's target ±50"},
    {"accuracy-cost", 1, "20", "ln(20): the formula for 95 % (β = 0.05, 1/β = 20)"},
    {"accuracy-cost", 1, "0.02996", "the continuous-Laplace formula ln(20)/100, which the answer contrasts with the app's discrete noise"},
    {"accuracy-cost", 1, "101", "the first error that misses ±100 with integer noise"},
    {"accuracy-cost", 1, "95", "the requests' confidence"},
    {"accuracy-cost", 2, "5", "the relative target ±5 %"},
    {"accuracy-cost", 3, "10", "δ = 10⁻⁶ written as a power (its exponent is a superscript)"},
    {"accuracy-cost", 4, "95", "the confidence the error bars promise"},
    {"accuracy-cost", 4, "40", "the step's repeat count (the ledger has 40 rows)"},
    {"accuracy-cost", 4, "2", "the expected number of misses, 5 % of 40"},
    {"composition", 1, "0.125", "ε₀ of the plan's counts, 1/b for b = 8 (the plan editor shows the scale 8)"},
    {"composition", 1, "2015", "a citation's year"},
    {"composition", 1, "2010", "a citation's year"},
    {"composition", 1, "2023", "a citation's year"},
    {"composition", 1, "1", "the filter's budget ε = 1 in the prose about the advanced-composition filter"},
    {"composition", 2, "10", "δ = 10⁻⁵ written as a power"},
    {"composition", 3, "10", "δ = 10⁻⁵ written as a power"},
    {"composition", 4, "500", "the plan's count (the plan editor shows it)"},
    {"parallel-postprocessing", 4, "10", "δ = 10⁻⁶ written as a power"},
    {"accuracy-cost", 1, "1", "ε ∝ 1/scale, a formula"},
    {"composition", 4, "0", "(ε₀, 0): a pure step's δ"},
    {"noise-reduction", 3, "40", "20 repeats of two requests: the ledger's 40 rows"},
    {"parallel-postprocessing", 2, "100", "the previous step's target ±100"},
    {"output-dp", 1, "0", "the scan's cells j = 0, 1, 2 and the realised cell 0 (the card says \"cell j = 0 of c = 2\")"},
    {"output-dp", 1, "1", "the scan's cells j = 0, 1, 2"},
    {"output-dp", 1, "2", "the scan's cells j = 0, 1, 2 (c = 2)"},
    {"strategies", 2, "21", "the education column's 21 cells (its declared levels)"},
    {"growing", 1, "0", "an epoch's index"},
    {"growing", 1, "3", "an epoch's index"},
    {"growing", 1, "9", "an epoch's index"},
    {"growing", 1, "8", "an epoch's index"},
    {"growing", 1, "1,000,000", "the lab's horizon (its Horizon field)"},
    {"growing", 2, "4", "an epoch's index"},
    {"growing", 3, "1,000", "the round's start s, the lab's start size"},
    {"growing", 3, "100,000", "a halting time t the answer picks"},
    {"growing", 3, "1,000,000", "a halting time t the answer picks"},
    {"growing", 3, "1", "1/s: a sensitivity"},
};
// clang-format on

/// Why a placeholder's value is on no screen (empty: a view shows it).
QString offScreen(const std::string &name)
{
    const QStringList parts = QString::fromStdString(name).split(u'.');
    const QString head = parts.front();
    const QString field = parts.back();
    if (head == QLatin1String("mean"))
        return QStringLiteral("a mean over the step's repeats; the ledger shows each repeat");
    if (head == QLatin1String("coverage") || field == QLatin1String("truth"))
        return QStringLiteral("computed from the public rows for teaching; no view shows a true value");
    if (name == "comparison.crossover" || name == "comparison.filter_crossover"
        || name == "comparison.filter_crossover_epsilon")
        return QStringLiteral(
            "a property of the plan's event the lesson computes; the table shows the plan's own ε");
    if (field == QLatin1String("times_basic"))
        return QStringLiteral("the ratio of two numbers of the table");
    return {};
}

/// The index of the last event with id `id` (the last event for an empty id).
int eventIndex(const session::Session &s, const std::string &id)
{
    int index = static_cast<int>(s.events().size()) - 1;
    while (!id.empty() && index >= 0 && s.events()[static_cast<std::size_t>(index)].request.id != id)
        --index;
    return index;
}

/// The ledger's column that shows a request's `field`, or -1.
int ledgerColumn(const QString &field, const session::LedgerEvent &event)
{
    if (field == QLatin1String("answer"))
        return LedgerModel::Answer;
    if (field == QLatin1String("halfwidth"))
        return LedgerModel::ErrorBound;
    if (field == QLatin1String("attempts"))
        return LedgerModel::Attempts;
    if (field == QLatin1String("cost")
        || (field == QLatin1String("epsilon") && event.costKind != filters::ChargeKind::Rho))
        return LedgerModel::Cost;
    return -1;
}

/// The piece of the result card that shows the last request's `field` ("" when it shows none).
QString cardField(MainWindow &w, const QString &field, const session::LedgerEvent &event)
{
    const QString headline = w.resultCard()->headline();
    const QString card = headline + u'\n' + w.resultCard()->details() + u'\n' + w.resultCard()->note();
    const auto capture
        = [&](const QString &pattern) { return QRegularExpression(pattern).match(card).captured(1); };
    if (field == QLatin1String("answer"))
        return headline.section(QStringLiteral(" ± "), 0, 0);
    if (field == QLatin1String("halfwidth"))
        return headline.section(QStringLiteral(" ± "), 1, 1);
    if (field == QLatin1String("cost"))
        return capture(QStringLiteral("cost (?:ex-post )?[ερ] = ([^ ·(,]+)"));
    if (field == QLatin1String("epsilon"))
        return event.costKind == filters::ChargeKind::Rho
                   ? capture(QStringLiteral("ε ≈ ([^ ]+) on its own"))
                   : capture(QStringLiteral("cost (?:ex-post )?ε = ([^ ·(,]+)"));
    if (field == QLatin1String("attempts"))
        return capture(QStringLiteral("([0-9,]+) attempts?\\b"));
    if (field == QLatin1String("values"))
        return capture(QStringLiteral("the (?:first|total) of the ([0-9,]+) "));
    if (field == QLatin1String("reserved"))
        return capture(QStringLiteral("reserved ε = ([^ ·]+)"));
    if (field == QLatin1String("settled"))
        return capture(QStringLiteral("settled ε = ([^ ·]+)"));
    if (field == QLatin1String("returned"))
        return capture(QStringLiteral("returned ([^ ·]+)"));
    if (field == QLatin1String("cell"))
        return capture(QStringLiteral("cell j = ([0-9]+)"));
    return {};
}

/// Where the Range strategies tab shows a workload request's `field`: its strategy's row's ε
/// (cost) or widest bar (halfwidth), or the workload's size in the line under the table (values).
std::pair<QString, QString> strategiesLabText(MainWindow &w, const QString &field,
                                              const session::LedgerEvent &event)
{
    StrategiesLabDialog *lab = w.strategiesLab();
    lab->waitForJob();
    if (field == QLatin1String("values"))
        return {QStringLiteral("strategies lab's summary"), lab->rangesSummary()};
    const QString label = QString::fromStdString(event.request.strategy()->strategy.label());
    const QTableWidget *table = lab->resultTable(StrategiesLabDialog::kRangesTab);
    const int column = field == QLatin1String("cost")        ? StrategiesLabDialog::RangeEpsilon
                       : field == QLatin1String("halfwidth") ? StrategiesLabDialog::RangeWidestBar
                                                             : -1;
    for (int r = 0; r < table->rowCount(); ++r)
        if (column >= 0 && table->item(r, StrategiesLabDialog::RangeStrategyName)->text() == label)
            return {QStringLiteral("strategies lab's row '%1'").arg(label), table->item(r, column)->text()};
    return {QStringLiteral("strategies lab (no row '%1' shows %2)").arg(label, field), QString()};
}

/// The texts where the value of `name` must be read, each with where it is (all must show it).
QList<std::pair<QString, QString>> screenTexts(MainWindow &w, const std::string &name,
                                               const session::Session *s, const lessons::LessonStep &step)
{
    const QStringList parts = QString::fromStdString(name).split(u'.');
    const QString head = parts.front();
    QList<std::pair<QString, QString>> texts;
    if (head == QLatin1String("spent") || head == QLatin1String("remaining")
        || head == QLatin1String("budget")) {
        texts << std::pair{QStringLiteral("gauge"), w.budgetGauge()->readout()};
        // The privacy-risk view a step raises shows the session's guarantee, its budget.
        if (step.view == "privacy-risk" && name == "budget.epsilon")
            texts << std::pair{QStringLiteral("privacy-risk view"),
                               w.findChild<PrivacyRiskView *>()->sentence()};
    } else if (head == QLatin1String("events")) {
        texts << std::pair{
            QStringLiteral("ledger's last row number"),
            w.ledgerModel()->index(w.ledgerModel()->rowCount() - 1, LedgerModel::Number).data().toString()};
    } else if (head == QLatin1String("req") || head == QLatin1String("last")) {
        const std::string id = head == QLatin1String("last")
                                   ? std::string()
                                   : parts.mid(1, parts.size() - 2).join(u'.').toStdString();
        const int row = eventIndex(*s, id);
        const auto &event = s->events()[static_cast<std::size_t>(row)];
        const QString field = parts.back();
        // The ledger shows every request's answer, half-width, cost and attempts; the result card
        // the last request's (and, of it alone, the number of values and an output-DP outcome).
        if (const int column = ledgerColumn(field, event); column >= 0)
            texts << std::pair{QStringLiteral("ledger row %1").arg(row + 1),
                               w.ledgerModel()->index(row, column).data().toString()};
        if (row == static_cast<int>(s->events().size()) - 1) {
            texts << std::pair{QStringLiteral("result card"), cardField(w, field, event)};
            // The noise-reduction view the step raises: what the last request paid.
            if (step.view == "noise-reduction" && field == QLatin1String("cost"))
                texts << std::pair{QStringLiteral("noise-reduction view"),
                                   QRegularExpression(QStringLiteral("= ([^ ;(]+)"))
                                       .match(w.noiseReductionView()->paidText())
                                       .captured(1)};
        } else if (ledgerColumn(field, event) < 0)
            texts << std::pair{QStringLiteral("result card (it shows a later request)"), QString()};
        // The Range strategies tab the step raises runs the step's workload: the request's ε and
        // widest bar on its strategy's row, the number of its ranges in the line below.
        if (step.view == "lab:strategies" && step.tab == "ranges" && event.request.strategy()
            && event.request.strategy()->kind == session::StrategyRequestKind::Workload)
            texts << strategiesLabText(w, field, event);
    } else if (head == QLatin1String("growing")) {
        // The growing lab's read-out with its time cursor at the epoch's start (the plan is the
        // lab's default, the worked one), and its optimal-γ button.
        GrowingLabDialog *lab = w.growingLab();
        if (parts[1] == QLatin1String("optimal_gamma")) {
            texts << std::pair{QStringLiteral("growing lab's γ* button"), lab->optimalGammaButton()->text()};
        } else if (parts[1] == QLatin1String("staleness")) {
            // The lesson's own 100-run, one-query simulation: the lab runs ten queries and shows
            // no such number, so an answer may not quote it.
        } else if (parts[1] == QLatin1String("atg") || parts[1] == QLatin1String("naive")) {
            // The ATG tab's table of what one round started at s = n costs, by halting time: the
            // row of t_h, its ATG or naive cell (the lab's start size is the answer's s).
            const QString costs = lab->atgPanel()->roundCostsText();
            const QString row
                = QStringLiteral("<td align=right>%1</td><td align=right>([^<]*)</td><td "
                                 "align=right>([^<]*)</td>")
                      .arg(QRegularExpression::escape(QLocale().toString(parts[3].toULongLong())));
            const bool atg = parts[1] == QLatin1String("atg");
            const bool shownTab = lab->tabs()->currentWidget()->isAncestorOf(lab->atgPanel())
                                  || lab->tabs()->currentWidget() == lab->atgPanel();
            texts << std::pair{QStringLiteral("growing lab's ATG round costs at s = %1, t_h = %2 (%3)")
                                   .arg(lab->startSizeSpin()->value())
                                   .arg(parts[3], shownTab ? QStringLiteral("its tab in front")
                                                           : QStringLiteral("its tab hidden")),
                               shownTab && lab->startSizeSpin()->value() == parts[2].toInt()
                                   ? QRegularExpression(row).match(costs).captured(atg ? 1 : 2)
                                   : QString()};
        } else {
            const int epoch = parts[1] == QLatin1String("epoch") ? parts[2].toInt() : 0;
            QString start = expectedValue("growing.epoch." + std::to_string(epoch) + ".start", s, 0, step);
            lab->setCursorTime(start.remove(u',').toDouble());
            const QString readout = lab->cursorText();
            const QString field = parts.back();
            const QString pattern
                = field == QLatin1String("epsilon")      ? QStringLiteral("ε_%1 = ([^ ]+)").arg(epoch)
                  : field == QLatin1String("cumulative") ? QStringLiteral("spent Σ = ([^ ]+)")
                  : field == QLatin1String("budget")     ? QStringLiteral("spent Σ = [^ ]+ of ([^ ]+)")
                  : field == QLatin1String("bound")      ? QStringLiteral("bound α \\+ s = ([^ ]+)")
                  : field == QLatin1String("alpha")      ? QStringLiteral("\\(α ([^ ]+)")
                  : field == QLatin1String("staleness")  ? QStringLiteral("\\+ s ([^ )]+)\\)")
                  : field == QLatin1String("start")      ? QStringLiteral("\\(t ([0-9,. ]+) –")
                                                         : QStringLiteral("– ([0-9,. ]+)\\)");
            QString shown = QRegularExpression(pattern).match(readout).captured(1);
            if (field == QLatin1String("start") || field == QLatin1String("end")) // the locale's grouping
                shown = formatNumber(QLocale().toDouble(shown), 17);
            texts << std::pair{QStringLiteral("growing lab's read-out at t = %1").arg(start), shown};
        }
    } else if (head == QLatin1String("comparison")) {
        const auto *model = w.comparisonView()->resultsModel();
        if (parts.size() == 3 && parts[2] == QLatin1String("epsilon")) {
            QString rowText;
            for (int r = 0; r < model->rowCount(); ++r) {
                const QString rowName
                    = model->index(r, 0).data(ui::StrategyResultsModel::NameRole).toString();
                const bool best = parts[1] == QLatin1String("best");
                if ((!best && rowName == parts[1])
                    || (best
                        && model->index(r, 0).data().toString()
                               == expectedValue("comparison.best", s, 0, step)))
                    rowText = model->index(r, ui::StrategyResultsModel::Value).data().toString();
            }
            texts << std::pair{QStringLiteral("comparison table, %1").arg(parts[1]), rowText};
        } else if (name == "comparison.steps") {
            // The plan editor's rows: one event of the plan, its count.
            const auto *plan = w.comparisonView()->planModel();
            QStringList cells;
            for (int r = 0; r < plan->rowCount(); ++r)
                for (int c = 0; c < plan->columnCount(); ++c)
                    cells << plan->index(r, c).data().toString();
            texts << std::pair{QStringLiteral("plan editor"), cells.join(QStringLiteral(" | "))};
        } else {
            texts << std::pair{QStringLiteral("comparison (%1)").arg(QString::fromStdString(name)),
                               QString()};
        }
    }
    return texts;
}

/// Waits for the comparison view's table to show the step's strategies.
void waitForComparison(MainWindow &w)
{
    QTRY_VERIFY_WITH_TIMEOUT(w.comparisonView()->hasResults() && !w.comparisonView()->isBusy(), 60000);
}

/// The request the step leaves in the query box (or the box's defaults), field by field as the box holds it.
QString boxText(const session::QueryRequest &r)
{
    return QStringLiteral("%1(%2 %3) where '%4' %5 %6 @ %7 cap %8 mechanism %9")
        .arg(toQString(data::aggregateName(r.query.aggregate)))
        .arg(r.query.aggregate == data::Aggregate::Count ? QString() : QString::fromStdString(r.query.column))
        .arg(r.query.aggregate != data::Aggregate::Count && r.query.bounds
                 ? QStringLiteral("[%1, %2]").arg(r.query.bounds->lower).arg(r.query.bounds->upper)
                 : QString())
        .arg(QString::fromStdString(r.query.where))
        .arg(r.target.kind == session::TargetKind::Relative ? QStringLiteral("relative")
                                                            : QStringLiteral("absolute"))
        .arg(r.target.error)
        .arg(r.target.confidence)
        .arg(r.maxCost ? QString::number(*r.maxCost) : QStringLiteral("none"))
        .arg(r.mechanism ? toQString(session::releaseMethodName(*r.mechanism)) : QStringLiteral("default"));
}

/// The labs' tab titles as the labs write them, in lessons::lessonTabNames' order.
const std::map<std::string, QStringList> &labTabTitles()
{
    static const std::map<std::string, QStringList> titles{
        {"lab:strategies",
         {QStringLiteral("BMI example"), QStringLiteral("Stability && sensitivity"),
          QStringLiteral("Range strategies"), QStringLiteral("Constrained inference"),
          QStringLiteral("Quantiles && smooth sensitivity"), QStringLiteral("Mode (selection)")}},
        {"lab:output-dp",
         {QStringLiteral("Cells"), QStringLiteral("Filter path"), QStringLiteral("Sparse vector"),
          QStringLiteral("Propose-test-release"), QStringLiteral("Early stopping"),
          QStringLiteral("Budget recovery"), QStringLiteral("Crossover")}},
        {"lab:growing",
         {QStringLiteral("Timeline && accuracy"), QStringLiteral("PMWG / NSG"),
          QStringLiteral("ATG (sparse vector)")}}};
    return titles;
}

/// The view and tab a step shows are in front: the dock or dialog shown and not behind another
/// tab, the lab's or the comparison's tab the step names (its first when it names none).
QString raisedProblem(MainWindow &w, const lessons::LessonStep &step)
{
    const auto &names = lessons::lessonTabNames(step.view);
    const auto named = std::find(names.begin(), names.end(), step.tab);
    const int index = named == names.end() ? 0 : static_cast<int>(named - names.begin());
    const auto &titles = labTabTitles();
    QTabWidget *tabs = nullptr;
    if (step.view == "main")
        return w.pathChart()->isVisible() ? QString()
                                          : QStringLiteral("the privacy-loss path is not in front");
    if (step.view == "noise-reduction")
        return w.noiseReductionDock()->isVisible() ? QString()
                                                   : QStringLiteral("noise reduction not in front");
    if (step.view == "privacy-risk") {
        const auto *risk = w.findChild<PrivacyRiskView *>();
        return risk && risk->isVisible() ? QString() : QStringLiteral("the privacy-risk view is not shown");
    }
    if (step.view == "lab:relative-error") {
        // The lab runs its own experiment (Ligett et al.'s), never the step's requests: no number of
        // the step is on it. No step raises it until it can be set to the step's own queries.
        const auto *lab = w.findChild<LabDialog *>();
        return lab && lab->isVisible()
                   ? QStringLiteral("the relative-error lab shows its own experiment, not the step's numbers")
                   : QStringLiteral("the relative-error lab is not shown");
    }
    if (step.view == "comparison") {
        if (!w.comparisonDock()->isVisible())
            return QStringLiteral("the comparison is not shown");
        const ComparisonView *view = w.comparisonView();
        const QWidget *charts[]
            = {view->compositionChart(), view->profileChart(), view->rdpChart(), view->pldChart()};
        if (!charts[index]->isVisible() && view->arrangement()->mode() != ComparisonLayout::Mode::OneView)
            return QStringLiteral("the comparison's chart '%1' is not in front")
                .arg(QString::fromStdString(step.tab));
        if (view->arrangement()->mode() == ComparisonLayout::Mode::OneView
            && view->arrangement()->viewTabs()->currentIndex() != 0)
            return QStringLiteral("the comparison's table is not in front");
        return {};
    }
    if (step.view == "lab:strategies")
        tabs = w.strategiesLab()->tabs();
    else if (step.view == "lab:output-dp")
        tabs = w.odpLab()->tabs();
    else if (step.view == "lab:growing")
        tabs = w.growingLab()->tabs();
    if (!tabs)
        return {};
    if (!tabs->window()->isVisible())
        return QStringLiteral("%1 is not shown").arg(QString::fromStdString(step.view));
    if (tabs->currentIndex() != index || tabs->tabText(index) != titles.at(step.view).value(index))
        return QStringLiteral("%1 shows the tab '%2', not '%3'")
            .arg(QString::fromStdString(step.view), tabs->tabText(tabs->currentIndex()),
                 titles.at(step.view).value(index));
    return {};
}

/// A step that raises the Range strategies tab has set it to its own workload requests (not the
/// tab's example): their column, cells, workload and confidence, an ε within their cap, a row for
/// each of their strategies. The tab is photographed at 1024×768 and 1920×1080.
QString rangesLabProblem(MainWindow &w, const lessons::LessonStep &step, const QString &where)
{
    if (step.view != "lab:strategies" || step.tab != "ranges")
        return {};
    StrategiesLabDialog *lab = w.strategiesLab();
    lab->waitForJob();
    const RangesSetup shown = lab->rangesSetup();
    const QTableWidget *table = lab->resultTable(StrategiesLabDialog::kRangesTab);
    QStringList wrong;
    for (const auto &r : step.requests) {
        const auto *spec = r.strategy();
        if (!spec || spec->kind != session::StrategyRequestKind::Workload)
            continue;
        if (shown.column != QString::fromStdString(r.query.column))
            wrong << QStringLiteral("column %1").arg(shown.column);
        if (r.query.bounds && shown.bounds != std::pair{r.query.bounds->lower, r.query.bounds->upper})
            wrong << QStringLiteral("cells %1 to %2").arg(shown.bounds->first).arg(shown.bounds->second);
        if (shown.workload != QString::fromStdString(spec->workload))
            wrong << QStringLiteral("workload %1").arg(shown.workload);
        if (shown.confidence != r.target.confidence)
            wrong << QStringLiteral("confidence %1").arg(shown.confidence);
        if (r.maxCost && shown.epsilon > *r.maxCost)
            wrong << QStringLiteral("ε %1 above the cap").arg(shown.epsilon);
        const QString label = QString::fromStdString(spec->strategy.label());
        if (table->findItems(label, Qt::MatchExactly).isEmpty())
            wrong << QStringLiteral("no row '%1'").arg(label);
    }
    if (table->rowCount() == 0)
        wrong << QStringLiteral("no results");
    for (const QSize size : {QSize(1024, 768), QSize(1920, 1080)}) {
        lab->resize(size);
        test::saveScreenshot(*lab, QStringLiteral("%1-ranges-lab-%2x%3")
                                       .arg(QString(where).replace(u' ', u'-'))
                                       .arg(size.width())
                                       .arg(size.height()));
    }
    return wrong.isEmpty() ? QString()
                           : QStringLiteral("the Range strategies tab shows %1, not the step's workload")
                                 .arg(wrong.join(QStringLiteral(", ")));
}

} // namespace

class TestLessonsGui : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void shippedLessonsRunEndToEnd();
    void lessonNumbersMatchTheScreen();
    void queryBoxFollowsTheSteps();
    void backReplaysAStep();
    void userFolderListsErrors();
    void menuOpensThePanel();
    void lessonLeavesTheUserRecords();
    void lessonsRunOnlyOnPublicData();
    void stepRunsOffTheGuiThread();
    void killedDuringALessonLosesNothing();
    void lessonTextIsPlain();
};

void TestLessonsGui::shippedLessonsRunEndToEnd()
{
    MainWindow w;
    QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    // The user's own session: one request, which the lessons must leave as it was.
    QVERIFY(w.document()->ask(w.queryBuilder()->request()).ok());
    const auto before = w.document()->session().events().back();
    const auto settingsBefore = w.document()->settings();
    const QString userJournal = w.document()->journalPath();
    const QDir journals(SessionDocument::defaultJournalFolder());
    const auto journalFiles = [&] { return journals.entryList({QStringLiteral("*.journal*")}, QDir::Files); };
    const QStringList journalsBefore = journalFiles();
    QVERIFY(journalsBefore.contains(QFileInfo(userJournal).fileName()));

    LessonsPanel *panel = w.showLessons();
    QVERIFY(w.lessonsDock()->isVisible());
    int shipped = 0;
    for (int i = 0; i < panel->entries().size(); ++i) {
        const auto &entry = panel->entries()[i];
        if (!entry.shipped)
            continue;
        QVERIFY2(entry.lesson, qPrintable(entry.error));
        ++shipped;
        QVERIFY(panel->startLesson(i));
        const auto &lesson = *panel->runner()->lesson();
        const int steps = static_cast<int>(lesson.steps.size());
        for (int k = 0; k < steps; ++k) {
            QCOMPARE(panel->runner()->currentStep(), k);
            QCOMPARE(panel->progressText(), QStringLiteral("Step %1 of %2").arg(k + 1).arg(steps));
            const auto &step = lesson.steps[static_cast<std::size_t>(k)];
            QCOMPARE(panel->questionText(), QString::fromStdString(step.question));
            QVERIFY2(panel->runner()->answerOk(), qPrintable(panel->runner()->answerText()));
            QVERIFY(!panel->answerRevealed());
            panel->revealAnswer();
            const session::Session *s = w.document()->hasSession() ? &w.document()->session() : nullptr;
            const std::size_t first = panel->runner()->firstEventOfStep();
            // Every request of the step was asked, repeat times, through the ask path.
            if (!step.requests.empty())
                QCOMPARE(s->events().size() - first,
                         step.requests.size() * static_cast<std::size_t>(step.repeat));
            const QString expected = expectedAnswer(step, s, first);
            QCOMPARE(panel->shownAnswerText(), expected);
            checkAnswerAgainstViews(w, step, s, first);
            qInfo("%s step %d: %s", lesson.id.c_str(), k + 1, qPrintable(expected));
            QVERIFY(!expected.contains(QLatin1String("n/a")));
            if (step.view == "comparison")
                QVERIFY(w.comparisonDock()->isVisible());
            if (step.view == "noise-reduction")
                QVERIFY(w.noiseReductionDock()->isVisible());
            // The lessons' prose depends on which way these numbers fall: keep it true.
            const auto event = [&](const char *id) -> const session::LedgerEvent & {
                for (auto it = s->events().rbegin(); it != s->events().rend(); ++it)
                    if (it->request.id == id)
                        return *it;
                qFatal("no request %s", id);
            };
            if (lesson.id == "output-dp" && k == 0) {
                QCOMPARE(event("regions").odpRecord()->cell, std::optional<int>(0));
                QVERIFY(event("regions").odpRecord()->settledEpsilon
                        < event("regions").odpRecord()->reservedEpsilon);
            }
            if (lesson.id == "output-dp" && k == 1)
                QVERIFY(event("education").odpRecord()->cell.value() >= 1);
            if (lesson.id == "output-dp" && k == 2) // "ε = … each": the two reservations are one
                QCOMPARE(event("regions").odpRecord()->reservedEpsilon,
                         event("education").odpRecord()->reservedEpsilon);
            if (lesson.id == "strategies" && (k == 1 || k == 2)) // "the same … ranges"
                QCOMPARE(event(k == 1 ? "cells" : "cellsWage").strategyRecord()->values.size(),
                         event(k == 1 ? "tree" : "treeWage").strategyRecord()->values.size());
            if (lesson.id == "strategies" && k == 0)
                QCOMPARE(event("regions").cost, event("south").cost);
            if (lesson.id == "strategies" && k == 1) {
                QVERIFY(std::abs(event("cells").cost - event("tree").cost) < 1e-6); // both capped at 0.5
                QVERIFY(event("cells").errorBound < event("tree").errorBound);
            }
            if (lesson.id == "growing" && k == 1) {
                // The prose: sorted arrivals make staleness visible, and stay within the plan's bound.
                const double random = stalenessMedian(*s, "random");
                const double sorted = stalenessMedian(*s, "sorted:region == \"south\"");
                QVERIFY2(sorted > 3 * random, qPrintable(QStringLiteral("%1 %2").arg(random).arg(sorted)));
                QVERIFY(sorted < (*growing::planEpochs(workedPlan(), 32000))[4].bound);
            }
            if (lesson.id == "growing" && k == 2)
                QVERIFY(growing::naiveFractionScaleLoss(growing::NoiseUnit{1000, 0.002, 0.5}, 1000, 100000)
                        > 5 * growing::atgLoss(growing::NoiseUnit{1000, 0.002, 0.5}, 1000, 100000));
            if (lesson.id == "strategies" && k == 2) {
                QVERIFY(std::abs(event("cellsWage").cost - event("treeWage").cost)
                        < 1e-6); // both capped at 0.5
                QVERIFY(event("treeWage").errorBound < event("cellsWage").errorBound);
            }
            const QString shot
                = QStringLiteral("lesson-%1-step%2").arg(QString::fromStdString(lesson.id)).arg(k + 1);
            // The labs are dialogs of their own: open, and photographed beside the main window.
            QWidget *lab = nullptr;
            if (step.view == "lab:output-dp")
                lab = w.findChild<OdpLabDialog *>();
            if (step.view == "lab:strategies")
                lab = w.findChild<QWidget *>(QStringLiteral("strategiesLabDialog"));
            if (step.view == "lab:growing")
                lab = w.findChild<GrowingLabDialog *>();
            if (step.view.starts_with("lab:") && step.view != "lab:relative-error") {
                QVERIFY2(lab && lab->isVisible(), step.view.c_str());
                QVERIFY(!test::saveScreenshot(*lab, shot + QStringLiteral("-lab")).isEmpty());
                // And at a projector's and a full-HD screen's size.
                const QSize labSize = lab->size();
                for (const QSize size : {QSize(1024, 768), QSize(1920, 1080)}) {
                    lab->resize(size);
                    QTest::qWait(50);
                    QVERIFY(
                        !test::saveScreenshot(
                             *lab, shot + QStringLiteral("-lab-%1x%2").arg(size.width()).arg(size.height()))
                             .isEmpty());
                }
                lab->resize(labSize);
            }
            photograph(w, shot);
            panel->next();
        }
        // Finish ends the lesson: the user's session is back, with its one request.
        QVERIFY(!panel->runner()->isRunning());
        QCOMPARE(w.document()->eventCount(), 1);
        QCOMPARE(w.document()->session().events().back().answer, before.answer);
        QCOMPARE(w.document()->settings().epsilon, settingsBefore.epsilon);
        QCOMPARE(w.document()->settings().filter, settingsBefore.filter);
        QCOMPARE(w.document()->journalPath(), userJournal);
        QVERIFY(!w.comparisonDock()->isVisible());
    }
    QVERIFY(shipped >= 7);
    w.resize(1024, 700);
    QVERIFY(!test::saveScreenshot(w, QStringLiteral("lessons-list-1024x700")).isEmpty());
    // The lessons' own journals are gone; the user's is kept.
    QVERIFY(QFile::exists(userJournal));
    QCOMPARE(journalFiles(), journalsBefore);
}

void TestLessonsGui::backReplaysAStep()
{
    MainWindow w;
    QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
    LessonsPanel *panel = w.showLessons();
    int noiseReduction = -1;
    for (int i = 0; i < panel->entries().size(); ++i)
        if (panel->entries()[i].lesson && panel->entries()[i].lesson->id == "noise-reduction")
            noiseReduction = i;
    QVERIFY(noiseReduction >= 0);
    QVERIFY(panel->startLesson(noiseReduction));
    panel->next();
    const QString second = panel->runner()->answerText();
    const int events = w.document()->eventCount();
    panel->next();
    panel->back(); // replays steps 1 and 2 from a fresh seeded session
    QCOMPARE(panel->runner()->currentStep(), 1);
    QCOMPARE(panel->runner()->answerText(), second);
    QCOMPARE(w.document()->eventCount(), events);
    QVERIFY(panel->backButton()->isEnabled());
    panel->endLesson();
    QCOMPARE(w.document()->eventCount(), 0);
}

void TestLessonsGui::userFolderListsErrors()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto write = [&](const QString &name, const QByteArray &bytes) {
        QFile f(dir.filePath(name));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    };
    write(
        QStringLiteral("a-bad.json"),
        R"({"format":"pbx-lesson","version":1,"id":"x","title":"X","summary":"S","steps":[{"title":"t","explanation":"e","setup":{"view":"comparisons"},"question":"q","answer":"a"}]})");
    write(
        QStringLiteral("b-good.json"),
        R"({"format":"pbx-lesson","version":1,"id":"mine","title":"Mine","summary":"S","steps":[{"title":"t","explanation":"e","setup":{"comparison":{"plan":{"events":[{"mechanism":"pure","epsilon":0.5,"count":4}]},"strategies":["basic"]},"view":"comparison"},"question":"q","answer":"ε = {comparison.basic.epsilon}"}]})");
    write(QStringLiteral("c-text.json"), "not json");
    MainWindow w;
    QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
    LessonsPanel *panel = w.showLessons();
    panel->reload(dir.path());
    QList<LessonEntry> user;
    for (const auto &e : panel->entries())
        if (!e.shipped)
            user << e;
    QCOMPARE(user.size(), 3);
    QVERIFY(!user[0].lesson);
    QVERIFY2(user[0].error.startsWith(
                 QStringLiteral("a-bad.json: steps[0].setup.view: unknown view 'comparisons'")),
             qPrintable(user[0].error));
    QVERIFY(user[1].lesson);
    QVERIFY(!user[2].lesson);
    QVERIFY(user[2].error.contains(QLatin1String("not valid JSON")));
    // The bad files are in the list, disabled, with their error; the good one runs.
    const int good = static_cast<int>(panel->entries().size()) - 2;
    QVERIFY(!(panel->lessonList()->item(good - 1)->flags() & Qt::ItemIsEnabled));
    QVERIFY(panel->lessonList()->item(good - 1)->text().contains(QLatin1String("steps[0].setup.view")));
    QVERIFY(panel->startLesson(good));
    panel->revealAnswer();
    // 4 × ε = 0.5 under basic composition, as the core computes it (rounded up: never below 2).
    const accounting::Ledger plan{accounting::Neighbouring::AddRemove,
                                  {panel->runner()->lesson()->steps[0].comparison->plan->events}};
    const double basic = accounting::evaluateStrategy("basic", plan, {true, 1e-5})->epsilon;
    QVERIFY(basic >= 2.0 && basic < 2.0 + 1e-9);
    QCOMPARE(panel->shownAnswerText(),
             QStringLiteral("ε = ") + QString::fromStdString(lessons::formatNumber(basic, +1)));
    QVERIFY(!panel->startLesson(good - 1));
    panel->endLesson();
}

void TestLessonsGui::menuOpensThePanel()
{
    MainWindow w;
    QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(!w.lessonsDock());
    auto *action = w.findChild<QAction *>(QStringLiteral("lessonsAction"));
    QVERIFY(action);
    action->trigger();
    QVERIFY(w.lessonsDock() && w.lessonsDock()->isVisible());
    w.resize(1920, 1080);
    QVERIFY(!test::saveScreenshot(w, QStringLiteral("lessons-list-1920x1080")).isEmpty());
    // Closing the dock ends a running lesson: the user's session is back.
    const auto settings = w.document()->settings();
    QVERIFY(w.showLessons()->startLesson(0));
    QVERIFY(w.document()->settings().filter != settings.filter
            || w.document()->settings().seed != settings.seed);
    w.lessonsDock()->close();
    QVERIFY(!w.showLessons()->runner()->isRunning());
    QCOMPARE(w.document()->settings().filter, settings.filter);
    QCOMPARE(w.document()->settings().seed, settings.seed);
    // The first-run welcome never blocks a test: no screen to answer it on offscreen.
    QVERIFY(!offerLessonsOnFirstRun(w));
    QVERIFY(!AppSettings::lessonsWelcomeShown());
}

namespace {

/// The first shipped lesson (its first step opens a session and asks two requests).
int firstShipped(LessonsPanel *panel)
{
    for (int i = 0; i < panel->entries().size(); ++i)
        if (panel->entries()[i].shipped && panel->entries()[i].lesson)
            return i;
    return -1;
}

/// `pbx-cli verify PATH` accepts the file.
bool verified(const QString &path)
{
    const auto run = test::runCli({QStringLiteral("verify"), path});
    if (run.exitCode != 0)
        qWarning("%s: %s%s", qPrintable(path), qPrintable(run.err), qPrintable(run.out));
    return run.exitCode == 0;
}

lessons::Lesson parsed(const std::string &json)
{
    auto lesson = lessons::parseLesson(json, "test.json");
    if (!lesson.ok())
        qFatal("%s", lesson.error().message.c_str());
    return std::move(lesson).value();
}

} // namespace

// Open a CLI transcript (2 events), Ask twice, Start lesson, End lesson:
// the session used to come back with 2 events (the transcript alone, ε ≈ 0.12 released could be
// spent again). It comes back from its journal with all 4. A session the user starts during a
// lesson is theirs: End lesson used to delete its journal; it keeps it, and only the lesson's
// own journal folder goes.
void TestLessonsGui::lessonLeavesTheUserRecords()
{
    QTemporaryDir dir;
    const QString path = test::writeCliTranscript(dir.filePath(QStringLiteral("user.json")));
    QVERIFY(!path.isEmpty());
    MainWindow w;
    QVERIFY(w.openSessionFile(path).ok());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.ask();
    w.ask();
    SessionDocument *doc = w.document();
    QCOMPARE(doc->eventCount(), 4);
    const double spent = doc->session().filter().spent();
    const QString journal = doc->journalPath();
    LessonsPanel *panel = w.showLessons();
    const int lesson = firstShipped(panel);
    QVERIFY(panel->startLesson(lesson));
    QVERIFY(doc->journalPath() != journal);
    panel->endLesson();
    QVERIFY(panel->runner()->restoreError().isEmpty());
    QCOMPARE(doc->eventCount(), 4);
    QCOMPARE(doc->session().filter().spent(), spent);
    QCOMPARE(doc->filePath(), QFileInfo(path).absoluteFilePath());
    QCOMPARE(doc->journalPath(), journal);
    QVERIFY(doc->isModified());
    QVERIFY(verified(journal));

    // The user's own new session during a lesson.
    QVERIFY(panel->startLesson(lesson));
    const QString lessonFolder = panel->runner()->journalFolder();
    QVERIFY(doc->journalPath().isEmpty() || doc->journalPath().startsWith(lessonFolder));
    session::SessionSettings mine;
    mine.seed = 21;
    QVERIFY(w.startNewSession(mine).ok());
    w.ask();
    w.ask();
    const QString own = doc->journalPath();
    QVERIFY(!own.startsWith(lessonFolder));
    panel->endLesson();
    QVERIFY(QFile::exists(own));
    QVERIFY(QFile::exists(journal));
    QCOMPARE(doc->journalPath(), own); // the session open is the user's: it stays
    QCOMPARE(doc->eventCount(), 2);
    QVERIFY(!QDir(lessonFolder).exists()); // the lesson's journals went with the lesson
    QVERIFY(verified(own));
}

// A lesson's dataset may be an embedded one or a file declared public; a private CSV is refused
// before anything is asked of it or journalled (it used to be queried, and its journal
// then deleted).
void TestLessonsGui::lessonsRunOnlyOnPublicData()
{
    QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("private.csv"));
    {
        QFile f(csv);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("age,group\n30,a\n41,b\n52,a\n");
    }
    MainWindow w;
    QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
    QVERIFY(w.document()->ask(test::countRequest("region == \"south\"", 50)).ok());
    const QString journal = w.document()->journalPath();
    LessonsPanel *panel = w.showLessons();
    const std::string json
        = R"({"format":"pbx-lesson","version":1,"id":"p","title":"P","summary":"S","steps":[)"
          R"({"title":"a","explanation":"b","setup":{"session":{"dataset":)"
          + QJsonDocument(QJsonArray{csv}).toJson(QJsonDocument::Compact).mid(1).chopped(1).toStdString()
          + R"(,"epsilon":1,"filter":"basic","seed":3},"requests":[{"id":"c","aggregate":"count",)"
            R"("target":{"kind":"absolute","error":100}}]},"question":"q","answer":"a"}]})";
    const auto started = panel->runner()->begin(parsed(json));
    QVERIFY(!started.ok());
    QVERIFY2(started.error().message.find("not declared public") != std::string::npos,
             started.error().message.c_str());
    QVERIFY(!panel->runner()->isRunning());
    QCOMPARE(w.document()->eventCount(), 1); // the user's session is back, untouched
    QCOMPARE(w.document()->journalPath(), journal);
    QCOMPARE(w.document()->datasetSource(), QStringLiteral("cps1988"));
    const QDir lessons(QDir(SessionDocument::defaultJournalFolder()).filePath(QStringLiteral("lessons")));
    QVERIFY(
        lessons.entryList(QDir::AllEntries | QDir::NoDotAndDotDot).filter(QStringLiteral("p-")).isEmpty());
}

// A step's requests run off the GUI thread: timers on the GUI thread keep firing while a step
// of 200 asks runs, Cancel stops it part-way (what was asked stays spent and journalled in the
// lesson's own journal), and running the step again completes it.
void TestLessonsGui::stepRunsOffTheGuiThread()
{
    MainWindow w;
    QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
    LessonsPanel *panel = w.showLessons();
    LessonRunner *runner = panel->runner();
    const std::string json
        = R"({"format":"pbx-lesson","version":1,"id":"long","title":"Long","summary":"S","steps":[)"
          R"({"title":"a","explanation":"b","setup":{"session":{"dataset":"cps1988","epsilon":1000,"filter":"basic","seed":5}},"question":"q","answer":"a"},)"
          R"({"title":"b","explanation":"b","setup":{"requests":[{"id":"c","aggregate":"count",)"
          R"("target":{"kind":"absolute","error":100}}],"repeat":200},"question":"q","answer":"a"}]})";
    QVERIFY(runner->begin(parsed(json)).ok());
    int ticks = 0;
    bool cancelled = false;
    QTimer timer;
    timer.setInterval(0);
    connect(&timer, &QTimer::timeout, this, [&] {
        ++ticks;
        if (!cancelled && runner->stepJob() && runner->stepJob()->progressValue() >= 20) {
            runner->stepJob()->cancel();
            cancelled = true;
        }
    });
    timer.start();
    const auto stopped = runner->goTo(1);
    timer.stop();
    QVERIFY(cancelled);
    QVERIFY(!stopped.ok());
    QCOMPARE(stopped.error().code, ErrorCode::Cancelled);
    QVERIFY(ticks > 1);
    const int asked = w.document()->eventCount();
    QVERIFY2(asked >= 20 && asked < 200, qPrintable(QString::number(asked)));
    const QString journal = w.document()->journalPath();
    QVERIFY(journal.startsWith(runner->journalFolder()));
    QCOMPARE(io::readSessionJournal(journal.toStdString())->events.size(), static_cast<std::size_t>(asked));
    QVERIFY(runner->goTo(1).ok()); // replayed from the step that opened the session: 200 asks
    QCOMPARE(w.document()->eventCount(), 200);
    QCOMPARE(io::readSessionJournal(w.document()->journalPath().toStdString())->events.size(),
             std::size_t(200));
    runner->end();
    QVERIFY(!QFile::exists(journal));
}

// A crash during a lesson (the window destroyed mid-lesson: nothing is ended, restored or
// deleted): the user's journal reopens with every answer the user was shown, and the lesson's
// journal is readable too.
void TestLessonsGui::killedDuringALessonLosesNothing()
{
    QTemporaryDir dir;
    const QString path = test::writeCliTranscript(dir.filePath(QStringLiteral("user.json")));
    QVERIFY(!path.isEmpty());
    QString journal;
    QString lessonJournal;
    std::vector<double> shown;
    {
        MainWindow w;
        QVERIFY(w.openSessionFile(path).ok());
        w.ask();
        w.ask();
        journal = w.document()->journalPath();
        for (const auto &e : w.document()->session().events())
            shown.push_back(e.answer);
        LessonsPanel *panel = w.showLessons();
        QVERIFY(panel->startLesson(firstShipped(panel)));
        panel->next();
        lessonJournal = w.document()->journalPath();
    }
    QVERIFY(lessonJournal != journal);
    QVERIFY(verified(journal));
    QVERIFY(verified(lessonJournal));
    MainWindow w;
    QVERIFY(w.openSessionFile(journal).ok());
    QCOMPARE(w.document()->eventCount(), 4);
    for (std::size_t i = 0; i < shown.size(); ++i)
        QCOMPARE(w.document()->session().events()[i].answer, shown[i]);
}

// Lesson titles and summaries are file text: shown as plain text (18 nested tables used to hang
// the panel; <img>, links and <h1> rendered).
void TestLessonsGui::lessonTextIsPlain()
{
    QTemporaryDir dir;
    QString nested;
    for (int i = 0; i < 18; ++i)
        nested += QStringLiteral("<table><tr><td>");
    const QString title = QStringLiteral("<h1>Big</h1><img src=\"x.png\"><a href=\"http://x\">link</a>");
    QJsonObject step{{QStringLiteral("title"), QStringLiteral("t")},
                     {QStringLiteral("explanation"), QStringLiteral("e")},
                     {QStringLiteral("question"), QStringLiteral("q")},
                     {QStringLiteral("answer"), QStringLiteral("a")}};
    QJsonObject lesson{{QStringLiteral("format"), QStringLiteral("pbx-lesson")},
                       {QStringLiteral("version"), 1},
                       {QStringLiteral("id"), QStringLiteral("html")},
                       {QStringLiteral("title"), title},
                       {QStringLiteral("summary"), nested},
                       {QStringLiteral("steps"), QJsonArray{step}}};
    {
        QFile f(dir.filePath(QStringLiteral("html.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(lesson).toJson());
    }
    MainWindow w;
    QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    LessonsPanel *panel = w.showLessons();
    QElapsedTimer clock;
    clock.start();
    panel->reload(dir.path());
    const int row = static_cast<int>(panel->entries().size()) - 1;
    QVERIFY(panel->entries()[row].lesson);
    panel->lessonList()->setCurrentRow(row);
    QVERIFY(panel->startLesson(row));
    panel->grab();
    QVERIFY2(clock.elapsed() < 10000, qPrintable(QString::number(clock.elapsed())));
    int checked = 0;
    for (QLabel *label : panel->findChildren<QLabel *>())
        if (label->text().contains(QStringLiteral("<table>"))
            || label->text().contains(QStringLiteral("<h1>"))) {
            QCOMPARE(label->textFormat(), Qt::PlainText);
            ++checked;
        }
    QCOMPARE(checked, 2); // the summary and the lesson's title
    panel->endLesson();
}

// Issue 29 §3: every number a lesson's answer writes is the string the screen shows, where the
// screen shows it (the gauge's spend, the ledger's row of the request, the result card of the
// last one, the comparison table's row of the strategy); a number written in the prose is in
// kProseNumbers with the reason it is on no screen, and a value no view shows is named by
// offScreen(). Each step raises the view and tab it talks about, and the query box shows the
// step's request (the lecturer's typing before the lesson is gone, and back after it).
void TestLessonsGui::lessonNumbersMatchTheScreen()
{
    MainWindow w;
    QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    // Wide enough that the comparison opens beside the lessons in its one-chart-at-a-time layout,
    // where the chart a step names must be the tab in front.
    w.resize(1400, 900);
    QueryBuilder *box = w.queryBuilder();
    // Every tab a lesson may name is the lab's tab of that title (the runner maps names to indices).
    for (const auto &[view, titles] : labTabTitles()) {
        QTabWidget *tabs = view == "lab:strategies"  ? w.strategiesLab()->tabs()
                           : view == "lab:output-dp" ? w.odpLab()->tabs()
                                                     : w.growingLab()->tabs();
        QCOMPARE(static_cast<qsizetype>(lessons::lessonTabNames(view).size()), titles.size());
        QCOMPARE(tabs->count(), titles.size());
        for (int t = 0; t < tabs->count(); ++t)
            QCOMPARE(tabs->tabText(t), titles[t]);
    }
    QCOMPARE(lessons::lessonTabNames("comparison").size(), std::size_t(4)); // the four charts
    LessonsPanel *panel = w.showLessons();
    // Beside the shipped lessons, steps raising the views none of them raises: the privacy-risk
    // view (it shows the session's guarantee: the budget a step quotes is read off it).
    QTemporaryDir userFolder;
    QFile risk(userFolder.filePath(QStringLiteral("risk.json")));
    QVERIFY(risk.open(QIODevice::WriteOnly));
    risk.write(
        R"({"format":"pbx-lesson","version":1,"id":"risk-view","title":"Risk","summary":"S","steps":[)"
        R"({"title":"t","explanation":"e","setup":{"session":{"dataset":"cps1988","epsilon":0.7,"delta":1e-6,)"
        R"("filter":"basic","seed":3},"view":"privacy-risk"},"question":"q","answer":"ε = {budget.epsilon}"}]})");
    risk.close();
    panel->reload(userFolder.path());
    QStringList problems;
    int checkedNumbers = 0;
    int allowed = 0;
    int userLessons = 0;
    const RangesSetup rangesBefore = w.strategiesLab()->rangesSetup();
    for (int i = 0; i < panel->entries().size(); ++i) {
        const auto &entry = panel->entries()[i];
        QVERIFY2(entry.lesson, qPrintable(entry.error));
        userLessons += entry.shipped ? 0 : 1;
        // The lecturer's own typing, which no step may leave in the box, nor in a lab a step raises.
        w.growingLab()->gammaSpin()->setValue(0.5);
        w.growingLab()->queriesSpin()->setValue(3);
        w.growingLab()->horizonSpin()->setValue(5000);
        w.growingLab()->atgPanel()->sigmaSpin()->setValue(0.01);
        box->setAggregate(data::Aggregate::Count);
        box->setWhere(QStringLiteral("age > 60"));
        box->setAbsoluteTarget(7);
        box->setConfidence(0.9);
        const QString typed = boxText(box->request());
        QVERIFY(panel->startLesson(i));
        const auto &lesson = *panel->runner()->lesson();
        const QString lessonId = QString::fromStdString(lesson.id);
        for (int k = 0; k < static_cast<int>(lesson.steps.size()); ++k) {
            const auto &step = lesson.steps[static_cast<std::size_t>(k)];
            const QString where = QStringLiteral("%1 step %2").arg(lessonId).arg(k + 1);
            panel->revealAnswer();
            if (step.view == "comparison")
                waitForComparison(w);
            const session::Session *s = w.document()->hasSession() ? &w.document()->session() : nullptr;
            const std::size_t first = panel->runner()->firstEventOfStep();
            // The answer, piece by piece: prose and placeholders.
            const QString answer = QString::fromStdString(step.answer);
            static const QRegularExpression token(QStringLiteral("\\{\\{|\\}\\}|\\{([^{}]*)\\}"));
            qsizetype at = 0;
            const auto prose = [&](const QString &text) {
                for (const QString &n : numbersIn(text)) {
                    const bool explained = std::any_of(
                        std::begin(kProseNumbers), std::end(kProseNumbers), [&](const ProseNumber &p) {
                            return lessonId == QLatin1String(p.lesson) && p.step == k + 1
                                   && n == QLatin1String(p.number);
                        });
                    if (explained)
                        ++allowed;
                    else
                        problems << QStringLiteral(
                                        "%1: '%2' in the prose is on no screen and not in kProseNumbers")
                                        .arg(where, n);
                }
            };
            for (auto it = token.globalMatch(answer); it.hasNext();) {
                const auto m = it.next();
                prose(answer.mid(at, m.capturedStart() - at));
                at = m.capturedEnd();
                if (m.captured(1).isEmpty())
                    continue;
                const std::string name = m.captured(1).toStdString();
                const QString value = expectedValue(name, s, first, step);
                const QStringList numbers = numbersIn(value);
                if (numbers.isEmpty())
                    continue;
                if (!offScreen(name).isEmpty()) {
                    allowed += static_cast<int>(numbers.size());
                    continue;
                }
                const auto texts = screenTexts(w, name, s, step);
                if (texts.isEmpty())
                    problems << QStringLiteral("%1: {%2} = %3: no view is known to show it")
                                    .arg(where, m.captured(1), value);
                for (const auto &[place, text] : texts)
                    for (const QString &n : numbers) {
                        ++checkedNumbers;
                        if (!showsNumber(text, n))
                            problems << QStringLiteral("%1: {%2} = %3, but the %4 shows \"%5\"")
                                            .arg(where, m.captured(1), n, place, text.simplified().left(300));
                    }
            }
            prose(answer.mid(at));
            if (const QString raised = raisedProblem(w, step); !raised.isEmpty())
                problems << QStringLiteral("%1: %2").arg(where, raised);
            if (const QString lab = rangesLabProblem(w, step, where); !lab.isEmpty())
                problems << QStringLiteral("%1: %2").arg(where, lab);
            if (step.view == "comparison" && w.comparisonDock()->isFloating()) {
                // The same step where the comparison shows one chart at a time beside its table.
                w.comparisonDock()->resize(1200, 800);
                QTRY_VERIFY(w.comparisonView()->arrangement()->mode() == ComparisonLayout::Mode::Narrow);
                // The chart the step raised stays in front when the arrangement changes.
                if (const QString raised = raisedProblem(w, step); !raised.isEmpty())
                    problems << QStringLiteral("%1 (resized to one chart beside the table): %2")
                                    .arg(where, raised);
                QVERIFY(panel->runner()->goTo(k).ok());
                waitForComparison(w);
                if (const QString raised = raisedProblem(w, step); !raised.isEmpty())
                    problems << QStringLiteral("%1 (one chart beside the table): %2").arg(where, raised);
            }
            const auto *asked = LessonRunner::queryBoxRequest(step);
            const QString wanted = asked ? boxText(*asked) : boxText(QueryBuilder().request());
            if (boxText(box->request()) != wanted)
                problems << QStringLiteral("%1: the query box holds %2, not %3")
                                .arg(where, boxText(box->request()), wanted);
            panel->next();
        }
        QVERIFY(!panel->runner()->isRunning());
        QCOMPARE(boxText(box->request()), typed); // the lecturer's typing is back, in the labs too
        QCOMPARE(w.growingLab()->gammaSpin()->value(), 0.5);
        QCOMPARE(w.growingLab()->queriesSpin()->value(), 3);
        QCOMPARE(w.growingLab()->horizonSpin()->value(), 5000);
        QCOMPARE(w.growingLab()->atgPanel()->sigmaSpin()->value(), 0.01);
        const RangesSetup ranges = w.strategiesLab()->rangesSetup();
        QCOMPARE(ranges.column, rangesBefore.column);
        QCOMPARE(ranges.bounds, rangesBefore.bounds);
        QCOMPARE(ranges.workload, rangesBefore.workload);
        QCOMPARE(ranges.epsilon, rangesBefore.epsilon);
    }
    QCOMPARE(userLessons, 1);
    qInfo("%d numbers compared with the screen, %d on no screen (explained)", checkedNumbers, allowed);
    for (const QString &problem : std::as_const(problems)) // QVERIFY2 cuts a long message
        qWarning("%s", qPrintable(problem));
    QVERIFY2(problems.isEmpty(),
             qPrintable(QStringLiteral("%1 numbers or views differ from the screen (listed above)")
                            .arg(problems.size())));
}

// A lesson's mean with its own clipping bounds, target and cap is what the query box shows after
// the step (column and bounds included); a step that asks only a histogram leaves the box's
// defaults, not the mean; ending the lesson puts the lecturer's typing back.
void TestLessonsGui::queryBoxFollowsTheSteps()
{
    MainWindow w;
    QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
    QueryBuilder *box = w.queryBuilder();
    box->setWhere(QStringLiteral("age > 60"));
    box->setAbsoluteTarget(7);
    const QString typed = boxText(box->request());
    LessonsPanel *panel = w.showLessons();
    const std::string json
        = R"({"format":"pbx-lesson","version":1,"id":"box","title":"Box","summary":"S","steps":[)"
          R"({"title":"a","explanation":"b","setup":{"session":{"dataset":"cps1988","epsilon":5,"filter":"basic","seed":5},)"
          R"("requests":[{"id":"m","aggregate":"mean","column":"wage","bounds":[0,2000],"where":"region == \"south\"",)"
          R"("target":{"kind":"relative","error":0.1,"confidence":0.9},"max_cost":2,"mechanism":"doubling-laplace"}]},"question":"q","answer":"a"},)"
          R"({"title":"b","explanation":"b","setup":{"requests":[{"id":"h","aggregate":"histogram","column":"region",)"
          R"("target":{"kind":"absolute","error":100}}]},"question":"q","answer":"a"}]})";
    const auto begun = panel->runner()->begin(parsed(json));
    QVERIFY2(begun.ok(), begun.ok() ? "" : begun.error().message.c_str());
    const auto shown = box->request();
    QCOMPARE(shown.query.aggregate, data::Aggregate::Mean);
    QCOMPARE(shown.query.column, std::string("wage"));
    QVERIFY(shown.query.bounds && shown.query.bounds->lower == 0.0 && shown.query.bounds->upper == 2000.0);
    QCOMPARE(shown.query.where, std::string("region == \"south\""));
    QCOMPARE(shown.target.kind, session::TargetKind::Relative);
    QCOMPARE(shown.target.error, 0.1);
    QCOMPARE(shown.target.confidence, 0.9);
    QCOMPARE(shown.maxCost, std::optional<double>(2.0));
    QCOMPARE(shown.mechanism, std::optional<session::ReleaseMethod>(session::ReleaseMethod::DoublingLaplace));
    QCOMPARE(boxText(shown), boxText(panel->runner()->lesson()->steps[0].requests[0]));
    QVERIFY(box->commitTypedInput().isEmpty()); // what the box shows is what Ask would send
    QVERIFY(panel->runner()->goTo(1).ok());
    QCOMPARE(boxText(box->request()), boxText(QueryBuilder().request()));
    panel->runner()->end();
    QCOMPARE(boxText(box->request()), typed);
}

QTEST_MAIN(TestLessonsGui)
#include "tst_lessonsgui.moc"
