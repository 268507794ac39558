// SPDX-License-Identifier: MIT
#include "ui/widgets/screenfit.h"

#include <QScreen>
#include <QWidget>

#include <algorithm>

namespace pbx::ui {

void resizeWithinScreen(QWidget *window, QSize preferred)
{
    QSize size = preferred;
    if (const QScreen *screen = window->screen())
        size = size.boundedTo(screen->availableGeometry().size());
    window->resize(size.expandedTo(window->minimumSize()));
}

void fitFrameInsideScreen(QWidget *window)
{
    const QScreen *screen = window->screen();
    if (!screen || window->isMaximized() || window->isFullScreen())
        return;
    const QRect available = screen->availableGeometry();
    const QRect frame = window->frameGeometry();
    if (available.contains(frame))
        return;
    const QSize margins = frame.size() - window->size();
    const QSize size = window->size().boundedTo(available.size() - margins).expandedTo(window->minimumSize());
    window->resize(size);
    // Then move it in: left/top edges first, so a frame larger than the area keeps its title bar.
    QPoint topLeft = window->frameGeometry().topLeft();
    const QSize frameSize = size + margins;
    topLeft.setX(
        std::max(available.left(), std::min(topLeft.x(), available.right() + 1 - frameSize.width())));
    topLeft.setY(
        std::max(available.top(), std::min(topLeft.y(), available.bottom() + 1 - frameSize.height())));
    window->move(topLeft);
}

} // namespace pbx::ui
