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

/// Sets `object`'s size `key` (read with `get`, written with `set`) to normal × scale, where normal
/// is the size the chart's code set: the remembered one while the size is still the one applied
/// here, else the size read (the code replaced it). Touches nothing when never scaled and the scale
/// is 1. The size applied is read back, so a size the object rounds is still recognised as ours.
void scaleValue(QObject *object, const char *key, double scale, const std::function<double()> &get,
                const std::function<void(double)> &set)
{
    const QByteArray normalKey = QByteArrayLiteral("pbxNormal_") + key;
    const QByteArray appliedKey = QByteArrayLiteral("pbxApplied_") + key;
    const QVariant applied = object->property(appliedKey.constData());
    if (!applied.isValid() && scale == 1.0)
        return;
    const double current = get();
    const bool ours = applied.isValid() && std::abs(applied.toDouble() - current) < 1e-9;
    const double normal = ours ? object->property(normalKey.constData()).toDouble() : current;
    const double target = normal * scale;
    if (std::abs(target - current) > 1e-9)
        set(target);
    object->setProperty(normalKey.constData(), normal);
    object->setProperty(appliedKey.constData(), get());
}

/// Scales a pen read with `get` and written with `set`.
void scalePen(QObject *object, double scale, const std::function<QPen()> &get,
              const std::function<void(const QPen &)> &set)
{
    scaleValue(
        object, "pen", scale, [&] { return get().widthF(); },
        [&](double width) {
            QPen pen = get();
            pen.setWidthF(width);
            set(pen);
        });
}

QFont scaledFont(QFont font, double ratio)
{
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * ratio);
    else
        font.setPixelSize(std::max(1, static_cast<int>(std::lround(font.pixelSize() * ratio))));
    return font;
}

} // namespace

void scaleChartFonts(QChart *chart, double ratio)
{
    if (!chart || !(ratio > 0.0) || ratio == 1.0)
        return;
    chart->setTitleFont(scaledFont(chart->titleFont(), ratio));
    chart->legend()->setFont(scaledFont(chart->legend()->font(), ratio));
    const auto axes = chart->axes();
    for (QAbstractAxis *axis : axes) {
        axis->setTitleFont(scaledFont(axis->titleFont(), ratio));
        axis->setLabelsFont(scaledFont(axis->labelsFont(), ratio));
        // Qt 6.4 caches a value axis's label width: without a new format the larger labels are
        // elided (axisticks.h, refreshLabelWidth).
        if (auto *value = qobject_cast<QValueAxis *>(axis)) {
            const QString format = value->labelFormat();
            value->setLabelFormat(QString());
            value->setLabelFormat(format);
        }
    }
}

QFont scaledApplicationFont(double sizeFactor)
{
    return scaledFont(QApplication::font(), sizeFactor);
}

void setRelativeFont(QWidget *widget, double sizeFactor, std::optional<QFont::Weight> weight)
{
    if (!widget || !(sizeFactor > 0.0))
        return;
    const auto apply = [widget, sizeFactor, weight] {
        QFont font = scaledApplicationFont(sizeFactor);
        if (weight)
            font.setWeight(*weight);
        widget->setFont(font);
    };
    apply();
    // Once per widget: a later call replaces the factor, not adds a second connection.
    const char *key = "pbxRelativeFont";
    if (auto *old = widget->property(key).value<QObject *>())
        delete old;
    auto *follower = new QObject(widget);
    widget->setProperty(key, QVariant::fromValue(follower));
    QObject::connect(&Presentation::instance(), &Presentation::changed, follower, apply);
}

void applyPresentationStyle(QChart *chart)
{
    if (!chart)
        return;
    const Presentation &mode = Presentation::instance();
    const double lines = mode.lineScale();
    const auto series = chart->series();
    for (QAbstractSeries *s : series) {
        if (auto *xy = qobject_cast<QXYSeries *>(s)) {
            scalePen(
                xy, lines, [xy] { return xy->pen(); }, [xy](const QPen &pen) { xy->setPen(pen); });
            if (auto *scatter = qobject_cast<QScatterSeries *>(s))
                scaleValue(
                    scatter, "marker", mode.fontScale(), [scatter] { return scatter->markerSize(); },
                    [scatter](double size) { scatter->setMarkerSize(size); });
        } else if (auto *area = qobject_cast<QAreaSeries *>(s)) {
            scalePen(
                area, lines, [area] { return area->pen(); }, [area](const QPen &pen) { area->setPen(pen); });
        }
    }
}

} // namespace pbx::ui
