// SPDX-License-Identifier: MIT
// The comparison view: what the session's ledger — or a planned workload — costs under every
// composition strategy. A source switch, the plan editor (undoable; planning spends nothing), the
// query (ε at δ or δ at ε; every chart follows it), a results table with a short explanation of
// the selected strategy, and four charts (ε(k) or δ(k), δ(ε), RDP over orders, the PLD). For a
// ledger with Gaussian or zCDP events a per-step δ turns on their per-step (ε, δ) view, so basic,
// advanced and optimal composition apply too (accounting/per_step_dp.h). For the session's ledger
// one sentence says which number is the session's guarantee (the filter's, as the budget gauge
// shows it) and why the table's smaller numbers are hindsight. The computation runs off the GUI thread
// (comparisonjob.h) with a progress bar and Cancel: a preview on a coarse PLD grid first (upper
// bounds, in italics), then the chosen grid's results. A change cancels the running job; the first
// change after a pause starts at once, those that follow it closely are coalesced (300 ms); results
// of a cancelled job are ignored; closing waits for the job to stop.
#pragma once

#include "core/accounting/event.h"
#include "ui/comparison/comparisonjob.h"

#include <QElapsedTimer>
#include <QFuture>
#include <QFutureWatcher>
#include <QList>
#include <QWidget>

#include <cstddef>
#include <vector>

QT_FORWARD_DECLARE_CLASS(QAbstractScrollArea)
QT_FORWARD_DECLARE_CLASS(QCheckBox)
QT_FORWARD_DECLARE_CLASS(QGridLayout)
QT_FORWARD_DECLARE_CLASS(QComboBox)
QT_FORWARD_DECLARE_CLASS(QLabel)
QT_FORWARD_DECLARE_CLASS(QProgressBar)
QT_FORWARD_DECLARE_CLASS(QPushButton)
QT_FORWARD_DECLARE_CLASS(QRadioButton)
QT_FORWARD_DECLARE_CLASS(QStackedWidget)
QT_FORWARD_DECLARE_CLASS(QTableView)
QT_FORWARD_DECLARE_CLASS(QTextBrowser)
QT_FORWARD_DECLARE_CLASS(QTimer)
QT_FORWARD_DECLARE_CLASS(QUndoStack)

namespace pbx::ui {

class ComparisonLayout;
class CompositionCurveChart;
class PldHistogramChart;
class PlanEditor;
class PlanModel;
class PrivacyProfileChart;
class RdpCurveChart;
class ScientificSpinBox;
class SessionDocument;
class StrategyResultsModel;

class ComparisonView final : public QWidget
{
    Q_OBJECT
public:
    enum class Source { Session, Plan };

    explicit ComparisonView(QWidget *parent = nullptr);
    /// Cancels the running job and waits for it (and for any cancelled one still stopping).
    ~ComparisonView() override;

    /// Follows the document's session: its ledger is the "This session's ledger" source.
    void setDocument(SessionDocument *document);

    Source source() const { return m_source; }
    void setSource(Source source);

    /// The table reports ε at δ (`epsilonAtDelta`) or δ at ε; the ε(k) chart always uses δ.
    void setQuery(bool epsilonAtDelta, double delta, double epsilon);
    bool epsilonAtDelta() const;
    double delta() const;
    double epsilon() const;
    /// PLD discretisation interval d: 1e-3, 1e-4 (default) or 1e-5.
    void setPldInterval(double interval);
    double pldInterval() const;

    /// The per-step (ε, δ) view for Gaussian and zCDP events: `delta` > 0 turns it on at that
    /// per-step δ (and "auto" off); 0 turns it off. By default it is on, "auto".
    void setPerStepDelta(double delta);
    /// "auto": the per-step δ follows δ/(2k), k the ledger's Gaussian/zCDP steps (autoPerStepDelta).
    void setPerStepAuto(bool automatic);
    /// The per-step δ the next computation uses: 0 when off or when the ledger has no Gaussian or
    /// zCDP event (the control is then hidden).
    double perStepDelta() const;
    /// The ledger has Gaussian or zCDP events: the per-step control is shown.
    bool perStepAvailable() const;
    /// δ/(2k) rounded down to two significant digits: half of δ for the k conversions, half left
    /// for the composition itself (advanced composition's δ′, the optimum's own δ). 0 when k ≤ 0.
    static double autoPerStepDelta(double delta, std::int64_t steps);
    /// Why basic, advanced and optimal certify nothing at the chosen per-step δ (plain); empty
    /// when at least one of them gives a finite answer.
    QString perStepNoteText() const;
    /// Session source: which number is the session's guarantee and why the table's are tighter
    /// hindsight (plain); empty for a plan.
    QString guaranteeText() const;

    /// Starts the computation now (skipping the coalescing timer), cancelling a running one.
    void recomputeNow();
    /// Cancels the running computation; its results will be ignored.
    void cancel();
    /// A job is running (or one is scheduled by the coalescing timer).
    bool isBusy() const;
    /// The last computation that finished completed (not cancelled) and its results are shown.
    bool hasResults() const { return m_hasResults; }
    /// The ledger the current source gives (what the last computation used or will use).
    const accounting::Ledger &currentLedger() const { return m_ledger; }
    /// The input of the last job started (tests compare against the core with it).
    const ComparisonInput &lastInput() const { return m_lastInput; }

    /// Selects a strategy's row; the explanation follows.
    void selectStrategy(const QString &name);
    QString selectedStrategy() const;
    /// The explanation pane's text (plain).
    QString explanationText() const;
    /// The status line below the charts (plain).
    QString statusText() const;

    /// Applies pending chart updates now (screenshots, tests).
    void flushCharts();

    PlanModel *planModel() const { return m_plan; }
    QUndoStack *undoStack() const { return m_undoStack; }
    PlanEditor *planEditor() const { return m_planEditor; }
    StrategyResultsModel *resultsModel() const { return m_results; }
    QTableView *resultsView() const { return m_resultsView; }
    QProgressBar *progressBar() const { return m_progress; }
    QPushButton *cancelButton() const { return m_cancelButton; }
    CompositionCurveChart *compositionChart() const { return m_curveChart; }
    PrivacyProfileChart *profileChart() const { return m_profileChart; }
    RdpCurveChart *rdpChart() const { return m_rdpChart; }
    PldHistogramChart *pldChart() const { return m_pldChart; }

    /// The arrangement for the width it has: wide, narrow (one chart at a time) or one view at a
    /// time (presentation mode below 1280 px); see comparisonlayout.h.
    ComparisonLayout *arrangement() const { return m_arrangement; }

    static constexpr int coalesceMilliseconds = 300;
    /// A job may run this long before its charts turn grey (ChartFrame::setGreyDelay); they count
    /// as computing (isComputing) from its start.
    static constexpr int kGreyDelayMilliseconds = 100;

Q_SIGNALS:
    /// A computation finished and its (complete) results are shown.
    void resultsShown();
    /// A computation's preview (every part on the coarse grid kPreviewPldInterval) is shown; the
    /// chosen grid's results follow (resultsShown) unless the computation is cancelled first.
    void previewShown();
    /// A computation was cancelled (by Cancel, a newer change, or close).
    void computationCancelled();

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void createWidgets();
    void createLayout();
    /// Chooses the arrangement and the top bar's rows for availableSize() and presentation mode.
    void updateArrangement();
    /// The strategy table's columns for its current font.
    void sizeResultColumns();
    /// The size the view can show: its scroll area's viewport's when it sits in one.
    QSize availableSize() const;
    void connectSignals();
    QWidget *createTopBar();
    QWidget *createSessionPage();
    void scheduleRecompute();
    void startJob();
    void retireCurrentJob();
    void onResultReady(int index);
    void onJobFinished();
    void applyResult(const ComparisonResult &result);
    void refreshSessionLedger();
    void updateExplanation();
    /// The advanced-composition filter's crossover against basic composition at the session's
    /// budget (Whitehouse et al. 2023), for the explanation of the "advanced" strategy.
    QString advancedFilterNote() const;
    void updateQueryWidgets();
    void updatePerStepWidgets();
    void updatePerStepNote(const std::vector<StrategyOutcome> &outcomes);
    void updateGuaranteeNote(const std::vector<StrategyOutcome> &outcomes);
    QWidget *createResultsPane();
    void setStatus(const QString &text);
    /// The status line while a preview is shown and the chosen grid's job runs ("…" or ": " and
    /// the job's progress text after it).
    QString previewStatus(const QString &progress) const;
    /// The core's reason made readable: "events[3] (gaussian): …" names the plan's event or the
    /// session's request, and a leading "not applicable: " is dropped (the table says it).
    QString readableReason(const QString &reason) const;
    std::vector<ComparisonInput::PrefixPoint> prefixPoints() const;

    SessionDocument *m_document = nullptr;
    Source m_source = Source::Plan;
    PlanModel *m_plan = nullptr;
    PlanModel *m_sessionModel = nullptr; ///< the session's ledger, read-only
    QUndoStack *m_undoStack = nullptr;
    StrategyResultsModel *m_results = nullptr;

    QRadioButton *m_sessionRadio = nullptr;
    QRadioButton *m_planRadio = nullptr;
    QRadioButton *m_epsilonMode = nullptr;
    QRadioButton *m_deltaMode = nullptr;
    ScientificSpinBox *m_deltaSpin = nullptr;
    ScientificSpinBox *m_epsilonSpin = nullptr;
    QComboBox *m_intervalBox = nullptr;
    QWidget *m_perStepBar = nullptr;
    QCheckBox *m_perStepCheck = nullptr;
    ScientificSpinBox *m_perStepSpin = nullptr;
    QCheckBox *m_perStepAuto = nullptr;
    QLabel *m_perStepNote = nullptr;
    QLabel *m_guaranteeNote = nullptr;
    QProgressBar *m_progress = nullptr;
    QPushButton *m_cancelButton = nullptr;
    QPushButton *m_recomputeButton = nullptr;
    QStackedWidget *m_sourceStack = nullptr;
    PlanEditor *m_planEditor = nullptr;
    QLabel *m_sessionSummary = nullptr;
    QTableView *m_sessionTable = nullptr;
    QTableView *m_resultsView = nullptr;
    QTextBrowser *m_explanation = nullptr;
    QLabel *m_status = nullptr;
    CompositionCurveChart *m_curveChart = nullptr;
    PrivacyProfileChart *m_profileChart = nullptr;
    RdpCurveChart *m_rdpChart = nullptr;
    PldHistogramChart *m_pldChart = nullptr;
    ComparisonLayout *m_arrangement = nullptr;
    QGridLayout *m_topBar = nullptr;
    QWidget *m_sourceGroup = nullptr;
    QWidget *m_reportGroup = nullptr;
    QWidget *m_toolsGroup = nullptr;
    int m_topRows = 0;
    QAbstractScrollArea *m_watchedArea = nullptr;
    QTimer *m_timer = nullptr;

    QFutureWatcher<ComparisonResult> m_watcher;
    QFuture<ComparisonResult> m_future;
    QList<QFuture<ComparisonResult>> m_retired; ///< cancelled jobs that may still be stopping
    bool m_running = false;
    bool m_dirty = true;
    bool m_hasResults = false;
    bool m_previewShown = false; ///< the last result shown is a preview
    QElapsedTimer m_lastChange;  ///< since the last change (scheduleRecompute)

    accounting::Ledger m_ledger;        ///< the current source's ledger
    std::vector<std::size_t> m_origins; ///< session source: ledger event of each privacy event
    QString m_sessionError;             ///< session source: why it cannot be accounted
    int m_sessionRequests = 0;
    double m_sessionBudget = 0.0; ///< session ε budget (budget line on ε(k))
    ComparisonInput m_lastInput;
};

} // namespace pbx::ui
