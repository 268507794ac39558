// SPDX-License-Identifier: MIT
// Labs ▸ Growing database: a budget that lasts forever while rows keep arriving (Cummings,
// Krehbiel, Lai & Tantipongpipat 2018; docs/growing-databases.md). The schedule editor
// (growinglabeditor.h) whose plan (epochs, per-epoch ε or ρ, cumulative spend, accuracy bound) is
// redrawn on every change from public parameters alone; a Monte Carlo on the public CPS1988 rows
// (growinglabjob.h) on "Run", off the GUI thread with progress and cancel, its charts greyed while
// it computes (the last finished result stays drawn until the new one finishes); the PMWG panel;
// the ATG panel (atgpanel.h); and a time cursor that sweeps the stream. NSG shares the PMWG tab;
// ERMG draws σ_t and the excess empirical risk on the timeline tab; every Monte Carlo draws the
// median inside its 5–95 % band over the seeded orders; SmallDBG is BBScheduler with the SmallDB
// box, against the best any m-row database achieves. The charts are drawn by labcharts.h; this
// dialog owns the widgets, the job and the animation. The input goes through the core's reader, so
// a bad field shows the core's one-line error and nothing is drawn or run. Nothing is charged to
// the session.
#pragma once

#include "core/simulation/growing_lab_result.h"
#include "core/util/result.h"
#include "ui/growing/growinglabeditor.h"
#include "ui/growing/growinglabjob.h"
#include "ui/growing/labcharts.h"

#include <QDialog>
#include <QFutureWatcher>

#include <optional>

QT_FORWARD_DECLARE_CLASS(QCheckBox)
QT_FORWARD_DECLARE_CLASS(QComboBox)
QT_FORWARD_DECLARE_CLASS(QDoubleSpinBox)
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

class GrowingLabDialog final : public QDialog
{
    Q_OBJECT
public:
    explicit GrowingLabDialog(QWidget *parent = nullptr);
    ~GrowingLabDialog() override;

    // Editor fields (tests drive them like a user).
    GrowingLabEditor *editor() const { return m_editor; }
    QComboBox *algorithmCombo() const { return m_editor->algorithmCombo(); }
    QSpinBox *startSizeSpin() const { return m_editor->startSizeSpin(); }
    QDoubleSpinBox *gammaSpin() const { return m_editor->gammaSpin(); }
    QPushButton *optimalGammaButton() const { return m_editor->optimalGammaButton(); }
    QComboBox *budgetKindCombo() const { return m_editor->budgetKindCombo(); }
    QDoubleSpinBox *epsilonSpin() const { return m_editor->epsilonSpin(); }
    QSpinBox *queriesSpin() const { return m_editor->queriesSpin(); }
    QSpinBox *horizonSpin() const { return m_editor->horizonSpin(); }
    QSpinBox *repetitionsSpin() const { return m_editor->repetitionsSpin(); }
    QSpinBox *seedSpin() const { return m_editor->seedSpin(); }
    /// BBScheduler's black box: "laplace-k" or "smalldb" (SmallDBG).
    QComboBox *boxCombo() const { return m_editor->boxCombo(); }
    QSpinBox *smallDbSizeSpin() const { return m_editor->smallDbSizeSpin(); }
    QDoubleSpinBox *nsgCapSpin() const { return m_editor->nsgCapSpin(); }
    QDoubleSpinBox *nsgThresholdSpin() const { return m_editor->nsgThresholdSpin(); }
    QSpinBox *ermEverySpin() const { return m_editor->ermEverySpin(); }
    QPushButton *runButton() const { return m_run; }
    QPushButton *cancelButton() const { return m_cancel; }
    QPushButton *playButton() const { return m_play; }
    QCheckBox *sortedCheck() const { return m_editor->sortedCheck(); }
    QTabWidget *tabs() const { return m_tabs; }

    GrowingChart *timelineChart() const { return m_timeline; }
    GrowingChart *accuracyChart() const { return m_accuracy; }
    GrowingChart *pmwgChart() const { return m_pmwgChart; }
    GrowingBarChart *pmwgPrivacyChart() const { return m_pmwgPrivacy; }
    GrowingBarChart *pmwgErrorChart() const { return m_pmwgErrors; }
    AtgPanel *atgPanel() const { return m_atg; }
    /// The one-line error of the current input ("" when valid).
    QString errorText() const;
    /// The current plan (what --plan-only computes; nullopt when the input is invalid).
    const std::optional<growing::GrowingLabResult> &plan() const { return m_plan; }
    /// The last finished Monte Carlo of the current input, if any (kept, and drawn greyed, while a new
    /// run of the same input computes; dropped when the input changes).
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
    /// The timeline and accuracy charts with the simulation's note.
    QWidget *buildTimelineTab();
    /// PMWG's and NSG's hard queries against the cap, privacy and error bars.
    QWidget *buildPmwgTab();
    void connectSignals();

    void updateVisibility();
    void updatePlan();
    void showInvalid(const QString &message);
    /// What the chart builders read (labcharts.h): the plan, the last finished simulation, the editor.
    growinglab::LabView labView() const;
    /// The timeline, accuracy and PMWG / NSG charts from the plan or the last finished simulation.
    void drawCharts();
    /// Greys (or restores) every chart the job's result is drawn in (ChartFrame::setComputing).
    void setChartsComputing(bool computing);
    void finished();
    void advanceCursor();
    void setPlaying(bool playing);
    void saveInteractive();
    double horizonEnd() const;

    GrowingLabEditor *m_editor = nullptr;
    QLabel *m_error = nullptr;

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

    std::optional<growing::GrowingLabResult> m_plan;
    std::optional<GrowingRunOutcome> m_simulation;
};

} // namespace pbx::ui
