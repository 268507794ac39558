// SPDX-License-Identifier: MIT
// The main window: dataset and privacy settings on the left, the query builder, the result of the
// last request and the ledger in the centre, the budget gauge and the privacy-loss path on the
// right. Menu actions, the command line and tests all go through the same public functions
// (openDataset, openSessionFile, saveSessionTo, ask), which never show dialogs themselves.
#pragma once

#include "core/session/session.h"

#include <QMainWindow>
#include <QPointer>
#include <QSize>

QT_FORWARD_DECLARE_CLASS(QScrollArea)
QT_FORWARD_DECLARE_CLASS(QTimer)
QT_FORWARD_DECLARE_CLASS(QAction)
QT_FORWARD_DECLARE_CLASS(QDockWidget)
QT_FORWARD_DECLARE_CLASS(QLabel)
QT_FORWARD_DECLARE_CLASS(QMenu)
QT_FORWARD_DECLARE_CLASS(QTableView)

namespace pbx::ui {

class AttemptsView;
class BudgetGauge;
class ComparisonView;
class DatasetPanel;
class GrowingLabDialog;
class LabDialog;
class LedgerModel;
class LessonsPanel;
class NoiseReductionView;
class OdpLabDialog;
class PrivacyLossPathChart;
class PrivacyRiskView;
class QueryBuilder;
class ResultCard;
class SessionDocument;
class SegmentLabel;
class SessionPanel;
class StrategiesLabDialog;

class MainWindow final : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    /// Loads an embedded dataset or CSV and starts a new session on it with the settings in the
    /// session panel. No confirmation: callers that may discard a ledger ask first.
    /// `metadataPath`: a database table's metadata file (docs/data-sources.md); empty otherwise.
    Result<void> openDataset(const QString &nameOrPath, const QString &metadataPath = {});
    /// What File ▸ Open session… does after its file dialog: reads the transcript, loads its
    /// dataset, restores the session. On error the current session is untouched.
    Result<void> openSessionFile(const QString &path);
    /// What File ▸ Save session as… does after its file dialog (transcript JSON).
    Result<void> saveSessionTo(const QString &path);
    /// What File ▸ Export CSV… does after its file dialog.
    Result<void> exportCsvTo(const QString &path);
    /// What File ▸ Export report… does after its file dialog: the session report, HTML or PDF by
    /// the extension (ui/report/reportexport.h). Errors: no session; those of the writer.
    Result<void> exportReportTo(const QString &path);
    /// Starts a new, empty session with `settings` on the current dataset (no confirmation).
    Result<void> startNewSession(const session::SessionSettings &settings);

    /// Applies pending chart updates now (before a screenshot).
    void flushViews();

    /// Restores the window geometry and dock layout saved by an earlier run (AppSettings) and
    /// saves them again when the window closes. The application calls it; tests need not.
    /// False when there was no saved layout to restore (the default layout stays).
    bool rememberLayout();
    /// File ▸ Open Recent: the recent sessions, newest first (rebuilt each time it opens).
    QMenu *recentSessionsMenu() const { return m_recentMenu; }

    SessionDocument *document() const { return m_document; }
    DatasetPanel *datasetPanel() const { return m_datasetPanel; }
    SessionPanel *sessionPanel() const { return m_sessionPanel; }
    QueryBuilder *queryBuilder() const { return m_queryBuilder; }
    ResultCard *resultCard() const { return m_resultCard; }
    LedgerModel *ledgerModel() const { return m_ledgerModel; }
    QTableView *ledgerView() const { return m_ledgerView; }
    AttemptsView *attemptsView() const { return m_attempts; }
    BudgetGauge *budgetGauge() const { return m_gauge; }
    PrivacyLossPathChart *pathChart() const { return m_chart; }
    /// View ▸ Compare strategies: every composition strategy on the session's ledger or a plan.
    ComparisonView *comparisonView() const { return m_comparison; }
    QDockWidget *comparisonDock() const { return m_comparisonDock; }
    NoiseReductionView *noiseReductionView() const { return m_noiseReduction; }
    QDockWidget *noiseReductionDock() const { return m_noiseReductionDock; }
    /// Help ▸ Lessons: the guided lessons in a dock (created on first use), shown and raised.
    LessonsPanel *showLessons();
    /// The lessons dock (null until showLessons() first runs).
    QDockWidget *lessonsDock() const { return m_lessonsDock; }
    /// Labs ▸ Relative-error lab…: the lab dialog on the session's table (created on first use).
    LabDialog *relativeErrorLab();
    /// Labs ▸ Output DP…, Growing database… and Strategies & inference…: each lab dialog, created
    /// on first use (the strategies lab on the session's table); not shown. The menus and the
    /// lesson runner open the labs through these.
    OdpLabDialog *odpLab();
    GrowingLabDialog *growingLab();
    StrategiesLabDialog *strategiesLab();

    QSize sizeHint() const override;

Q_SIGNALS:
    /// A request of ask() ended and its outcome is shown (the result card, the gauge, the ledger).
    /// On a database source the request runs off the GUI thread and this comes later; on an
    /// in-memory table before ask() returns.
    void askFinished();

public Q_SLOTS:
    /// Asks the request in the query builder at once (no confirmation; see askInteractive). On a
    /// database source it runs off the GUI thread (SessionDocument::startAsk): the Ask button
    /// says "Asking…", the result card shows a busy bar and Cancel, and what would ask or change
    /// the session (File and Query menus, the privacy settings, the lessons) is disabled until it
    /// ends (askFinished()).
    void ask();
    /// The Ask button, Enter and Query ▸ Ask: asks, except that a request costing more than
    /// AppSettings::confirmCostShare() of what remains first turns the button into a
    /// confirmation; asking again unchanged spends it, any edit withdraws it.
    void askInteractive();
    /// View ▸ Privacy risk: the risk view for the session's (ε, δ), created on first use.
    PrivacyRiskView *showPrivacyRisk();

protected:
    void closeEvent(QCloseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;
    /// A dock tab's tooltip names its dock in full (fitDockTabTitles may have shortened it).
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    /// Sizes the ledger's columns and rows for its current font (normal or presentation mode).
    void sizeLedgerColumns();
    /// Commits the query builder's typed text; false (the refusal shown, nothing asked) when a
    /// field's text is not a value it accepts.
    bool commitTypedQuery();
    void createActions();
    void createMenus();
    void createDocks();
    void createCentralWidget();
    void applyDefaultDockSizes();
    /// Presentation mode on a window narrower than kTwoColumnWidth: one dock column (the dataset and
    /// privacy settings as tabs on the right); otherwise the default two columns.
    void updateProjectorLayout();
    /// The lessons' share of the column in the one-column projector layout.
    void giveLessonsTheirHeight();
    /// Each group of tabbed docks whose full titles do not fit its width as tabs (presentation
    /// mode's one column at 1024 px: "Privacy bu…", "Privacy se…") shows short titles ("Budget",
    /// "Settings"); the others their full titles. The View menu keeps the full names.
    void fitDockTabTitles();
    /// fitDockTabTitles once the dock layout has settled (coalesced).
    void scheduleDockTitleFit();
    /// Within each column of docks, moves height from docks with room to spare to docks that would
    /// scroll vertically (and to the lessons until their list shows kLessonRows rows), so that nothing
    /// scrolls where the column has the room: a short window (1024×708 under a window manager) or
    /// presentation mode's larger text. Sizes that already fit (the user's too) are left alone.
    /// Where the column is too short even so, the lessons' introduction is hidden first, and the
    /// privacy settings take what they need from the dataset or a chart beside them, the dataset
    /// from a chart (down to kYieldingHeight).
    void fitDockHeights();
    /// fitDockHeights once the layout has settled (coalesced; a few rounds while it changes).
    void scheduleDockHeightFit();

    void newSessionInteractive();
    void openDatasetInteractive();
    void openEmbeddedDatasetInteractive(const QString &name);
    void openSessionInteractive();
    void openRecentSessionInteractive(const QString &path);
    void rebuildRecentSessionsMenu();
    bool save();
    bool saveAs();
    void exportCsvInteractive();
    void exportReportInteractive();
    void about();
    /// If the ledger has unsaved events, asks whether to save them. False: the user cancelled.
    bool maybeSave(const QString &action);
    void showError(const QString &title, const QString &message);

    void updatePlannedCapPreview();
    void setConfirmCostShareInteractive();
    /// The query builder's "costs ε = … (…% of what remains)" line (session::previewCost).
    void updateCostPreview();
    /// Shows how a request of ask() ended (`before`: the ledger's length before it).
    void showAskOutcome(const Result<session::LedgerEvent> &event, bool cancelled, int before);
    /// The busy state while a request runs off the GUI thread (SessionDocument::askingChanged).
    void onAskingChanged(bool asking);
    void cancelAsk();
    void onSessionReset();
    void onEventAppended(int index);
    void onSettingsEdited(const session::SessionSettings &settings);
    void onLedgerSelectionChanged();
    /// The gauge, path chart and ledger columns for the filter's budgeted systems (one, or the
    /// unified filter's two).
    void applyBudgetSystems(const session::Session *session);
    /// The gauge's third line where the filter needs one: the ex-post filter's δ, the odp filter's
    /// δ debited so far.
    void updateGaugeNote(const session::Session *session);
    /// The gauge's spend (and an odometer's pre-planned ledger) after a change of `filter`.
    void showSpend(const filters::PrivacyFilter &filter);
    void updateTitle();
    void updateModeStatus();

    SessionDocument *m_document = nullptr;
    DatasetPanel *m_datasetPanel = nullptr;
    SessionPanel *m_sessionPanel = nullptr;
    QueryBuilder *m_queryBuilder = nullptr;
    ResultCard *m_resultCard = nullptr;
    QScrollArea *m_topArea = nullptr; ///< the query and the result card, scrolling in a short window
    /// Scrolls the query's area so the result card is on screen once laid out (a short window in
    /// presentation mode shows the query or the card, not both).
    void revealResultCard();
    LedgerModel *m_ledgerModel = nullptr;
    QTableView *m_ledgerView = nullptr;
    bool m_confirmationPending = false; ///< the Ask button is asking for confirmation
    AttemptsView *m_attempts = nullptr;
    BudgetGauge *m_gauge = nullptr;
    PrivacyLossPathChart *m_chart = nullptr;
    ComparisonView *m_comparison = nullptr;
    QDockWidget *m_comparisonDock = nullptr;
    bool m_comparisonPlaced = false;
    NoiseReductionView *m_noiseReduction = nullptr;
    QDockWidget *m_noiseReductionDock = nullptr;
    LabDialog *m_lab = nullptr;
    LessonsPanel *m_lessons = nullptr;
    QDockWidget *m_lessonsDock = nullptr;
    SegmentLabel *m_modeStatus = nullptr;

    QAction *m_newSessionAction = nullptr;
    QAction *m_openDatasetAction = nullptr;
    QAction *m_openSessionAction = nullptr;
    QAction *m_saveAction = nullptr;
    QAction *m_saveAsAction = nullptr;
    QAction *m_exportCsvAction = nullptr;
    QAction *m_exportReportAction = nullptr;
    QAction *m_quitAction = nullptr;
    QAction *m_askAction = nullptr;
    QAction *m_glossaryAction = nullptr;
    QAction *m_privacyRiskAction = nullptr;
    QAction *m_aboutAction = nullptr;
    QAction *m_labAction = nullptr;
    QMenu *m_recentMenu = nullptr;
    QMenu *m_fileMenu = nullptr;
    QMenu *m_queryMenu = nullptr;
    QList<QPointer<QAction>> m_busyActions; ///< disabled while a request runs (onAskingChanged)
    bool m_askWhenCounted = false;          ///< Ask waits for the public row count (askInteractive)
    int m_eventsBeforeAsk = 0;              ///< the ledger's length when the running request started
    bool m_cancelPressed = false;           ///< Cancel was pressed for the running request
    QList<QDockWidget *> m_docks;
    QSize m_firstSize; ///< the size the window gave itself from its screen
    bool m_frameFitted = false;
    bool m_oneDockColumn = false; ///< presentation mode on a narrow window: see updateProjectorLayout
    QTimer *m_dockTitleFitTimer = nullptr;  ///< see scheduleDockTitleFit
    QTimer *m_dockHeightFitTimer = nullptr; ///< see scheduleDockHeightFit
    int m_dockHeightFitRounds = 0;          ///< fits in a row that moved a separator (fitDockHeights)
    /// The lessons list shows at least this many rows whole where the window has the height.
    static constexpr int kLessonRows = 4;
    /// The height in pixels (title and tab bar included) down to which a chart's dock yields to the
    /// privacy settings or the dataset beside it, and the dataset to the privacy settings, when
    /// the column is too short for both (fitDockHeights).
    static constexpr int kYieldingHeight = 150;
    static constexpr int kTwoColumnWidth = 1280;
    /// The size in pixels presentation mode gives a window smaller than its screen (bounded by the
    /// screen's available area): its larger text needs more than the 1400×900 of the first window.
    static constexpr QSize kPresentationSize{1920, 1200};
    QSize m_sizeBeforePresentation; ///< the window's size before presentation mode grew it (invalid: none)
    QSize m_presentationSize;       ///< the size presentation mode gave it
    bool m_docksSized = false;
    bool m_remembersLayout = false;
};

} // namespace pbx::ui
