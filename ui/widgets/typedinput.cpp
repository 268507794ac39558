// SPDX-License-Identifier: MIT
#include "ui/widgets/typedinput.h"

#include <QAbstractSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QVariant>

namespace pbx::ui {

namespace {

QString labelText(const QLabel *label)
{
    QString text = label->text();
    text.remove(u'&');
    text = text.trimmed();
    if (text.endsWith(u':'))
        text.chop(1);
    return text.trimmed();
}

/// The QFormLayout label of `field` in `layout` or a layout nested in it.
const QLabel *formLabel(const QLayout *layout, const QWidget *field)
{
    if (!layout)
        return nullptr;
    if (const auto *form = qobject_cast<const QFormLayout *>(layout))
        if (const auto *label
            = qobject_cast<const QLabel *>(form->labelForField(const_cast<QWidget *>(field))))
            return label;
    for (int i = 0; i < layout->count(); ++i)
        if (const QLabel *found = formLabel(layout->itemAt(i)->layout(), field))
            return found;
    return nullptr;
}

/// The range a box accepts ("1e-09 to 1e+15"; empty for boxes without a numeric range).
QString rangeText(const QAbstractSpinBox *box)
{
    const QVariant low = box->property("minimum");
    const QVariant high = box->property("maximum");
    if (!low.isValid() || !high.isValid())
        return {};
    return QStringLiteral("%1 to %2")
        .arg(QString::number(low.toDouble(), 'g', 6), QString::number(high.toDouble(), 'g', 6));
}

/// The text a box shows without its prefix and suffix (QSpinBox/QDoubleSpinBox::cleanText).
QString cleanText(const QAbstractSpinBox *box)
{
    const QVariant clean = box->property("cleanText");
    return clean.isValid() ? clean.toString() : box->text();
}

/// Puts `typed` back into the box's editor between its prefix and suffix.
void showTyped(QAbstractSpinBox *box, const QString &typed)
{
    if (auto *edit = box->findChild<QLineEdit *>())
        edit->setText(box->property("prefix").toString() + typed + box->property("suffix").toString());
}

} // namespace

TypedInput::TypedInput(QWidget *form, Keys keys) : QObject(form), m_form(form)
{
    for (QAbstractSpinBox *box : form->findChildren<QAbstractSpinBox *>()) {
        if (keys == Keys::Tracked)
            box->setKeyboardTracking(true);
        box->installEventFilter(this);
    }
}

QString TypedInput::fieldName(const QAbstractSpinBox *box)
{
    if (!box->accessibleName().isEmpty())
        return box->accessibleName();
    for (const QWidget *w = box->parentWidget(); w; w = w->parentWidget())
        if (const QLabel *label = formLabel(w->layout(), box))
            return labelText(label);
    if (const QWidget *window = box->window())
        for (const QLabel *label : window->findChildren<QLabel *>())
            if (label->buddy() == box)
                return labelText(label);
    return box->objectName();
}

QString TypedInput::refusal(const QAbstractSpinBox *box, const QString &text) const
{
    const QString range = rangeText(box);
    return tr("%1: '%2' is not a value it accepts%3; nothing was asked")
        .arg(fieldName(box), text, range.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(range));
}

QString TypedInput::commit()
{
    if (!m_form)
        return {};
    for (QAbstractSpinBox *box : m_form->findChildren<QAbstractSpinBox *>()) {
        if (!box->isEnabled() || box->isHidden() || !box->isVisibleTo(m_form))
            continue;
        QString typed;
        if (const auto replaced = m_replaced.find(box); replaced != m_replaced.end()) {
            typed = replaced->second;
            m_replaced.erase(replaced);
        } else if (!box->hasAcceptableInput()) {
            typed = cleanText(box);
        } else {
            box->interpretText();
            continue;
        }
        // Show the typed text again (Qt may have replaced it), so the user corrects what they typed.
        showTyped(box, typed);
        return refusal(box, typed);
    }
    return {};
}

bool TypedInput::eventFilter(QObject *watched, QEvent *event)
{
    auto *box = qobject_cast<QAbstractSpinBox *>(watched);
    if (!box)
        return QObject::eventFilter(watched, event);
    switch (event->type()) {
    case QEvent::KeyPress: {
        const int key = static_cast<QKeyEvent *>(event)->key();
        if (key == Qt::Key_Return || key == Qt::Key_Enter) {
            // Enter commits, replacing text the box cannot accept; remember what was typed.
            if (!box->hasAcceptableInput())
                m_replaced[box] = cleanText(box);
        } else {
            m_replaced.erase(box); // an edit: what was replaced is no longer what is typed
        }
        break;
    }
    case QEvent::FocusOut:
        if (!box->hasAcceptableInput())
            m_replaced[box] = cleanText(box);
        break;
    case QEvent::Wheel:
    case QEvent::MouseButtonPress:
        m_replaced.erase(box);
        break;
    default:
        break;
    }
    return QObject::eventFilter(watched, event);
}

} // namespace pbx::ui
