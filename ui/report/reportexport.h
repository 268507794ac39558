// SPDX-License-Identifier: MIT
// File ▸ Export report…: the session report of the open session, written as HTML or PDF by the
// file name's extension (core/report for the content, reportwriter.h for the file).
#pragma once

#include "core/session/session.h"

#include <QString>

namespace pbx::ui {

/// Writes the report of `session` (saved as `sessionPath`, empty when unsaved) to `target`,
/// stamped "pbx VERSION" and the current UTC time. Runs the composition comparison on the
/// calling thread (the comparison view's table: fast for interactive sessions).
/// Errors: those of writeReportFile (extension, folder not writable).
Result<void> exportSessionReport(const session::Session &session, const QString &sessionPath,
                                 const QString &target);

/// The save dialog's file name and filter: "<session or dataset name>-report.html" in
/// `folder`, HTML (*.html *.htm) and PDF (*.pdf).
QString reportFileSuggestion(const QString &folder, const QString &baseName);
QString reportFileFilter();

} // namespace pbx::ui
