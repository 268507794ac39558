// SPDX-License-Identifier: MIT
// Labs ▸ Output DP: teaching charts for output differential privacy (Hartmann, Bindschaedler,
// Bentkamp & West 2023; docs/output-dp.md). Everything here is computed from public parameters
// alone: no dataset is read and no budget is charged.
#pragma once

#include "ui/odp/odplabjob.h"

#include <QDialog>
#include <QFutureWatcher>

QT_FORWARD_DECLARE_CLASS(QComboBox)
QT_FORWARD_DECLARE_CLASS(QDoubleSpinBox)
QT_FORWARD_DECLARE_CLASS(QLabel)
QT_FORWARD_DECLARE_CLASS(QProgressBar)
QT_FORWARD_DECLARE_CLASS(QPushButton)
QT_FORWARD_DECLARE_CLASS(QSpinBox)
QT_FORWARD_DECLARE_CLASS(QTableWidget)
QT_FORWARD_DECLARE_CLASS(QTabWidget)

namespace pbx::ui {

class OdpCellChart;
class OdpLineChart;
class PtrFlowDiagram;

class OdpLabDialog final : public QDialog
{
    Q_OBJECT
public:
    explicit OdpLabDialog(QWidget *parent = nullptr);
    ~OdpLabDialog() override;

    QTabWidget *tabs() const { return m_tabs; }
    OdpCellChart *cellChart() const { return m_cellChart; }
    QComboBox *cellPreset() const { return m_cellPreset; }
    QComboBox *cellRealised() const { return m_cellRealised; }
    QPushButton *coinButton() const { return m_coin; }
    OdpLineChart *svtTimeline() const { return m_svtTimeline; }
    /// Simulates one sparse-vector run on the public vector of the form (as the button does).
    void simulateSvtRun();
    OdpLineChart *crossoverChart() const { return m_crossoverChart; }
    QComboBox *ptrPreset() const { return m_ptrPreset; }
    PtrFlowDiagram *ptrFlow() const { return m_ptrFlow; }
    OdpLineChart *filterChart() const { return m_filterChart; }
    OdpLineChart *deltaChart() const { return m_deltaChart; }
    OdpLineChart *svtChart() const { return m_svtChart; }
    OdpLineChart *earlyStopChart() const { return m_earlyChart; }
    /// Chooses the realised stopping point j (1 … m) of the early-stopping chart.
    void setEarlyStop(int j);
    QTableWidget *crossoverTable() const { return m_crossover; }
    OdpLineChart *ptrChart() const { return m_ptrChart; }
    QTableWidget *ptrCosts() const { return m_ptrCosts; }
    OdpLineChart *recoveryChart() const { return m_recoveryChart; }
    OdpLineChart *recoverySweepChart() const { return m_sweepChart; }
    OdpLineChart *recoveryDensityChart() const { return m_densityChart; }
    QTabWidget *recoveryTabs() const { return m_recoveryTabs; }
    /// Starts the labelled simulation on public CPS1988 (as its button does).
    void startRecoverySimulation();
    void waitForRecoverySimulation();
    bool recoverySimulationRunning() const;
    QString recoverySimulationText() const;
    /// Starts the sparse-vector figure (as the Compute button does).
    void computeSvtFigure();
    bool svtRunning() const;
    /// Waits for a running figure job (tests).
    void waitForSvtFigure();
    void cancelSvtFigure();

private:
    QWidget *buildCellsTab();
    void updateCells();
    void updateCrossoverChart(int row, int column);
    void updatePtrPreset();
    QWidget *buildFilterTab();
    QWidget *buildSvtTab();
    QWidget *buildEarlyStopTab();
    QWidget *buildCrossoverTab();
    QWidget *buildPtrTab();
    QWidget *buildRecoveryTab();
    /// Rows of the embedded CPS1988 table (0 when it does not load), read once.
    static std::size_t cps1988Rows();
    void onSvtFinished();
    void onRecoverySimulationFinished();
    QWidget *buildRecoverySimulation(QWidget *parent);
    void updateEarlyStop();

    QTabWidget *m_tabs = nullptr;
    OdpCellChart *m_cellChart = nullptr;
    QComboBox *m_cellPreset = nullptr;
    QComboBox *m_cellRealised = nullptr;
    QDoubleSpinBox *m_cellRemaining = nullptr;
    QPushButton *m_coin = nullptr;
    QLabel *m_cellNote = nullptr;
    OdpLineChart *m_svtTimeline = nullptr;
    QSpinBox *m_simLarge = nullptr;
    QSpinBox *m_simSeed = nullptr;
    QLabel *m_simNote = nullptr;
    OdpLineChart *m_crossoverChart = nullptr;
    QComboBox *m_ptrPreset = nullptr;
    QLabel *m_ptrNote = nullptr;
    PtrFlowDiagram *m_ptrFlow = nullptr;
    OdpLineChart *m_filterChart = nullptr;
    OdpLineChart *m_deltaChart = nullptr;
    QLabel *m_filterNote = nullptr;
    OdpLineChart *m_svtChart = nullptr;
    QSpinBox *m_entries = nullptr;
    QDoubleSpinBox *m_big = nullptr;
    QDoubleSpinBox *m_threshold = nullptr;
    QSpinBox *m_cutoff = nullptr;
    QDoubleSpinBox *m_epsilon = nullptr;
    QComboBox *m_svtPreset = nullptr;
    QPushButton *m_compute = nullptr;
    QPushButton *m_cancel = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_svtNote = nullptr;
    QFutureWatcher<SvtFigureOutcome> m_watcher;
    OdpLineChart *m_earlyChart = nullptr;
    QComboBox *m_earlyPreset = nullptr;
    QSpinBox *m_earlyStop = nullptr; ///< index of the realised stopping point, 1 … m
    QLabel *m_earlyNote = nullptr;
    QTableWidget *m_crossover = nullptr;
    OdpLineChart *m_ptrChart = nullptr;
    QTableWidget *m_ptrCosts = nullptr;
    OdpLineChart *m_recoveryChart = nullptr;
    QTabWidget *m_recoveryTabs = nullptr;
    OdpLineChart *m_sweepChart = nullptr;
    OdpLineChart *m_densityChart = nullptr;
    QPushButton *m_simRun = nullptr;
    QPushButton *m_simCancel = nullptr;
    QProgressBar *m_simProgress = nullptr;
    QLabel *m_simResult = nullptr;
    QFutureWatcher<RecoverySimulationOutcome> m_recoveryWatcher;
};

} // namespace pbx::ui
