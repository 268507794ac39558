// SPDX-License-Identifier: MIT
// Help ▸ Glossary: every term the explanations use has an entry with a source, glossary: links
// open the entry, and search narrows the list. The explanation panels (result card, privacy
// settings, noise reduction, comparison, the labs) link their terms into it, and activating a link
// opens the glossary at that entry.
#include "core/session/session.h"
#include "ui/comparison/comparisonview.h"
#include "ui/growing/growinglabdialog.h"
#include "ui/help/glossary.h"
#include "ui/help/glossarydialog.h"
#include "ui/help/glossarylinks.h"
#include "ui/lab/labdialog.h"
#include "ui/mainwindow.h"
#include "ui/odp/odplabdialog.h"
#include "ui/panels/querybuilder.h"
#include "ui/strategies/strategieslabdialog.h"
#include "ui/widgets/resultcard.h"
#include "uitestutils.h"

#include <QAction>
#include <QDirIterator>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPushButton>
#include <QSet>
#include <QTextBrowser>
#include <QtTest/QtTest>

using namespace pbx::ui;

namespace {

/// The glossary: links in `html`, in order ("glossary:rho", …).
QStringList glossaryLinks(const QString &html)
{
    static const QRegularExpression href(QStringLiteral("href=\"(glossary:[a-z-]+)\""));
    QStringList links;
    for (auto it = href.globalMatch(html); it.hasNext();)
        links << it.next().captured(1);
    return links;
}

/// The labels under `root` that link a glossary term.
QList<QLabel *> linkingLabels(QWidget &root)
{
    QList<QLabel *> labels;
    for (QLabel *label : root.findChildren<QLabel *>())
        if (!glossaryLinks(label->text()).isEmpty())
            labels << label;
    return labels;
}

/// Activates the first glossary link of `label` as a click would, and checks that the glossary
/// opened at that entry in `label`'s window.
void activateFirstLink(QLabel *label)
{
    const QString link = glossaryLinks(label->text()).value(0);
    QVERIFY(!link.isEmpty());
    emit label->linkActivated(link);
    auto *dialog = label->window()->findChild<GlossaryDialog *>(QStringLiteral("glossary"));
    QVERIFY2(dialog && dialog->isVisible(), qPrintable(link));
    QCOMPARE(QStringLiteral("glossary:") + dialog->currentTerm(), link);
    dialog->close();
}

/// The string literals of C++ source `text`, adjacent literals joined ("a " "b" → "a b");
/// comments skipped. Escapes are kept as written.
QStringList stringLiterals(const QString &text)
{
    QStringList literals;
    QString current;
    bool joining = false; // a literal ended and only spaces followed so far
    const qsizetype n = text.size();
    for (qsizetype i = 0; i < n;) {
        const QChar c = text[i];
        if (c == u'/' && i + 1 < n && text[i + 1] == u'/') {
            i = text.indexOf(u'\n', i);
            if (i < 0)
                break;
            continue;
        }
        if (c == u'/' && i + 1 < n && text[i + 1] == u'*') {
            i = text.indexOf(QStringLiteral("*/"), i + 2);
            if (i < 0)
                break;
            i += 2;
            continue;
        }
        if (c == u'\'') { // a character literal: '"' is not a string
            ++i;
            while (i < n && text[i] != u'\'')
                i += text[i] == u'\\' ? 2 : 1;
            ++i;
            continue;
        }
        if (c == u'"') {
            if (!joining && !current.isEmpty()) {
                literals << current;
                current.clear();
            }
            if (i > 0 && text[i - 1] == u'R') { // R"delim( … )delim"
                const qsizetype open = text.indexOf(u'(', i);
                const QString close = u')' + text.mid(i + 1, open - i - 1) + u'"';
                const qsizetype end = text.indexOf(close, open);
                current += text.mid(open + 1, end - open - 1);
                i = end + close.size();
            } else {
                ++i;
                while (i < n && text[i] != u'"') {
                    if (text[i] == u'\\')
                        current += text[i++];
                    current += text[i++];
                }
                ++i;
            }
            joining = true;
            continue;
        }
        if (!c.isSpace())
            joining = false;
        ++i;
    }
    if (!current.isEmpty())
        literals << current;
    return literals;
}

} // namespace

class TestGlossary : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyTermTheAppUsesIsThere()
    {
        QSet<QString> anchors;
        for (const GlossaryEntry &entry : glossaryEntries()) {
            QVERIFY2(!anchors.contains(entry.anchor), qPrintable(entry.anchor));
            anchors.insert(entry.anchor);
            QVERIFY(!entry.term.isEmpty());
            QVERIFY2(entry.definition.size() > 80, qPrintable(entry.anchor));
            QVERIFY2(entry.source.contains(QRegularExpression(QStringLiteral("\\b(19|20)\\d\\d\\b"))),
                     qPrintable(entry.anchor + QStringLiteral(": the source names a paper and its year")));
        }
        for (const char *term : {"epsilon", "delta", "rho", "rdp", "pld", "filter", "odometer", "expost",
                                 "noise-reduction", "neighbouring", "sensitivity", "composition"})
            QVERIFY2(anchors.contains(QString::fromLatin1(term)), term);
        QVERIFY(glossaryEntry(QStringLiteral("pld")) != nullptr);
        QVERIFY(glossaryEntry(QStringLiteral("no-such-term")) == nullptr);
    }

    void linksOpenTheEntry()
    {
        QWidget window;
        QVERIFY(!openGlossaryLink(QStringLiteral("https://example.org"), &window));
        QVERIFY(openGlossaryLink(QStringLiteral("glossary:rho"), &window));
        auto *dialog = window.findChild<GlossaryDialog *>(QStringLiteral("glossary"));
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        QVERIFY(dialog->browser()->toHtml().contains(QStringLiteral("name=\"rho\"")));
        // A second link reuses the same window.
        QVERIFY(openGlossaryLink(QStringLiteral("glossary:pld"), &window));
        QCOMPARE(window.findChildren<GlossaryDialog *>().size(), 1);
        QVERIFY(!dialog->showTerm(QStringLiteral("no-such-term")));
        QVERIFY(dialog->grab().save(pbx::test::screenshotDir() + QStringLiteral("/glossary.png")));
    }

    void searchNarrowsTheList()
    {
        GlossaryDialog dialog;
        const int all = static_cast<int>(glossaryEntries().size());
        dialog.searchField()->setText(QStringLiteral("Rényi"));
        const QString html = dialog.browser()->toHtml();
        QVERIFY(html.contains(QStringLiteral("name=\"rdp\"")));
        QVERIFY(!html.contains(QStringLiteral("name=\"odometer\"")));
        QVERIFY(html.count(QStringLiteral("<h3")) < all);
        dialog.searchField()->setText(QStringLiteral("zzzz"));
        QVERIFY(dialog.browser()->toPlainText().contains(QStringLiteral("No term matches")));
        // showTerm clears the search so the entry is there to scroll to.
        QVERIFY(dialog.showTerm(QStringLiteral("epsilon")));
        QVERIFY(dialog.searchField()->text().isEmpty());
        QCOMPARE(dialog.browser()->toHtml().count(QStringLiteral("<h3")), all);
    }

    void linksTheFirstOccurrenceOfEachTerm()
    {
        const QString html = linkGlossaryTerms(
            QStringLiteral("<p>Budget <b>ρ = 0.5</b>: the ρ spent by the <i>zCDP filter</i>, "
                           "<span title='ε and δ'>at δ = 1e-6</span>; brownian-zCDP and ε_e are names. "
                           "See <a href='x'>noise reduction</a>, then noise reduction and ex-post.</p>"));
        QCOMPARE(glossaryLinks(html),
                 QStringList({QStringLiteral("glossary:rho"), QStringLiteral("glossary:filter"),
                              QStringLiteral("glossary:delta"), QStringLiteral("glossary:noise-reduction"),
                              QStringLiteral("glossary:expost")}));
        // The first ρ is linked, the second not; "zCDP" is the ρ entry too, so not linked again.
        QVERIFY(html.contains(QStringLiteral("<b><a href=\"glossary:rho\">ρ</a> = 0.5</b>")));
        QVERIFY(html.contains(QStringLiteral("the ρ spent")));
        // Attributes and existing links are left alone; the next occurrence outside the link is linked.
        QVERIFY(html.contains(QStringLiteral("title='ε and δ'")));
        QVERIFY(html.contains(QStringLiteral("<a href='x'>noise reduction</a>")));
        QVERIFY(
            html.contains(QStringLiteral("then <a href=\"glossary:noise-reduction\">noise reduction</a>")));
        // Every link names an entry that exists.
        for (const QString &link : glossaryLinks(html))
            QVERIFY2(glossaryEntry(link.mid(9)), qPrintable(link));
        // Plain text is escaped first.
        QCOMPARE(linkGlossaryTermsInPlainText(QStringLiteral("a < b, PLD")),
                 QStringLiteral("a &lt; b, <a href=\"glossary:pld\">PLD</a>"));
        QCOMPARE(plainTextOf(linkGlossaryTermsInPlainText(QStringLiteral("Laplace at ε = 1"))),
                 QStringLiteral("Laplace at ε = 1"));
    }

    void mainWindowPanelsLinkTheirTerms()
    {
        MainWindow w;
        w.resize(1400, 900);
        QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
        pbx::session::SessionSettings settings;
        settings.seed = 7;
        QVERIFY(w.startNewSession(settings).ok());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // The privacy settings' budget line: ρ, ε, δ.
        QList<QLabel *> before = linkingLabels(w);
        QVERIFY(!before.isEmpty());
        // Ask a count: the result card explains the release with linked terms.
        QueryBuilder *builder = w.queryBuilder();
        builder->setAggregate(pbx::data::Aggregate::Count);
        builder->setAbsoluteTarget(200.0);
        QTest::mouseClick(builder->askButton(), Qt::LeftButton);
        QCOMPARE(w.resultCard()->state(), ResultCard::State::Released);
        QLabel *details = nullptr;
        for (QLabel *label : w.resultCard()->findChildren<QLabel *>())
            if (glossaryLinks(label->text()).contains(QStringLiteral("glossary:rho")))
                details = label;
        QVERIFY2(details, "the result card links ρ");
        // details() is what a reader sees: no markup.
        QVERIFY(!w.resultCard()->details().contains(QStringLiteral("glossary:")));
        QVERIFY(w.resultCard()->details().contains(QStringLiteral("ρ")));
        activateFirstLink(details);
        // The noise-reduction view and the settings panel link too.
        QStringList all;
        for (QLabel *label : linkingLabels(w))
            all << glossaryLinks(label->text());
        QVERIFY2(all.contains(QStringLiteral("glossary:delta")), qPrintable(all.join(u' ')));
        // Looked at on a small and a large screen.
        for (const QSize size : {QSize(1024, 700), QSize(1600, 1000)}) {
            w.resize(size);
            const QString name
                = QStringLiteral("glossary-links-mainwindow-%1x%2").arg(size.width()).arg(size.height());
            QVERIFY(!pbx::test::saveScreenshot(w, name).isEmpty());
        }
    }

    void comparisonExplanationLinksItsTerms()
    {
        ComparisonView view;
        auto *browser = view.findChild<QTextBrowser *>(QStringLiteral("strategyExplanation"));
        QVERIFY(browser);
        view.selectStrategy(QStringLiteral("rdp"));
        const QStringList links = glossaryLinks(browser->toHtml());
        QVERIFY2(links.contains(QStringLiteral("glossary:rdp")), qPrintable(links.join(u' ')));
        // A click opens the glossary at the entry (QTextBrowser's anchorClicked).
        emit browser->anchorClicked(QUrl(QStringLiteral("glossary:rdp")));
        auto *dialog = view.findChild<GlossaryDialog *>(QStringLiteral("glossary"));
        QVERIFY(dialog && dialog->isVisible());
        QCOMPARE(dialog->currentTerm(), QStringLiteral("rdp"));
    }

    void labsLinkTheirTerms()
    {
        LabDialog relativeError;
        StrategiesLabDialog strategies;
        OdpLabDialog odp;
        GrowingLabDialog growing;
        for (QDialog *lab : std::initializer_list<QDialog *>{&relativeError, &strategies, &odp, &growing}) {
            const QList<QLabel *> labels = linkingLabels(*lab);
            QVERIFY2(!labels.isEmpty(), qPrintable(lab->windowTitle()));
            lab->show();
            QVERIFY(!pbx::test::saveScreenshot(*lab, QStringLiteral("glossary-links-")
                                                         + QString::fromLatin1(lab->metaObject()->className())
                                                               .section(QStringLiteral("::"), -1))
                         .isEmpty());
            activateFirstLink(labels.first());
            lab->hide();
        }
    }

    /// Users never need a file they do not have: no user-visible string (GUI, CLI, reports, error
    /// messages: every string literal in app/, ui/ and core/) names a docs/ file or a bare
    /// "§ 7.2" / "Theorem 3"; a section or result is cited with its paper ("Rogers et al. 2023,
    /// Theorem 3").
    void noStringPointsToAFileOrABareResult()
    {
        static const QRegularExpression file(QStringLiteral("\\.md\\b|docs/"));
        static const QRegularExpression result(
            QStringLiteral("§\\s*\\d|\\b(?:Theorem|Lemma|Corollary|Proposition|Definition|Section)\\s+\\d"));
        // ("Algorithm 1" and "2" name the two procedures of the strategies lab's BMI example,
        // defined where they are used.)
        // Pieces of a citation joined at run time after "output DP (Hartmann et al. 2023, "
        // (core/session/odp/odp_release.cpp: odpSource and the ODP accounting line).
        const QStringList joinedAfterTheirPaper{
            QStringLiteral("Definition 9, Lemmas 6 and 10"), QStringLiteral("Lemma 11"),
            QStringLiteral("Algorithm 5, Theorem 17"), QStringLiteral("Lemma 8"),
            QStringLiteral(", Theorem 7): reserved ε = ")};
        static const QRegularExpression year(QStringLiteral("\\b(?:19|20)\\d\\d\\b"));
        // Where the citation of a result may start: the last opening parenthesis, sentence end or
        // list separator before it ("et al. 2023" keeps its year: ". " then the year).
        static const QRegularExpression citationStart(QStringLiteral("[(;]|\\.\\s(?!\\s*(?:19|20)\\d\\d)"));
        QStringList offenders;
        int scanned = 0;
        for (const char *folder : {"app", "ui", "core"}) {
            QDirIterator it(QStringLiteral(PBX_SOURCE_DIR "/") + QLatin1String(folder),
                            {QStringLiteral("*.cpp"), QStringLiteral("*.h")}, QDir::Files,
                            QDirIterator::Subdirectories);
            while (it.hasNext()) {
                QFile source(it.next());
                QVERIFY(source.open(QIODevice::ReadOnly));
                const QString path = source.fileName().mid(QStringLiteral(PBX_SOURCE_DIR).size() + 1);
                for (const QString &literal : stringLiterals(QString::fromUtf8(source.readAll()))) {
                    ++scanned;
                    if (path == QStringLiteral("core/session/odp/odp_release.cpp")
                        && joinedAfterTheirPaper.contains(literal))
                        continue;
                    if (literal.contains(file))
                        offenders << path + QStringLiteral(": ") + literal.left(160);
                    for (auto match = result.globalMatch(literal); match.hasNext();) {
                        const qsizetype at = match.next().capturedStart();
                        const QString before = literal.left(at);
                        qsizetype from = 0;
                        for (auto cut = citationStart.globalMatch(before); cut.hasNext();)
                            from = cut.next().capturedEnd();
                        if (!before.mid(from).contains(year))
                            offenders << path + QStringLiteral(": ")
                                             + literal.mid(std::max<qsizetype>(0, at - 60), 140);
                    }
                }
            }
        }
        QVERIFY(scanned > 5000);
        QVERIFY2(offenders.isEmpty(), qPrintable(QStringLiteral("\n") + offenders.join(u'\n')));
        // The scanner itself: joined literals, comments skipped, a cited result passes.
        QCOMPARE(stringLiterals(QStringLiteral("f(\"a \" // \"no\"\n \"b\"); /* \"c\" */ g('\"');")),
                 QStringList{QStringLiteral("a b")});
    }

    void helpMenuOpensIt()
    {
        MainWindow w;
        QAction *glossary = nullptr;
        for (QAction *menu : w.menuBar()->actions())
            if (menu->menu())
                for (QAction *action : menu->menu()->actions())
                    if (action->text().remove(QLatin1Char('&')) == QStringLiteral("Glossary"))
                        glossary = action;
        QVERIFY(glossary);
        glossary->trigger();
        auto *dialog = w.findChild<GlossaryDialog *>(QStringLiteral("glossary"));
        QVERIFY(dialog && dialog->isVisible());
    }
};

QTEST_MAIN(TestGlossary)
#include "tst_glossary.moc"
