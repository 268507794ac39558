// SPDX-License-Identifier: MIT
#include "ui/appinfo.h"

#include <QCoreApplication>
#include <QGuiApplication>

#ifndef PBX_VERSION
#define PBX_VERSION "0.0.0"
#endif

namespace pbx::ui {

QString applicationVersion()
{
    return QStringLiteral(PBX_VERSION);
}

void setApplicationIdentity()
{
    QCoreApplication::setOrganizationName(QStringLiteral("pbx"));
    QCoreApplication::setOrganizationDomain(QStringLiteral("pbx.invalid"));
    QCoreApplication::setApplicationName(QStringLiteral("pbx"));
    QCoreApplication::setApplicationVersion(applicationVersion());
    QGuiApplication::setApplicationDisplayName(QStringLiteral("Privacy Budget Explorer"));
}

} // namespace pbx::ui
