// SPDX-License-Identifier: MIT
// Query ▸ Sparse vector (output DP): builds the same request as a `"mechanism": "svt"` line of a
// `pbx-cli run` file (column, threshold T, cut-off c, ε, the sparse vector's share of ε, Δ) and
// hands it to the session like the query builder does. Before asking it draws the request's cells
// (E(j) = ε₁ + jε₂/c plus the releases, Hartmann et al. 2023 Lemma 8) against the ε left; after,
// it highlights the realised cell and shows what was returned. Only the odp filter runs it.
#pragma once

#include "ui/widgets/requestdialog.h"

QT_FORWARD_DECLARE_CLASS(QComboBox)
QT_FORWARD_DECLARE_CLASS(QDoubleSpinBox)
QT_FORWARD_DECLARE_CLASS(QLineEdit)
QT_FORWARD_DECLARE_CLASS(QSpinBox)

namespace pbx::ui {

class OdpCellChart;

class SvtRequestDialog final : public RequestDialog
{
    Q_OBJECT
public:
    explicit SvtRequestDialog(QWidget *parent = nullptr);

    /// The request as entered (odp set, mechanism "svt"); errors (InvalidArgument) name the field.
    /// Ask is enabled only on a session whose filter is odp.
    Result<session::QueryRequest> request() const override;
    /// Shows a recorded event: the realised cell highlighted, the released entries listed.
    void showOutcome(const session::LedgerEvent &event);

    // Programmatic input (tests, screenshots).
    void setColumn(const QString &column);
    void setThreshold(int threshold);
    void setCutoff(int cutoff);
    void setEpsilon(double epsilon);
    void setSvtShare(double share);
    OdpCellChart *cellChart() const { return m_chart; }

private:
    void sessionChanged() override;
    void refresh() override;

    QLineEdit *m_id = nullptr;
    QComboBox *m_column = nullptr;
    QSpinBox *m_threshold = nullptr;
    QSpinBox *m_cutoff = nullptr;
    QDoubleSpinBox *m_epsilon = nullptr;
    QDoubleSpinBox *m_share = nullptr;
    QSpinBox *m_sensitivity = nullptr;
    OdpCellChart *m_chart = nullptr;
};

} // namespace pbx::ui
