// SPDX-License-Identifier: MIT
// Presentation mode (View ▸ Presentation mode), for a projector: the application font grows by
// fontFactor, every chart's fonts (title, legend, axis titles and tick labels) by the same factor and
// its series' lines by lineFactor. One switch for the whole application, applied live: charts on
// the shared frame restyle themselves on changed(), painted widgets read lineScale() when they paint.
#pragma once

#include <QFont>
#include <QObject>

QT_FORWARD_DECLARE_CLASS(QChart)

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

/// Scales `chart`'s fonts by Presentation::fontScale() and its series' pens (and scatter markers)
/// by lineScale(), relative to the sizes the chart's own code last set. Idempotent: each object
/// remembers its normal size and the size applied, so a chart that sets a new pen or font (e.g. in
/// a rebuild) gets it scaled on the next call, and switching off restores the normal sizes.
void applyPresentationStyle(QChart *chart);

} // namespace pbx::ui
