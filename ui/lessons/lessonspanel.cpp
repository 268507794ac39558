// SPDX-License-Identifier: MIT
#include "ui/lessons/lessonspanel.h"

#include "ui/help/glossarylinks.h"
#include "ui/lessons/lessonrunner.h"
#include "ui/mainwindow.h"
#include "ui/util/plaintext.h"
#include "ui/widgets/buttonrow.h"
#include "ui/widgets/wrappedheight.h"

#include <QDesktopServices>
#include <QDir>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollBar>
#include <QStackedWidget>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace pbx::ui {

LessonsPanel::LessonsPanel(MainWindow *window, QWidget *parent)
    : QWidget(parent), m_window(window), m_runner(new LessonRunner(window, this))
{
    m_pages = new QStackedWidget(this);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(m_pages);

    // The list of lessons.
    auto *listPage = new QWidget(m_pages);
    auto *listLayout = new QVBoxLayout(listPage);
    listLayout->setContentsMargins(0, 0, 0, 0);
    auto *intro = new QLabel(tr("Short guided tours: each step sets the app up, asks a question and reveals "
                                "the answer with the numbers the app has just computed. Your session is "
                                "put back when the lesson ends."),
                             listPage);
    m_intro = intro;
    intro->setObjectName(QStringLiteral("lessonsIntroduction"));
    intro->setWordWrap(true);
    keepWrappedHeight(intro);
    m_list = new QListWidget(listPage);
    m_list->setWordWrap(true);
    m_list->setAlternatingRowColors(true);
    m_summary = new QLabel(listPage);
    m_summary->setWordWrap(true);
    // Titles, summaries and errors come from lesson files: plain text, never HTML.
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setObjectName(QStringLiteral("lessonSummary"));
    m_summary->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    // The whole summary, however many lines it wraps to: the list gives up the room (a fixed
    // three lines cut longer summaries in presentation mode on a 1024-px projector).
    keepWrappedHeight(m_summary);
    m_listNote = new QLabel(listPage);
    m_listNote->setWordWrap(true);
    m_listNote->setTextFormat(Qt::PlainText);
    m_listNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    keepWrappedHeight(m_listNote);
    m_start = new QPushButton(tr("&Start lesson"), listPage);
    m_start->setDefault(true);
    auto *folder = new QPushButton(tr("Your lessons &folder"), listPage);
    folder->setToolTip(tr("Lessons you write (pbx-lesson JSON files) go into %1")
                           .arg(QDir::toNativeSeparators(userLessonFolder())));
    auto *reloadButton = new QPushButton(tr("&Reload"), listPage);
    // The button rows wrap in a narrow dock instead of widening it (at 1024 px the left column
    // took ~310 px and the query scrolled sideways, Ask cut at its edge).
    auto *listButtons = new ButtonRowLayout;
    listButtons->addWidget(m_start);
    listButtons->addTrailingBreak();
    listButtons->addWidget(folder);
    listButtons->addWidget(reloadButton);
    listLayout->addWidget(intro);
    listLayout->addWidget(m_list, 1);
    listLayout->addWidget(m_summary);
    listLayout->addWidget(m_listNote);
    listLayout->addLayout(listButtons);
    m_pages->addWidget(listPage);

    // One step.
    auto *stepPage = new QWidget(m_pages);
    auto *stepLayout = new QVBoxLayout(stepPage);
    stepLayout->setContentsMargins(0, 0, 0, 0);
    m_lessonTitle = new QLabel(stepPage);
    m_lessonTitle->setWordWrap(true);
    m_lessonTitle->setTextFormat(Qt::PlainText);
    QFont titleFont = m_lessonTitle->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
    m_lessonTitle->setFont(titleFont);
    m_progress = new QLabel(stepPage);
    m_text = new QTextBrowser(stepPage);
    m_text->setOpenExternalLinks(true);
    connectGlossaryLinks(m_text); // terms link to Help ▸ Glossary
    m_reveal = new QPushButton(tr("Reveal &answer"), stepPage);
    m_back = new QPushButton(tr("← &Back"), stepPage);
    m_next = new QPushButton(tr("&Next →"), stepPage);
    m_end = new QPushButton(tr("&End lesson"), stepPage);
    m_end->setToolTip(tr("Leave the lesson: your session and views are put back as they were"));
    auto *stepButtons = new ButtonRowLayout;
    stepButtons->addWidget(m_reveal);
    stepButtons->addTrailingBreak();
    stepButtons->addWidget(m_back);
    stepButtons->addWidget(m_next);
    auto *endRow = new QHBoxLayout;
    endRow->addWidget(m_progress);
    endRow->addStretch();
    endRow->addWidget(m_end);
    stepLayout->addWidget(m_lessonTitle);
    stepLayout->addLayout(endRow);
    stepLayout->addWidget(m_text, 1);
    stepLayout->addLayout(stepButtons);
    m_pages->addWidget(stepPage);

    connect(m_list, &QListWidget::currentRowChanged, this, &LessonsPanel::updateStartButton);
    connect(m_list, &QListWidget::itemActivated, this, [this] { startLesson(m_list->currentRow()); });
    connect(m_start, &QPushButton::clicked, this, [this] { startLesson(m_list->currentRow()); });
    connect(reloadButton, &QPushButton::clicked, this, [this] { reload(); });
    connect(folder, &QPushButton::clicked, this, [] {
        const QString path = userLessonFolder();
        QDir().mkpath(path);
        QDesktopServices::openUrl(QUrl::fromLocalFile(path));
    });
    connect(m_reveal, &QPushButton::clicked, this, &LessonsPanel::revealAnswer);
    connect(m_back, &QPushButton::clicked, this, &LessonsPanel::back);
    connect(m_next, &QPushButton::clicked, this, &LessonsPanel::next);
    connect(m_end, &QPushButton::clicked, this, &LessonsPanel::endLesson);
    connect(m_runner, &LessonRunner::stepApplied, this, &LessonsPanel::showStep);
    connect(m_runner, &LessonRunner::ended, this, [this] { m_pages->setCurrentIndex(0); });

    reload();
}

LessonsPanel::~LessonsPanel() = default;

void LessonsPanel::reload(const QString &userFolder)
{
    m_entries = loadLessonCatalog(userFolder);
    m_list->clear();
    int errors = 0;
    for (const auto &entry : std::as_const(m_entries)) {
        auto *item = new QListWidgetItem(m_list);
        if (entry.lesson) {
            item->setText(QString::fromStdString(entry.lesson->title));
            QFont font = item->font();
            font.setBold(true);
            item->setFont(font);
            item->setToolTip(entry.shipped ? tr("Shipped with the program")
                                           : plainToolTip(QDir::toNativeSeparators(entry.path)));
        } else {
            ++errors;
            item->setText(tr("Not a lesson: %1").arg(entry.error));
            item->setForeground(QColor(0xb0, 0x20, 0x20));
            item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
            item->setToolTip(plainToolTip(QDir::toNativeSeparators(entry.path)));
        }
    }
    m_listNote->setText(
        errors == 0
            ? QString()
            : (errors == 1
                   ? tr("A file in your lessons folder is not a lesson; the list says why.")
                   : tr("%1 files in your lessons folder are not lessons; the list says why.").arg(errors)));
    m_listNote->setVisible(errors > 0);
    for (int i = 0; i < m_entries.size(); ++i)
        if (m_entries[i].lesson) {
            m_list->setCurrentRow(i);
            break;
        }
    updateStartButton();
}

void LessonsPanel::updateStartButton()
{
    const int row = m_list->currentRow();
    const bool valid = row >= 0 && row < m_entries.size() && m_entries[row].lesson.has_value();
    m_start->setEnabled(valid);
    if (valid) {
        const auto &lesson = *m_entries[row].lesson;
        const int steps = static_cast<int>(lesson.steps.size());
        m_summary->setText(QStringLiteral("%1 (%2)").arg(
            QString::fromStdString(lesson.summary), steps == 1 ? tr("1 step") : tr("%1 steps").arg(steps)));
    } else {
        m_summary->clear();
    }
    fitWrappedHeight(m_summary); // a new text at the same width: no resize follows
}

bool LessonsPanel::startLesson(int index)
{
    if (index < 0 || index >= m_entries.size() || !m_entries[index].lesson)
        return false;
    auto started = m_runner->begin(*m_entries[index].lesson);
    if (!started.ok()) {
        m_listNote->setText(
            tr("The lesson could not start: %1").arg(QString::fromStdString(started.error().message)));
        m_listNote->setVisible(true);
        return false;
    }
    m_pages->setCurrentIndex(1);
    return true;
}

void LessonsPanel::back()
{
    if (m_runner->isRunning() && m_runner->currentStep() > 0)
        (void)m_runner->goTo(m_runner->currentStep() - 1);
}

void LessonsPanel::next()
{
    if (!m_runner->isRunning())
        return;
    const int last = static_cast<int>(m_runner->lesson()->steps.size()) - 1;
    if (m_runner->currentStep() >= last)
        endLesson();
    else
        (void)m_runner->goTo(m_runner->currentStep() + 1);
}

void LessonsPanel::revealAnswer()
{
    if (!m_runner->isRunning())
        return;
    m_shownAnswer = m_runner->answerText();
    m_reveal->setEnabled(false);
    renderStep();
    m_text->verticalScrollBar()->setValue(m_text->verticalScrollBar()->maximum());
}

void LessonsPanel::endLesson()
{
    m_runner->end();
    m_pages->setCurrentIndex(0);
    if (!m_runner->restoreError().isEmpty()) {
        m_listNote->setText(m_runner->restoreError());
        m_listNote->setVisible(true);
    }
}

bool LessonsPanel::answerRevealed() const
{
    return !m_shownAnswer.isEmpty();
}

QString LessonsPanel::progressText() const
{
    return m_progress->text();
}

QString LessonsPanel::questionText() const
{
    return m_question;
}

QString LessonsPanel::shownAnswerText() const
{
    return m_shownAnswer;
}

void LessonsPanel::showStep()
{
    const auto *lesson = m_runner->lesson();
    if (!lesson)
        return;
    const int index = m_runner->currentStep();
    const int count = static_cast<int>(lesson->steps.size());
    const auto &step = lesson->steps[static_cast<std::size_t>(index)];
    m_lessonTitle->setText(QString::fromStdString(lesson->title));
    m_progress->setText(tr("Step %1 of %2").arg(index + 1).arg(count));
    m_question = QString::fromStdString(step.question);
    m_shownAnswer.clear();
    renderStep();
    m_text->verticalScrollBar()->setValue(0);
    // A setup that failed says so at once: there is no answer to wait for.
    if (!m_runner->answerOk() && !m_runner->answerText().isEmpty())
        revealAnswer();
    else
        m_reveal->setEnabled(true);
    m_back->setEnabled(index > 0);
    m_next->setText(index + 1 < count ? tr("&Next →") : tr("&Finish"));
}

void LessonsPanel::renderStep()
{
    const auto *lesson = m_runner->lesson();
    if (!lesson)
        return;
    const auto &step = lesson->steps[static_cast<std::size_t>(m_runner->currentStep())];
    const auto paragraphs = [](const QString &text) {
        QString html;
        for (const QString &p : text.split(QStringLiteral("\n\n"), Qt::SkipEmptyParts))
            html += QStringLiteral("<p>%1</p>").arg(p.toHtmlEscaped().replace(u'\n', QStringLiteral("<br>")));
        return html;
    };
    QString html = QStringLiteral("<h3>%1</h3>").arg(QString::fromStdString(step.title).toHtmlEscaped());
    html += paragraphs(QString::fromStdString(step.explanation));
    html += QStringLiteral("<p><b>%1</b> %2</p>").arg(tr("Question:"), m_question.toHtmlEscaped());
    if (!m_shownAnswer.isEmpty()) {
        const QString colour = m_runner->answerOk() ? QStringLiteral("#e8f3e8") : QStringLiteral("#f8e0e0");
        html
            += QStringLiteral("<table width=\"100%\" cellpadding=\"6\" style=\"background-color:%1\"><tr><td>"
                              "<b>%2</b> %3</td></tr></table>")
                   .arg(colour, m_runner->answerOk() ? tr("Answer:") : tr("Problem:"),
                        m_shownAnswer.toHtmlEscaped());
    }
    m_text->setHtml(linkGlossaryTerms(html));
}

} // namespace pbx::ui
