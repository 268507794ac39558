// SPDX-License-Identifier: MIT
// The session's privacy settings: ε, δ, the neighbouring relation, the filter (accounting), the
// unified filter's split between its zCDP and ex-post sides, and an optional seed. Editable until
// the first request; then locked until a new session starts, because a filter's budget cannot
// change once it has been spent against.
#pragma once

#include "core/session/session.h"

#include <QWidget>

QT_FORWARD_DECLARE_CLASS(QCheckBox)
QT_FORWARD_DECLARE_CLASS(QComboBox)
QT_FORWARD_DECLARE_CLASS(QDoubleSpinBox)
QT_FORWARD_DECLARE_CLASS(QFormLayout)
QT_FORWARD_DECLARE_CLASS(QLabel)
QT_FORWARD_DECLARE_CLASS(QPushButton)
QT_FORWARD_DECLARE_CLASS(QSpinBox)

namespace pbx::ui {

class TypedInput;

class ScientificSpinBox;

class SessionPanel final : public QWidget
{
    Q_OBJECT
public:
    explicit SessionPanel(QWidget *parent = nullptr);

    /// The settings as currently entered (not necessarily valid; see SessionSettings::validate).
    session::SessionSettings settings() const;
    /// Shows `settings` without emitting settingsEdited().
    void setSettings(const session::SessionSettings &settings);

    /// Reflects the running session: its filter's budget in native units, and whether requests
    /// were made (then the settings are locked). nullptr: no session.
    void setSession(const session::Session *session);
    /// A problem with the entered settings (empty: none).
    void setError(const QString &message);

    bool isLocked() const { return m_locked; }
    QPushButton *newSessionButton() const { return m_newSession; }
    ScientificSpinBox *epsilonSpinBox() const { return m_epsilon; }
    ScientificSpinBox *deltaSpinBox() const { return m_delta; }
    QComboBox *filterComboBox() const { return m_filter; }
    /// The unified filter's ex-post shares of ε and δ, in percent (shown for that filter only).
    QDoubleSpinBox *expostEpsilonShareSpinBox() const { return m_expostEpsilonShare; }
    QDoubleSpinBox *expostDeltaShareSpinBox() const { return m_expostDeltaShare; }
    /// The budget explanation (rich text) of the running session.
    QString budgetText() const;
    QLabel *errorLabel() const { return m_error; }
    QString modeText() const;

    /// Commits the text typed in the budget fields (TypedInput::commit), emitting settingsEdited
    /// for a changed value; returns the refusal naming a field whose text is not a value it
    /// accepts, else empty.
    QString commitTypedInput();

Q_SIGNALS:
    /// The user changed a setting (only possible while unlocked).
    void settingsEdited(const pbx::session::SessionSettings &settings);
    /// The user asked for a new session (the window confirms if the ledger has events).
    void newSessionRequested();

protected:
    /// Keeps the accounting and neighbours boxes as wide as their longest choice when their font
    /// changes.
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void createWidgets();
    void createLayout();
    void connectSignals();
    void emitEdited();
    void updateModeBadge();
    void updateSplitVisibility();

    ScientificSpinBox *m_epsilon = nullptr;
    ScientificSpinBox *m_delta = nullptr;
    QComboBox *m_neighbours = nullptr;
    QComboBox *m_filter = nullptr;
    QDoubleSpinBox *m_expostEpsilonShare = nullptr;
    QDoubleSpinBox *m_expostDeltaShare = nullptr;
    QWidget *m_splitRow = nullptr;
    QFormLayout *m_form = nullptr;
    QCheckBox *m_seedEnabled = nullptr;
    QSpinBox *m_seed = nullptr;
    QLabel *m_mode = nullptr;
    QLabel *m_budget = nullptr;
    QLabel *m_lockNote = nullptr;
    QLabel *m_error = nullptr;
    QPushButton *m_newSession = nullptr;
    bool m_updating = false;
    bool m_locked = false;
    TypedInput *m_typedInput = nullptr;
};

} // namespace pbx::ui
