// SPDX-License-Identifier: MIT
// Query ▸ Sparse vector (output DP): builds the same request as a `"mechanism": "svt"` line of a
// `pbx-cli run` file (column, threshold T, cut-off c, ε, the sparse vector's share of ε, Δ) and
// hands it to the session like the query builder does. Before asking it draws the request's cells
// (E(j) = ε₁ + jε₂/c plus the releases, Hartmann et al. 2023 Lemma 8) against the ε left; after,
// it highlights the realised cell and shows what was returned. Only the odp filter runs it.
#pragma once

#include "core/session/ledger_event.h"

#include <QDialog>

QT_FORWARD_DECLARE_CLASS(QComboBox)
QT_FORWARD_DECLARE_CLASS(QDoubleSpinBox)
QT_FORWARD_DECLARE_CLASS(QLabel)
QT_FORWARD_DECLARE_CLASS(QLineEdit)
QT_FORWARD_DECLARE_CLASS(QPushButton)
QT_FORWARD_DECLARE_CLASS(QSpinBox)

namespace pbx::session {
class Session;
}

namespace pbx::ui {

class TypedInput;

class OdpCellChart;

class SvtRequestDialog final : public QDialog
{
    Q_OBJECT
public:
    explicit SvtRequestDialog(QWidget *parent = nullptr);

    /// The session requests go to (nullptr, or a filter other than odp: Ask disabled). Not owned.
    void setSession(const session::Session *session);
    /// The request as entered (odp set, mechanism "svt"); errors (InvalidArgument) name the field.
    Result<session::QueryRequest> request() const;
    /// Shows a recorded event: the realised cell highlighted, the released entries listed.
    void showOutcome(const session::LedgerEvent &event);

    // Programmatic input (tests, screenshots).
    void setColumn(const QString &column);
    void setThreshold(int threshold);
    void setCutoff(int cutoff);
    void setEpsilon(double epsilon);
    void setSvtShare(double share);
    QPushButton *askButton() const { return m_ask; }
    OdpCellChart *cellChart() const { return m_chart; }
    QString statusText() const;
    QString resultText() const;

Q_SIGNALS:
    /// The user pressed Ask with a valid request.
    void askRequested(const session::QueryRequest &request);

private:
    void refresh();

    const session::Session *m_session = nullptr;
    QLineEdit *m_id = nullptr;
    QComboBox *m_column = nullptr;
    QSpinBox *m_threshold = nullptr;
    QSpinBox *m_cutoff = nullptr;
    QDoubleSpinBox *m_epsilon = nullptr;
    QDoubleSpinBox *m_share = nullptr;
    QSpinBox *m_sensitivity = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_result = nullptr;
    QPushButton *m_ask = nullptr;
    OdpCellChart *m_chart = nullptr;
    TypedInput *m_typedInput = nullptr;
};

} // namespace pbx::ui
