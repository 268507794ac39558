// SPDX-License-Identifier: MIT
// Help ▸ Glossary: every term the app uses, explained in a few sentences with its source. Labels
// elsewhere link to an entry with href="glossary:ANCHOR" (see openGlossaryLink).
#pragma once

#include <QDialog>

class QLineEdit;
class QTextBrowser;

namespace pbx::ui {

class GlossaryDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit GlossaryDialog(QWidget *parent = nullptr);

    /// Scrolls to the entry `anchor` (e.g. "epsilon"); false when there is none.
    bool showTerm(const QString &anchor);
    /// The entry last shown by showTerm (empty before).
    QString currentTerm() const { return m_current; }
    /// Shows only the entries whose term or text contains `text` (case-insensitive); all if empty.
    void filter(const QString &text);

    QTextBrowser *browser() const { return m_browser; }
    QLineEdit *searchField() const { return m_search; }

private:
    QLineEdit *m_search = nullptr;
    QTextBrowser *m_browser = nullptr;
    QString m_current;
};

/// Opens `link` if it is a glossary link ("glossary:epsilon") in the one glossary window of
/// `parent`'s top-level window (created on first use) and returns true; false for other links.
bool openGlossaryLink(const QString &link, QWidget *parent);

} // namespace pbx::ui
