// SPDX-License-Identifier: MIT
// Help ▸ Lessons: the list of lessons (shipped and the user's, with the errors of files that are
// not valid lessons) and, once one is started, its steps: the explanation, the question, "Reveal
// answer" (the numbers the app just computed, LessonRunner::answerText), Back / Next and "End
// lesson", which restores the app's state. Lives in a dock of the main window.
#pragma once

#include "ui/lessons/lessoncatalog.h"

#include <QWidget>

QT_FORWARD_DECLARE_CLASS(QLabel)
QT_FORWARD_DECLARE_CLASS(QListWidget)
QT_FORWARD_DECLARE_CLASS(QPushButton)
QT_FORWARD_DECLARE_CLASS(QStackedWidget)
QT_FORWARD_DECLARE_CLASS(QTextBrowser)

namespace pbx::ui {

class LessonRunner;
class MainWindow;

class LessonsPanel final : public QWidget
{
    Q_OBJECT
public:
    explicit LessonsPanel(MainWindow *window, QWidget *parent = nullptr);
    ~LessonsPanel() override;

    /// Reads the lesson list again (shipped lessons and the user's folder, or `userFolder`).
    void reload(const QString &userFolder = {});
    const QList<LessonEntry> &entries() const { return m_entries; }

    /// Starts the lesson of entry `index` (a valid one). False, with the reason shown, otherwise.
    bool startLesson(int index);
    /// Back / Next / Reveal answer / End lesson, as the buttons do.
    void back();
    void next();
    void revealAnswer();
    void endLesson();

    LessonRunner *runner() const { return m_runner; }
    bool answerRevealed() const;
    /// Plain texts of the step page, for tests: "Step 2 of 5", the question, the shown answer.
    QString progressText() const;
    QString questionText() const;
    QString shownAnswerText() const;
    QListWidget *lessonList() const { return m_list; }
    /// The list page's introduction ("Short guided tours: …"); the main window hides it where its
    /// column is too short for the list (MainWindow::fitDockHeights).
    QLabel *introduction() const { return m_intro; }
    QPushButton *nextButton() const { return m_next; }
    QPushButton *backButton() const { return m_back; }
    QPushButton *revealButton() const { return m_reveal; }

private:
    void showStep();
    void renderStep();
    void updateStartButton();

    MainWindow *m_window;
    LessonRunner *m_runner;
    QList<LessonEntry> m_entries;
    QStackedWidget *m_pages = nullptr;
    QListWidget *m_list = nullptr;
    QLabel *m_intro = nullptr;   ///< the list page's introduction
    QLabel *m_summary = nullptr; ///< the selected lesson's summary
    QLabel *m_listNote = nullptr;
    QPushButton *m_start = nullptr;
    QLabel *m_lessonTitle = nullptr;
    QLabel *m_progress = nullptr;
    /// The step's title, explanation, question and (once revealed) answer, in one scrolling text
    /// so that nothing is cut off in a short window.
    QTextBrowser *m_text = nullptr;
    QPushButton *m_reveal = nullptr;
    QString m_question;
    QString m_shownAnswer; ///< empty until revealed
    QPushButton *m_back = nullptr;
    QPushButton *m_next = nullptr;
    QPushButton *m_end = nullptr;
};

} // namespace pbx::ui
