// SPDX-License-Identifier: MIT
// Presentation mode (View ▸ Presentation mode), for a projector: the application font grows by
// fontFactor, every chart's fonts (title, legend, axis titles and tick labels) with it and its
// series' lines by lineFactor. One switch for the whole application, applied live: charts on the
// shared frame rescale their fonts when the widget font changes and their pens on changed();
// painted widgets use the font and read lineScale() when they paint.
#pragma once

#include <QFont>
#include <QObject>

#include <optional>

QT_FORWARD_DECLARE_CLASS(QChart)
QT_FORWARD_DECLARE_CLASS(QWidget)

namespace pbx::ui {

class Presentation final : public QObject
{
    Q_OBJECT
public:
    /// Application and chart fonts in presentation mode, relative to normal.
    static constexpr double fontFactor = 1.5;
    /// Series pen widths (lines, area borders, error bars, diagram strokes), relative to normal.
    static constexpr double lineFactor = 1.8;

    /// The one switch (created on first use, lives as long as the application).
    static Presentation &instance();

    bool isEnabled() const { return m_enabled; }
    /// Turns presentation mode on or off: scales QApplication's font by fontFactor (restores the
    /// font it had when switched on) and emits changed(). Nothing happens when `on` is the state.
    void setEnabled(bool on);
    /// fontFactor when enabled, else 1.
    double fontScale() const { return m_enabled ? fontFactor : 1.0; }
    /// lineFactor when enabled, else 1.
    double lineScale() const { return m_enabled ? lineFactor : 1.0; }

Q_SIGNALS:
    void changed(bool enabled);

private:
    Presentation() = default;
    bool m_enabled = false;
    QFont m_normalFont;
};

/// Multiplies every font of `chart` (title, legend, axis titles and tick labels) by `ratio` > 0.
/// Qt Charts' fonts do not follow the widget's: ChartFrame calls this when its font changes (the
/// application font in presentation mode), with new size / old size, so fonts the chart's code set
/// and fonts from the chart theme (which starts from the application font) keep their proportions.
void scaleChartFonts(QChart *chart, double ratio);

/// Scales `chart`'s series pens (lines, area borders) by Presentation::lineScale() and scatter
/// markers by fontScale(), relative to the widths the chart's own code last set. Idempotent: each
/// series remembers its normal width and the width applied, so a chart that sets a new pen (e.g.
/// in a rebuild) gets it scaled on the next call, and switching off restores the normal widths.
void applyPresentationStyle(QChart *chart);

/// Gives `widget` the application font scaled by `sizeFactor` > 0 (and `weight`, when given), now
/// and again whenever presentation mode switches. A widget given its own font size (a headline,
/// a hint in a smaller font) or styled by a style sheet otherwise keeps the size it had when that
/// was set: the result card, the cost preview and the hints stayed small on the projector
///. The widget's font is then its own: set it through this function only.
void setRelativeFont(QWidget *widget, double sizeFactor, std::optional<QFont::Weight> weight = {});

/// The application font scaled by `sizeFactor` > 0 (point size, or pixel size for a pixel font).
QFont scaledApplicationFont(double sizeFactor);

} // namespace pbx::ui
