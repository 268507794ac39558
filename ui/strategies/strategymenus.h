// SPDX-License-Identifier: MIT
// The strategies layer's entries in the main window: Query ▸ Histogram, quantile, mode or derived
// answer… (StrategyRequestDialog, asking the document's session) and Labs ▸ Strategies &
// inference… (StrategiesLabDialog). One call wires them, so the main window changes in one place.
#pragma once

#include <QObject>

QT_FORWARD_DECLARE_CLASS(QMainWindow)
QT_FORWARD_DECLARE_CLASS(QMenu)

namespace pbx::ui {

class SessionDocument;
class StrategyRequestDialog;
class StrategiesLabDialog;

/// Adds the two actions to `queryMenu` and `labsMenu`; the dialogs are created on first use,
/// parented to `window`, and follow the document's session. The actions' object names are
/// "strategyRequestAction" and "strategiesLabAction" (tests find them by name).
void installStrategyMenus(QMainWindow *window, QMenu *queryMenu, QMenu *labsMenu, SessionDocument *document);

/// The strategies lab of `window` (its one StrategiesLabDialog child, created on first use), on
/// the document's table; not shown. The lab follows the document's session from then on.
StrategiesLabDialog *strategiesLab(QMainWindow *window, SessionDocument *document);

} // namespace pbx::ui
