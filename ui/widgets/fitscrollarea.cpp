// SPDX-License-Identifier: MIT
#include "ui/widgets/fitscrollarea.h"

#include <QEvent>
#include <QScrollBar>
#include <QStyle>

#include <algorithm>

namespace pbx::ui {

FitScrollArea::FitScrollArea(QWidget *content, Qt::Orientations scrolls, QWidget *parent)
    : QScrollArea(parent), m_scrolls(scrolls)
{
    setFrameShape(QFrame::NoFrame);
    setWidgetResizable(true);
    setHorizontalScrollBarPolicy(scrolls & Qt::Horizontal ? Qt::ScrollBarAsNeeded : Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(scrolls & Qt::Vertical ? Qt::ScrollBarAsNeeded : Qt::ScrollBarAlwaysOff);
    setWidget(content);
    // The content's own background, not the scroll area's base colour.
    viewport()->setAutoFillBackground(false);
    content->setAutoFillBackground(false);
    // QScrollArea does not pass its content's new size hint on to the layout it sits in.
    content->installEventFilter(this);
}

bool FitScrollArea::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == widget() && event->type() == QEvent::LayoutRequest)
        updateGeometry();
    return QScrollArea::eventFilter(watched, event);
}

QSize FitScrollArea::sizeHint() const
{
    const int frame = 2 * frameWidth();
    const int bar = style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this);
    QSize content = widget() ? widget()->sizeHint().expandedTo(widget()->minimumSizeHint()) : QSize();
    // Scrolling one way only, the area grows the other way by the scroll bar while it shows.
    if (m_scrolls == Qt::Horizontal && horizontalScrollBar()->isVisible())
        content.rheight() += bar;
    if (m_scrolls == Qt::Vertical && verticalScrollBar()->isVisible())
        content.rwidth() += bar;
    return content + QSize(frame, frame);
}

void FitScrollArea::resizeEvent(QResizeEvent *event)
{
    const bool horizontal = horizontalScrollBar()->isVisible();
    const bool vertical = verticalScrollBar()->isVisible();
    QScrollArea::resizeEvent(event);
    if (horizontal != horizontalScrollBar()->isVisible() || vertical != verticalScrollBar()->isVisible())
        updateGeometry(); // the size hint follows the scroll bars
}

QSize FitScrollArea::minimumSizeHint() const
{
    const int frame = 2 * frameWidth();
    const int bar = style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this);
    const QSize content = widget() ? widget()->minimumSizeHint() : QSize();
    // A direction that does not scroll keeps the content's minimum, plus room for the other
    // direction's scroll bar, which shows whenever the area is narrower than its content.
    const int width = m_scrolls & Qt::Horizontal ? std::min(kScrollingMinimum, content.width())
                                                 : content.width() + (m_scrolls & Qt::Vertical ? bar : 0);
    const int height = m_scrolls & Qt::Vertical ? std::min(kScrollingMinimum, content.height())
                                                : content.height() + (m_scrolls & Qt::Horizontal ? bar : 0);
    return {width + frame, height + frame};
}

} // namespace pbx::ui
