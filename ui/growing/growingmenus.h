// SPDX-License-Identifier: MIT
// The growing-database stream's entry in the main window's Query menu: Growing-database stream…
// opens GrowingRequestDialog, which asks the document's session. The action is enabled only for
// a session under replace-one neighbours (the analysis is for replace-one neighbouring streams);
// otherwise its tooltip says why.
#pragma once

#include <QObject>

QT_FORWARD_DECLARE_CLASS(QAction)
QT_FORWARD_DECLARE_CLASS(QMainWindow)
QT_FORWARD_DECLARE_CLASS(QMenu)

namespace pbx::ui {

class SessionDocument;

/// Adds the action (object name "growingRequestAction") to `queryMenu` and returns it; the dialog
/// (object name "growingRequestDialog") is created on first use and follows the document's session.
QAction *installGrowingMenus(QMainWindow *window, QMenu *queryMenu, SessionDocument *document);

} // namespace pbx::ui
