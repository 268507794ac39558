// SPDX-License-Identifier: MIT
// A virtual screen for GUI tests: Qt's offscreen platform is given one screen of the size named by
// PBX_TEST_SCREEN ("1024x768" when unset) through a config file written before the application
// starts, so windows, screen()->availableGeometry() and the layouts see a real projector's size.
#pragma once

#include <QApplication>
#include <QByteArray>
#include <QFile>
#include <QSize>
#include <QString>
#include <QTemporaryDir>
#include <QtTest/QtTest>

namespace pbx::test {

/// The screen named by PBX_TEST_SCREEN, e.g. 1280×720; 1024×768 when unset.
inline QSize testScreen()
{
    const QByteArray spec = qgetenv("PBX_TEST_SCREEN");
    const QList<QByteArray> parts = (spec.isEmpty() ? QByteArray("1024x768") : spec).split('x');
    return QSize(parts.value(0).toInt(), parts.value(1).toInt());
}

/// "1024x768": a suffix for screenshot names.
inline QString testScreenName()
{
    return QStringLiteral("%1x%2").arg(testScreen().width()).arg(testScreen().height());
}

/// Runs the QtTest class `Test` in an application whose only screen is testScreen().
template<typename Test>
int runOnTestScreen(int argc, char **argv)
{
    QTemporaryDir dir;
    const QSize screen = testScreen();
    const QString config = dir.filePath(QStringLiteral("screens.json"));
    QFile file(config);
    if (!file.open(QIODevice::WriteOnly))
        return 1;
    file.write(QStringLiteral(R"({"screens": [{"name": "projector", "x": 0, "y": 0, "width": %1, )"
                              R"("height": %2, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})")
                   .arg(screen.width())
                   .arg(screen.height())
                   .toUtf8());
    file.close();
    // On a real X server (QT_QPA_PLATFORM=xcb, e.g. Xvfb at the projector's size) the test runs
    // there as it is: windows get a window manager's frames.
    if (!qgetenv("QT_QPA_PLATFORM").startsWith("xcb"))
        qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + config.toLocal8Bit());
    QApplication app(argc, argv);
    Test test;
    return QTest::qExec(&test, argc, argv);
}

} // namespace pbx::test
