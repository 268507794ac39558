// SPDX-License-Identifier: MIT
#include "ui/help/glossarylinks.h"

#include "ui/help/glossary.h"
#include "ui/help/glossarydialog.h"

#include <QDesktopServices>
#include <QLabel>
#include <QRegularExpression>
#include <QSet>
#include <QTextBrowser>
#include <QTextDocument>
#include <QUrl>

#include <algorithm>

#include <vector>

namespace pbx::ui {

namespace {

/// The words that name each glossary entry, as regular expressions. Order matters: at one
/// position the first alternative wins, so longer phrases come before their parts ("parallel
/// composition" before "composition").
struct Term
{
    const char *anchor;
    const char *pattern;
};

constexpr Term kTerms[] = {
    {"dp", "differential privacy|differentially private"},
    {"parallel", "parallel composition"},
    {"post-processing", "post-processing"},
    {"noise-reduction", "noise[ -]reduction"},
    {"pld", "privacy-loss distributions?|PLDs?"},
    {"expost", "ex-post"},
    {"accuracy-target", "accuracy targets?"},
    {"neighbouring", "neighbouring relation|neighbouring datasets?|add/remove|replace-one"},
    {"subsampling", "amplification by subsampling|subsampling|subsampled"},
    {"composition", "(?:basic |advanced |optimal )?composition"},
    {"rdp", "Rényi DP|Rényi differential privacy|RDP"},
    {"rho", "zCDP|ρ"},
    {"epsilon", "ε"},
    {"delta", "δ"},
    {"sensitivity", "sensitivity|sensitivities"},
    {"laplace", "Laplace"},
    {"gaussian", "Gaussian"},
    {"odometer", "(?:privacy )?odometers?"},
    {"filter", "(?:privacy )?filters?"},
    {"doubling", "doubling"},
};

/// One expression with a capture group per term, in kTerms' order; a match's
/// lastCapturedIndex() - 1 is the term's index.
const QRegularExpression &termExpression()
{
    static const QRegularExpression expression = [] {
        QStringList groups;
        for (const Term &term : kTerms)
            groups << QStringLiteral("(%1)").arg(QString::fromUtf8(term.pattern));
        // Whole words only: a letter, digit, underscore, hyphen or slash on either side makes the
        // match part of a longer word or name ("brownian-zCDP", "ε_e", "ε₁").
        return QRegularExpression(QStringLiteral("(?<![\\w\\-/])(?:%1)(?![\\w\\-/])").arg(groups.join(u'|')),
                                  QRegularExpression::CaseInsensitiveOption
                                      | QRegularExpression::UseUnicodePropertiesOption);
    }();
    return expression;
}

/// Links the not yet linked terms of one run of text (no tags; entities are left intact, since
/// no term contains '&' or ';').
QString linkText(const QString &text, QSet<int> &linked)
{
    QString out;
    qsizetype done = 0;
    QRegularExpressionMatchIterator it = termExpression().globalMatch(text);
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        const int term = match.lastCapturedIndex() - 1;
        if (term < 0 || linked.contains(term))
            continue;
        linked.insert(term);
        out += text.mid(done, match.capturedStart() - done);
        out += QStringLiteral("<a href=\"glossary:%1\">%2</a>")
                   .arg(QString::fromUtf8(kTerms[term].anchor), match.captured());
        done = match.capturedEnd();
    }
    out += text.mid(done);
    return out;
}

} // namespace

QString linkGlossaryTerms(const QString &html)
{
    static const QRegularExpression tag(QStringLiteral("<[^>]*>"));
    static const QRegularExpression tagName(QStringLiteral("^<\\s*(/?)\\s*([a-zA-Z0-9]+)"));
    QSet<int> linked;
    QString out;
    out.reserve(html.size() + 256);
    // Inside a link, a style sheet or the head the text is not prose.
    int skipDepth = 0;
    qsizetype done = 0;
    QRegularExpressionMatchIterator it = tag.globalMatch(html);
    const auto text = [&](qsizetype end) {
        const QString run = html.mid(done, end - done);
        out += skipDepth > 0 ? run : linkText(run, linked);
    };
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        text(match.capturedStart());
        const QString element = match.captured();
        const QRegularExpressionMatch name = tagName.match(element);
        if (name.hasMatch()) {
            const QString tagLower = name.captured(2).toLower();
            if (tagLower == QLatin1String("a") || tagLower == QLatin1String("style")
                || tagLower == QLatin1String("head") || tagLower == QLatin1String("title")) {
                const bool closing = !name.captured(1).isEmpty();
                const bool selfClosing = element.endsWith(QLatin1String("/>"));
                if (closing)
                    skipDepth = std::max(0, skipDepth - 1);
                else if (!selfClosing)
                    ++skipDepth;
            }
        }
        out += element;
        done = match.capturedEnd();
    }
    text(html.size());
    return out;
}

QString linkGlossaryTermsInPlainText(const QString &text)
{
    return linkGlossaryTerms(text.toHtmlEscaped().replace(u'\n', QStringLiteral("<br>")));
}

void connectGlossaryLinks(QLabel *label)
{
    static const char *const connected = "pbxGlossaryLinks";
    if (label->property(connected).toBool())
        return;
    label->setProperty(connected, true);
    label->setOpenExternalLinks(false);
    label->setTextInteractionFlags(label->textInteractionFlags() | Qt::LinksAccessibleByMouse
                                   | Qt::LinksAccessibleByKeyboard);
    QObject::connect(label, &QLabel::linkActivated, label,
                     [label](const QString &link) { openGlossaryLink(link, label); });
}

void connectGlossaryLinks(QTextBrowser *browser)
{
    static const char *const connected = "pbxGlossaryLinks";
    if (browser->property(connected).toBool())
        return;
    browser->setProperty(connected, true);
    // openLinks would follow glossary: links as files; other links keep their behaviour.
    browser->setOpenLinks(false);
    QObject::connect(browser, &QTextBrowser::anchorClicked, browser, [browser](const QUrl &url) {
        if (!openGlossaryLink(url.toString(), browser) && browser->openExternalLinks())
            QDesktopServices::openUrl(url);
    });
}

void setGlossaryLinkedText(QLabel *label, const QString &html)
{
    label->setTextFormat(Qt::RichText);
    label->setText(linkGlossaryTerms(html));
    connectGlossaryLinks(label);
}

void setGlossaryLinkedPlainText(QLabel *label, const QString &text)
{
    label->setTextFormat(Qt::RichText);
    label->setText(linkGlossaryTermsInPlainText(text));
    connectGlossaryLinks(label);
}

void linkGlossaryTermsInLabels(QWidget *root, int minimumLength)
{
    for (QLabel *label : root->findChildren<QLabel *>()) {
        const QString text = label->text();
        const bool rich = label->textFormat() == Qt::RichText
                          || (label->textFormat() == Qt::AutoText && Qt::mightBeRichText(text));
        if (!rich || !label->wordWrap() || text.size() < minimumLength)
            continue;
        label->setText(linkGlossaryTerms(text));
        connectGlossaryLinks(label);
    }
}

QString plainTextOf(const QString &html)
{
    QTextDocument document;
    document.setHtml(html);
    return document.toPlainText();
}

} // namespace pbx::ui
