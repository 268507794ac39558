// SPDX-License-Identifier: MIT
// Runs a lesson in the main window: saves the app's state when the lesson begins, applies each
// step's setup through the window's public API (a new session on the step's dataset and budget,
// the step's requests asked as SessionDocument::ask asks them — the ask path, never the
// confirmation — off the GUI thread with progress and cancel (lessonjob.h), the comparison view
// on the step's plan, the step's view raised with the tab it is about in front, the query box
// reset to the step's request, the Range strategies and growing labs set to the step's numbers), computes the
// step's answer from the core (lessons::fillAnswer on the session's ledger and compareStrategies) and
// restores the app's state when the lesson ends.
//
// A lesson never touches the user's records: it starts only when the user's session is wholly on
// disk (its journal, or its unmodified transcript), its sessions run only on public data (an
// embedded dataset, or a file whose metadata says "public": true) and journal into a folder of
// their own, which is all that ending the lesson deletes; ending it reopens the user's session
// from disk exactly as it was (SessionDocument::reopen), journal included.
//
// Steps continue the session of the last step that opened one, so going to step i replays the
// steps from that step on (seeded lessons replay identically); moving one step forward only asks
// the new step's requests.
#pragma once

#include "core/accounting/comparison.h"
#include "core/data/table.h"
#include "core/lessons/lesson.h"
#include "core/session/session.h"
#include "ui/strategies/strategieslabdialog.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <optional>

QT_FORWARD_DECLARE_CLASS(QWidget)
QT_FORWARD_DECLARE_CLASS(QFutureWatcherBase)

namespace pbx::ui {

class MainWindow;

class LessonRunner final : public QObject
{
    Q_OBJECT
public:
    explicit LessonRunner(MainWindow *window, QObject *parent = nullptr);
    /// Drops a running lesson without restoring anything: the window is being destroyed (closing
    /// it ends the lesson first, MainWindow::closeEvent).
    ~LessonRunner() override;

    /// Saves the app's state and applies the first step. Errors: the lesson has no steps, or
    /// the first step's setup fails (the state is restored then).
    Result<void> begin(const lessons::Lesson &lesson);
    /// Applies step `index` (0-based). Errors: out of range; a setup that fails (a dataset that
    /// does not load, a request the session refuses as invalid): the step shows the error.
    Result<void> goTo(int index);
    /// Restores the state saved by begin() and forgets the lesson (and the journals in the
    /// lesson's own folder, except one the document still uses). Nothing when no lesson runs.
    void end();
    /// Why the user's session could not be reopened at the last end() (empty when it was; the
    /// window then has no session rather than one that could spend the budget again).
    QString restoreError() const { return m_restoreError; }
    /// The folder the running lesson's sessions journal into (empty when none runs).
    QString journalFolder() const { return m_journalFolder; }
    /// The worker of the current step's requests (tests cancel it); null when none runs.
    QFutureWatcherBase *stepJob() const { return m_job; }

    bool isRunning() const { return m_lesson.has_value(); }
    const lessons::Lesson *lesson() const { return m_lesson ? &*m_lesson : nullptr; }
    int currentStep() const { return m_current; }
    /// The current step's answer with its placeholders filled in, or why it could not be.
    QString answerText() const { return m_answer; }
    bool answerOk() const { return m_answerOk; }
    /// The comparison the current step computed (null when it has none).
    const accounting::Comparison *comparison() const { return m_comparison ? &*m_comparison : nullptr; }
    /// Index of the current step's first event in the session's ledger.
    std::size_t firstEventOfStep() const { return m_firstEvent; }
    /// What a step puts in the main window's query box: its last request the box can hold (a
    /// count, sum or mean released once, by doubling or by noise reduction); null when it has
    /// none (the box is then reset to its defaults: what the class sees there is never the
    /// previous typing). Histograms, workloads and output-DP scans have dialogs of their own.
    static const session::QueryRequest *queryBoxRequest(const lessons::LessonStep &step);
    /// What a step that raises Labs ▸ Strategies & inference on its Range strategies tab sets
    /// there (configureLab): the first of the step's released workload requests (events from
    /// `firstEvent` on) gives the column, its clipping bounds as the cells, the workload, the
    /// confidence and the ε its noise was calibrated to (sensitivity / noise scale, the ε of the
    /// session's own error bars), the session its neighbours, the last tree request the
    /// branching. The tab predicts every strategy at that one ε: workload requests calibrated to
    /// different ε are shown at the first's, and a transformed or subsampled request's charge
    /// (s·ε, ln(1 + p(e^ε − 1))) is not the ε of its noise the tab shows (its bars still are the
    /// tab's). nullopt: the step released no workload.
    static std::optional<RangesSetup> rangesSetupOf(const session::Session &session, std::size_t firstEvent);

Q_SIGNALS:
    /// The current step changed (its setup applied, its answer computed).
    void stepApplied(int index);
    /// The lesson ended and the app's state was restored.
    void ended();

private:
    struct SavedState
    {
        bool hasSession = false;
        QString source;
        session::SessionSettings settings;
        QString filePath;
        QString journalPath;
        bool modified = false;
        bool hasEvents = false;
        accounting::Ledger plan; ///< the comparison view's plan
        bool comparisonOnPlan = true;
        bool epsilonAtDelta = true;
        double delta = 1e-5;
        double epsilon = 1.0;
        session::QueryRequest query; ///< the query box's request
        /// The labs' fields as they were before a step first set them (restored by end()).
        std::optional<RangesSetup> ranges;
        QList<std::pair<QPointer<QWidget>, QVariant>> growing;
    };

    Result<void> applySetup(const lessons::LessonStep &step, bool isCurrent);
    Result<void> askRequests(const lessons::LessonStep &step);
    Result<std::shared_ptr<const data::Table>> publicTable(const std::string &dataset) const;
    Result<void> computeComparison(const lessons::LessonStep &step);
    void computeAnswer(const lessons::LessonStep &step);
    void showView(const lessons::LessonStep &step);
    void raiseTab(const lessons::LessonStep &step);
    /// Sets the lab the step raises to the step's own numbers, whatever was typed there before:
    /// the Range strategies tab to the step's workload (rangesSetupOf), the growing lab to the
    /// worked plan and ATG noise unit of the growing.* values (lessons::growingWorkedPlan).
    /// Errors: the lab's.
    Result<void> configureLab(const lessons::LessonStep &step);
    /// The query box shows `request` (null: the box's defaults).
    void fillQueryBox(const session::QueryRequest *request);
    void restoreState();
    void removeLessonJournals();

    MainWindow *m_window;
    std::optional<lessons::Lesson> m_lesson;
    int m_current = -1;
    SavedState m_saved;
    QString m_journalFolder; ///< the lesson's sessions' journals (deleted at the end)
    QString m_restoreError;
    bool m_ownsSession = false; ///< the lesson started a session of its own
    quint64 m_lessonSerial = 0; ///< SessionDocument::sessionSerial() of the lesson's session
    QFutureWatcherBase *m_job = nullptr;
    QList<QPointer<QWidget>> m_shown; ///< docks and dialogs the lesson showed (hidden again when done)
    std::size_t m_firstEvent = 0;
    std::optional<accounting::Comparison> m_comparison;
    accounting::Ledger m_comparedLedger;
    QString m_answer;
    bool m_answerOk = false;
};

} // namespace pbx::ui
