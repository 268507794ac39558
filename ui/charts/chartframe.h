// SPDX-License-Identifier: MIT
// The frame every chart in ui/charts shares: a QChart in a QChartView (or an ErrorBarChartView,
// for error bars), optionally a word-wrapping legend below it (QLegend lays its markers out on one
// line and truncates names in a narrow dock) and a message shown over the plot when there is
// nothing to draw, and a single-shot timer that coalesces updates (derived charts store plain data,
// call scheduleUpdate(), and redraw in rebuild()). Every frame can be exported (right-click ▸ Copy
// image / Save as PNG, SVG, PDF: chartexport.h) and follows presentation mode (presentation.h):
// its fonts scale with the widget's font, its series' pens with the mode's line scale.
// Qt Charts stays inside ui/charts: this header only forward-declares its classes.
#pragma once

#include <QMargins>
#include <QPointer>
#include <QSize>
#include <QString>
#include <QStringList>
#include <QWidget>

QT_FORWARD_DECLARE_CLASS(QAbstractScrollArea)
QT_FORWARD_DECLARE_CLASS(QAbstractAxis)
QT_FORWARD_DECLARE_CLASS(QChart)
QT_FORWARD_DECLARE_CLASS(QChartView)
QT_FORWARD_DECLARE_CLASS(QColor)
QT_FORWARD_DECLARE_CLASS(QEvent)
QT_FORWARD_DECLARE_CLASS(QFont)
QT_FORWARD_DECLARE_CLASS(QGridLayout)
QT_FORWARD_DECLARE_CLASS(QLabel)
QT_FORWARD_DECLARE_CLASS(QTimer)

namespace pbx::ui {

class ErrorBarChartView;

class ChartFrame : public QWidget
{
    Q_OBJECT
public:
    ~ChartFrame() override;

    /// Applies pending changes now instead of waiting for the timer (screenshots, tests).
    void flush();
    /// The wrapping legend's text (plain; empty without one), e.g. for tests and accessibility.
    QString legendText() const;
    /// Shown over the empty plot (e.g. "RDP does not apply: …"); empty when hidden.
    QString message() const;

    static constexpr int coalesceMilliseconds = 50;
    /// Milliseconds (≥ 0) the chart waits after a change before it rebuilds, so that changes in
    /// a row rebuild it once (coalesceMilliseconds by default; 0: on the next event-loop turn,
    /// for a chart whose data arrive all at once, as the comparison view's).
    void setCoalesceDelay(int milliseconds);

    /// Greys the chart while a new result is being computed (the curves shown
    /// are the last finished ones, not the settings' on screen); off restores its colours.
    /// isComputing() and the disabled legend follow at once; the grey itself after the grace
    /// period of setGreyDelay (0 by default: at once).
    void setComputing(bool computing);
    bool isComputing() const { return m_computing; }
    /// Milliseconds (≥ 0) a computation may take before its chart turns grey: a result that
    /// arrives sooner is painted once, in colour, instead of a greyed paint (the colorize effect
    /// renders the whole view off screen) followed by the result's. The comparison view uses it
    /// so that a redraw after an edit paints its charts once (bench_comparison_view).
    void setGreyDelay(int milliseconds);

    /// How a chart is framed (by default: compact, a plain view, QLegend drawn by the chart).
    struct Style
    {
        /// An ErrorBarChartView (vertical error bars over the plot) instead of a QChartView.
        bool errorBars = false;
        /// Compact: no animation, square corners and `margins` around the plot; otherwise
        /// QChart's own defaults.
        bool compact = true;
        QMargins margins{4, 4, 4, 4};
        /// QLegend hidden; a word-wrapping label below the plot instead (setLegendEntries).
        bool wrappingLegend = false;
        /// Pixels between the plot and the wrapping legend's text.
        int legendGap = 4;
        /// A centred message over the plot (setMessage).
        bool messageOverlay = false;
        /// The view's minimum size (invalid: none).
        QSize minimumViewSize;
    };

protected:
    ChartFrame(const Style &style, QWidget *parent);

    QChart *chart() const { return m_chart; }
    QChartView *view() const { return m_view; }
    /// The view when Style::errorBars, else nullptr.
    ErrorBarChartView *errorBarView() const { return m_errorBars; }

    /// Qt Charts' fonts do not follow the widget's font: a font change (e.g. presentation mode's
    /// larger application font) scales them by the same ratio.
    void changeEvent(QEvent *event) override;
    /// The wrapping legend's minimum height follows its text at its width, so that layouts never
    /// squeeze it over the plot (the relative-error lab's legend covered its axis title).
    bool eventFilter(QObject *watched, QEvent *event) override;

    /// Starts the coalescing timer (if it is not running): rebuild() follows once.
    void scheduleUpdate();
    /// Redraws from the stored data (called by the timer and flush()); charts that draw at once
    /// need not override it.
    virtual void rebuild() {}

    /// A bold chart title in the widget's font.
    void setBoldTitle(const QString &title);
    /// Shows `text` centred over the plot (empty: hides it). Charts without
    /// Style::messageOverlay get the overlay on first use.
    void setMessage(const QString &text);
    /// Nothing to draw: every axis hidden, the legend emptied and `whatToDo` (what the user does
    /// to get a chart, e.g. "Nothing to draw yet: press Run.") centred over the plot, instead of
    /// axes of made-up numbers (Qt draws −0.5…1.5 for an empty range). Charts that keep their axes
    /// show them again when they draw data (setAxesVisible).
    void showEmpty(const QString &whatToDo);
    /// Shows or hides every axis of the chart.
    void setAxesVisible(bool visible);
    /// Sets the wrapping legend (rich text entries, joined with spaces between them).
    void setLegendEntries(const QStringList &html);
    /// The height in pixels the wrapping legend would take with `html` as its entries at `width`
    /// pixels (0 without a wrapping legend or entries).
    int legendHeightFor(const QStringList &html, int width) const;
    /// The wrapping legend's label (null without one), e.g. for its tooltip.
    QLabel *legendLabel() const { return m_legend; }
    /// "<glyph in colour> text" for setLegendEntries; spaces, hyphens and en dashes inside are non-breaking,
    /// so entries wrap as wholes, except before an opening parenthesis, after a comma and around a
    /// " · ": "total ε (both sides, at δ = 1e-6)" and "budget: total ε = 1 · zCDP ρ = 0.01574" may
    /// break there, or their width alone would make a 1024-px window's path dock scroll sideways.
    static QString legendEntry(const QColor &colour, const QString &glyph, const QString &text);
    /// Axis title at 0.9 of the widget's font, not bold; with `smallLabels` the tick labels at
    /// 0.85 (the comparison view's four charts side by side).
    void styleAxis(QAbstractAxis *axis, bool smallLabels = false) const;

private:
    /// Every value axis' ticks and label format fitted to the room the layout
    /// gave it (axisticks.h fitTicks), after each layout, range or tick change.
    void scheduleAxisFit();
    void fitAxes();
    /// Sets the wrapping legend's minimum height to what its text needs at its width.
    void fitLegendHeight();
    /// Installs the grey colorize effect (still computing and not yet greyed).
    void applyGrey();
    /// Puts the message's box in the middle of the plot area's shown part (a dock that scrolls may
    /// show only the top of the chart), inside it, 240 to 340 px wide (times presentation mode's
    /// font factor; narrower in a narrower plot), after each layout of the chart and each scroll.
    /// In a plot too low for it: as wide as the plot, then in a font down to the normal size, then
    /// over the whole view (also when the plot is too small to hold a box at all).
    void placeMessage();
    /// The part of this frame its ancestors show (a scroll area's viewport, a dock), in its own
    /// coordinates; empty when none is shown. Watches the nearest scroll area from the first call.
    QRect shownPart();
    /// The chart's plot area (inside its axes) in this frame's coordinates.
    QRect plotAreaGeometry() const;

    QChart *m_chart = nullptr;
    QChartView *m_view = nullptr;
    ErrorBarChartView *m_errorBars = nullptr;
    QLabel *m_legend = nullptr;
    QLabel *m_message = nullptr;
    bool m_placingMessage = false; ///< placeMessage is running (it may set the message's font)
    /// The scroll area the frame lies in (a dock's), whose viewport and content placeMessage watches.
    QPointer<QAbstractScrollArea> m_messageScroll;
    QGridLayout *m_stack = nullptr; ///< the view
    QTimer *m_timer = nullptr;
    QTimer *m_fitTimer = nullptr;
    QTimer *m_greyTimer = nullptr; ///< the grace period of setGreyDelay
    int m_fitRounds = 0;           ///< fits in a row that changed an axis (fitAxes)
    bool m_computing = false;
    double m_fontSize = 0.0; ///< the widget font's size the chart's fonts were last scaled to

    static double fontSize(const QFont &font);
};

} // namespace pbx::ui
