// SPDX-License-Identifier: MIT
// Labs ▸ Strategies & inference: the lecture's BMI example (Algorithm 1 vs 2, 128/32/12 per ε²,
// the neighbours switch, constrained inference, the census analogue), stability & sensitivity,
// the range-strategy explorer (predicted error by range length for every strategy, measured
// averages, the recommended strategy), constrained inference (SSE before and after a projection),
// quantiles with the smooth sensitivity of the median as a non-private diagnostic, and the
// selection probabilities of a mode (selectionlabpanel.h). Every
// number computed from data is a simulation on a public dataset; runs go off the GUI thread
// (strategiesjob.h) with progress and cancel.
#pragma once

#include "core/data/source.h"
#include "core/data/table.h"
#include "core/simulation/strategies_lab_result.h"
#include "core/strategies/strategies_lab.h"

#include <QDialog>
#include <QFutureWatcher>

#include <memory>
#include <optional>
#include <utility>

QT_FORWARD_DECLARE_CLASS(QComboBox)
QT_FORWARD_DECLARE_CLASS(QDoubleSpinBox)
QT_FORWARD_DECLARE_CLASS(QLabel)
QT_FORWARD_DECLARE_CLASS(QProgressBar)
QT_FORWARD_DECLARE_CLASS(QPushButton)
QT_FORWARD_DECLARE_CLASS(QSpinBox)
QT_FORWARD_DECLARE_CLASS(QTabWidget)
QT_FORWARD_DECLARE_CLASS(QTableWidget)

namespace pbx::ui {

class BarErrorChart;
class CurvesChart;
class SelectionLabPanel;
struct StrategiesJobOutcome;

/// What the Range strategies tab predicts and measures (its fields): a lesson step sets them to
/// the step's own workload requests (LessonRunner), so the tab shows the step's numbers.
struct RangesSetup
{
    QString column; ///< an ordered numeric column of the lab's table
    /// The domain's cells, lo … hi (integers, values outside clipped to them; the session's
    /// workload requests count the same unit cells); nullopt: the column's declared bounds,
    /// at most 1,024 cells.
    std::optional<std::pair<double, double>> bounds;
    QString workload = QStringLiteral("all-ranges"); ///< "all-ranges", "prefixes", "ranges-of-length:L"
    double epsilon = 1.0;     ///< the ε every strategy is predicted and measured at, > 0
    double confidence = 0.95; ///< of the widest error bar (Chebyshev, as a session's workload request)
    std::size_t branching = 2;
    data::Neighbouring neighbours = data::Neighbouring::AddRemove;
};

class StrategiesLabDialog final : public QDialog
{
    Q_OBJECT
public:
    /// The index of the Range strategies tab.
    static constexpr int kRangesTab = 2;
    /// The index of the Mode (selection) tab, the last one.
    static constexpr int kSelectionTab = 5;

    explicit StrategiesLabDialog(QWidget *parent = nullptr);
    ~StrategiesLabDialog() override;

    /// The table the data experiments run on (nullptr: only the slides' BMI and stability).
    void setTable(std::shared_ptr<const data::Table> table);
    /// The same from the session's data source (nullptr: none): an in-memory table as setTable();
    /// a database source, private unless its metadata says "public": true, is refused like a
    /// private table, and a public one's rows are not in memory, which the banner says plainly
    /// (simulation::labRowsNotInMemory); the slides' BMI and stability still run.
    void setSource(const std::shared_ptr<const data::Source> &source);
    /// The line above the tabs: what the data experiments run on, or why they cannot.
    QString bannerText() const;

    QTabWidget *tabs() const { return m_tabs; }
    /// Starts the experiment of tab `index` (0 BMI, 1 stability, 2 ranges, 3 inference, 4 quantiles,
    /// 5 selection). While another runs, the latest such call waits for it and starts after it
    /// (Cancel drops it).
    void run(int index);
    bool isRunning() const;
    /// Waits for the running job (and one waiting to start) and shows its result (tests).
    void waitForJob();
    QTableWidget *resultTable(int index) const;
    QString statusText() const;

    /// Sets the Range strategies tab's fields to `setup`, clears the results of other fields and
    /// runs it (in the background; waitForJob). Errors (nothing changed): a column the tab does
    /// not offer (no public table, not numeric with declared bounds), bounds that are not integers
    /// lo < hi with at most 4,096 cells, an unknown workload, ε or the confidence out of range.
    Result<void> runRanges(const RangesSetup &setup);
    /// The same without running: the fields only, their old results cleared ("press Predict and
    /// measure"); e.g. the user's fields back after a lesson. Errors: as runRanges.
    Result<void> setRanges(const RangesSetup &setup);
    /// The Range strategies tab's fields as they are now.
    RangesSetup rangesSetup() const;
    /// The line under the range results: the recommended strategy, the domain and the workload size.
    QString rangesSummary() const;
    /// The Range strategies table's columns (resultTable(kRangesTab)).
    enum RangeColumn {
        RangeStrategyName,
        RangeSensitivity,
        RangePadded,
        RangeEpsilon,
        RangeAverage,
        RangeMax,
        RangeWidestBar,
        RangeMeasured
    };

private:
    QWidget *buildBmiTab();
    QWidget *buildStabilityTab();
    QWidget *buildRangesTab();
    QWidget *buildInferenceTab();
    QWidget *buildQuantilesTab();
    void start(const strategies::LabConfig &config, int tab);
    void finished();
    /// Greys (or restores) the charts and tables of `tab` while a run for it is in progress.
    void setTabComputing(int tab, bool computing);
    void showBmi(const strategies::BmiLabResult &result);
    void showStability(const strategies::StabilityLabResult &result);
    void showRanges(const strategies::RangesLabResult &result);
    void showInference(const strategies::InferenceLabResult &result);
    /// The inference tab's run-by-run chart and the first run's vectors.
    void showInferenceRuns(const strategies::InferenceLabResult &result);
    void showQuantile(const strategies::QuantileLabResult &result);
    void showSmoothSensitivity(const strategies::SmoothSensitivityLabResult &result);
    QComboBox *columnCombo();
    void fillColumns();
    /// The range column's cells: its declared bounds (at most 1,024 cells) when it changed.
    void rangeColumnChanged();

    std::shared_ptr<const data::Table> m_table;
    QTabWidget *m_tabs = nullptr;
    QLabel *m_banner = nullptr;
    QLabel *m_status = nullptr;
    QProgressBar *m_progress = nullptr;
    QPushButton *m_cancel = nullptr;
    QFutureWatcher<StrategiesJobOutcome> *m_watcher = nullptr;
    int m_runningTab = -1;
    int m_pendingTab = -1; ///< run() while another ran: started when it ends
    bool m_smooth = false;

    // BMI
    QComboBox *m_bmiData = nullptr;
    QComboBox *m_bmiNeighbours = nullptr;
    QDoubleSpinBox *m_bmiEpsilon = nullptr;
    QTableWidget *m_bmiTable = nullptr;
    BarErrorChart *m_bmiChart = nullptr;
    CurvesChart *m_bmiHistogram = nullptr;
    QLabel *m_bmiNote = nullptr;
    // Stability
    QTableWidget *m_stabilityTable = nullptr;
    QTableWidget *m_sensitivityTable = nullptr;
    // Ranges
    QComboBox *m_rangeColumn = nullptr;
    QString m_rangeBoundsColumn; ///< the column whose bounds m_rangeLo/m_rangeHi hold
    QSpinBox *m_rangeLo = nullptr;
    QSpinBox *m_rangeHi = nullptr;
    QComboBox *m_rangeWorkload = nullptr;
    QDoubleSpinBox *m_rangeEpsilon = nullptr;
    std::pair<double, double> m_exactEpsilon{1.0, 1.0}; ///< runRanges' ε and the field's value for it
    QDoubleSpinBox *m_rangeConfidence = nullptr;
    QComboBox *m_rangeNeighbours = nullptr;
    QSpinBox *m_branching = nullptr;
    QSpinBox *m_repetitions = nullptr;
    CurvesChart *m_rangeChart = nullptr;
    QTableWidget *m_rangeTable = nullptr;
    QLabel *m_recommended = nullptr;
    struct RangesShown
    {
        double epsilon = 1.0, confidence = 0.95;
        QString workload;
        int generation = 0;
    } m_rangesShown;            ///< what the ranges run being shown was asked with
    int m_rangesGeneration = 0; ///< setRanges() calls: a run asked before the last is not shown
    // Inference
    QComboBox *m_inferenceColumn = nullptr;
    QComboBox *m_projection = nullptr;
    QTableWidget *m_inferenceTable = nullptr;
    BarErrorChart *m_inferenceChart = nullptr;
    CurvesChart *m_inferenceRuns = nullptr;    ///< before vs after + moved, run by run
    CurvesChart *m_inferenceExample = nullptr; ///< the first run: truth, noisy, projected
    // Quantiles
    QComboBox *m_quantileColumn = nullptr;
    SelectionLabPanel *m_selection = nullptr; ///< the last tab, kSelectionTab
    QDoubleSpinBox *m_quantileQ = nullptr;
    QDoubleSpinBox *m_quantileEpsilon = nullptr;
    CurvesChart *m_quantileChart = nullptr;
    CurvesChart *m_noiseChart = nullptr; ///< smooth sensitivity: Cauchy vs Laplace noise densities
    QLabel *m_quantileText = nullptr;
};

} // namespace pbx::ui
