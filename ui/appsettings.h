// SPDX-License-Identifier: MIT
// What the GUI remembers between runs, as desktop applications do: the main window's geometry and
// dock layout, the last dataset opened, the recently opened or saved sessions and display choices
// such as presentation mode. Stored with QSettings under the application's identity
// (~/.config/pbx/pbx.conf on Linux). Nothing here is privacy-relevant: paths, layout and display
// only, never data or answers.
#pragma once

#include <QStringList>

QT_FORWARD_DECLARE_CLASS(QMainWindow)

namespace pbx::ui {

class AppSettings
{
public:
    /// How many recent sessions File ▸ Open Recent lists.
    static constexpr int maxRecentSessions = 10;

    /// The dataset last opened: an embedded dataset's name or a CSV file's absolute path; empty
    /// when none was recorded.
    static QString lastDataset();
    /// Records `nameOrPath` (a relative CSV path is made absolute, so it still opens from
    /// elsewhere).
    static void setLastDataset(const QString &nameOrPath);

    /// Recently opened or saved session files (transcripts or journals), newest first, absolute
    /// paths, at most maxRecentSessions, only files that still exist.
    static QStringList recentSessions();
    /// Puts `path` (made absolute) first, dropping an older entry for the same file.
    static void addRecentSession(const QString &path);
    static void removeRecentSession(const QString &path);
    static void clearRecentSessions();

    /// The folder a file dialog starts in when no document suggests one: the folder of the last
    /// file opened or saved, else the user's Documents folder, else home — always one that exists
    /// (a missing folder would be pre-filled as a file name).
    static QString startFolder();
    /// Records the folder of `filePath` for startFolder().
    static void setLastFolderFrom(const QString &filePath);

    /// The folder the last session report was written to (File ▸ Export report…), if it still
    /// exists; empty otherwise.
    static QString lastReportFolder();
    /// Records the folder of `reportPath` for lastReportFolder().
    static void setLastReportFolderFrom(const QString &reportPath);

    /// Ask asks for confirmation when a request would spend more than this share of what remains
    /// (Query ▸ Confirm expensive requests…). A fraction in [0.01, 1]; 1 never asks (a request
    /// above 100 % is refused anyway). Default 0.25.
    static double confirmCostShare();
    /// Stores `share` clamped to [0.01, 1].
    static void setConfirmCostShare(double share);

    /// The first-run welcome that offers the lessons (Help ▸ Lessons) was shown: it is shown once.
    static bool lessonsWelcomeShown();
    static void setLessonsWelcomeShown(bool shown);

    /// View ▸ Presentation mode (larger fonts and chart lines, ui/charts/presentation.h) was on
    /// when the application last ran. Default off.
    static bool presentationMode();
    static void setPresentationMode(bool on);

    /// Saves the window's geometry and its toolbars' and docks' layout.
    static void saveWindowLayout(const QMainWindow &window);
    /// Restores what saveWindowLayout saved. False when nothing was saved, it did not apply, or it
    /// was saved at a size that does not fit the window's screen now (then the window keeps its
    /// default layout, sized for this screen).
    static bool restoreWindowLayout(QMainWindow &window);
};

} // namespace pbx::ui
