// SPDX-License-Identifier: MIT
// Links from the explanation panels into Help ▸ Glossary: the first occurrence of each glossary
// term in a rich text becomes <a href="glossary:ANCHOR">, and a label or text browser showing such
// text opens the glossary at that entry when a link is activated (openGlossaryLink).
#pragma once

#include <QString>

class QLabel;
class QWidget;
class QTextBrowser;

namespace pbx::ui {

/// `html` (Qt rich text) with the first occurrence of each glossary term linked to its entry,
/// e.g. "the ρ spent" → "the <a href="glossary:rho">ρ</a> spent". Only text between tags is
/// searched, never tag names, attributes or the text of an existing link; a term matches as a
/// whole word (case-insensitive; "brownian-zCDP" is a name, not the term zCDP). Terms and their
/// entries: ui/help/glossary.cpp.
QString linkGlossaryTerms(const QString &html);

/// `text` (plain) escaped as HTML with its glossary terms linked.
QString linkGlossaryTermsInPlainText(const QString &text);

/// Makes `label` open glossary: links in Help ▸ Glossary (other links are left to its own
/// handlers). Idempotent: a label is connected once.
void connectGlossaryLinks(QLabel *label);
/// The same for a text browser (its anchorClicked).
void connectGlossaryLinks(QTextBrowser *browser);

/// Sets `label`'s rich text to `html` with the glossary terms linked, and connects the links.
void setGlossaryLinkedText(QLabel *label, const QString &html);
/// The same for plain `text` (escaped; line breaks kept).
void setGlossaryLinkedPlainText(QLabel *label, const QString &text);

/// Links the glossary terms of every word-wrapped rich-text QLabel under `root` whose text has at
/// least `minimumLength` characters (the explanations of a dialog, not its field labels), as set
/// now; labels whose text is set later link it themselves (setGlossaryLinkedText). Plain-text
/// labels are left alone, so their later texts are not read as HTML.
void linkGlossaryTermsInLabels(QWidget *root, int minimumLength = 80);

/// The plain text of rich text `html` (what a reader sees; links and tags dropped).
QString plainTextOf(const QString &html);

} // namespace pbx::ui
