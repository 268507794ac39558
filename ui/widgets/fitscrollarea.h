// SPDX-License-Identifier: MIT
// A scroll area that asks for its content's size but may be made smaller than it in the directions
// it scrolls: panels keep their fields at full width on a 1024×700 projector and scroll instead of
// squashing them or pushing the window past the screen.
#pragma once

#include <QScrollArea>

namespace pbx::ui {

class FitScrollArea final : public QScrollArea
{
    Q_OBJECT
public:
    /// Takes ownership of `content`. `scrolls`: the directions in which the area may be smaller than
    /// its content (Qt::Horizontal, Qt::Vertical or both); in the others it is never smaller than
    /// the content's minimum size (plus the other direction's scroll bar when that one shows).
    FitScrollArea(QWidget *content, Qt::Orientations scrolls, QWidget *parent = nullptr);

    /// The content's size hint plus the frame: no scroll bar when there is room.
    QSize sizeHint() const override;
    /// In a scrolling direction about 80 px (one field and the scroll bar); otherwise the content's
    /// minimum plus the other direction's scroll bar.
    QSize minimumSizeHint() const override;

    /// The smallest width or height allowed in a scrolling direction, in pixels.
    static constexpr int kScrollingMinimum = 80;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    Qt::Orientations m_scrolls;
};

} // namespace pbx::ui
