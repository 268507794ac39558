// SPDX-License-Identifier: MIT
#include "ui/widgets/screenfit.h"

#include <QEvent>
#include <QPointer>
#include <QScreen>
#include <QTimer>
#include <QVariant>
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

namespace {

/// Fits its parent window inside the screen after each Show.
class FrameKeeper final : public QObject
{
public:
    explicit FrameKeeper(QWidget *window) : QObject(window) { window->installEventFilter(this); }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Show) {
            QPointer<QWidget> window = qobject_cast<QWidget *>(watched);
            QTimer::singleShot(0, this, [window] {
                if (window && window->isVisible())
                    fitFrameInsideScreen(window);
            });
        }
        return QObject::eventFilter(watched, event);
    }
};

} // namespace

void keepFrameInsideScreen(QWidget *window)
{
    if (!window || window->property("pbxFrameKept").toBool())
        return;
    window->setProperty("pbxFrameKept", true);
    new FrameKeeper(window);
}

} // namespace pbx::ui
