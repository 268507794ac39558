// SPDX-License-Identifier: MIT
// Writes a session report (core/report) to a file: HTML as core writes it, or PDF through Qt's
// printing support (QTextDocument on QPdfWriter, the charts rendered by QSvgRenderer), with a
// header and footer on every page that carry the seeded mark when the session was seeded.
// Qt Gui only (no widgets), so `pbx-cli report` can link it without the rest of the GUI.
#pragma once

#include "core/report/session_report.h"

#include <QImage>
#include <QString>

#include <functional>
#include <memory>

QT_FORWARD_DECLARE_CLASS(QTextDocument)

namespace pbx::ui {

enum class ReportFormat { Html, Pdf };

/// The format named by `path`'s extension: .html or .htm → Html, .pdf → Pdf (any case).
/// Errors: InvalidArgument naming the path when the extension is neither.
Result<ReportFormat> reportFormatFor(const QString &path);

/// The report laid out for pages of `pageWidth` px (at 96 px per inch): the HTML of
/// report::reportHtml with every chart an image rendered from its SVG (at twice its size, scaled
/// to fit the width), the seeded banner left to the page header. Needs a QGuiApplication.
std::unique_ptr<QTextDocument> reportTextDocument(const report::SessionReport &report, double pageWidth);

/// Page `page` (0-based) of the PDF layout of `report` painted onto an image of `size` px: the
/// same painting as writeReportFile's PDF, for looking at the pages without a PDF viewer.
/// `pageCount`, if not null, receives the number of pages. Needs a QGuiApplication.
QImage renderReportPage(const report::SessionReport &report, int page, QSize size, int *pageCount = nullptr);

/// Told the fraction done in [0, 1] while a report is written (PDF: after the layout, then after
/// each page); return false to cancel. Called on the writing thread.
using ReportProgress = std::function<bool(double)>;

/// Writes `report` to `path` in the format of its extension, atomically (the old file, if any,
/// is unchanged on failure). For PDF a QGuiApplication must exist or be creatable: without one,
/// a temporary one is made on the "offscreen" platform unless QT_QPA_PLATFORM names another.
/// May run on a worker thread when a QGuiApplication exists (the PDF is painted on QPdfWriter,
/// QImage and a QTextDocument made on that thread). Errors: InvalidArgument (extension), Io
/// naming the path (folder missing, not writable), Cancelled (`progress` returned false; nothing
/// is written).
Result<void> writeReportFile(const report::SessionReport &report, const QString &path,
                             const ReportProgress &progress = {});

} // namespace pbx::ui
