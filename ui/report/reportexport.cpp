// SPDX-License-Identifier: MIT
#include "ui/report/reportexport.h"

#include "core/report/session_report.h"
#include "core/util/try.h"
#include "ui/appinfo.h"
#include "ui/appsettings.h"
#include "ui/report/reportwriter.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QEventLoop>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QProgressDialog>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <cmath>
#include <memory>

namespace pbx::ui {

namespace {

/// What the writing thread and the GUI thread share: the fraction done and the cancel flag.
struct ExportState
{
    std::atomic<int> permille{0};
    std::atomic<bool> cancel{false};
};

} // namespace

Result<void> exportSessionReport(const session::Session &session, const QString &sessionPath,
                                 const QString &target, QWidget *parent)
{
    PBX_RETURN_IF_ERROR(reportFormatFor(target));
    report::ReportSource source;
    source.path = sessionPath.toStdString();
    source.generator = "pbx " + applicationVersion().toStdString();
    source.created
        = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'")).toStdString();
    // The facts are gathered here (they read the session, which only this thread touches); the
    // layout and the file are made on a worker thread from that copy.
    auto facts
        = std::make_shared<const report::SessionReport>(report::collectReport(session, std::move(source)));
    auto state = std::make_shared<ExportState>();
    QFuture<Result<void>> future = QtConcurrent::run([facts, target, state]() -> Result<void> {
        return writeReportFile(*facts, target, [state](double fraction) {
            state->permille.store(static_cast<int>(std::lround(fraction * 1000.0)));
            return !state->cancel.load();
        });
    });
    QProgressDialog dialog(QCoreApplication::translate("ReportExport", "Writing the report…"),
                           QCoreApplication::translate("ReportExport", "Cancel"), 0, 1000, parent);
    dialog.setObjectName(QStringLiteral("reportExportProgress"));
    dialog.setWindowTitle(QCoreApplication::translate("ReportExport", "Export report"));
    dialog.setWindowModality(Qt::WindowModal);
    dialog.setMinimumDuration(0); // shown at once: window-modal, so nothing else is asked meanwhile
    dialog.setAutoClose(false);
    dialog.setAutoReset(false);
    dialog.setValue(0);
    QFutureWatcher<Result<void>> watcher;
    QEventLoop loop;
    QObject::connect(&watcher, &QFutureWatcher<Result<void>>::finished, &loop, &QEventLoop::quit);
    QTimer poll;
    poll.setInterval(50);
    QObject::connect(&poll, &QTimer::timeout, &dialog, [&] {
        dialog.setValue(std::min(999, state->permille.load()));
        if (dialog.wasCanceled())
            state->cancel.store(true);
    });
    QObject::connect(&dialog, &QProgressDialog::canceled, &dialog, [state] { state->cancel.store(true); });
    watcher.setFuture(future);
    poll.start();
    // The GUI thread keeps painting and answering (the dialog's Cancel) while the worker writes.
    if (!future.isFinished())
        loop.exec();
    poll.stop();
    future.waitForFinished();
    dialog.reset();
    Result<void> written = future.result();
    if (written.ok())
        AppSettings::setLastReportFolderFrom(target); // the next report starts there
    return written;
}

QString reportFileSuggestion(const QString &folder, const QString &baseName)
{
    return folder + u'/' + baseName + QStringLiteral("-report.html");
}

QString reportSaveSuggestion(const QString &sessionPath, const QString &datasetName)
{
    const QFileInfo session(sessionPath);
    const QString base = sessionPath.isEmpty() ? datasetName : session.completeBaseName();
    QString folder = AppSettings::lastReportFolder();
    if (folder.isEmpty())
        folder = sessionPath.isEmpty() ? AppSettings::startFolder() : session.absolutePath();
    return reportFileSuggestion(folder, base);
}

QString reportFileFilter()
{
    return QCoreApplication::translate("ReportExport", "HTML report (*.html *.htm);;PDF report (*.pdf)");
}

} // namespace pbx::ui
