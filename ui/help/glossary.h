// SPDX-License-Identifier: MIT
// The glossary's terms: one short explanation of each word the app uses, with where it comes from.
#pragma once

#include <QString>
#include <vector>

namespace pbx::ui {

struct GlossaryEntry
{
    QString anchor;     ///< stable id for links: "glossary:epsilon"
    QString term;       ///< as shown, e.g. "ε (epsilon)"
    QString definition; ///< rich text, a few sentences
    QString source;     ///< the paper (author, year, result) the definition follows
};

/// Every glossary entry, in reading order (basic notions first).
const std::vector<GlossaryEntry> &glossaryEntries();

/// The entry with `anchor`, or nullptr.
const GlossaryEntry *glossaryEntry(const QString &anchor);

/// The glossary as one HTML document, each entry under <a name="ANCHOR">.
QString glossaryHtml();

} // namespace pbx::ui
