// SPDX-License-Identifier: MIT
#include "ui/appsettings.h"

#include "resources/dataset_catalog.h"
#include "ui/util/numberformat.h"

#include <QDir>
#include <QFileInfo>
#include <QMainWindow>
#include <QScreen>
#include <QSettings>

#include <QStandardPaths>
#include <algorithm>

namespace pbx::ui {

namespace {

const QString lastDatasetKey = QStringLiteral("datasets/last");
const QString recentSessionsKey = QStringLiteral("sessions/recent");
const QString geometryKey = QStringLiteral("mainWindow/geometry");
const QString stateKey = QStringLiteral("mainWindow/state");
/// The window's normal (not maximised) size when the layout was saved, so a layout saved on a
/// bigger screen is not restored on a smaller one.
const QString normalSizeKey = QStringLiteral("mainWindow/normalSize");
// Bump when the docks change so that an old saved layout is not applied to new docks.
constexpr int layoutVersion = 1;

bool isEmbeddedDataset(const QString &name)
{
    for (const auto &embedded : resources::embeddedDatasetNames())
        if (toQString(embedded) == name)
            return true;
    return false;
}

} // namespace

QString AppSettings::startFolder()
{
    const QStringList candidates{QSettings().value(QStringLiteral("files/lastFolder")).toString(),
                                 QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation)};
    for (const QString &folder : candidates)
        if (!folder.isEmpty() && QFileInfo(folder).isDir())
            return folder;
    return QDir::homePath();
}

void AppSettings::setLastFolderFrom(const QString &filePath)
{
    QSettings().setValue(QStringLiteral("files/lastFolder"), QFileInfo(filePath).absolutePath());
}

QString AppSettings::lastReportFolder()
{
    const QString folder = QSettings().value(QStringLiteral("files/lastReportFolder")).toString();
    return !folder.isEmpty() && QFileInfo(folder).isDir() ? folder : QString();
}

void AppSettings::setLastReportFolderFrom(const QString &reportPath)
{
    QSettings().setValue(QStringLiteral("files/lastReportFolder"), QFileInfo(reportPath).absolutePath());
}

QString AppSettings::lastDataset()
{
    return QSettings().value(lastDatasetKey).toString();
}

void AppSettings::setLastDataset(const QString &nameOrPath)
{
    const QString stored
        = isEmbeddedDataset(nameOrPath) ? nameOrPath : QFileInfo(nameOrPath).absoluteFilePath();
    QSettings().setValue(lastDatasetKey, stored);
}

QStringList AppSettings::recentSessions()
{
    QStringList existing;
    for (const QString &path : QSettings().value(recentSessionsKey).toStringList())
        if (QFileInfo::exists(path) && !existing.contains(path) && existing.size() < maxRecentSessions)
            existing << path;
    return existing;
}

void AppSettings::addRecentSession(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = QSettings().value(recentSessionsKey).toStringList();
    list.removeAll(absolute);
    list.prepend(absolute);
    while (list.size() > maxRecentSessions)
        list.removeLast();
    QSettings().setValue(recentSessionsKey, list);
}

void AppSettings::removeRecentSession(const QString &path)
{
    QStringList list = QSettings().value(recentSessionsKey).toStringList();
    list.removeAll(QFileInfo(path).absoluteFilePath());
    QSettings().setValue(recentSessionsKey, list);
}

void AppSettings::clearRecentSessions()
{
    QSettings().remove(recentSessionsKey);
}

namespace {
bool fitsInside(QSize size, QSize available)
{
    return size.width() <= available.width() && size.height() <= available.height();
}
} // namespace

void AppSettings::saveWindowLayout(const QMainWindow &window)
{
    QSettings settings;
    settings.setValue(geometryKey, window.saveGeometry());
    settings.setValue(stateKey, window.saveState(layoutVersion));
    settings.setValue(normalSizeKey, window.normalGeometry().size());
}

bool AppSettings::restoreWindowLayout(QMainWindow &window)
{
    const QSettings settings;
    const QByteArray geometry = settings.value(geometryKey).toByteArray();
    const QByteArray state = settings.value(stateKey).toByteArray();
    if (geometry.isEmpty() || state.isEmpty())
        return false;
    // A layout saved on a bigger screen (the laptop's, before the projector's 1024×768) keeps dock
    // sizes made for that width: the query would scroll sideways and Ask hide. Not restored then.
    const QSize saved = settings.value(normalSizeKey).toSize();
    const QScreen *screen = window.screen();
    if (!saved.isValid() || (screen && !fitsInside(saved, screen->availableGeometry().size())))
        return false;
    const bool geometryRestored = window.restoreGeometry(geometry);
    return window.restoreState(state, layoutVersion) && geometryRestored;
}

namespace {
const QString confirmCostShareKey = QStringLiteral("session/confirmCostShare");
constexpr double defaultConfirmCostShare = 0.25;
} // namespace

double AppSettings::confirmCostShare()
{
    bool ok = false;
    const double share = QSettings().value(confirmCostShareKey, defaultConfirmCostShare).toDouble(&ok);
    return ok && share >= 0.01 && share <= 1.0 ? share : defaultConfirmCostShare;
}

void AppSettings::setConfirmCostShare(double share)
{
    QSettings().setValue(confirmCostShareKey, std::clamp(share, 0.01, 1.0));
}

bool AppSettings::lessonsWelcomeShown()
{
    return QSettings().value(QStringLiteral("lessons/welcomeShown"), false).toBool();
}

void AppSettings::setLessonsWelcomeShown(bool shown)
{
    QSettings().setValue(QStringLiteral("lessons/welcomeShown"), shown);
}

bool AppSettings::presentationMode()
{
    return QSettings().value(QStringLiteral("view/presentationMode"), false).toBool();
}

void AppSettings::setPresentationMode(bool on)
{
    QSettings().setValue(QStringLiteral("view/presentationMode"), on);
}

} // namespace pbx::ui
