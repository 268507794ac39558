// SPDX-License-Identifier: MIT
#include "ui/help/glossarydialog.h"

#include "ui/help/glossary.h"
#include "ui/widgets/screenfit.h"

#include <QLineEdit>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace pbx::ui {

GlossaryDialog::GlossaryDialog(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Glossary"));
    setObjectName(QStringLiteral("glossary"));
    m_search = new QLineEdit(this);
    m_search->setPlaceholderText(tr("Search the glossary"));
    m_search->setClearButtonEnabled(true);
    m_browser = new QTextBrowser(this);
    m_browser->setOpenLinks(false);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_search);
    layout->addWidget(m_browser);
    connect(m_search, &QLineEdit::textChanged, this, &GlossaryDialog::filter);
    // Entries link to each other with glossary: links too.
    connect(m_browser, &QTextBrowser::anchorClicked, this, [this](const QUrl &url) {
        if (url.scheme() == QLatin1String("glossary"))
            showTerm(url.path());
    });
    filter({});
    resizeWithinScreen(this, QSize(560, 520));
}

void GlossaryDialog::filter(const QString &text)
{
    if (text.isEmpty()) {
        m_browser->setHtml(glossaryHtml());
        return;
    }
    QString html;
    for (const GlossaryEntry &entry : glossaryEntries())
        if (entry.term.contains(text, Qt::CaseInsensitive)
            || entry.definition.contains(text, Qt::CaseInsensitive))
            html += QStringLiteral("<h3><a name=\"%1\"></a>%2</h3><p>%3<br><i>%4</i></p>")
                        .arg(entry.anchor, entry.term.toHtmlEscaped(), entry.definition,
                             entry.source.toHtmlEscaped());
    m_browser->setHtml(html.isEmpty() ? tr("<p>No term matches “%1”.</p>").arg(text.toHtmlEscaped()) : html);
}

bool GlossaryDialog::showTerm(const QString &anchor)
{
    if (!glossaryEntry(anchor))
        return false;
    if (!m_search->text().isEmpty())
        m_search->clear(); // the full glossary, so the anchor is there
    m_browser->scrollToAnchor(anchor);
    m_current = anchor;
    return true;
}

bool openGlossaryLink(const QString &link, QWidget *parent)
{
    if (!link.startsWith(QLatin1String("glossary:")))
        return false;
    QWidget *window = parent ? parent->window() : nullptr;
    auto *dialog = window ? window->findChild<GlossaryDialog *>(QStringLiteral("glossary")) : nullptr;
    if (!dialog)
        dialog = new GlossaryDialog(window);
    dialog->show();
    dialog->raise();
    dialog->showTerm(link.mid(static_cast<qsizetype>(sizeof("glossary:") - 1)));
    return true;
}

} // namespace pbx::ui
