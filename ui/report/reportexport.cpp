// SPDX-License-Identifier: MIT
#include "ui/report/reportexport.h"

#include "core/report/session_report.h"
#include "ui/appinfo.h"
#include "ui/report/reportwriter.h"

#include <QCoreApplication>
#include <QCursor>
#include <QDateTime>
#include <QGuiApplication>

namespace pbx::ui {

Result<void> exportSessionReport(const session::Session &session, const QString &sessionPath,
                                 const QString &target)
{
    if (auto format = reportFormatFor(target); !format)
        return format.error();
    report::ReportSource source;
    source.path = sessionPath.toStdString();
    source.generator = "pbx " + applicationVersion().toStdString();
    source.created
        = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'")).toStdString();
    QGuiApplication::setOverrideCursor(QCursor(Qt::WaitCursor));
    const auto facts = report::collectReport(session, std::move(source));
    auto written = writeReportFile(facts, target);
    QGuiApplication::restoreOverrideCursor();
    return written;
}

QString reportFileSuggestion(const QString &folder, const QString &baseName)
{
    return folder + u'/' + baseName + QStringLiteral("-report.html");
}

QString reportFileFilter()
{
    return QCoreApplication::translate("ReportExport", "HTML report (*.html *.htm);;PDF report (*.pdf)");
}

} // namespace pbx::ui
