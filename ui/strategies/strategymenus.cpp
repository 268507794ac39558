// SPDX-License-Identifier: MIT
#include "ui/strategies/strategymenus.h"

#include "ui/requestdialogaction.h"
#include "ui/sessiondocument.h"
#include "ui/strategies/strategieslabdialog.h"
#include "ui/strategies/strategyrequestdialog.h"

#include <QAction>
#include <QMainWindow>
#include <QMenu>

namespace pbx::ui {

void installStrategyMenus(QMainWindow *window, QMenu *queryMenu, QMenu *labsMenu, SessionDocument *document)
{
    auto *request = new QAction(QObject::tr("&Histogram, quantile, mode or derived answer…"), window);
    request->setObjectName(QStringLiteral("strategyRequestAction"));
    request->setStatusTip(
        QObject::tr("Release every cell of a histogram for one charge, a quantile, or a free "
                    "answer derived from released cells"));
    queryMenu->addAction(request);
    openRequestDialogOn(request, window, document, QStringLiteral("strategyRequestDialog"),
                        &StrategyRequestDialog::showEvent);

    auto *lab = new QAction(QObject::tr("&Strategies && inference…"), window);
    lab->setObjectName(QStringLiteral("strategiesLabAction"));
    lab->setStatusTip(
        QObject::tr("How the same budget buys different accuracy: the BMI example, range strategies, "
                    "constrained inference, quantiles (simulation on public data)"));
    labsMenu->addAction(lab);
    QObject::connect(lab, &QAction::triggered, window, [window, document] {
        StrategiesLabDialog *dialog = strategiesLab(window, document);
        dialog->show();
        dialog->raise();
        dialog->activateWindow();
    });
}

StrategiesLabDialog *strategiesLab(QMainWindow *window, SessionDocument *document)
{
    auto *dialog = window->findChild<StrategiesLabDialog *>(QString(), Qt::FindDirectChildrenOnly);
    if (!dialog) {
        dialog = new StrategiesLabDialog(window);
        dialog->setObjectName(QStringLiteral("strategiesLabDialog"));
        QObject::connect(document, &SessionDocument::sessionReset, dialog, [document, dialog] {
            dialog->setSource(document->hasSession() ? document->session().sharedSource() : nullptr);
        });
    }
    dialog->setSource(document->hasSession() ? document->session().sharedSource() : nullptr);
    return dialog;
}

} // namespace pbx::ui
