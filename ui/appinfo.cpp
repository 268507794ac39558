// SPDX-License-Identifier: MIT
#include "ui/appinfo.h"

#include <QCoreApplication>
#include <QGuiApplication>

#ifndef PBX_VERSION
#define PBX_VERSION "0.0.0"
#endif
#ifndef PBX_APP_ID
#define PBX_APP_ID "org.privacybudgetexplorer.Pbx"
#endif

namespace pbx::ui {

QString applicationVersion()
{
    return QStringLiteral(PBX_VERSION);
}

QString applicationId()
{
    return QStringLiteral(PBX_APP_ID);
}

QIcon applicationIcon()
{
    QIcon icon;
    for (const int size : {16, 24, 32, 48, 64, 128, 256})
        icon.addFile(QStringLiteral(":/icons/pbx-%1.png").arg(size), QSize(size, size));
    return icon;
}

void setApplicationIdentity()
{
    QCoreApplication::setOrganizationName(QStringLiteral("pbx"));
    QCoreApplication::setOrganizationDomain(QStringLiteral("pbx.invalid"));
    QCoreApplication::setApplicationName(QStringLiteral("pbx"));
    QCoreApplication::setApplicationVersion(applicationVersion());
    QGuiApplication::setApplicationDisplayName(QStringLiteral("Privacy Budget Explorer"));
    // Lets desktops match windows to the installed menu entry (Wayland app id, taskbar icon).
    QGuiApplication::setDesktopFileName(applicationId());
    QGuiApplication::setWindowIcon(applicationIcon());
}

} // namespace pbx::ui
