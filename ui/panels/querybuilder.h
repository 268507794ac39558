// SPDX-License-Identifier: MIT
// Builds a request: aggregate, column, clipping bounds, a predicate (validated against the
// table's schema as you type), an accuracy target, the mechanism (the filter's default or one it
// can account), an optional per-query cost cap, and Ask.
// Validation only compiles the query: it never evaluates it, so nothing here reveals a private
// statistic such as the number of matching rows.
#pragma once

#include "core/session/ledger_event.h"

#include <QWidget>

QT_FORWARD_DECLARE_CLASS(QCheckBox)
QT_FORWARD_DECLARE_CLASS(QComboBox)
QT_FORWARD_DECLARE_CLASS(QLabel)
QT_FORWARD_DECLARE_CLASS(QSpinBox)
QT_FORWARD_DECLARE_CLASS(QLineEdit)
QT_FORWARD_DECLARE_CLASS(QPushButton)

namespace pbx::data {
class Table;
}

namespace pbx::ui {

class TypedInput;

class ScientificSpinBox;

class QueryBuilder final : public QWidget
{
    Q_OBJECT
public:
    explicit QueryBuilder(QWidget *parent = nullptr);

    /// The table queries are checked against (nullptr: none; Ask disabled). Not owned; must stay
    /// alive until the next call.
    void setTable(const data::Table *table);
    /// The filter's unit for the per-query cap ("ε" or "ρ"); superseded by the unit the chosen
    /// mechanism is charged in once setFilterKind() was called.
    void setUnitSymbol(const QString &symbol);
    /// The session's filter: which mechanisms the combo offers (checkMechanism) and its default.
    void setFilterKind(filters::FilterKind kind);
    filters::FilterKind filterKind() const { return m_filterKind; }

    /// The request as entered (id left empty: the session numbers it).
    session::QueryRequest request() const;
    /// The validation message for the current input, empty when it compiles.
    QString validationError() const { return m_error; }

    // Programmatic input (tests, scripted demos).
    void setAggregate(data::Aggregate aggregate);
    void setColumn(const QString &column);
    void setBounds(double lower, double upper); ///< clipping bounds (setColumn sets the declared ones)
    void setWhere(const QString &predicate);
    void setAbsoluteTarget(double error);
    /// `fraction` e.g. 0.05 for ±5 %.
    void setRelativeTarget(double fraction);
    void setConfidence(double confidence);
    /// Per-query cap in the unit the mechanism is charged in; unset = no cap.
    void setMaxCost(std::optional<double> cap);
    /// A mechanism the filter can account, or unset for the filter's default. Returns false (and
    /// changes nothing) when the combo offers it disabled.
    bool setMechanism(std::optional<session::ReleaseMethod> mechanism);
    /// The mechanism the request will use (the chosen one, or the default).
    session::ReleaseMethod effectiveMechanism() const;
    /// The unit the per-query cap is in ("ε", "ρ" or "ex-post ε").
    QString capUnit() const;

    QLineEdit *whereEdit() const { return m_where; }
    QPushButton *askButton() const { return m_ask; }
    QLabel *whereStatusLabel() const { return m_whereStatus; }
    QComboBox *mechanismComboBox() const { return m_mechanism; }

    /// "Plan for N more queries" (default 10): without an explicit cap, a doubling or noise-
    /// reduction request may spend at most the remaining budget divided by N (session/planned_cap.h).
    int plannedQueries() const;
    void setPlannedQueries(int n);
    /// The cost preview next to it, e.g. "default cap ρ ≤ 0.00094" (set by the main window).
    void setPlannedCapPreview(const QString &text);
    QString plannedCapPreview() const;
    /// What the request will cost, under the Limit row (set by the main window from
    /// session::previewCost, which reads no data), e.g. "costs ε = 0.0599 (6.0 % of what remains)".
    void setCostPreview(const QString &text);
    QString costPreview() const;
    /// Turns the Ask button into a confirmation (its text, e.g. "Confirm"); empty: the plain Ask.
    void setAskConfirmation(const QString &buttonText);
    /// While a request runs off the GUI thread: the Ask button says "Asking…" and is disabled (the
    /// fields stay editable: an edit changes nothing in the session). False: Ask again.
    void setAsking(bool asking);
    bool isAsking() const { return m_asking; }
    /// Commits the text typed in every number field (TypedInput::commit): call before reading
    /// request() to send it. Returns the refusal naming the field whose text is not a value it
    /// accepts, empty when request() now carries exactly what is on screen.
    QString commitTypedInput();

Q_SIGNALS:
    /// The user pressed Ask (or Enter in the predicate field).
    void askRequested();
    /// Anything that changes the default cap or the cost changed (N, aggregate, column, bounds,
    /// predicate, target, confidence, mechanism, the per-query maximum).
    void planChanged();

private:
    void createWidgets();
    void createLayout();
    void connectSignals();
    void aggregateChanged();
    void columnChanged();
    void targetKindChanged();
    void revalidate();
    void updateMechanisms();
    void updateCapUnit();
    QString schemaHint() const;

    const data::Table *m_table = nullptr;
    QComboBox *m_aggregate = nullptr;
    QComboBox *m_column = nullptr;
    ScientificSpinBox *m_lower = nullptr;
    ScientificSpinBox *m_upper = nullptr;
    QLabel *m_boundsLabel = nullptr;
    QLabel *m_columnLabel = nullptr;
    QLineEdit *m_where = nullptr;
    QLabel *m_whereStatus = nullptr;
    QComboBox *m_targetKind = nullptr;
    QComboBox *m_mechanism = nullptr;
    QLabel *m_mechanismHint = nullptr;
    ScientificSpinBox *m_targetValue = nullptr;
    ScientificSpinBox *m_confidence = nullptr;
    QCheckBox *m_capEnabled = nullptr;
    ScientificSpinBox *m_cap = nullptr;
    QLabel *m_capUnit = nullptr;
    QSpinBox *m_planned = nullptr;
    QLabel *m_plannedPreview = nullptr;
    QLabel *m_costPreview = nullptr;
    QPushButton *m_ask = nullptr;
    bool m_asking = false;
    TypedInput *m_typedInput = nullptr;
    QString m_unit = QStringLiteral("ε");
    filters::FilterKind m_filterKind = filters::FilterKind::Zcdp;
    bool m_hasFilterKind = false;
    QString m_error;
    double m_absoluteValue = 50.0;
    double m_relativePercent = 5.0;
};

} // namespace pbx::ui
