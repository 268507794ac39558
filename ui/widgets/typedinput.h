// SPDX-License-Identifier: MIT
// What the user typed is what is asked. A spin box holds two things: the text being typed and the
// value it last committed; Qt commits the text on Enter or when focus leaves, and replaces text it
// cannot accept (out of range, "1e") by the nearest value without a word. A shortcut such as
// Ctrl+Return reads the value without committing anything, so a request could be sent with the
// previous value while the box shows the new one.
//
// TypedInput watches every spin box of a form. Before a request is sent, commit() commits each
// box's typed text (so the request, its cost preview and the transcript carry what is on screen),
// or returns a one-line refusal naming the field whose text is not a value it accepts — including
// text that Qt replaced when focus left the box, so clicking Ask never sends a corrected value the
// user did not see before asking.
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>

#include <map>

class QAbstractSpinBox;
class QWidget;

namespace pbx::ui {

class TypedInput final : public QObject
{
    Q_OBJECT
public:
    /// Whether a text that is acceptable as typed is committed at each key (previews follow the
    /// keys), or only by commit(), Enter and leaving the box (for fields whose every change
    /// restarts something, such as the session's budget).
    enum class Keys { Tracked, Untracked };

    /// Watches every QAbstractSpinBox under `form` that exists now.
    explicit TypedInput(QWidget *form, Keys keys = Keys::Tracked);

    /// Commits every watched box's typed text (QAbstractSpinBox::interpretText, which emits
    /// valueChanged as typing would have). Returns empty when every box's value is now exactly its
    /// text, else the refusal for the first box (in the form's focus order) whose text is not a
    /// value it accepts, or was replaced when focus left it, e.g.
    /// "Accuracy target: '0' is not a value it accepts (1e-09 to 1e+15); nothing was asked".
    /// A refused box keeps the typed text, so the user can see and correct it.
    QString commit();

    /// The name a refusal uses for `box`: its accessible name, else the text of its QFormLayout
    /// label or buddy label (without '&' and a trailing ':'), else its object name.
    static QString fieldName(const QAbstractSpinBox *box);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QString refusal(const QAbstractSpinBox *box, const QString &text) const;

    QPointer<QWidget> m_form;
    /// Text Qt was about to replace when focus left a box, kept until the box is edited again or
    /// commit() reports it.
    std::map<const QAbstractSpinBox *, QString> m_replaced;
};

} // namespace pbx::ui
