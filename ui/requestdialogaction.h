// SPDX-License-Identifier: MIT
// The wiring shared by the request dialogs of the Query menu (histogram/quantile/derived/workload,
// sparse vector): one dialog per window, created on first use, following the session, asking
// through SessionDocument::startAsk (journal, transcript, ledger; off the GUI thread on a database)
// and showing the recorded event.
#pragma once

#include "ui/sessiondocument.h"

#include <QAction>
#include <QMainWindow>
#include <QPointer>
#include <QStatusBar>

#include <memory>

namespace pbx::ui {

/// Opens (and on first use creates) a `Dialog` when `action` is triggered. `Dialog` provides
/// setSession(const session::Session *), the signal askRequested(const session::QueryRequest &),
/// and `showEvent`, the member that shows a recorded LedgerEvent. A refused request is reported in
/// the status bar for 8 s and shows nothing; without a session nothing is asked.
template<class Dialog>
void openRequestDialogOn(QAction *action, QMainWindow *window, SessionDocument *document,
                         const QString &objectName, void (Dialog::*showEvent)(const session::LedgerEvent &))
{
    auto dialog = std::make_shared<QPointer<Dialog>>();
    const auto follow = [document, dialog] {
        (*dialog)->setSession(document->hasSession() ? &document->session() : nullptr);
    };
    QObject::connect(
        action, &QAction::triggered, window, [window, document, dialog, objectName, showEvent, follow] {
            if (!*dialog) {
                *dialog = new Dialog(window);
                (*dialog)->setObjectName(objectName);
                QObject::connect(
                    *dialog, &Dialog::askRequested, window,
                    [window, document, dialog, showEvent](const session::QueryRequest &r) {
                        if (!document->hasSession())
                            return;
                        // Off the GUI thread on a database (SessionDocument::startAsk).
                        auto started = document->startAsk(
                            r, [window, dialog, showEvent](const Result<session::LedgerEvent> &event, bool) {
                                if (!event) {
                                    window->statusBar()->showMessage(
                                        QString::fromStdString(event.error().message), 8000);
                                    return;
                                }
                                if (*dialog)
                                    ((*dialog)->*showEvent)(*event);
                            });
                        if (!started)
                            window->statusBar()->showMessage(QString::fromStdString(started.error().message),
                                                             8000);
                    });
                QObject::connect(document, &SessionDocument::sessionReset, *dialog, follow);
            }
            follow();
            (*dialog)->show();
            (*dialog)->raise();
            (*dialog)->activateWindow();
        });
}

} // namespace pbx::ui
