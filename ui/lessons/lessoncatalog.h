// SPDX-License-Identifier: MIT
// The lessons the Lessons panel lists: the ones shipped in the program (resources/lessons/, as
// Qt resources under :/lessons) and the user's own, from the "lessons" folder of the application's
// data folder (QStandardPaths::AppDataLocation), so a teacher can add lessons without rebuilding.
// A file that cannot be read or is not a valid lesson is listed with its error, never skipped
// silently and never fatal.
#pragma once

#include "core/lessons/lesson.h"

#include <QList>
#include <QString>

#include <optional>

namespace pbx::ui {

struct LessonEntry
{
    QString path;                          ///< ":/lessons/01-….json" or the user's file
    bool shipped = false;                  ///< from the program, not the user's folder
    std::optional<lessons::Lesson> lesson; ///< set when the file is a valid lesson
    QString error;                         ///< otherwise: why not (names the file and the field)
};

/// The folder user lessons are read from: <AppDataLocation>/lessons (it need not exist).
QString userLessonFolder();

/// Reads one lesson file. Errors go into the entry (error names the file and the JSON field).
LessonEntry readLessonFile(const QString &path, bool shipped);

/// The shipped lessons in file-name order, then the user's *.json files in file-name order.
/// `userFolder` empty: userLessonFolder().
QList<LessonEntry> loadLessonCatalog(const QString &userFolder = {});

} // namespace pbx::ui
