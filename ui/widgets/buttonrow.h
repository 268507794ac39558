// SPDX-License-Identifier: MIT
// A row of buttons that wraps: the buttons stand side by side where the width holds them and
// go on the next line where it does not, so a narrow dock (the lessons beside the query on a
// 1024-px projector, or in presentation mode's larger font) is never widened by a button row.
#pragma once

#include <QLayout>
#include <QList>

namespace pbx::ui {

class ButtonRowLayout final : public QLayout
{
public:
    /// `spacing`: pixels between buttons, across and between lines (negative: the style's).
    explicit ButtonRowLayout(QWidget *parent = nullptr, int spacing = -1);
    ~ButtonRowLayout() override;

    /// Starts a new group: items added after it keep to the right edge of their line (as a stretch
    /// in a QHBoxLayout puts them) while the line holds the whole row.
    void addTrailingBreak();

    void addItem(QLayoutItem *item) override;
    int count() const override;
    QLayoutItem *itemAt(int index) const override;
    QLayoutItem *takeAt(int index) override;
    Qt::Orientations expandingDirections() const override;
    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;
    /// The widest item's width (the row may wrap after every item), the height of one line.
    QSize minimumSize() const override;
    /// All items on one line.
    QSize sizeHint() const override;
    void setGeometry(const QRect &rect) override;

private:
    int gap() const;
    /// Lays the items out in `rect` (only measures when `apply` is false); returns the height used.
    int place(const QRect &rect, bool apply) const;

    QList<QLayoutItem *> m_items;
    int m_trailingFrom = -1; ///< index of the first item kept to the right (-1: none)
};

} // namespace pbx::ui
