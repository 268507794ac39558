// SPDX-License-Identifier: MIT
// Application identity shared by the GUI's main() and the About box.
#pragma once

#include <QIcon>
#include <QString>

namespace pbx::ui {

/// The project version, e.g. "0.1.0".
QString applicationVersion();
/// The reverse-DNS application id, e.g. "org.privacybudgetexplorer.Pbx": the installed desktop
/// entry, icon and AppStream metainfo are named after it.
QString applicationId();
/// The application icon, in every size the resources hold.
QIcon applicationIcon();
/// Sets organisation, application name, display name, version, desktop file name and window
/// icon on the running application.
void setApplicationIdentity();

} // namespace pbx::ui
