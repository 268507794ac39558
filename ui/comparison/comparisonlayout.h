// SPDX-License-Identifier: MIT
// The comparison view's arrangement for the width it has. Wide (≥ kWideWidth px): the
// ledger and the strategy table beside the four charts in a 2×2 grid. Narrow (≥ kSideBySideWidth
// px): beside one chart at a time, chosen by tabs (four charts of ~300 px were unreadable and were
// cut at the right edge at 1024 px). Narrower: one view at a time, tabs for the strategies and for each
// chart, each as large as the view. The strategies' column scrolls vertically on its own; nothing scrolls
// sideways at 1024×768.
#pragma once

#include <QList>
#include <QString>
#include <QWidget>

QT_FORWARD_DECLARE_CLASS(QGridLayout)
QT_FORWARD_DECLARE_CLASS(QSplitter)
QT_FORWARD_DECLARE_CLASS(QStackedWidget)
QT_FORWARD_DECLARE_CLASS(QTabWidget)

namespace pbx::ui {

class ComparisonLayout final : public QWidget
{
    Q_OBJECT
public:
    enum class Mode { Wide, Narrow, OneView };
    /// From this width on (pixels) the four charts share a grid beside the table.
    static constexpr int kWideWidth = 1280;
    /// ... and from this height on: below it the grid's charts were too short for their axis
    /// labels (docked under a 1000-px window), so one chart at a time stands beside the table.
    static constexpr int kWideHeight = 700;
    /// From this width on (and below kWideWidth) one chart stands beside the table: the table's
    /// column needs about 630 px, the chart the rest.
    static constexpr int kSideBySideWidth = 1100;

    struct Chart
    {
        QWidget *widget = nullptr;
        QString tabTitle;
    };
    /// Takes `strategies` (the ledger, table and explanation column; put in a vertical scroll area) and
    /// `charts` (in grid order: top left, top right, bottom left, bottom right); starts Wide.
    ComparisonLayout(QWidget *strategies, const QList<Chart> &charts, QWidget *parent = nullptr);

    /// Wide from kWideWidth × kWideHeight px on; else Narrow from kSideBySideWidth px wide, else
    /// OneView; in presentation mode every size times Presentation::fontFactor (1920 and 1650 px).
    static Mode modeFor(QSize available, bool presentation);
    Mode mode() const { return m_mode; }
    /// Arranges for `mode` (and gives the strategies' column its preferred height again, for the
    /// current font).
    void setMode(Mode mode);

    /// Brings chart `index` (grid order, 0–3) to the front: in the Narrow mode at once; in the
    /// others when the arrangement next shows one chart at a time (OneView keeps the strategies
    /// in front on entry). The user's own tab choices are remembered likewise.
    void setFrontChart(int index);
    int frontChart() const { return m_front; }

    /// The tabs of the Narrow mode (one chart) and of the OneView mode (strategies, then charts).
    QTabWidget *chartTabs() const { return m_chartTabs; }
    QTabWidget *viewTabs() const { return m_viewTabs; }

private:
    void fitStrategies();

    QWidget *m_strategiesContent = nullptr;
    QWidget *m_strategies = nullptr; ///< its vertical scroll area
    QList<Chart> m_charts;
    Mode m_mode = Mode::Wide;
    int m_front = 0;                       ///< the chart in front when one is shown at a time
    bool m_arranging = false;              ///< setMode is moving the charts: tab changes are not choices
    QStackedWidget *m_outer = nullptr;     ///< the splitter, or the one-view tabs
    QSplitter *m_splitter = nullptr;       ///< strategies | charts
    QStackedWidget *m_chartArea = nullptr; ///< the grid, or the chart tabs
    QWidget *m_gridPage = nullptr;
    QGridLayout *m_grid = nullptr;
    QTabWidget *m_chartTabs = nullptr;
    QTabWidget *m_viewTabs = nullptr;
};

} // namespace pbx::ui
