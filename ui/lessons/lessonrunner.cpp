// SPDX-License-Identifier: MIT
#include "ui/lessons/lessonrunner.h"

#include "core/accounting/session_ledger.h"
#include "core/io/journal.h"
#include "core/lessons/lesson_values.h"
#include "ui/comparison/comparisonview.h"
#include "ui/comparison/planmodel.h"
#include "ui/growing/growinglabdialog.h"
#include "ui/lab/labdialog.h"
#include "ui/mainwindow.h"
#include "ui/odp/odplabdialog.h"
#include "ui/risk/privacyriskview.h"
#include "ui/sessiondocument.h"

#include <QAction>
#include <QDockWidget>
#include <QFile>

#include <algorithm>

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
} // namespace

LessonRunner::LessonRunner(MainWindow *window, QObject *parent) : QObject(parent), m_window(window) {}

LessonRunner::~LessonRunner() = default;

Result<void> LessonRunner::begin(const lessons::Lesson &lesson)
{
    end();
    if (lesson.steps.empty())
        return makeError(ErrorCode::InvalidArgument, "the lesson has no steps");
    const SessionDocument *doc = m_window->document();
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
    m_lesson = lesson;
    m_current = -1;
    m_ownsSession = false;
    m_lessonJournals.clear();
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
        rememberJournal();
        const QString dataset = QString::fromStdString(step.session->dataset);
        auto table = SessionDocument::loadTable(dataset);
        if (!table.ok())
            return makeError(table.error().code,
                             "dataset '" + step.session->dataset + "': " + table.error().message);
        auto started = doc->start(std::move(table).value(), dataset, step.session->settings);
        if (!started.ok())
            return started;
        m_ownsSession = true;
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
    return {};
}

Result<void> LessonRunner::askRequests(const lessons::LessonStep &step)
{
    if (step.requests.empty())
        return {};
    SessionDocument *doc = m_window->document();
    if (!doc->hasSession())
        return makeError(ErrorCode::InvalidArgument, "no session is open for the step's requests");
    for (int r = 0; r < step.repeat; ++r)
        for (const auto &request : step.requests) {
            // The ask path (SessionDocument::ask, as MainWindow::ask), never the confirmation: a
            // lesson's requests are part of the lesson. A refusal (budget) is a ledger event.
            auto event = doc->ask(request);
            if (!event.ok())
                return makeError(event.error().code,
                                 "request '" + request.id + "': " + event.error().message);
        }
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
        auto ledger = accounting::ledgerFromSession(doc->session());
        if (!ledger.ok())
            return ledger.error();
        m_comparedLedger = std::move(ledger).value();
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
    } else if (view == "noise-reduction") {
        wanted = m_window->noiseReductionDock();
    } else if (view == "privacy-risk") {
        wanted = m_window->showPrivacyRisk();
    } else if (view == "lab:relative-error") {
        wanted = m_window->relativeErrorLab();
    } else if (view == "lab:output-dp") {
        auto *lab = m_window->findChild<OdpLabDialog *>();
        wanted = lab ? lab : new OdpLabDialog(m_window);
    } else if (view == "lab:growing") {
        auto *lab = m_window->findChild<GrowingLabDialog *>();
        wanted = lab ? lab : new GrowingLabDialog(m_window);
    } else if (view == "lab:strategies") {
        // Opened by its own menu action (ui/strategies/strategymenus.cpp), which wires the dialog.
        if (auto *action = m_window->findChild<QAction *>(QStringLiteral("strategiesLabAction")))
            action->trigger();
        wanted = m_window->findChild<QWidget *>(QStringLiteral("strategiesLabDialog"));
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

void LessonRunner::rememberJournal()
{
    const QString journal = m_window->document()->journalPath();
    if (m_ownsSession && !journal.isEmpty() && !m_lessonJournals.contains(journal))
        m_lessonJournals << journal;
}

void LessonRunner::restoreState()
{
    SessionDocument *doc = m_window->document();
    // A lesson that never opened a session of its own (plans only) left the user's in place.
    if (m_saved.hasSession && m_ownsSession) {
        Result<void> restored = makeError(ErrorCode::NotFound, "nothing to restore");
        if (!m_saved.filePath.isEmpty())
            restored = doc->openTranscript(m_saved.filePath);
        else if (!m_saved.journalPath.isEmpty())
            restored = doc->openTranscript(m_saved.journalPath);
        if (!restored.ok()) {
            qWarning("lessons: the session before the lesson could not be reopened (%s); starting afresh",
                     restored.error().message.c_str());
            auto table = SessionDocument::loadTable(m_saved.source);
            if (table.ok())
                restored = doc->start(std::move(table).value(), m_saved.source, m_saved.settings);
        }
        if (restored.ok())
            m_ownsSession = false;
    }
    ComparisonView *comparison = m_window->comparisonView();
    if (comparison->planModel()->ledger().events.size() != m_saved.plan.events.size()
        || !std::equal(m_saved.plan.events.begin(), m_saved.plan.events.end(),
                       comparison->planModel()->ledger().events.begin(), PlanModel::sameEvent))
        comparison->planModel()->replacePlan(m_saved.plan, tr("plan before the lesson"));
    comparison->setSource(m_saved.comparisonOnPlan ? ComparisonView::Source::Plan
                                                   : ComparisonView::Source::Session);
    comparison->setQuery(m_saved.epsilonAtDelta, m_saved.delta, m_saved.epsilon);
    for (QWidget *w : std::as_const(m_shown))
        if (w)
            w->hide();
    m_shown.clear();
}

void LessonRunner::end()
{
    if (!m_lesson)
        return;
    rememberJournal();
    restoreState();
    // The lessons' sessions are practice on public data: their journals are not kept (the one the
    // document still uses, if restoring failed, is).
    const QString inUse = m_window->document()->journalPath();
    for (const QString &journal : std::as_const(m_lessonJournals))
        if (journal != inUse) {
            QFile::remove(journal);
            QFile::remove(QString::fromStdString(io::journalTailPath(journal.toStdString())));
        }
    m_lessonJournals.clear();
    m_lesson.reset();
    m_current = -1;
    m_comparison.reset();
    Q_EMIT ended();
}

} // namespace pbx::ui
