// SPDX-License-Identifier: MIT
#include "ui/widgets/requestdialog.h"

#include "ui/widgets/screenfit.h"
#include "ui/widgets/typedinput.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>

namespace pbx::ui {

RequestDialog::RequestDialog(const QString &title, QWidget *parent) : QDialog(parent)
{
    setWindowTitle(title);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_result = new QLabel(this);
    m_result->setTextFormat(Qt::PlainText); // category labels and notes come from files
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_ask = new QPushButton(tr("&Ask"), this);
    m_ask->setDefault(true);
}

void RequestDialog::setSession(const session::Session *session)
{
    m_session = session;
    sessionChanged();
    refresh();
}

QString RequestDialog::statusText() const
{
    return m_status->text();
}

QString RequestDialog::resultText() const
{
    return m_result->text();
}

QDialogButtonBox *RequestDialog::createButtons(QLabel *refusalLine, const QList<QPushButton *> &extra)
{
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    for (QPushButton *button : extra)
        buttons->addButton(button, QDialogButtonBox::ActionRole);
    buttons->addButton(m_ask, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_ask, &QPushButton::clicked, this, [this, refusalLine] {
        // What is typed is what is asked: commit every field's text, or name the one refused.
        if (const QString refusal = m_typedInput->commit(); !refusal.isEmpty()) {
            refusalLine->setText(refusal);
            return;
        }
        if (auto r = request())
            Q_EMIT askRequested(*r);
    });
    return buttons;
}

void RequestDialog::finishConstruction(QSize preferred)
{
    resizeWithinScreen(this, preferred);
    m_typedInput = new TypedInput(this);
    refresh();
}

} // namespace pbx::ui
