// SPDX-License-Identifier: MIT
#include "ui/lessons/lessoncatalog.h"

#include "core/lessons/lesson_json.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

namespace pbx::ui {

namespace {
/// Lessons are small; a larger file is refused before it is read (it would only freeze the list).
constexpr qint64 kMaxLessonBytes = 1 << 20;
} // namespace

QString userLessonFolder()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
        .filePath(QStringLiteral("lessons"));
}

LessonEntry readLessonFile(const QString &path, bool shipped)
{
    LessonEntry entry;
    entry.path = path;
    entry.shipped = shipped;
    const QString name = QFileInfo(path).fileName();
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        entry.error = QObject::tr("%1: cannot be read (%2)").arg(name, file.errorString());
        return entry;
    }
    if (file.size() > kMaxLessonBytes) {
        entry.error = QObject::tr("%1: larger than 1 MiB, not a lesson").arg(name);
        return entry;
    }
    const QByteArray bytes = file.readAll();
    auto lesson = lessons::parseLesson(
        std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())), name.toStdString());
    if (!lesson.ok())
        entry.error = QString::fromStdString(lesson.error().message);
    else
        entry.lesson = std::move(lesson).value();
    return entry;
}

QList<LessonEntry> loadLessonCatalog(const QString &userFolder)
{
    QList<LessonEntry> entries;
    const QStringList filters{QStringLiteral("*.json")};
    const QDir shipped(QStringLiteral(":/lessons"));
    for (const QString &name : shipped.entryList(filters, QDir::Files, QDir::Name))
        entries << readLessonFile(shipped.filePath(name), true);
    const QDir user(userFolder.isEmpty() ? userLessonFolder() : userFolder);
    if (user.exists())
        for (const QString &name : user.entryList(filters, QDir::Files | QDir::Readable, QDir::Name))
            entries << readLessonFile(user.filePath(name), false);
    return entries;
}

} // namespace pbx::ui
