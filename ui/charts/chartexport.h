// SPDX-License-Identifier: MIT
// Every chart is a picture you can keep: right-click a chart (or the budget gauge, or a diagram)
// ▸ Copy image / Save as PNG… (at a chosen pixel size) / Save as SVG… (Qt SVG's QSvgGenerator) /
// Save as PDF… (QPdfWriter). The picture is the whole widget as drawn — title, axes with their
// titles and units, legend (also a wrapping legend below the plot), error bars — on white, with the
// title the widget sits under (group box, dock, dialog) as a heading when it does not draw its own.
// Installed once per widget by ChartExporter::install (every ChartFrame does it in its constructor).
#pragma once

#include <QDialog>
#include <QObject>
#include <QSize>
#include <QString>

#include <functional>

QT_FORWARD_DECLARE_CLASS(QAction)
QT_FORWARD_DECLARE_CLASS(QCheckBox)
QT_FORWARD_DECLARE_CLASS(QImage)
QT_FORWARD_DECLARE_CLASS(QLabel)
QT_FORWARD_DECLARE_CLASS(QMenu)
QT_FORWARD_DECLARE_CLASS(QPainter)
QT_FORWARD_DECLARE_CLASS(QSpinBox)
QT_FORWARD_DECLARE_CLASS(QWidget)

namespace pbx::ui {

class ChartExporter final : public QObject
{
    Q_OBJECT
public:
    /// What a picture is called: `text` names the file and, unless the widget draws it itself
    /// (`drawn`, e.g. a QChart title), is drawn as a heading above the widget.
    struct Title
    {
        QString text;
        bool drawn = false;
    };
    using TitleFunction = std::function<Title()>;

    /// Makes `widget` exportable: its context menu (right-click; the widget's context-menu policy
    /// becomes Qt::CustomContextMenu) offers the four actions of createMenu(). `title` is asked at
    /// export time; without one, outerTitle(widget) is used as the heading. The exporter is a child
    /// of `widget`; installing twice returns the first exporter.
    static ChartExporter *install(QWidget *widget, TitleFunction title = {});
    /// The exporter installed on `widget`, or nullptr.
    static ChartExporter *of(const QWidget *widget);

    /// The title `widget` is shown under: an explicit one (setOuterTitle) on it or an ancestor,
    /// else the nearest titled QGroupBox, QDockWidget, tab (QTabWidget) or dialog. Empty when none
    /// (the main window's title names a file, not a chart).
    static QString outerTitle(const QWidget *widget);
    /// Sets the title outerTitle() finds for `widget` and its children.
    static void setOuterTitle(QWidget *widget, const QString &title);
    /// The same, read from `label` at export time (a view whose title is a label above the chart);
    /// `label` must outlive `widget` or be its child.
    static void setOuterTitle(QWidget *widget, const QLabel *label);

    QWidget *widget() const { return m_widget; }
    Title title() const;
    /// The title as a file name: ASCII letters and digits, words joined by '-', at most 60
    /// characters; "chart" when nothing is left.
    QString fileBaseName() const;

    /// The picture's size in widget pixels at scale 1: the widget (its size, or its size hint while
    /// it has none) plus the heading.
    QSize naturalSize() const;
    /// The picture at exactly `pixels` (each side 16 … 20000): laid out at the natural size,
    /// widened or heightened to the asked aspect ratio, then scaled to fit. Null on a bad size.
    QImage image(QSize pixels) const;
    /// Every save paints into memory, checks QPainter::end(), then writes the file atomically
    /// (io::writeTextFileAtomically): a short write (full disk, file-size limit) fails, and the
    /// old file, if any, is left unchanged — a truncated file is never reported saved.
    /// Writes image(pixels) as PNG. False with `error` set ("Could not write …") on failure.
    bool savePng(const QString &path, QSize pixels, QString *error = nullptr) const;
    /// Writes the picture as SVG 1.2 (vector; text as text) at the natural size. False with
    /// `error` set when the file cannot be written.
    bool saveSvg(const QString &path, QString *error = nullptr) const;
    /// Writes the picture as a one-page PDF (vector), the page the natural size at 96 px per inch.
    /// False with `error` set when the file cannot be written.
    bool savePdf(const QString &path, QString *error = nullptr) const;
    /// Puts the picture on the clipboard at the screen's resolution.
    void copyToClipboard() const;

    /// A menu with Copy image / Save as PNG… / Save as SVG… / Save as PDF… (object names
    /// exportCopy, exportPng, exportSvg, exportPdf), parented to `parent`.
    QMenu *createMenu(QWidget *parent) const;

    /// The interactive saves behind the menu: ask for the size (PNG) and a file name, write, report
    /// a failure in a message box. The folder last saved to is remembered (QSettings
    /// "charts/exportFolder"; Pictures at first).
    void savePngInteractive() const;
    void saveSvgInteractive() const;
    void savePdfInteractive() const;

    /// Draws the picture laid out at `layoutSize` widget pixels into `painter` (already scaled to
    /// the target): white background, heading, then the widget resized to fill the rest for the
    /// duration of the call.
    void paint(QPainter &painter, QSize layoutSize) const;

private:
    ChartExporter(QWidget *widget, TitleFunction title);
    int headingHeight() const;
    QString askFileName(const QString &suffix, const QString &filter) const;

    QWidget *m_widget;
    TitleFunction m_title;
};

/// Asks for a PNG's pixel size: width and height, optionally locked to the chart's aspect ratio
/// (on by default), 16 … 20000 pixels each.
class PngSizeDialog final : public QDialog
{
    Q_OBJECT
public:
    /// `natural`: the picture's size at scale 1, which sets the aspect ratio; the size offered is
    /// twice it (sharp on a projector or in print).
    PngSizeDialog(QSize natural, QWidget *parent = nullptr);

    QSize pixelSize() const;
    void setPixelSize(QSize size);
    void setKeepAspect(bool keep);

private:
    void follow(bool fromWidth);

    QSize m_natural;
    QSpinBox *m_width = nullptr;
    QSpinBox *m_height = nullptr;
    QCheckBox *m_keepAspect = nullptr;
    bool m_following = false;
};

} // namespace pbx::ui
