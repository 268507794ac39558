// SPDX-License-Identifier: MIT
#include "ui/odp/odpmenus.h"

#include "core/session/source_support.h"
#include "ui/odp/svtrequestdialog.h"
#include "ui/requestdialogaction.h"
#include "ui/sessiondocument.h"

#include <QAction>
#include <QMainWindow>
#include <QMenu>

namespace pbx::ui {

namespace {

/// Enables the action only for a session under the odp filter; the tooltip says why not.
void updateAction(QAction *action, const SessionDocument *document)
{
    const bool hasSession = document->hasSession();
    const bool odp = hasSession && document->settings().filter == filters::FilterKind::Odp;
    action->setEnabled(odp);
    action->setToolTip(
        odp ? QObject::tr("Release the counts above a threshold; the filter charges the cell the output "
                          "fell in (output DP)")
            : (hasSession ? QObject::tr("Needs a session under the odp filter (Session ▸ filter: odp): "
                                        "only it can settle the realised cell of a sparse vector")
                          : QObject::tr("Open a dataset and start a session under the odp filter first")));
    // A source that cannot answer the kind (a database table): disabled, with the line Ask would be
    // refused with (session::sourceRefusal).
    if (hasSession) {
        const std::string refusal
            = session::sourceRefusal(session::SourceRequestKind::Odp, document->session().source().kind());
        if (!refusal.empty()) {
            action->setEnabled(false);
            action->setToolTip(QString::fromStdString(refusal));
        }
    }
    action->setStatusTip(action->toolTip());
}

} // namespace

QAction *installOdpMenus(QMainWindow *window, QMenu *queryMenu, SessionDocument *document)
{
    auto *action = new QAction(QObject::tr("&Sparse vector (output DP)…"), window);
    action->setObjectName(QStringLiteral("svtRequestAction"));
    queryMenu->addAction(action);
    queryMenu->setToolTipsVisible(true);
    updateAction(action, document);
    QObject::connect(document, &SessionDocument::sessionReset, action,
                     [action, document] { updateAction(action, document); });
    openRequestDialogOn(action, window, document, QStringLiteral("svtRequestDialog"),
                        &SvtRequestDialog::showOutcome);
    return action;
}

} // namespace pbx::ui
