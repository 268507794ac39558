// SPDX-License-Identifier: MIT
#include "ui/growing/growingmenus.h"

#include "core/session/source_support.h"
#include "ui/growing/growingrequestdialog.h"
#include "ui/requestdialogaction.h"
#include "ui/sessiondocument.h"

#include <QAction>
#include <QMainWindow>
#include <QMenu>

namespace pbx::ui {

namespace {

/// Enables the action only for a replace-one session; the tooltip says why not.
void updateAction(QAction *action, const SessionDocument *document)
{
    const bool hasSession = document->hasSession();
    const bool replace = hasSession && document->settings().neighbours == data::Neighbouring::Replace;
    action->setEnabled(replace);
    action->setToolTip(
        replace ? QObject::tr("Replay the dataset's rows as a growing stream; BBScheduler answers counting "
                              "queries at each epoch, each epoch charged to the session's filter")
                : (hasSession ? QObject::tr("Needs a session with replace-one neighbours: growing-database "
                                            "mechanisms are analysed for replace-one neighbouring streams")
                              : QObject::tr("Open a dataset and start a replace-one session first")));
    // A source that cannot answer the kind (a database table): disabled, with the line Ask would be
    // refused with (session::sourceRefusal).
    if (hasSession) {
        const std::string refusal = session::sourceRefusal(session::SourceRequestKind::Growing,
                                                           document->session().source().kind());
        if (!refusal.empty()) {
            action->setEnabled(false);
            action->setToolTip(QString::fromStdString(refusal));
        }
    }
    action->setStatusTip(action->toolTip());
}

} // namespace

QAction *installGrowingMenus(QMainWindow *window, QMenu *queryMenu, SessionDocument *document)
{
    auto *action = new QAction(QObject::tr("&Growing-database stream…"), window);
    action->setObjectName(QStringLiteral("growingRequestAction"));
    queryMenu->addAction(action);
    queryMenu->setToolTipsVisible(true);
    updateAction(action, document);
    QObject::connect(document, &SessionDocument::sessionReset, action,
                     [action, document] { updateAction(action, document); });
    openRequestDialogOn(action, window, document, QStringLiteral("growingRequestDialog"),
                        &GrowingRequestDialog::showOutcome);
    return action;
}

} // namespace pbx::ui
