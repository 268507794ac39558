// SPDX-License-Identifier: MIT
#include "ui/widgets/wrappedheight.h"

#include <QEvent>
#include <QLabel>
#include <QObject>

namespace pbx::ui {
namespace {

class WrappedHeightKeeper final : public QObject
{
public:
    explicit WrappedHeightKeeper(QLabel *label) : QObject(label), m_label(label)
    {
        label->installEventFilter(this);
    }

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        const bool relaid = event->type() == QEvent::Resize || event->type() == QEvent::FontChange
                            || event->type() == QEvent::Show;
        if (watched == m_label && relaid)
            fitWrappedHeight(m_label);
        return QObject::eventFilter(watched, event);
    }

private:
    QLabel *m_label;
};

} // namespace

void keepWrappedHeight(QLabel *label)
{
    new WrappedHeightKeeper(label);
}

void fitWrappedHeight(QLabel *label)
{
    if (!label->isVisible())
        return;
    // QLabel's heightForWidth is never below its minimum size: measured with the minimum kept,
    // a height set at a narrow width (more lines) would stay when the label widens.
    const int kept = label->minimumHeight();
    label->setMinimumHeight(0);
    const int needed = label->heightForWidth(label->width());
    label->setMinimumHeight(needed > 0 ? needed : kept);
}

} // namespace pbx::ui
