// SPDX-License-Identifier: MIT
// Application identity shared by the GUI's main() and the About box.
#pragma once

#include <QString>

namespace pbx::ui {

/// The project version, e.g. "0.1.0".
QString applicationVersion();
/// Sets organisation, application name, display name and version on the running application.
void setApplicationIdentity();

} // namespace pbx::ui
