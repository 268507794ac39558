// SPDX-License-Identifier: MIT
// File ▸ Export report…: the session report of the open session, written as HTML or PDF by the
// file name's extension (core/report for the content, reportwriter.h for the file).
#pragma once

#include "core/session/session.h"

#include <QString>

QT_FORWARD_DECLARE_CLASS(QWidget)

namespace pbx::ui {

/// Writes the report of `session` (saved as `sessionPath`, empty when unsaved) to `target`,
/// stamped "pbx VERSION" and the current UTC time. Gathers the facts on the calling (GUI) thread
/// (the session is not shared; the composition comparison is the comparison view's table), then
/// lays out and writes the file on a worker thread while a window-modal progress dialog over
/// `parent` ("reportExportProgress") shows the pages done and offers Cancel; the calling thread
/// keeps processing events until the file is written; once it is, its folder is remembered for
/// the next report (AppSettings::setLastReportFolderFrom). Errors: those of writeReportFile
/// (extension, folder not writable, Cancelled).
Result<void> exportSessionReport(const session::Session &session, const QString &sessionPath,
                                 const QString &target, QWidget *parent = nullptr);

/// The save dialog's file name and filter: "<session or dataset name>-report.html" in
/// `folder`, HTML (*.html *.htm) and PDF (*.pdf).
QString reportFileSuggestion(const QString &folder, const QString &baseName);
QString reportFileFilter();

/// The file the report dialog suggests: "<base>-report.html", where <base> is the session file's
/// name (`sessionPath`, empty when unsaved) or else `datasetName`, in the folder the last report
/// was written to (AppSettings::lastReportFolder, remembered across runs), else the session
/// file's folder, else AppSettings::startFolder().
QString reportSaveSuggestion(const QString &sessionPath, const QString &datasetName);

} // namespace pbx::ui
