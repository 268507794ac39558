// SPDX-License-Identifier: MIT
// Labs ▸ Relative-error lab: "answer as many counts as possible, each within relative error α,
// under one budget" (docs/accuracy-first.md §5.3, our protocol) on the session's table, for every
// method × filter pair of the core's lab. Settings, Run/Cancel with progress (computed off the GUI
// thread, see labjob.h), a results table and the "counts answered vs budget spent" chart.
// Simulation mode: the true counts are read to score accuracy, never to decide when to stop.
#pragma once

#include "core/data/table.h"
#include "core/simulation/relative_error_lab.h"
#include "ui/lab/labjob.h"

#include <QDialog>
#include <QFutureWatcher>

#include <memory>
#include <vector>

QT_FORWARD_DECLARE_CLASS(QDialogButtonBox)
QT_FORWARD_DECLARE_CLASS(QLabel)
QT_FORWARD_DECLARE_CLASS(QProgressBar)
QT_FORWARD_DECLARE_CLASS(QPushButton)
QT_FORWARD_DECLARE_CLASS(QSpinBox)
QT_FORWARD_DECLARE_CLASS(QTableWidget)

namespace pbx::ui {

class LabChart;
class ScientificSpinBox;

class LabDialog final : public QDialog
{
    Q_OBJECT
public:
    enum Column {
        MethodColumn,
        FilterColumn,
        AnsweredColumn,
        WithinColumn,
        AttemptedColumn,
        EpsilonColumn,
        ColumnCount
    };
    /// Item data role of the results table holding the unformatted number (double).
    static constexpr int RawValueRole = Qt::UserRole;

    explicit LabDialog(QWidget *parent = nullptr);
    /// Cancels a running job and waits for it.
    ~LabDialog() override;

    /// The dataset the workload is built from (the session's table); `split` is the unified
    /// filter's split (the session's setting).
    void setTable(std::shared_ptr<const data::Table> table,
                  filters::FilterSplit split = filters::FilterSplit{});
    /// The same from the session's data source (nullptr: none): an in-memory table as setTable();
    /// a database source, whose rows are not in memory, is private unless its metadata says
    /// "public": true — private, the lab runs on a synthetic table drawn from its metadata and
    /// declared row count; public, the lab says plainly that it needs the rows in memory
    /// (simulation::labRowsNotInMemory) and does not run.
    void setSource(const std::shared_ptr<const data::Source> &source,
                   filters::FilterSplit split = filters::FilterSplit{});

    simulation::LabSettings settings() const;
    void setSettings(const simulation::LabSettings &settings);

    bool isRunning() const;
    /// The last completed run's results, kept while a new run is in progress and after it is
    /// cancelled or fails (empty until a run completes).
    const std::vector<simulation::LabResult> &results() const { return m_results; }

    QPushButton *runButton() const { return m_run; }
    QPushButton *cancelButton() const { return m_cancel; }
    QProgressBar *progressBar() const { return m_progress; }
    QLabel *statusLabel() const { return m_status; }
    /// What the lab runs on (or why it cannot), above the settings.
    QLabel *datasetLabel() const { return m_dataset; }
    QTableWidget *resultsTable() const { return m_table; }
    LabChart *chart() const { return m_chart; }

    /// "Brownian NR", "Doubling Gaussian", …
    /// The method's row name ("Doubling Laplace", "iReduct (batch)", …).
    static QString methodName(const simulation::LabMethod &method);
    /// iReduct's outcome counts in one sentence (the status line and the row's tooltip).
    static QString batchOutcomeText(const simulation::LabResult::BatchOutcomes &batch,
                                    std::size_t repetitions);
    /// "pure ε", "zCDP", "ex-post", "unified", "brownian-zCDP".
    static QString filterName(filters::FilterKind kind);

    QSize sizeHint() const override;

public Q_SLOTS:
    /// What the Run button does: validates the settings and starts the job.
    void run();
    /// What the Cancel button does: asks the job to stop; its results are ignored.
    void cancel();

Q_SIGNALS:
    /// The job ended: `completed` is false when it was cancelled or failed.
    void runFinished(bool completed);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createWidgets();
    void createLayout();
    void connectSignals();
    void onFinished();
    void showResults(const LabOutcome &outcome);
    void setRunning(bool running);
    void updateDatasetText();
    void stopAndWait();

    std::shared_ptr<const data::Table> m_tableData;
    filters::FilterSplit m_split;
    QString m_refusal;        ///< why the lab cannot run on the session's dataset (empty: it can)
    bool m_synthetic = false; ///< m_tableData is synthetic, drawn from the dataset's public metadata
    std::vector<simulation::LabResult> m_results;
    QFutureWatcher<LabOutcome> m_watcher;
    bool m_cancelRequested = false;

    QLabel *m_dataset = nullptr;
    ScientificSpinBox *m_alpha = nullptr;
    ScientificSpinBox *m_confidence = nullptr;
    ScientificSpinBox *m_epsilon = nullptr;
    ScientificSpinBox *m_delta = nullptr;
    QSpinBox *m_repetitions = nullptr;
    QSpinBox *m_queries = nullptr;
    ScientificSpinBox *m_cap = nullptr;
    QSpinBox *m_seed = nullptr;
    QPushButton *m_run = nullptr;
    QPushButton *m_cancel = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_batchOutcome = nullptr;
    QTableWidget *m_table = nullptr;
    LabChart *m_chart = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace pbx::ui
