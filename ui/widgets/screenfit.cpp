// SPDX-License-Identifier: MIT
#include "ui/widgets/screenfit.h"

#include <QApplication>
#include <QEvent>
#include <QPointer>
#include <QScreen>
#include <QTimer>
#include <QVariant>
#include <QWidget>

#include <algorithm>

namespace pbx::ui {

namespace {

/// The frame (title bar and borders) the window manager gives a window: that of a top-level
/// window already on screen, the same for a new one; empty when none is known (none shown yet,
/// or a platform without frames).
QSize knownFrameMargins()
{
    for (const QWidget *shown : QApplication::topLevelWidgets()) {
        if (!shown->isVisible() || shown->isMaximized() || shown->isFullScreen()
            || shown->windowType() == Qt::Popup || shown->windowType() == Qt::ToolTip)
            continue;
        const QSize margins = shown->frameGeometry().size() - shown->size();
        if (margins.width() >= 0 && margins.height() >= 0 && !margins.isNull())
            return margins;
    }
    return QSize(0, 0);
}

} // namespace

void resizeWithinScreen(QWidget *window, QSize preferred)
{
    QSize size = preferred;
    if (const QScreen *screen = window->screen())
        size = size.boundedTo(screen->availableGeometry().size() - knownFrameMargins());
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

/// How long after a Show the frame is waited for: a window manager reparents a new window into
/// its frame a few event-loop turns after it is mapped (Xvfb + openbox: after the zero timer).
constexpr int kFrameWaitMilliseconds = 3000;

/// Fits its parent window inside the screen after a Show: at once, and again when the window
/// manager's frame becomes known (the window is moved or resized into its frame). `everyShow`:
/// after each Show, else after the first only.
class FrameKeeper final : public QObject
{
public:
    FrameKeeper(QWidget *window, bool everyShow) : QObject(window), m_everyShow(everyShow)
    {
        window->installEventFilter(this);
        m_wait.setSingleShot(true);
        m_wait.setInterval(kFrameWaitMilliseconds);
    }

    /// Waits for the frame of a window that is already shown.
    void arm(QWidget *window)
    {
        m_shown = true;
        m_wait.start();
        fitLater(window);
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        auto *window = qobject_cast<QWidget *>(watched);
        if (!window)
            return QObject::eventFilter(watched, event);
        if (event->type() == QEvent::Show && (m_everyShow || !m_shown)) {
            arm(window);
        } else if ((event->type() == QEvent::Move || event->type() == QEvent::Resize) && m_wait.isActive()
                   && window->frameGeometry().size() != window->size()) {
            // The frame is known now: fit once more, then stop watching until the next Show.
            m_wait.stop();
            fitLater(window);
        }
        return QObject::eventFilter(watched, event);
    }

private:
    void fitLater(QWidget *window)
    {
        QPointer<QWidget> guarded = window;
        QTimer::singleShot(0, this, [guarded] {
            if (guarded && guarded->isVisible())
                fitFrameInsideScreen(guarded);
        });
    }

    bool m_everyShow;
    bool m_shown = false;
    QTimer m_wait; ///< running: the frame is still awaited
};

} // namespace

void keepFrameInsideScreen(QWidget *window)
{
    if (!window || window->property("pbxFrameKept").toBool())
        return;
    window->setProperty("pbxFrameKept", true);
    new FrameKeeper(window, true);
}

void fitFrameOnceShown(QWidget *window)
{
    if (!window)
        return;
    auto *keeper = new FrameKeeper(window, false);
    if (window->isVisible())
        keeper->arm(window);
}

} // namespace pbx::ui
