// SPDX-License-Identifier: MIT
#include "ui/comparison/comparisonlayout.h"

#include "ui/charts/presentation.h"
#include "ui/widgets/fitscrollarea.h"

#include <QGridLayout>
#include <QScopedValueRollback>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QVBoxLayout>

namespace pbx::ui {

ComparisonLayout::ComparisonLayout(QWidget *strategies, const QList<Chart> &charts, QWidget *parent)
    : QWidget(parent), m_charts(charts)
{
    // The strategies' column scrolls down on its own rather than making the view (and the chart
    // beside it) taller than a 768-px screen.
    m_strategiesContent = strategies;
    m_strategies = new FitScrollArea(strategies, Qt::Vertical, this);
    m_gridPage = new QWidget(this);
    m_grid = new QGridLayout(m_gridPage);
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setSpacing(6);
    m_chartTabs = new QTabWidget(this);
    m_chartTabs->setObjectName(QStringLiteral("comparisonChartTabs"));
    m_chartTabs->setDocumentMode(true);
    m_chartArea = new QStackedWidget(this);
    m_chartArea->addWidget(m_gridPage);
    m_chartArea->addWidget(m_chartTabs);

    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(m_strategies);
    m_splitter->addWidget(m_chartArea);
    m_splitter->setStretchFactor(0, 2);
    m_splitter->setStretchFactor(1, 3);
    m_splitter->setSizes({540, 850});

    m_viewTabs = new QTabWidget(this);
    m_viewTabs->setObjectName(QStringLiteral("comparisonViewTabs"));
    m_viewTabs->setDocumentMode(true);
    // The chart the user (or a lesson step) brought to the front, kept across arrangements.
    connect(m_chartTabs, &QTabWidget::currentChanged, this, [this](int index) {
        if (!m_arranging && index >= 0)
            m_front = index;
    });
    connect(m_viewTabs, &QTabWidget::currentChanged, this, [this](int index) {
        if (!m_arranging && index >= 1)
            m_front = index - 1;
    });
    m_outer = new QStackedWidget(this);
    m_outer->addWidget(m_splitter);
    m_outer->addWidget(m_viewTabs);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_outer);

    for (int i = 0; i < m_charts.size(); ++i)
        m_grid->addWidget(m_charts[i].widget, i / 2, i % 2);
    m_outer->setCurrentWidget(m_splitter);
    m_chartArea->setCurrentWidget(m_gridPage);
}

ComparisonLayout::Mode ComparisonLayout::modeFor(QSize available, bool presentation)
{
    // Presentation mode's larger text needs its factor more room for the same arrangement.
    const double scale = presentation ? Presentation::fontFactor : 1.0;
    if (available.width() >= kWideWidth * scale && available.height() >= kWideHeight * scale)
        return Mode::Wide;
    return available.width() >= kSideBySideWidth * scale ? Mode::Narrow : Mode::OneView;
}

void ComparisonLayout::fitStrategies()
{
    // At its preferred height, scrolling when there is less: squeezed to its minimum, its
    // explanations were cut mid-line.
    const int preferred = m_strategiesContent->sizeHint().height();
    if (m_strategiesContent->minimumHeight() != preferred)
        m_strategiesContent->setMinimumHeight(preferred);
}

void ComparisonLayout::setFrontChart(int index)
{
    if (index < 0 || index >= m_charts.size())
        return;
    m_front = index;
    const QScopedValueRollback<bool> arranging(m_arranging, true);
    if (m_mode == Mode::Narrow)
        m_chartTabs->setCurrentIndex(index);
}

void ComparisonLayout::setMode(Mode mode)
{
    fitStrategies();
    if (mode == m_mode)
        return;
    // Which chart was in front stays in front (also one chosen while all four were shown).
    const int front = m_front;
    // Entering one view at a time, the strategies come first.
    const bool strategiesInFront = m_mode != Mode::OneView || m_viewTabs->currentIndex() == 0;
    const QScopedValueRollback<bool> arranging(m_arranging, true);
    m_mode = mode;
    m_chartTabs->clear();
    m_viewTabs->clear();
    if (mode == Mode::OneView) {
        m_viewTabs->addTab(m_strategies, tr("Strategies"));
        for (const Chart &chart : std::as_const(m_charts))
            m_viewTabs->addTab(chart.widget, chart.tabTitle);
        m_viewTabs->setCurrentIndex(strategiesInFront ? 0 : front + 1);
        m_outer->setCurrentWidget(m_viewTabs);
        return;
    }
    if (m_strategies->parentWidget() != m_splitter) {
        m_splitter->insertWidget(0, m_strategies);
        m_strategies->show();
    }
    if (mode == Mode::Narrow) {
        for (const Chart &chart : std::as_const(m_charts))
            m_chartTabs->addTab(chart.widget, chart.tabTitle);
        m_chartTabs->setCurrentIndex(front);
        m_chartArea->setCurrentWidget(m_chartTabs);
    } else {
        for (int i = 0; i < m_charts.size(); ++i) {
            m_grid->addWidget(m_charts[i].widget, i / 2, i % 2);
            m_charts[i].widget->show();
        }
        m_chartArea->setCurrentWidget(m_gridPage);
    }
    m_outer->setCurrentWidget(m_splitter);
    // The table's column at its minimum, up to 40 %: the charts get the rest.
    const int total = std::max(m_splitter->width(), 2);
    const int left = std::max(m_strategies->minimumSizeHint().width(), total * 2 / 5);
    m_splitter->setSizes({left, std::max(1, total - left)});
}

} // namespace pbx::ui
