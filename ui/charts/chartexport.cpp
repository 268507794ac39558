// SPDX-License-Identifier: MIT
#include "ui/charts/chartexport.h"

#include "core/io/text_file.h"

#include <QApplication>
#include <QBuffer>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGraphicsLayout>
#include <QGroupBox>
#include <QImage>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QSvgGenerator>
#include <QTabWidget>

#include <algorithm>
#include <cmath>

namespace pbx::ui {

namespace {

constexpr int kMinPixels = 16;
constexpr int kMaxPixels = 20000;
const char *const kOuterTitleProperty = "pbxOuterTitle";
const QString kFolderKey = QStringLiteral("charts/exportFolder");

QString withoutMnemonic(QString text)
{
    return text.remove(QRegularExpression(QStringLiteral("&(?!&)")));
}

QString plainText(QString text)
{
    return text.remove(QRegularExpression(QStringLiteral("<[^>]*>")))
        .replace(QStringLiteral("&nbsp;"), QStringLiteral(" "));
}

/// Lets the layouts that a resize posted run now, down to each chart's own QGraphicsLayout, so
/// that what is rendered next is laid out at the new size.
void settleLayouts(QWidget *widget)
{
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    const auto views = widget->findChildren<QChartView *>();
    for (QChartView *view : views) {
        if (QChart *chart = view->chart(); chart && chart->layout())
            chart->layout()->activate();
    }
}

QString exportFolder()
{
    const QString stored = QSettings().value(kFolderKey).toString();
    if (!stored.isEmpty() && QFileInfo(stored).isDir())
        return stored;
    const QString pictures = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    return !pictures.isEmpty() && QFileInfo(pictures).isDir() ? pictures : QDir::homePath();
}

QString couldNotWrite(const QString &path)
{
    return ChartExporter::tr("Could not write %1.").arg(QDir::toNativeSeparators(path));
}

/// Writes `bytes` to `path` atomically (io::writeTextFileAtomically: a temporary file, fsync'd,
/// renamed; every short write is an error, so a full disk or a file-size limit never leaves a
/// truncated file reported saved). On failure `error` gets the path and the reason.
bool writeAtomically(const QString &path, const QByteArray &bytes, QString *error)
{
    auto written = io::writeTextFileAtomically(path.toStdString(), bytes.toStdString());
    if (written)
        return true;
    if (error)
        *error = couldNotWrite(path) + u' ' + QString::fromStdString(written.error().message);
    return false;
}

} // namespace

ChartExporter::ChartExporter(QWidget *widget, TitleFunction title)
    : QObject(widget), m_widget(widget), m_title(std::move(title))
{
    setObjectName(QStringLiteral("chartExporter"));
}

ChartExporter *ChartExporter::install(QWidget *widget, TitleFunction title)
{
    if (ChartExporter *existing = of(widget))
        return existing;
    auto *exporter = new ChartExporter(widget, std::move(title));
    widget->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(widget, &QWidget::customContextMenuRequested, exporter, [exporter](const QPoint &pos) {
        QMenu *menu = exporter->createMenu(exporter->m_widget);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(exporter->m_widget->mapToGlobal(pos));
    });
    return exporter;
}

ChartExporter *ChartExporter::of(const QWidget *widget)
{
    return widget ? widget->findChild<ChartExporter *>(QStringLiteral("chartExporter"),
                                                       Qt::FindDirectChildrenOnly)
                  : nullptr;
}

QString ChartExporter::outerTitle(const QWidget *widget)
{
    QString tab;
    for (const QWidget *w = widget; w; w = w->parentWidget()) {
        const QVariant explicitTitle = w->property(kOuterTitleProperty);
        if (const auto *label = qobject_cast<const QLabel *>(explicitTitle.value<QObject *>())) {
            if (!label->text().isEmpty())
                return label->text();
        } else if (!explicitTitle.toString().isEmpty()) {
            return explicitTitle.toString();
        }
        if (const auto *box = qobject_cast<const QGroupBox *>(w); box && !box->title().isEmpty())
            return withoutMnemonic(box->title());
        if (const auto *dock = qobject_cast<const QDockWidget *>(w))
            return withoutMnemonic(dock->windowTitle());
        if (const auto *tabs = qobject_cast<const QTabWidget *>(w); tabs && tab.isEmpty()) {
            for (int i = 0; i < tabs->count(); ++i) {
                if (tabs->widget(i) == widget || tabs->widget(i)->isAncestorOf(widget))
                    tab = withoutMnemonic(tabs->tabText(i));
            }
        }
        if (w->isWindow()) {
            // The main window's title names the session file, not a chart.
            const QString window = qobject_cast<const QMainWindow *>(w) ? QString() : w->windowTitle();
            if (window.isEmpty() || tab.isEmpty())
                return window.isEmpty() ? tab : window;
            return window + QStringLiteral(" — ") + tab;
        }
    }
    return tab;
}

void ChartExporter::setOuterTitle(QWidget *widget, const QString &title)
{
    widget->setProperty(kOuterTitleProperty, title);
}

void ChartExporter::setOuterTitle(QWidget *widget, const QLabel *label)
{
    widget->setProperty(kOuterTitleProperty,
                        QVariant::fromValue(const_cast<QObject *>(static_cast<const QObject *>(label))));
}

ChartExporter::Title ChartExporter::title() const
{
    Title title = m_title ? m_title() : Title{outerTitle(m_widget), false};
    title.text = plainText(title.text).simplified();
    return title;
}

QString ChartExporter::fileBaseName() const
{
    QString name;
    for (const QChar c : title().text.toLower()) {
        if (c.isLetterOrNumber() && c.unicode() < 128)
            name += c;
        else if (!name.isEmpty() && !name.endsWith(u'-'))
            name += u'-';
    }
    name.truncate(60);
    while (name.endsWith(u'-'))
        name.chop(1);
    return name.isEmpty() ? QStringLiteral("chart") : name;
}

int ChartExporter::headingHeight() const
{
    const Title t = title();
    if (t.drawn || t.text.isEmpty())
        return 0;
    QFont font = m_widget->font();
    font.setBold(true);
    return qRound(QFontMetricsF(font).height() * 1.15 * 1.8);
}

QSize ChartExporter::naturalSize() const
{
    QSize size = m_widget->isVisible() || m_widget->testAttribute(Qt::WA_Resized) ? m_widget->size()
                                                                                  : m_widget->sizeHint();
    size = size.expandedTo(m_widget->minimumSizeHint()).expandedTo(QSize(kMinPixels, kMinPixels));
    return size + QSize(0, headingHeight());
}

void ChartExporter::paint(QPainter &painter, QSize layoutSize) const
{
    painter.save();
    painter.fillRect(QRect(QPoint(), layoutSize), Qt::white);
    const Title t = title();
    const int heading = headingHeight();
    if (heading > 0) {
        QFont font = m_widget->font();
        font.setBold(true);
        if (font.pointSizeF() > 0)
            font.setPointSizeF(font.pointSizeF() * 1.15);
        painter.setFont(font);
        painter.setPen(Qt::black);
        const QRect band(8, 0, layoutSize.width() - 16, heading);
        painter.drawText(band, Qt::AlignCenter,
                         QFontMetrics(font).elidedText(t.text, Qt::ElideRight, band.width()));
    }

    // The widget, laid out at the size that is left for the duration of the render: a chart in a
    // narrow dock still comes out with room for its labels at a wide aspect ratio.
    const QSize body(layoutSize.width(), std::max(1, layoutSize.height() - heading));
    const QSize before = m_widget->size();
    const bool resize = body != before;
    // On white: a chart view's viewport shows the window colour around the chart.
    const auto views = m_widget->findChildren<QChartView *>();
    QList<QBrush> backgrounds;
    for (QChartView *view : views) {
        backgrounds.append(view->backgroundBrush());
        view->setBackgroundBrush(Qt::white);
    }
    if (resize) {
        m_widget->resize(body);
        settleLayouts(m_widget);
    }
    // A minimum size can keep the widget larger than asked: scale it down to fit.
    const QSize laidOut = m_widget->size();
    const double fit
        = std::min({1.0, double(body.width()) / laidOut.width(), double(body.height()) / laidOut.height()});
    painter.translate((body.width() - laidOut.width() * fit) / 2.0, heading);
    painter.scale(fit, fit);
    m_widget->render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
    if (resize) {
        m_widget->resize(before);
        settleLayouts(m_widget);
    }
    for (qsizetype i = 0; i < views.size(); ++i)
        views[i]->setBackgroundBrush(backgrounds[i]);
    painter.restore();
}

QImage ChartExporter::image(QSize pixels) const
{
    if (pixels.width() < kMinPixels || pixels.height() < kMinPixels || pixels.width() > kMaxPixels
        || pixels.height() > kMaxPixels)
        return {};
    // Keep the on-screen proportions of text to plot along the tighter side; extend the other.
    const QSize natural = naturalSize();
    const double scale
        = std::min(double(pixels.width()) / natural.width(), double(pixels.height()) / natural.height());
    const QSize layout(std::max(1, qRound(pixels.width() / scale)),
                       std::max(1, qRound(pixels.height() / scale)));
    QImage out(pixels, QImage::Format_ARGB32_Premultiplied);
    out.fill(Qt::white);
    QPainter painter(&out);
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing
                           | QPainter::SmoothPixmapTransform);
    painter.scale(double(pixels.width()) / layout.width(), double(pixels.height()) / layout.height());
    paint(painter, layout);
    painter.end();
    return out;
}

bool ChartExporter::savePng(const QString &path, QSize pixels, QString *error) const
{
    const QImage picture = image(pixels);
    if (picture.isNull()) {
        if (error)
            *error = tr("The picture size must be %1 to %2 pixels on each side.")
                         .arg(kMinPixels)
                         .arg(kMaxPixels);
        return false;
    }
    QByteArray bytes;
    QBuffer buffer(&bytes);
    if (!buffer.open(QIODevice::WriteOnly) || !picture.save(&buffer, "PNG")) {
        if (error)
            *error = couldNotWrite(path);
        return false;
    }
    return writeAtomically(path, bytes, error);
}

bool ChartExporter::saveSvg(const QString &path, QString *error) const
{
    const QSize size = naturalSize();
    // Painted into memory, then written at once: QPainter::end() and the file write are both
    // checked, so a truncated file is never reported saved.
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(), size));
    // Fonts are sized in points against the widget's resolution, as on screen.
    generator.setResolution(m_widget->logicalDpiX());
    generator.setTitle(title().text);
    generator.setDescription(tr("Exported from Privacy Budget Explorer"));
    QPainter painter;
    if (!painter.begin(&generator)) {
        if (error)
            *error = couldNotWrite(path);
        return false;
    }
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    paint(painter, size);
    if (!painter.end()) {
        if (error)
            *error = couldNotWrite(path);
        return false;
    }
    return writeAtomically(path, bytes, error);
}

bool ChartExporter::savePdf(const QString &path, QString *error) const
{
    const QSize size = naturalSize();
    constexpr double kDpi = 96.0; // widget pixels per inch on the page
    QByteArray bytes;
    {
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        QPdfWriter writer(&buffer);
        writer.setResolution(static_cast<int>(kDpi));
        writer.setPageSize(
            QPageSize(QSizeF(size) * (72.0 / kDpi), QPageSize::Point, QString(), QPageSize::ExactMatch));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        writer.setTitle(title().text);
        writer.setCreator(QStringLiteral("Privacy Budget Explorer"));
        QPainter painter;
        if (!painter.begin(&writer)) {
            if (error)
                *error = couldNotWrite(path);
            return false;
        }
        painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
        // The page is whole points: stretch the last fraction of a pixel away.
        painter.scale(double(writer.width()) / size.width(), double(writer.height()) / size.height());
        paint(painter, size);
        if (!painter.end()) {
            if (error)
                *error = couldNotWrite(path);
            return false;
        }
    }
    return writeAtomically(path, bytes, error);
}

void ChartExporter::copyToClipboard() const
{
    const double ratio = std::max(1.0, m_widget->devicePixelRatioF());
    const QSize natural = naturalSize();
    QImage picture = image(QSize(qRound(natural.width() * ratio), qRound(natural.height() * ratio)));
    picture.setDevicePixelRatio(ratio);
    QApplication::clipboard()->setImage(picture);
}

QMenu *ChartExporter::createMenu(QWidget *parent) const
{
    auto *menu = new QMenu(parent);
    menu->setObjectName(QStringLiteral("chartExportMenu"));
    const auto add = [&](const QString &text, const QString &name, auto slot) {
        QAction *action = menu->addAction(text, this, slot);
        action->setObjectName(name);
        return action;
    };
    add(tr("&Copy image"), QStringLiteral("exportCopy"), &ChartExporter::copyToClipboard);
    menu->addSeparator();
    add(tr("Save as &PNG…"), QStringLiteral("exportPng"), &ChartExporter::savePngInteractive);
    add(tr("Save as &SVG…"), QStringLiteral("exportSvg"), &ChartExporter::saveSvgInteractive);
    add(tr("Save as P&DF…"), QStringLiteral("exportPdf"), &ChartExporter::savePdfInteractive);
    return menu;
}

QString ChartExporter::askFileName(const QString &suffix, const QString &filter) const
{
    const QString suggested = exportFolder() + u'/' + fileBaseName() + u'.' + suffix;
    QString path = QFileDialog::getSaveFileName(m_widget, tr("Save chart"), suggested, filter);
    if (path.isEmpty())
        return {};
    if (QFileInfo(path).suffix().isEmpty())
        path += u'.' + suffix;
    QSettings().setValue(kFolderKey, QFileInfo(path).absolutePath());
    return path;
}

namespace {

void reportFailure(QWidget *parent, const QString &error)
{
    QMessageBox::warning(parent, ChartExporter::tr("Chart not saved"), error);
}

} // namespace

void ChartExporter::savePngInteractive() const
{
    PngSizeDialog dialog(naturalSize(), m_widget);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const QString path = askFileName(QStringLiteral("png"), tr("PNG images (*.png)"));
    QString error;
    if (!path.isEmpty() && !savePng(path, dialog.pixelSize(), &error))
        reportFailure(m_widget, error);
}

void ChartExporter::saveSvgInteractive() const
{
    const QString path = askFileName(QStringLiteral("svg"), tr("SVG drawings (*.svg)"));
    QString error;
    if (!path.isEmpty() && !saveSvg(path, &error))
        reportFailure(m_widget, error);
}

void ChartExporter::savePdfInteractive() const
{
    const QString path = askFileName(QStringLiteral("pdf"), tr("PDF documents (*.pdf)"));
    QString error;
    if (!path.isEmpty() && !savePdf(path, &error))
        reportFailure(m_widget, error);
}

PngSizeDialog::PngSizeDialog(QSize natural, QWidget *parent) : QDialog(parent), m_natural(natural)
{
    setWindowTitle(tr("Save as PNG"));
    const auto spin = [this] {
        auto *box = new QSpinBox(this);
        box->setRange(kMinPixels, kMaxPixels);
        box->setSuffix(tr(" px"));
        box->setAccelerated(true);
        return box;
    };
    m_width = spin();
    m_width->setObjectName(QStringLiteral("pngWidth"));
    m_height = spin();
    m_height->setObjectName(QStringLiteral("pngHeight"));
    m_keepAspect = new QCheckBox(tr("Keep the chart's proportions"), this);
    m_keepAspect->setChecked(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *form = new QFormLayout(this);
    form->addRow(new QLabel(
        tr("On screen the picture is %1 × %2 pixels.").arg(m_natural.width()).arg(m_natural.height()), this));
    form->addRow(tr("&Width:"), m_width);
    form->addRow(tr("&Height:"), m_height);
    form->addRow(m_keepAspect);
    form->addRow(buttons);

    setPixelSize(m_natural * 2);
    connect(m_width, &QSpinBox::valueChanged, this, [this] { follow(true); });
    connect(m_height, &QSpinBox::valueChanged, this, [this] { follow(false); });
    connect(m_keepAspect, &QCheckBox::toggled, this, [this](bool on) {
        if (on)
            follow(true);
    });
}

QSize PngSizeDialog::pixelSize() const
{
    return {m_width->value(), m_height->value()};
}

void PngSizeDialog::setPixelSize(QSize size)
{
    m_following = true;
    m_width->setValue(size.width());
    m_height->setValue(size.height());
    m_following = false;
}

void PngSizeDialog::setKeepAspect(bool keep)
{
    m_keepAspect->setChecked(keep);
}

void PngSizeDialog::follow(bool fromWidth)
{
    if (m_following || !m_keepAspect->isChecked() || m_natural.isEmpty())
        return;
    m_following = true;
    const double aspect = double(m_natural.height()) / m_natural.width();
    if (fromWidth)
        m_height->setValue(std::clamp(qRound(m_width->value() * aspect), kMinPixels, kMaxPixels));
    else
        m_width->setValue(std::clamp(qRound(m_height->value() / aspect), kMinPixels, kMaxPixels));
    m_following = false;
}

} // namespace pbx::ui
