// SPDX-License-Identifier: MIT
// The base of the Query menu's request dialogs (histogram / quantile / derived / workload, sparse
// vector, growing-database stream). What they share: the session they ask (not owned), the Ask
// button — which commits every typed field first (TypedInput: what is on screen is what is asked)
// and then emits the request — the status and result lines, and the signal that
// openRequestDialogOn (ui/requestdialogaction.h) connects to SessionDocument::ask.
#pragma once

#include "core/session/ledger_event.h"

#include <QDialog>
#include <QList>

QT_FORWARD_DECLARE_CLASS(QDialogButtonBox)
QT_FORWARD_DECLARE_CLASS(QLabel)
QT_FORWARD_DECLARE_CLASS(QPushButton)

namespace pbx::session {
class Session;
}

namespace pbx::ui {

class TypedInput;

class RequestDialog : public QDialog
{
    Q_OBJECT
public:
    /// The session requests go to (nullptr: none; Ask disabled). Not owned. Updates the
    /// session-dependent choices (sessionChanged), then the preview (refresh).
    void setSession(const session::Session *session);
    /// The request as entered; errors (InvalidArgument) name the field.
    virtual Result<session::QueryRequest> request() const = 0;

    QPushButton *askButton() const { return m_ask; }
    QString statusText() const;
    QString resultText() const;

Q_SIGNALS:
    /// The user pressed Ask with a valid request, every typed field committed.
    void askRequested(const session::QueryRequest &request);

protected:
    /// Creates the status line, the result line (selectable) and the default Ask button.
    RequestDialog(const QString &title, QWidget *parent);

    /// The choices that depend on the session (its columns, its released histograms).
    virtual void sessionChanged() {}
    /// Recomputes the preview and whether Ask is enabled from the fields and the session.
    virtual void refresh() = 0;

    /// Close, then `extra`, then Ask. Ask commits the typed text of every spin box, or writes the
    /// refusal (naming the field) into `refusalLine` and sends nothing; then emits the request
    /// when it is valid.
    QDialogButtonBox *createButtons(QLabel *refusalLine, const QList<QPushButton *> &extra = {});
    /// The last step of a derived constructor, once every field exists: fits the dialog to the
    /// screen at `preferred` at most, watches the spin boxes and draws the first preview.
    void finishConstruction(QSize preferred);

    const session::Session *m_session = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_result = nullptr;
    QPushButton *m_ask = nullptr;

private:
    TypedInput *m_typedInput = nullptr;
};

} // namespace pbx::ui
