// SPDX-License-Identifier: MIT
#include "ui/lessons/lessonrunner.h"

#include "core/io/journal.h"
#include "core/lessons/lesson_growing.h"
#include "core/lessons/lesson_values.h"
#include "core/session/ledger/session_ledger.h"
#include "core/util/try.h"
#include "ui/charts/privacylosspathchart.h"
#include "ui/comparison/comparisonlayout.h"
#include "ui/comparison/comparisonview.h"
#include "ui/comparison/planmodel.h"
#include "ui/growing/atgpanel.h"
#include "ui/growing/growinglabdialog.h"
#include "ui/lab/labdialog.h"
#include "ui/lessons/lessonjob.h"
#include "ui/mainwindow.h"
#include "ui/odp/odplabdialog.h"
#include "ui/panels/querybuilder.h"
#include "ui/risk/privacyriskview.h"
#include "ui/sessiondocument.h"
#include "ui/strategies/strategieslabdialog.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QProgressDialog>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QTabWidget>
#include <QTimer>

#include <algorithm>
#include <limits>
#include <tuple>

namespace pbx::ui {

namespace {
QString text(const Error &error)
{
    return QString::fromStdString(error.message);
}

/// Open: a dock that is not closed (it may be a tab behind another), a dialog that is shown.
bool isOpen(QWidget *widget)
{
    if (auto *dock = qobject_cast<QDockWidget *>(widget))
        return dock->toggleViewAction()->isChecked();
    return widget->isVisible();
}
/// Scrolls every page of `window` (its scroll areas holding a page of widgets) back to the top
/// left. Item views and text keep theirs: those are the content, not the page.
void scrollPagesToStart(QWidget *window)
{
    const auto areas = window->findChildren<QScrollArea *>();
    for (QScrollArea *area : areas) {
        area->horizontalScrollBar()->setValue(area->horizontalScrollBar()->minimum());
        area->verticalScrollBar()->setValue(area->verticalScrollBar()->minimum());
    }
}

} // namespace

LessonRunner::LessonRunner(MainWindow *window, QObject *parent) : QObject(parent), m_window(window) {}

LessonRunner::~LessonRunner() = default;

Result<void> LessonRunner::begin(const lessons::Lesson &lesson)
{
    end();
    if (lesson.steps.empty())
        return makeError(ErrorCode::InvalidArgument, "the lesson has no steps");
    SessionDocument *doc = m_window->document();
    // The lesson closes the user's session and reopens it from disk at the end: everything in it
    // must be there first (a journal line that failed earlier is written now).
    if (auto onDisk = doc->flushJournal(); !onDisk.ok())
        return makeError(onDisk.error().code,
                         "your session's records could not all be written to disk, so the lesson did not "
                         "start (save the session first): "
                             + onDisk.error().message);
    m_saved = SavedState{};
    m_saved.hasSession = doc->hasSession();
    m_saved.source = doc->datasetSource();
    m_saved.settings = doc->settings();
    m_saved.filePath = doc->filePath();
    m_saved.journalPath = doc->journalPath();
    m_saved.modified = doc->isModified();
    m_saved.hasEvents = doc->hasEvents();
    const ComparisonView *view = m_window->comparisonView();
    m_saved.plan = view->planModel()->ledger();
    m_saved.comparisonOnPlan = view->source() == ComparisonView::Source::Plan;
    m_saved.epsilonAtDelta = view->epsilonAtDelta();
    m_saved.delta = view->delta();
    m_saved.epsilon = view->epsilon();
    m_saved.query = m_window->queryBuilder()->request();
    m_lesson = lesson;
    m_current = -1;
    m_ownsSession = false;
    m_restoreError.clear();
    m_journalFolder
        = QDir(SessionDocument::defaultJournalFolder())
              .filePath(
                  QStringLiteral("lessons/%1-%2-%3")
                      .arg(QString::fromStdString(lesson.id).left(40),
                           QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz")))
                      .arg(QCoreApplication::applicationPid()));
    auto first = goTo(0);
    if (!first.ok()) {
        end();
        return first;
    }
    return {};
}

Result<void> LessonRunner::goTo(int index)
{
    if (!m_lesson || index < 0 || index >= static_cast<int>(m_lesson->steps.size()))
        return makeError(ErrorCode::InvalidArgument, "no such step");
    const auto &steps = m_lesson->steps;
    Result<void> result;
    if (m_current >= 0 && index == m_current + 1 && !steps[static_cast<std::size_t>(index)].session) {
        result = applySetup(steps[static_cast<std::size_t>(index)], true);
    } else {
        // Replay from the step that opened the session this one continues (seeded: identically).
        int first = index;
        while (first > 0 && !steps[static_cast<std::size_t>(first)].session)
            --first;
        for (int k = first; k <= index && result.ok(); ++k)
            result = applySetup(steps[static_cast<std::size_t>(k)], k == index);
    }
    m_current = index;
    if (!result.ok()) {
        m_answer = tr("This step could not be set up: %1").arg(text(result.error()));
        m_answerOk = false;
    }
    Q_EMIT stepApplied(index);
    return result;
}

Result<void> LessonRunner::applySetup(const lessons::LessonStep &step, bool isCurrent)
{
    SessionDocument *doc = m_window->document();
    if (step.session) {
        PBX_TRY(table, publicTable(step.session->dataset));
        auto started = doc->start(std::move(table), QString::fromStdString(step.session->dataset),
                                  step.session->settings, m_journalFolder);
        if (!started.ok())
            return started;
        m_ownsSession = true;
        m_lessonSerial = doc->sessionSerial();
    }
    if (isCurrent) {
        m_firstEvent = static_cast<std::size_t>(doc->eventCount());
        m_comparison.reset();
        m_answer.clear();
        m_answerOk = false;
    }
    if (auto asked = askRequests(step); !asked.ok())
        return asked;
    if (!isCurrent)
        return {};
    if (auto compared = computeComparison(step); !compared.ok())
        return compared;
    computeAnswer(step);
    showView(step);
    raiseTab(step);
    if (auto configured = configureLab(step); !configured.ok())
        return configured;
    // The box shows what the step asked, not what was typed there before.
    fillQueryBox(queryBoxRequest(step));
    return {};
}

Result<std::shared_ptr<const data::Table>> LessonRunner::publicTable(const std::string &dataset) const
{
    auto table = SessionDocument::loadTable(QString::fromStdString(dataset));
    if (!table.ok())
        return makeError(table.error().code, "dataset '" + dataset + "': " + table.error().message);
    // A lesson is practice in front of others: it never queries private rows.
    if (!(*table)->isPublic())
        return makeError(ErrorCode::InvalidArgument,
                         "dataset '" + dataset
                             + "': lessons run only on an embedded dataset or a file whose metadata "
                               "says \"public\": true; this one is not declared public");
    return table;
}

Result<void> LessonRunner::askRequests(const lessons::LessonStep &step)
{
    if (step.requests.empty())
        return {};
    SessionDocument *doc = m_window->document();
    if (!doc->hasSession())
        return makeError(ErrorCode::InvalidArgument, "no session is open for the step's requests");
    if (doc->sessionSerial() != m_lessonSerial)
        return makeError(ErrorCode::InvalidArgument,
                         "the session open now is not the lesson's: a lesson asks nothing in yours");
    if (const QString busy = doc->busyReason(); !busy.isEmpty()) // a request of the window's runs
        return makeError(ErrorCode::InvalidArgument, busy.toStdString());
    // The ask path (askJournaled, as SessionDocument::ask), never the confirmation: a lesson's
    // requests are part of the lesson. Off the GUI thread, with progress and cancel.
    LessonJobInput input;
    input.table = doc->session().sharedTable();
    input.settings = doc->session().settings();
    input.events = doc->session().events();
    input.requests = step.requests;
    input.repeat = step.repeat;
    auto state = std::make_shared<LessonJobState>();
    state->journal = doc->lendJournal();
    QFutureWatcher<void> watcher;
    QProgressDialog progress(tr("Asking the step's requests…"), tr("Cancel"), 0,
                             static_cast<int>(step.requests.size()) * step.repeat, m_window);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(std::numeric_limits<int>::max()); // shown below, when needed
    progress.setAutoReset(false);
    QEventLoop loop;
    connect(&watcher, &QFutureWatcherBase::progressValueChanged, &progress, &QProgressDialog::setValue);
    connect(&watcher, &QFutureWatcherBase::finished, &loop, &QEventLoop::quit);
    connect(&progress, &QProgressDialog::canceled, &watcher, &QFutureWatcherBase::cancel);
    m_job = &watcher;
    watcher.setFuture(startLessonJob(std::move(input), state));
    // The GUI keeps painting; input waits until the job ends or the (modal) progress shows, so
    // nothing else reaches the session meanwhile.
    QTimer::singleShot(300, &loop, &QEventLoop::quit);
    if (!watcher.isFinished())
        loop.exec(QEventLoop::ExcludeUserInputEvents);
    if (!watcher.isFinished()) {
        progress.show();
        loop.exec();
    }
    watcher.waitForFinished();
    m_job = nullptr;
    // What was asked is the session's, cancelled or not (null: the job never started).
    const bool started = state->session != nullptr || !state->error.isEmpty();
    doc->adoptSession(std::move(state->session), std::move(state->journal));
    if (!started)
        return makeError(ErrorCode::Cancelled, "cancelled before any request was asked");
    if (!state->error.isEmpty())
        return makeError(state->cancelled ? ErrorCode::Cancelled : ErrorCode::InvalidArgument,
                         state->error.toStdString());
    return {};
}

Result<void> LessonRunner::computeComparison(const lessons::LessonStep &step)
{
    if (!step.comparison)
        return {};
    const auto &c = *step.comparison;
    if (c.plan) {
        m_comparedLedger = *c.plan;
    } else {
        const SessionDocument *doc = m_window->document();
        if (!doc->hasSession())
            return makeError(ErrorCode::InvalidArgument, "no session to compare");
        PBX_TRY(ledger, accounting::ledgerFromSession(doc->session()));
        m_comparedLedger = std::move(ledger);
    }
    accounting::ComparisonQuery query;
    query.epsilonAtDelta = true;
    query.delta = c.delta;
    if (!c.strategies.empty())
        query.strategies = c.strategies;
    query.curves = false; // the values only; the comparison view draws the curves itself
    auto comparison = accounting::compareStrategies(m_comparedLedger, query);
    if (!comparison.ok())
        return comparison.error();
    m_comparison = std::move(comparison).value();
    return {};
}

void LessonRunner::computeAnswer(const lessons::LessonStep &step)
{
    const SessionDocument *doc = m_window->document();
    lessons::StepOutcome outcome;
    outcome.session = doc->hasSession() ? &doc->session() : nullptr;
    outcome.firstEvent = m_firstEvent;
    if (m_comparison) {
        outcome.comparison = &*m_comparison;
        outcome.comparisonDelta = step.comparison->delta;
        outcome.comparedLedger = &m_comparedLedger;
        if (step.comparison->plan)
            outcome.plan = &*step.comparison->plan;
    }
    auto filled = lessons::fillAnswer(step.answer, outcome);
    m_answerOk = filled.ok();
    m_answer = filled.ok() ? QString::fromStdString(*filled)
                           : tr("The answer could not be computed: %1").arg(text(filled.error()));
}

void LessonRunner::showView(const lessons::LessonStep &step)
{
    QWidget *wanted = nullptr;
    const std::string &view = step.view;
    if (view == "comparison") {
        ComparisonView *comparison = m_window->comparisonView();
        if (step.comparison && step.comparison->plan) {
            comparison->planModel()->replacePlan(*step.comparison->plan, QString::fromStdString(step.title));
            comparison->setSource(ComparisonView::Source::Plan);
        } else {
            comparison->setSource(ComparisonView::Source::Session);
        }
        if (step.comparison)
            comparison->setQuery(true, step.comparison->delta, comparison->epsilon());
        wanted = m_window->comparisonDock();
    } else if (view == "main") {
        // The main window's chart: the privacy-loss path, in front of the noise-reduction view
        // an earlier step raised in its place (a step raises the chart it is about).
        for (QWidget *p = m_window->pathChart(); p; p = p->parentWidget())
            if (auto *dock = qobject_cast<QDockWidget *>(p)) {
                dock->raise();
                break;
            }
    } else if (view == "noise-reduction") {
        wanted = m_window->noiseReductionDock();
    } else if (view == "privacy-risk") {
        wanted = m_window->showPrivacyRisk();
    } else if (view == "lab:relative-error") {
        wanted = m_window->relativeErrorLab();
    } else if (view == "lab:output-dp") {
        wanted = m_window->odpLab();
    } else if (view == "lab:growing") {
        wanted = m_window->growingLab();
    } else if (view == "lab:strategies") {
        wanted = m_window->strategiesLab();
    }
    // What an earlier step showed and this one does not want goes away again.
    const bool shownByLesson = wanted && m_shown.contains(wanted);
    for (QWidget *w : std::as_const(m_shown))
        if (w && w != wanted)
            w->hide();
    m_shown.clear();
    if (!wanted)
        return;
    const bool opening = !isOpen(wanted);
    if (shownByLesson || opening)
        m_shown << wanted;
    wanted->show();
    wanted->raise();
    // A lab opened by a step starts at the top of its page: the scroll position an earlier visit
    // left showed the middle of a page the step does not talk about.
    if (view.rfind("lab:", 0) == 0)
        scrollPagesToStart(wanted);
    // A floating comparison opens over the window: keep the lesson's column beside it visible.
    if (opening && wanted == m_window->comparisonDock() && m_window->comparisonDock()->isFloating()) {
        const QRect frame = m_window->geometry();
        const int left = m_window->lessonsDock() && m_window->lessonsDock()->isVisible()
                             ? m_window->lessonsDock()->width() + 16
                             : 0;
        wanted->setGeometry(QRect(frame.x() + left, frame.y(), std::max(640, frame.width() - left),
                                  std::min(frame.height(), 900)));
    }
}

void LessonRunner::raiseTab(const lessons::LessonStep &step)
{
    const auto &names = lessons::lessonTabNames(step.view);
    if (names.empty())
        return;
    const auto named = std::find(names.begin(), names.end(), step.tab);
    const int index = named == names.end() ? 0 : static_cast<int>(named - names.begin());
    QTabWidget *tabs = nullptr;
    if (step.view == "comparison") {
        ComparisonLayout *layout = m_window->comparisonView()->arrangement();
        // Narrow: the chart beside the table. Wide: all four are shown (no tabs). One view at a
        // time: the strategies' table, which holds every number the answer quotes, stays in front
        // and the chart is the next tab's.
        if (layout->mode() == ComparisonLayout::Mode::OneView)
            layout->viewTabs()->setCurrentIndex(0);
        layout->setFrontChart(index); // kept when the arrangement changes later
    } else if (step.view == "lab:strategies") {
        tabs = m_window->strategiesLab()->tabs();
    } else if (step.view == "lab:output-dp") {
        tabs = m_window->odpLab()->tabs();
    } else if (step.view == "lab:growing") {
        tabs = m_window->growingLab()->tabs();
    }
    if (tabs && index < tabs->count())
        tabs->setCurrentIndex(index);
}

std::optional<RangesSetup> LessonRunner::rangesSetupOf(const session::Session &session,
                                                       std::size_t firstEvent)
{
    std::optional<RangesSetup> setup;
    const auto &events = session.events();
    for (std::size_t i = firstEvent; i < events.size(); ++i) {
        const session::LedgerEvent &e = events[i];
        const auto *spec = e.request.strategy();
        const auto *record = e.strategyRecord();
        if (!spec || spec->kind != session::StrategyRequestKind::Workload
            || e.status != session::EventStatus::Released || !record || record->noiseScale <= 0.0)
            continue;
        if (!setup) {
            RangesSetup s;
            s.column = QString::fromStdString(e.request.query.column);
            if (e.request.query.bounds)
                s.bounds = std::pair{e.request.query.bounds->lower, e.request.query.bounds->upper};
            s.workload = QString::fromStdString(spec->workload);
            // The ε the request's noise was calibrated to, Δ/t, as the session computed its
            // variances (strategy_release.cpp): the lab's predictions are then the request's bars.
            s.epsilon = static_cast<double>(record->sensitivity) / record->noiseScale;
            s.confidence = e.request.target.confidence;
            s.neighbours = session.settings().neighbours;
            setup = s;
        }
        if (spec->strategy.kind == strategies::RangeStrategyKind::Tree)
            setup->branching = spec->strategy.branching;
    }
    return setup;
}

namespace {

/// Selects the item of `combo` whose data is `data`; false when it has none.
bool selectData(QComboBox *combo, const QString &data)
{
    const int index = combo->findData(data);
    if (index >= 0)
        combo->setCurrentIndex(index);
    return index >= 0;
}

using WidgetValues = QList<std::pair<QPointer<QWidget>, QVariant>>;

/// The values of `widgets` (combo boxes' indices, spin boxes' values, check boxes' states).
WidgetValues valuesOf(const QList<QWidget *> &widgets)
{
    WidgetValues out;
    for (QWidget *w : widgets) {
        QVariant v;
        if (auto *combo = qobject_cast<QComboBox *>(w))
            v = combo->currentIndex();
        else if (auto *spin = qobject_cast<QSpinBox *>(w))
            v = spin->value();
        else if (auto *real = qobject_cast<QDoubleSpinBox *>(w))
            v = real->value();
        else if (auto *check = qobject_cast<QCheckBox *>(w))
            v = check->isChecked();
        out.append({w, v});
    }
    return out;
}

/// Puts back what valuesOf() read, in its order (a lab's kind first, then its values).
void restoreValues(const WidgetValues &values)
{
    for (const auto &[w, v] : values) {
        if (auto *combo = qobject_cast<QComboBox *>(w.data()))
            combo->setCurrentIndex(v.toInt());
        else if (auto *spin = qobject_cast<QSpinBox *>(w.data()))
            spin->setValue(v.toInt());
        else if (auto *real = qobject_cast<QDoubleSpinBox *>(w.data()))
            real->setValue(v.toDouble());
        else if (auto *check = qobject_cast<QCheckBox *>(w.data()))
            check->setChecked(v.toBool());
    }
}

/// The growing lab shows the lessons' worked plan (lessons::growingWorkedPlan) and the ATG noise
/// unit of their answers, whatever was typed in it before: its read-out and γ* are then the
/// answers' epochs and γ. `saved` (when empty) receives the fields' values before. Errors: a
/// field the lab does not offer.
Result<void> showWorkedPlan(GrowingLabDialog *lab, WidgetValues &saved)
{
    const growing::SchedulerConfig plan = lessons::growingWorkedPlan();
    const growing::NoiseUnit unit = lessons::growingAtgUnit();
    GrowingLabEditor *editor = lab->editor();
    // The schedule's combo is the one offering "geometric".
    QComboBox *schedule = nullptr;
    for (QComboBox *combo : editor->findChildren<QComboBox *>())
        if (combo->findData(QStringLiteral("geometric")) >= 0)
            schedule = combo;
    const bool offered = plan.budget.kind == growing::BudgetKind::Pure
                         && plan.schedule == growing::ScheduleKind::Geometric
                         && plan.box.kind == growing::BlackBoxKind::LaplaceK && schedule
                         && selectData(lab->algorithmCombo(), QStringLiteral("bbscheduler"))
                         && selectData(lab->budgetKindCombo(), QStringLiteral("pure"))
                         && selectData(schedule, QStringLiteral("geometric"))
                         && selectData(lab->boxCombo(), QStringLiteral("laplace-k"));
    if (!offered)
        return makeError(ErrorCode::InvalidArgument,
                         "the growing lab does not offer the lessons' worked plan");
    AtgPanel *atg = lab->atgPanel();
    if (saved.isEmpty())
        saved = valuesOf({lab->algorithmCombo(), lab->budgetKindCombo(), schedule, lab->boxCombo(),
                          lab->startSizeSpin(), lab->gammaSpin(), lab->epsilonSpin(), editor->betaSpin(),
                          lab->queriesSpin(), lab->horizonSpin(), lab->sortedCheck(), atg->sigmaSpin(),
                          atg->exponentSpin()});
    lab->startSizeSpin()->setValue(static_cast<int>(plan.startSize));
    lab->gammaSpin()->setValue(plan.gamma);
    lab->epsilonSpin()->setValue(plan.budget.epsilon);
    editor->betaSpin()->setValue(plan.beta);
    lab->queriesSpin()->setValue(static_cast<int>(plan.box.queries));
    lab->horizonSpin()->setValue(static_cast<int>(lessons::kGrowingLessonHorizon));
    lab->sortedCheck()->setChecked(false);
    atg->sigmaSpin()->setValue(unit.sigmaN);
    atg->exponentSpin()->setValue(unit.exponent);
    return {};
}

} // namespace

Result<void> LessonRunner::configureLab(const lessons::LessonStep &step)
{
    if (step.view == "lab:growing")
        return showWorkedPlan(m_window->growingLab(), m_saved.growing);
    // The Range strategies tab runs the step's own workload: its column, cells, workload, ε and
    // confidence, on the session's data. A step without workload requests leaves the tab as it is.
    if (step.view != "lab:strategies" || step.tab != "ranges" || !m_window->document()->hasSession())
        return {};
    const auto setup = rangesSetupOf(m_window->document()->session(), m_firstEvent);
    if (!setup)
        return {};
    StrategiesLabDialog *lab = m_window->strategiesLab();
    if (!m_saved.ranges)
        m_saved.ranges = lab->rangesSetup();
    return lab->runRanges(*setup);
}

const session::QueryRequest *LessonRunner::queryBoxRequest(const lessons::LessonStep &step)
{
    const session::QueryRequest *shown = nullptr;
    for (const auto &request : step.requests)
        if (request.family() == session::RequestFamily::Release)
            shown = &request;
    return shown;
}

void LessonRunner::fillQueryBox(const session::QueryRequest *request)
{
    // The box's own defaults, as a new one holds them.
    const session::QueryRequest defaults = QueryBuilder().request();
    const session::QueryRequest &r = request ? *request : defaults;
    QueryBuilder *box = m_window->queryBuilder();
    box->setAggregate(r.query.aggregate);
    if (r.query.aggregate != data::Aggregate::Count) {
        box->setColumn(QString::fromStdString(r.query.column));
        if (r.query.bounds)
            box->setBounds(r.query.bounds->lower, r.query.bounds->upper);
    }
    box->setWhere(QString::fromStdString(r.query.where));
    if (r.target.kind == session::TargetKind::Relative)
        box->setRelativeTarget(r.target.error);
    else
        box->setAbsoluteTarget(r.target.error);
    box->setConfidence(r.target.confidence);
    box->setMaxCost(r.maxCost);
    // After the aggregate and the target: which mechanisms the filter offers depends on them.
    if (!box->setMechanism(r.mechanism))
        box->setMechanism(std::nullopt);
}

void LessonRunner::restoreState()
{
    SessionDocument *doc = m_window->document();
    m_restoreError.clear();
    // A lesson that never opened a session of its own (plans only) left the user's in place; one
    // the user opened during the lesson (New session, Open…) is theirs and stays.
    if (m_ownsSession && doc->sessionSerial() == m_lessonSerial) {
        Result<void> restored;
        if (!m_saved.hasSession) {
            doc->close();
        } else if (!m_saved.filePath.isEmpty() || !m_saved.journalPath.isEmpty()) {
            // Exactly what is on disk, journal included: never the transcript alone when the
            // journal holds more.
            restored = doc->reopen(m_saved.filePath, m_saved.journalPath);
            if (!restored.ok()) {
                // Never a fresh session on the same data: it could spend again what the records
                // hold. The window is left without a session and says why.
                m_restoreError = tr("Your session could not be reopened (%1); it is unchanged on disk: "
                                    "open it with File ▸ Open session.")
                                     .arg(text(restored.error()));
                doc->close();
            }
        } else { // nothing asked, nothing saved: the same empty session
            auto table = SessionDocument::loadTable(m_saved.source);
            restored = table.ok() ? doc->start(std::move(table).value(), m_saved.source, m_saved.settings)
                                  : Result<void>(table.error());
            if (!restored.ok())
                doc->close();
        }
    }
    m_ownsSession = false;
    ComparisonView *comparison = m_window->comparisonView();
    if (comparison->planModel()->ledger().events.size() != m_saved.plan.events.size()
        || !std::equal(m_saved.plan.events.begin(), m_saved.plan.events.end(),
                       comparison->planModel()->ledger().events.begin(), PlanModel::sameEvent))
        comparison->planModel()->replacePlan(m_saved.plan, tr("plan before the lesson"));
    comparison->setSource(m_saved.comparisonOnPlan ? ComparisonView::Source::Plan
                                                   : ComparisonView::Source::Session);
    comparison->setQuery(m_saved.epsilonAtDelta, m_saved.delta, m_saved.epsilon);
    fillQueryBox(&m_saved.query);
    // The labs' fields a step set: the user's again (the range results cleared, the growing plan
    // recomputed from them).
    if (m_saved.ranges)
        std::ignore = m_window->strategiesLab()->setRanges(*m_saved.ranges);
    restoreValues(m_saved.growing);
    for (QWidget *w : std::as_const(m_shown))
        if (w)
            w->hide();
    m_shown.clear();
}

void LessonRunner::removeLessonJournals()
{
    // The lesson's sessions are practice on public data: their journals are not kept. Only the
    // lesson's own folder is emptied (a journal saved beside a file the user chose has left it;
    // the one the document still uses stays).
    if (m_journalFolder.isEmpty())
        return;
    QDir folder(m_journalFolder);
    const QString inUse = QFileInfo(m_window->document()->journalPath()).absoluteFilePath();
    for (const QFileInfo &file : folder.entryInfoList(QDir::Files | QDir::Hidden | QDir::System)) {
        const QString path = file.absoluteFilePath();
        if (path != inUse && path != QString::fromStdString(io::journalTailPath(inUse.toStdString())))
            QFile::remove(path);
    }
    QDir().rmdir(m_journalFolder); // only when empty
}

void LessonRunner::end()
{
    if (!m_lesson)
        return;
    restoreState();
    removeLessonJournals();
    m_journalFolder.clear();
    m_lesson.reset();
    m_current = -1;
    m_comparison.reset();
    Q_EMIT ended();
}

} // namespace pbx::ui
