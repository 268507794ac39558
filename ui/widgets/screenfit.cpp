// SPDX-License-Identifier: MIT
#include "ui/widgets/screenfit.h"

#include <QScreen>
#include <QWidget>

namespace pbx::ui {

void resizeWithinScreen(QWidget *window, QSize preferred)
{
    QSize size = preferred;
    if (const QScreen *screen = window->screen())
        size = size.boundedTo(screen->availableGeometry().size());
    window->resize(size.expandedTo(window->minimumSize()));
}

} // namespace pbx::ui
