// SPDX-License-Identifier: MIT
// The PMWG part of Query ▸ Growing-database stream… (Cummings, Krehbiel, Lai & Tantipongpipat 2018,
// §4.2; docs/growing-databases.md §5 and §9): the universe over CPS1988, the mode (practical
// constants or theory's α), the noise exponent p, the time cap c₀, the threshold T, the learning
// rate η and the query workload (checkpoints × conjunctions per checkpoint); the plan before asking
// and the rounds after. Kept apart from the dialog so each stream kind owns its fields.
#pragma once

#include "core/io/json_fields.h"
#include "core/session/ledger_event.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

namespace pbx::session {
class Session;
}

namespace pbx::ui {

class PmwgFields : public QWidget
{
    Q_OBJECT
public:
    explicit PmwgFields(QWidget *parent = nullptr);

    /// The request's "pmwg" block (read by io::readGrowingRequest, which checks the ranges).
    io::json::Json block() const;

    /// Programmatic input (tests, screenshots): universe "small"/"full", mode "practical"/"theory".
    void set(const QString &universe, const QString &mode, double p, double c0, double threshold, double eta,
             int checkpoints, int perCheckpoint);

    /// The plan of a valid pmwg request in `session`: the first round's charge, the cap at the end,
    /// the charges' worst case, σ_n and what the session has left; or the error.
    static QString planText(const session::QueryRequest &request, const session::Session &session);

    /// The rounds of a released PMWG event, the first and last three (the attempts view lists all).
    static QStringList outcomeLines(const session::LedgerEvent &event);

Q_SIGNALS:
    void changed();

private:
    void updateModeRows();

    QComboBox *m_universe = nullptr;
    QComboBox *m_mode = nullptr;
    QDoubleSpinBox *m_alpha = nullptr;
    QDoubleSpinBox *m_p = nullptr;
    QDoubleSpinBox *m_c0 = nullptr;
    QDoubleSpinBox *m_threshold = nullptr;
    QDoubleSpinBox *m_eta = nullptr;
    QSpinBox *m_checkpoints = nullptr;
    QSpinBox *m_perCheckpoint = nullptr;
};

} // namespace pbx::ui
