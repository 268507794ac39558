// SPDX-License-Identifier: MIT
#include "ui/strategies/strategymenus.h"

#include "ui/sessiondocument.h"
#include "ui/strategies/strategieslabdialog.h"
#include "ui/strategies/strategyrequestdialog.h"

#include <QAction>
#include <QMainWindow>
#include <QMenu>
#include <QPointer>
#include <QStatusBar>

namespace pbx::ui {

void installStrategyMenus(QMainWindow *window, QMenu *queryMenu, QMenu *labsMenu, SessionDocument *document)
{
    auto *request = new QAction(QObject::tr("&Histogram, quantile or derived answer…"), window);
    request->setObjectName(QStringLiteral("strategyRequestAction"));
    request->setStatusTip(
        QObject::tr("Release every cell of a histogram for one charge, a quantile, or a free "
                    "answer derived from released cells"));
    queryMenu->addAction(request);
    auto dialog = std::make_shared<QPointer<StrategyRequestDialog>>();
    QObject::connect(request, &QAction::triggered, window, [window, document, dialog] {
        if (!*dialog) {
            *dialog = new StrategyRequestDialog(window);
            (*dialog)->setObjectName(QStringLiteral("strategyRequestDialog"));
            QObject::connect(*dialog, &StrategyRequestDialog::askRequested, window,
                             [window, document, dialog](const session::QueryRequest &r) {
                                 if (!document->hasSession())
                                     return;
                                 auto event = document->ask(r);
                                 if (!event) {
                                     window->statusBar()->showMessage(
                                         QString::fromStdString(event.error().message), 8000);
                                     return;
                                 }
                                 (*dialog)->showEvent(*event);
                             });
            QObject::connect(document, &SessionDocument::sessionReset, *dialog, [document, dialog] {
                (*dialog)->setSession(document->hasSession() ? &document->session() : nullptr);
            });
        }
        (*dialog)->setSession(document->hasSession() ? &document->session() : nullptr);
        (*dialog)->show();
        (*dialog)->raise();
        (*dialog)->activateWindow();
    });

    auto *lab = new QAction(QObject::tr("&Strategies && inference…"), window);
    lab->setObjectName(QStringLiteral("strategiesLabAction"));
    lab->setStatusTip(
        QObject::tr("How the same budget buys different accuracy: the BMI example, range strategies, "
                    "constrained inference, quantiles (simulation on public data)"));
    labsMenu->addAction(lab);
    auto labDialog = std::make_shared<QPointer<StrategiesLabDialog>>();
    QObject::connect(lab, &QAction::triggered, window, [window, document, labDialog] {
        if (!*labDialog) {
            *labDialog = new StrategiesLabDialog(window);
            (*labDialog)->setObjectName(QStringLiteral("strategiesLabDialog"));
            QObject::connect(document, &SessionDocument::sessionReset, *labDialog, [document, labDialog] {
                (*labDialog)->setTable(document->hasSession() ? document->session().sharedTable() : nullptr);
            });
        }
        (*labDialog)->setTable(document->hasSession() ? document->session().sharedTable() : nullptr);
        (*labDialog)->show();
        (*labDialog)->raise();
        (*labDialog)->activateWindow();
    });
}

} // namespace pbx::ui
