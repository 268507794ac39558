// SPDX-License-Identifier: MIT
#include "ui/charts/presentation.h"

#include <QAbstractAxis>
#include <QApplication>
#include <QAreaSeries>
#include <QChart>
#include <QEvent>
#include <QLegend>
#include <QScatterSeries>
#include <QValueAxis>
#include <QWidget>
#include <QXYSeries>

#include <cmath>
#include <functional>

namespace pbx::ui {

Presentation &Presentation::instance()
{
    static Presentation *presentation = new Presentation; // never deleted: outlives every chart
    return *presentation;
}

void Presentation::setEnabled(bool on)
{
    if (on == m_enabled)
        return;
    m_enabled = on;
    if (on) {
        m_normalFont = QApplication::font();
        QFont large = m_normalFont;
        if (large.pointSizeF() > 0)
            large.setPointSizeF(large.pointSizeF() * fontFactor);
        else
            large.setPixelSize(qRound(large.pixelSize() * fontFactor));
        QApplication::setFont(large);
    } else {
        QApplication::setFont(m_normalFont);
    }
    // QApplication::setFont tells the existing widgets only once the event loop runs (exec); the
    // switch is also used before (start-up, tests): tell the windows, which pass it to children.
    const auto windows = QApplication::topLevelWidgets();
    for (QWidget *window : windows) {
        QEvent event(QEvent::ApplicationFontChange);
        QCoreApplication::sendEvent(window, &event);
    }
    Q_EMIT changed(on);
}

namespace {

/// Sets `object`'s size `key` (current value `current`) to normal × scale, where normal is the
/// value the chart's code set: the remembered one while the current value is still the one applied
/// here, else the current value (the code replaced it). Touches nothing when never scaled and the
/// scale is 1.
void scaleValue(QObject *object, const char *key, double current, double scale,
                const std::function<void(double)> &set)
{
    const QByteArray normalKey = QByteArrayLiteral("pbxNormal_") + key;
    const QByteArray appliedKey = QByteArrayLiteral("pbxApplied_") + key;
    const QVariant applied = object->property(appliedKey.constData());
    if (!applied.isValid() && scale == 1.0)
        return;
    const bool ours = applied.isValid() && std::abs(applied.toDouble() - current) < 1e-9;
    const double normal = ours ? object->property(normalKey.constData()).toDouble() : current;
    const double target = normal * scale;
    object->setProperty(normalKey.constData(), normal);
    object->setProperty(appliedKey.constData(), target);
    if (std::abs(target - current) > 1e-9)
        set(target);
}

double fontSize(const QFont &font)
{
    return font.pointSizeF() > 0 ? font.pointSizeF() : font.pixelSize();
}

QFont resized(QFont font, double size)
{
    if (font.pointSizeF() > 0)
        font.setPointSizeF(size);
    else
        font.setPixelSize(std::max(1, static_cast<int>(std::lround(size))));
    return font;
}

/// Scales a font held by `object` under `key`, read with `get` and written with `set`.
void scaleFont(QObject *object, const char *key, double scale, const QFont &current,
               const std::function<void(const QFont &)> &set)
{
    scaleValue(object, key, fontSize(current), scale, [&](double size) { set(resized(current, size)); });
}

} // namespace

void applyPresentationStyle(QChart *chart)
{
    if (!chart)
        return;
    const Presentation &mode = Presentation::instance();
    const double fonts = mode.fontScale();
    const double lines = mode.lineScale();

    scaleFont(chart, "title", fonts, chart->titleFont(), [chart](const QFont &f) { chart->setTitleFont(f); });
    QLegend *legend = chart->legend();
    scaleFont(legend, "font", fonts, legend->font(), [legend](const QFont &f) { legend->setFont(f); });
    const auto axes = chart->axes();
    for (QAbstractAxis *axis : axes) {
        scaleFont(axis, "title", fonts, axis->titleFont(), [axis](const QFont &f) { axis->setTitleFont(f); });
        bool labelsChanged = false;
        scaleFont(axis, "labels", fonts, axis->labelsFont(), [&](const QFont &f) {
            axis->setLabelsFont(f);
            labelsChanged = true;
        });
        // Qt 6.4 caches a value axis's label width: without a new format the larger labels are
        // elided (axisticks.h, refreshLabelWidth).
        if (auto *value = qobject_cast<QValueAxis *>(axis); value && labelsChanged) {
            const QString format = value->labelFormat();
            value->setLabelFormat(QString());
            value->setLabelFormat(format);
        }
    }

    const auto series = chart->series();
    for (QAbstractSeries *s : series) {
        if (auto *xy = qobject_cast<QXYSeries *>(s)) {
            scaleValue(xy, "pen", xy->pen().widthF(), lines, [xy](double width) {
                QPen pen = xy->pen();
                pen.setWidthF(width);
                xy->setPen(pen);
            });
            if (auto *scatter = qobject_cast<QScatterSeries *>(s))
                scaleValue(scatter, "marker", scatter->markerSize(), fonts,
                           [scatter](double size) { scatter->setMarkerSize(size); });
        } else if (auto *area = qobject_cast<QAreaSeries *>(s)) {
            scaleValue(area, "pen", area->pen().widthF(), lines, [area](double width) {
                QPen pen = area->pen();
                pen.setWidthF(width);
                area->setPen(pen);
            });
        }
    }
}

} // namespace pbx::ui
