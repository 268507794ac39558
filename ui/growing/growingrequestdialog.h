// SPDX-License-Identifier: MIT
// Query ▸ Growing-database stream…: builds the same request as a `"type": "growing"` line of a
// `pbx-cli run` file (BBScheduler or BBImprover over the session's rows arriving in a seeded
// order: start size, end, order, seed, budget, the schedule — kind and γ, or a and m — β and the
// counting predicates of the Laplace-k box), or NSG (the sparse vector with p, T, the cap and the
// checkpoints, §4), PMWG (its fields in PmwgFields, §4.2), ERMG (private logistic regression: λ,
// tol and the improver's or a zCDP schedule) or SmallDBG (SmallDB at each epoch: the synthetic
// database's size m), and hands it to the session. Before asking it lists
// the planned epochs or runs with their charges (Cummings et al. 2018, §3.1–3.2;
// docs/growing-databases.md, "In a session"); after, what each released. Needs a replace-one
// session.
#pragma once

#include "ui/widgets/requestdialog.h"

QT_FORWARD_DECLARE_CLASS(QComboBox)
QT_FORWARD_DECLARE_CLASS(QDialogButtonBox)
QT_FORWARD_DECLARE_CLASS(QDoubleSpinBox)
QT_FORWARD_DECLARE_CLASS(QFormLayout)
QT_FORWARD_DECLARE_CLASS(QLineEdit)
QT_FORWARD_DECLARE_CLASS(QPlainTextEdit)
QT_FORWARD_DECLARE_CLASS(QSpinBox)

namespace pbx::ui {

class PmwgFields;

class GrowingRequestDialog final : public RequestDialog
{
    Q_OBJECT
public:
    explicit GrowingRequestDialog(QWidget *parent = nullptr);

    /// The request as entered (growing set); errors name the field with the lab's code words.
    /// Ask is enabled only on a session with replace-one neighbours.
    Result<session::QueryRequest> request() const override;
    /// Shows a recorded event: one line per released epoch or run (the first and last three when
    /// there are more than six), and the refusal if the stream stopped.
    void showOutcome(const session::LedgerEvent &event);

    // Programmatic input (tests, screenshots).
    /// "bbscheduler", "bbimprover", "nsg", "pmwg", "ermg" or "smalldb"
    void setAlgorithm(const QString &algorithm);
    /// pmwg: its fields (universe, mode, p, c₀, T, η, checkpoints, queries per checkpoint).
    PmwgFields *pmwgFields() const { return m_pmwg; }
    /// ermg: schedule "improver", "zcdp-equalised" or "zcdp-geometric"; λ > 0; tol (1e-10 … 1e-2).
    void setErm(const QString &schedule, double lambda, double tol);
    void setSmallDbSize(int m); ///< smalldb: m ≥ 1 (C(16+m−1, m) ≤ 5·10⁶, i.e. m ≤ 10)
    /// nsg: p ∈ [0, 1], threshold T ∈ [0, 1], a time cap c₀ (or constant cap c), checkpoints.
    void setNsg(double p, double threshold, const QString &capKind, double cap, int checkpoints);
    void setImproverSchedule(double a, int every); ///< bbimprover: decay a ∈ (0, 1), a run every m rows
    void setStartSize(int n);
    void setEnd(int end); ///< 0: every row
    void setSeed(int seed);
    void setBudget(const QString &kind, double value); ///< "pure" (ε) or "zcdp" (ρ)
    void setSchedule(const QString &kind, double gamma);
    void setQueries(const QStringList &predicates);
    QString planText() const;

private:
    void refresh() override;
    // The constructor's parts: the fields by family, the form that lays them out, the buttons
    // (Ask commits the typed text first) and the signals that refresh the plan.
    void createStreamFields();
    void createScheduleFields();
    void createNsgFields();
    void createModelFields();
    QFormLayout *buildForm();
    /// The plan (the status line) and result lines become selectable; Ask's refusals go to the result line.
    QDialogButtonBox *createButtons();
    void connectFields();

    QLineEdit *m_id = nullptr;
    QComboBox *m_algorithm = nullptr;
    QFormLayout *m_form = nullptr;
    QDoubleSpinBox *m_decay = nullptr;
    QSpinBox *m_every = nullptr;
    QDoubleSpinBox *m_nsgP = nullptr;
    QDoubleSpinBox *m_nsgT = nullptr;
    QComboBox *m_nsgCapKind = nullptr;
    QDoubleSpinBox *m_nsgCap = nullptr;
    QSpinBox *m_nsgCheckpoints = nullptr;
    QComboBox *m_ermSchedule = nullptr;
    QDoubleSpinBox *m_ermLambda = nullptr;
    QComboBox *m_ermTol = nullptr;
    QSpinBox *m_smallDbSize = nullptr;
    PmwgFields *m_pmwg = nullptr;
    QSpinBox *m_start = nullptr;
    QSpinBox *m_end = nullptr;
    QLineEdit *m_order = nullptr;
    QSpinBox *m_seed = nullptr;
    QComboBox *m_budgetKind = nullptr;
    QDoubleSpinBox *m_budget = nullptr;
    QComboBox *m_schedule = nullptr;
    QDoubleSpinBox *m_gamma = nullptr;
    QDoubleSpinBox *m_beta = nullptr;
    QPlainTextEdit *m_queries = nullptr;
};

} // namespace pbx::ui
