// SPDX-License-Identifier: MIT
#include "ui/lessons/welcome.h"

#include "ui/appsettings.h"
#include "ui/mainwindow.h"

#include <QGuiApplication>
#include <QMessageBox>
#include <QPushButton>

namespace pbx::ui {

bool offerLessonsOnFirstRun(MainWindow &window)
{
    const QString platform = QGuiApplication::platformName();
    if (AppSettings::lessonsWelcomeShown() || platform == QLatin1String("offscreen")
        || platform == QLatin1String("minimal"))
        return false;
    AppSettings::setLessonsWelcomeShown(true);
    QMessageBox box(QMessageBox::Information, QObject::tr("Welcome to Privacy Budget Explorer"),
                    QObject::tr("Ask differentially private questions of a dataset with an accuracy target, "
                                "and watch the privacy budget being spent.\n\nNew to differential privacy? "
                                "Guided lessons walk through what an accuracy target costs, composition, "
                                "noise reduction and parallel composition, with the app's own numbers. "
                                "They are always under Help ▸ Lessons."),
                    QMessageBox::NoButton, &window);
    QPushButton *show = box.addButton(QObject::tr("Show lessons"), QMessageBox::AcceptRole);
    box.addButton(QObject::tr("Not now"), QMessageBox::RejectRole);
    box.setDefaultButton(show);
    box.exec();
    if (box.clickedButton() == show)
        window.showLessons();
    return true;
}

} // namespace pbx::ui
