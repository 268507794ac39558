// SPDX-License-Identifier: MIT
// Labs ▸ Growing database: a budget that lasts forever while rows keep arriving (Cummings,
// Krehbiel, Lai & Tantipongpipat 2018; docs/growing-databases.md). A schedule editor whose plan
// (epochs, per-epoch ε or ρ, cumulative spend, accuracy bound) is redrawn on every change from
// public parameters alone; a Monte Carlo on the public CPS1988 rows (growinglabjob.h) on "Run",
// off the GUI thread with progress and cancel; the PMWG panel; the ATG panel (atgpanel.h); and a time cursor
// that sweeps the stream. NSG shares the PMWG tab (hard answers against the cap, privacy); ERMG
// draws σ_t and the excess empirical risk on the timeline tab; both repeat over seeded arrival
// orders and draw the median inside its 5–95 % band; SmallDBG is BBScheduler with the
// SmallDB box, its measured error against the best any m-row database achieves. The input goes through the
// core's reader, so a bad field shows the core's one-line error and nothing is drawn or run. Nothing is
// charged to the session.
#pragma once

#include "core/io/json_fields.h"
#include "core/util/result.h"
#include "ui/growing/growinglabjob.h"

#include <QDialog>
#include <QFutureWatcher>

#include <optional>

QT_FORWARD_DECLARE_CLASS(QCheckBox)
QT_FORWARD_DECLARE_CLASS(QComboBox)
QT_FORWARD_DECLARE_CLASS(QDoubleSpinBox)
QT_FORWARD_DECLARE_CLASS(QFormLayout)
QT_FORWARD_DECLARE_CLASS(QLabel)
QT_FORWARD_DECLARE_CLASS(QProgressBar)
QT_FORWARD_DECLARE_CLASS(QPushButton)
QT_FORWARD_DECLARE_CLASS(QSpinBox)
QT_FORWARD_DECLARE_CLASS(QTabWidget)
QT_FORWARD_DECLARE_CLASS(QTimer)

namespace pbx::ui {

class AtgPanel;
class GrowingBarChart;
class GrowingChart;
class ScientificSpinBox;

class GrowingLabDialog final : public QDialog
{
    Q_OBJECT
public:
    explicit GrowingLabDialog(QWidget *parent = nullptr);
    ~GrowingLabDialog() override;

    // Editor fields (tests drive them like a user).
    QComboBox *algorithmCombo() const { return m_algorithm; }
    QSpinBox *startSizeSpin() const { return m_startSize; }
    QDoubleSpinBox *gammaSpin() const { return m_gamma; }
    QPushButton *optimalGammaButton() const { return m_optimalGamma; }
    QComboBox *budgetKindCombo() const { return m_budgetKind; }
    QDoubleSpinBox *epsilonSpin() const { return m_epsilon; }
    QSpinBox *queriesSpin() const { return m_queries; }
    QSpinBox *horizonSpin() const { return m_horizon; }
    QSpinBox *repetitionsSpin() const { return m_repetitions; }
    QSpinBox *seedSpin() const { return m_seed; }
    /// BBScheduler's black box: "laplace-k" or "smalldb" (SmallDBG).
    QComboBox *boxCombo() const { return m_box; }
    QSpinBox *smallDbSizeSpin() const { return m_smallDbM; }
    QDoubleSpinBox *nsgCapSpin() const { return m_nsgC0; }
    QDoubleSpinBox *nsgThresholdSpin() const { return m_nsgThreshold; }
    QSpinBox *ermEverySpin() const { return m_every; }
    QPushButton *runButton() const { return m_run; }
    QPushButton *cancelButton() const { return m_cancel; }
    QPushButton *playButton() const { return m_play; }
    QCheckBox *sortedCheck() const { return m_sorted; }
    QTabWidget *tabs() const { return m_tabs; }

    GrowingChart *timelineChart() const { return m_timeline; }
    GrowingChart *accuracyChart() const { return m_accuracy; }
    GrowingChart *pmwgChart() const { return m_pmwgChart; }
    GrowingBarChart *pmwgPrivacyChart() const { return m_pmwgPrivacy; }
    GrowingBarChart *pmwgErrorChart() const { return m_pmwgErrors; }
    AtgPanel *atgPanel() const { return m_atg; }
    /// The one-line error of the current input ("" when valid).
    QString errorText() const;
    /// The current plan ("pbx-simulation" with --plan-only; null when the input is invalid).
    const io::json::Json &plan() const { return m_plan; }
    /// The last finished Monte Carlo of the current input, if any.
    const std::optional<GrowingRunOutcome> &simulation() const { return m_simulation; }
    QString simulationText() const;
    QString pmwgText() const;
    QString statusText() const;
    /// The read-out at the time cursor.
    QString cursorText() const;

    /// Starts the Monte Carlo (as the Run button does); false (and nothing runs) on invalid input.
    bool run();
    bool isRunning() const;
    void cancel();
    /// Waits for the running job and shows its result (tests).
    void waitForRun();
    /// Writes the shown document (the simulation's if there is one, else the plan) as JSON, the
    /// same "pbx-simulation" format `pbx-cli simulate growing` writes. Errors: InvalidArgument when
    /// nothing is shown; Io when the file cannot be written.
    Result<void> saveDocument(const QString &path) const;
    /// Puts the time cursor at t (the animation moves it).
    void setCursorTime(double t);

private:
    void createWidgets();
    void createLayout();
    void connectSignals();

    /// The editor's input as a "pbx-growing-lab" document; `simulate` fills the predicates and
    /// caps the end at the dataset's rows.
    io::json::Json configDocument(bool simulate) const;
    void updateVisibility();
    void updatePlan();
    void showInvalid(const QString &message);
    void drawTimeline();
    void drawAccuracy();
    void drawPmwg();
    void drawErm();
    /// NSG after Run: the hard answers' mean |error| over the seeded orders on the accuracy chart.
    void drawNsgErrors();
    void finished();
    void advanceCursor();
    void setPlaying(bool playing);
    void saveInteractive();
    double horizonEnd() const;

    // Schedule editor
    QFormLayout *m_form = nullptr;
    QComboBox *m_algorithm = nullptr;
    QComboBox *m_dataset = nullptr;
    QSpinBox *m_startSize = nullptr;
    QSpinBox *m_horizon = nullptr;
    QCheckBox *m_sorted = nullptr;
    QComboBox *m_schedule = nullptr;
    QDoubleSpinBox *m_gamma = nullptr;
    QPushButton *m_optimalGamma = nullptr;
    QWidget *m_gammaRow = nullptr;
    QDoubleSpinBox *m_decay = nullptr;
    QComboBox *m_budgetKind = nullptr;
    QDoubleSpinBox *m_epsilon = nullptr;
    QDoubleSpinBox *m_rho = nullptr;
    ScientificSpinBox *m_delta = nullptr;
    QDoubleSpinBox *m_beta = nullptr;
    QSpinBox *m_queries = nullptr;
    QComboBox *m_box = nullptr;
    QSpinBox *m_smallDbM = nullptr;
    QDoubleSpinBox *m_nsgC0 = nullptr;
    QDoubleSpinBox *m_nsgThreshold = nullptr;
    QSpinBox *m_every = nullptr;
    QSpinBox *m_repetitions = nullptr;
    QSpinBox *m_seed = nullptr;
    QLabel *m_error = nullptr;
    double m_optimalGammaValue = 0.0;

    // Panels
    QLabel *m_banner = nullptr;
    QTabWidget *m_tabs = nullptr;
    GrowingChart *m_timeline = nullptr;
    GrowingChart *m_accuracy = nullptr;
    QLabel *m_simulationNote = nullptr;
    GrowingChart *m_pmwgChart = nullptr;
    GrowingBarChart *m_pmwgPrivacy = nullptr;
    GrowingBarChart *m_pmwgErrors = nullptr;
    QLabel *m_pmwgNote = nullptr;
    AtgPanel *m_atg = nullptr;

    // Animation
    QPushButton *m_play = nullptr;
    QComboBox *m_speed = nullptr;
    QLabel *m_readout = nullptr;
    QTimer *m_animation = nullptr;
    double m_cursorT = 0.0;

    // Run
    QPushButton *m_run = nullptr;
    QPushButton *m_cancel = nullptr;
    QPushButton *m_save = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_explain = nullptr;
    QFutureWatcher<GrowingRunOutcome> *m_watcher = nullptr;

    io::json::Json m_plan;
    std::optional<GrowingRunOutcome> m_simulation;
};

} // namespace pbx::ui
