// SPDX-License-Identifier: MIT
// Output DP's entry in the main window's Query menu: Sparse vector (output DP)… opens
// SvtRequestDialog, which asks the document's session. The action is enabled only when the session's
// filter is odp (the only filter that can settle a realised cell); otherwise its tooltip says why.
#pragma once

#include <QObject>

QT_FORWARD_DECLARE_CLASS(QAction)
QT_FORWARD_DECLARE_CLASS(QMainWindow)
QT_FORWARD_DECLARE_CLASS(QMenu)

namespace pbx::ui {

class SessionDocument;

/// Adds the action (object name "svtRequestAction") to `queryMenu` and returns it; the dialog
/// (object name "svtRequestDialog") is created on first use, parented to `window`, and follows
/// the document's session.
QAction *installOdpMenus(QMainWindow *window, QMenu *queryMenu, SessionDocument *document);

} // namespace pbx::ui
