// SPDX-License-Identifier: MIT
// Text read from files (dataset metadata, lessons, transcripts, error messages quoting them) is
// shown as plain text: Qt renders a QLabel's or a tooltip's text as HTML whenever it looks like
// HTML (Qt::mightBeRichText), so a name of 18 nested <table>s would hang the widget and <img>,
// links or <h1> would spoof the display. Labels take Qt::PlainText; tooltips take this.
#pragma once

#include <QString>
#include <QTextDocument>

namespace pbx::ui {

/// A tooltip that shows `text` verbatim (escaped, in one paragraph; empty stays empty).
inline QString plainToolTip(const QString &text)
{
    return text.isEmpty() ? QString() : Qt::convertFromPlainText(text, Qt::WhiteSpaceNormal);
}

} // namespace pbx::ui
