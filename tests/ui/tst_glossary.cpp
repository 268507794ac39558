// SPDX-License-Identifier: MIT
// Help ▸ Glossary: every term the explanations use has an entry with a source, glossary: links
// open the entry, and search narrows the list.
#include "ui/help/glossary.h"
#include "ui/help/glossarydialog.h"
#include "ui/mainwindow.h"
#include "uitestutils.h"

#include <QAction>
#include <QLineEdit>
#include <QMenuBar>
#include <QSet>
#include <QTextBrowser>
#include <QtTest/QtTest>

using namespace pbx::ui;

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
