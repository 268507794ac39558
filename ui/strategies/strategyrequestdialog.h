// SPDX-License-Identifier: MIT
// Query ▸ Histogram, quantile, mode or derived answer: builds a strategy request (a histogram of a
// column, a quantile, an answer derived from a released histogram, or a range workload), hands it
// to the session like the query builder does, and shows what was released — a histogram as bars
// with their error bars. Validation only checks the request against the table's public schema.
#pragma once

#include "ui/widgets/requestdialog.h"

QT_FORWARD_DECLARE_CLASS(QCheckBox)
QT_FORWARD_DECLARE_CLASS(QComboBox)
QT_FORWARD_DECLARE_CLASS(QDoubleSpinBox)
QT_FORWARD_DECLARE_CLASS(QFormLayout)
QT_FORWARD_DECLARE_CLASS(QLineEdit)
QT_FORWARD_DECLARE_CLASS(QPushButton)
QT_FORWARD_DECLARE_CLASS(QSpinBox)

namespace pbx::data {
class Table;
}

namespace pbx::ui {

class BarErrorChart;

class StrategyRequestDialog final : public RequestDialog
{
    Q_OBJECT
public:
    explicit StrategyRequestDialog(QWidget *parent = nullptr);

    /// The request as entered, checked against the session's table; errors name the field.
    Result<session::QueryRequest> request() const override;
    /// Shows a recorded event (a histogram as a bar chart with error bars).
    void showEvent(const session::LedgerEvent &event);

    // Programmatic input (tests, screenshots).
    void setKind(session::StrategyRequestKind kind);
    void setColumn(const QString &column);
    void setTargetError(double error);
    void setDerived(const QString &of, const QString &derivedKind, const QString &cells,
                    const QString &other);
    /// Workload: the strategy by its index in the list (identity, all ranges, tree b=2/3/16 + LS,
    /// tree b=2 canonical) and the workload ("all-ranges" or "prefixes").
    void setWorkload(int strategyIndex, const QString &workload);
    /// Workload constrained inference (post-processing).
    void setPost(bool isotonicPrefix, bool nonNegative);
    /// A declared transformation ("" for none; else a transformation name) with its k or m, and
    /// the Poisson subsampling rate (1: none).
    /// Mode requests: the selection mechanism and k (1: the mode).
    void setSelection(strategies::SelectionMechanism mechanism, int picks);
    void setTransform(const QString &kind, int parameter, double subsample);
    /// Writes the shown event's values as CSV (io::writeStrategyRecordCsv). Errors: nothing shown
    /// yet; the file's.
    Result<void> exportCsv(const QString &path) const;
    QPushButton *exportButton() const { return m_export; }
    /// The kinds offered (histogram, quantile, derived, workload); those the session's source
    /// cannot answer are disabled, their tooltip saying why (session::sourceRefusal).
    QComboBox *kindBox() const { return m_kind; }
    BarErrorChart *chart() const { return m_chart; }

private:
    void sessionChanged() override;
    void refresh() override;
    /// The status line of a valid mode request: picks, ε per pick and the active filter's charge.
    QString modeCostText(const session::QueryRequest &request) const;
    void createFields();
    QFormLayout *buildForm();
    /// The form, status, chart and result scroll on a small screen; the buttons stay.
    void buildLayout(QFormLayout *form);
    void connectFields();

    QComboBox *m_kind = nullptr;
    QComboBox *m_column = nullptr;
    QLineEdit *m_bins = nullptr;
    QLineEdit *m_where = nullptr;
    QDoubleSpinBox *m_q = nullptr;
    QComboBox *m_of = nullptr;
    QComboBox *m_derived = nullptr;
    QLineEdit *m_cells = nullptr;
    QLineEdit *m_other = nullptr;
    QComboBox *m_strategy = nullptr;
    QComboBox *m_workload = nullptr;
    QComboBox *m_selection = nullptr; ///< mode: exponential mechanism or report-noisy-max
    QSpinBox *m_picks = nullptr;      ///< mode: k of a top k
    QCheckBox *m_isotonic = nullptr;
    QCheckBox *m_nonNegative = nullptr;
    QComboBox *m_transform = nullptr;
    QSpinBox *m_transformParameter = nullptr;
    QDoubleSpinBox *m_subsample = nullptr;
    QPushButton *m_export = nullptr;
    std::optional<session::LedgerEvent> m_shown; ///< the event whose values are shown
    QDoubleSpinBox *m_error = nullptr;
    QDoubleSpinBox *m_confidence = nullptr;
    BarErrorChart *m_chart = nullptr;
};

} // namespace pbx::ui
