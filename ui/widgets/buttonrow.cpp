// SPDX-License-Identifier: MIT
#include "ui/widgets/buttonrow.h"

#include <QStyle>
#include <QWidget>

#include <algorithm>

namespace pbx::ui {

ButtonRowLayout::ButtonRowLayout(QWidget *parent, int spacing) : QLayout(parent)
{
    setContentsMargins(0, 0, 0, 0);
    setSpacing(spacing);
}

ButtonRowLayout::~ButtonRowLayout()
{
    while (QLayoutItem *item = takeAt(0))
        delete item;
}

void ButtonRowLayout::addTrailingBreak()
{
    m_trailingFrom = static_cast<int>(m_items.size());
}

void ButtonRowLayout::addItem(QLayoutItem *item)
{
    m_items.append(item);
}

int ButtonRowLayout::count() const
{
    return static_cast<int>(m_items.size());
}

QLayoutItem *ButtonRowLayout::itemAt(int index) const
{
    return m_items.value(index);
}

QLayoutItem *ButtonRowLayout::takeAt(int index)
{
    if (index < 0 || index >= m_items.size())
        return nullptr;
    if (m_trailingFrom > index)
        --m_trailingFrom;
    return m_items.takeAt(index);
}

Qt::Orientations ButtonRowLayout::expandingDirections() const
{
    return {};
}

bool ButtonRowLayout::hasHeightForWidth() const
{
    return true;
}

int ButtonRowLayout::heightForWidth(int width) const
{
    return place(QRect(0, 0, width, 0), false);
}

int ButtonRowLayout::gap() const
{
    if (spacing() >= 0)
        return spacing();
    const QWidget *parent = parentWidget();
    return parent ? parent->style()->pixelMetric(QStyle::PM_LayoutHorizontalSpacing, nullptr, parent) : 6;
}

QSize ButtonRowLayout::minimumSize() const
{
    QSize size;
    for (const QLayoutItem *item : m_items)
        if (!item->isEmpty())
            size = size.expandedTo(item->minimumSize().expandedTo(item->sizeHint()));
    const QMargins m = contentsMargins();
    return size + QSize(m.left() + m.right(), m.top() + m.bottom());
}

QSize ButtonRowLayout::sizeHint() const
{
    int width = 0, height = 0, shown = 0;
    for (const QLayoutItem *item : m_items) {
        if (item->isEmpty())
            continue;
        width += item->sizeHint().width();
        height = std::max(height, item->sizeHint().height());
        ++shown;
    }
    const QMargins m = contentsMargins();
    return QSize(width + std::max(0, shown - 1) * gap() + m.left() + m.right(),
                 height + m.top() + m.bottom());
}

void ButtonRowLayout::setGeometry(const QRect &rect)
{
    QLayout::setGeometry(rect);
    place(rect, true);
}

int ButtonRowLayout::place(const QRect &rect, bool apply) const
{
    const QRect area = rect.marginsRemoved(contentsMargins());
    const int space = gap();
    // Lines of items: as many as fit the width on each, at least one.
    QList<QList<QLayoutItem *>> lines(1);
    int used = 0;
    for (QLayoutItem *item : m_items) {
        if (item->isEmpty())
            continue;
        const int w = item->sizeHint().width();
        if (!lines.back().isEmpty() && used + space + w > area.width()) {
            lines.append(QList<QLayoutItem *>());
            used = 0;
        }
        used += (lines.back().isEmpty() ? 0 : space) + w;
        lines.back().append(item);
    }
    const bool oneLine = lines.size() == 1;
    int y = area.top();
    for (const auto &line : std::as_const(lines)) {
        int height = 0;
        for (const QLayoutItem *item : line)
            height = std::max(height, item->sizeHint().height());
        if (apply) {
            // On one line the trailing group keeps to the right edge; wrapped, every line starts left.
            int trailingWidth = 0;
            if (oneLine && m_trailingFrom >= 0)
                for (const QLayoutItem *item : line)
                    if (m_items.indexOf(const_cast<QLayoutItem *>(item)) >= m_trailingFrom)
                        trailingWidth += item->sizeHint().width() + space;
            int x = area.left();
            for (QLayoutItem *item : line) {
                if (oneLine && m_items.indexOf(item) == m_trailingFrom)
                    x = std::max(x, area.right() + 1 - (trailingWidth - space));
                const QSize hint = item->sizeHint();
                item->setGeometry(QRect(QPoint(x, y), QSize(std::min(hint.width(), area.width()), height)));
                x += hint.width() + space;
            }
        }
        y += height + space;
    }
    return y - space - area.top() + contentsMargins().top() + contentsMargins().bottom();
}

} // namespace pbx::ui
