// SPDX-License-Identifier: MIT
#include "ui/widgets/columnfitter.h"

#include <QAction>
#include <QEvent>
#include <QHeaderView>
#include <QMenu>
#include <QScrollBar>
#include <QTableView>
#include <QTimer>
#include <QTreeView>

#include <algorithm>

namespace pbx::ui {

ColumnFitter::ColumnFitter(QAbstractItemView *view, QHeaderView *header, QList<int> optional)
    : QObject(view), m_view(view), m_header(header), m_optional(std::move(optional)),
      m_refitTimer(new QTimer(this))
{
    // One refit for a burst of model changes (a lesson asks 40 requests in a row).
    m_refitTimer->setSingleShot(true);
    m_refitTimer->setInterval(0);
    connect(m_refitTimer, &QTimer::timeout, this, &ColumnFitter::refit);
}

ColumnFitter *ColumnFitter::install(QTableView *view, QList<int> optional)
{
    return attach(view, view->horizontalHeader(), std::move(optional));
}

ColumnFitter *ColumnFitter::install(QTreeView *view, QList<int> optional)
{
    return attach(view, view->header(), std::move(optional));
}

ColumnFitter *ColumnFitter::attach(QAbstractItemView *view, QHeaderView *header, QList<int> optional)
{
    auto *fitter = new ColumnFitter(view, header, std::move(optional));
    view->viewport()->installEventFilter(fitter);
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(header, &QHeaderView::customContextMenuRequested, fitter, &ColumnFitter::showMenu);
    connect(header, &QHeaderView::sectionResized, fitter,
            [fitter](int column, int, int newSize) { fitter->onSectionResized(column, newSize); });
    fitter->refit();
    return fitter;
}

int ColumnFitter::visibleWidth() const
{
    int width = 0;
    for (int c = 0; c < m_header->count(); ++c)
        if (!m_header->isSectionHidden(c))
            width += m_header->sectionSize(c);
    return width;
}

void ColumnFitter::setElastic(int column, int minimumWidth)
{
    m_elastic = column;
    m_elasticMinimum = minimumWidth;
    m_elasticNatural = m_header->sectionSize(column);
    refit();
}

void ColumnFitter::setFitToContents(QList<int> columns)
{
    m_contentSized = std::move(columns);
    QAbstractItemModel *model = m_view->model();
    if (model) {
        for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
            connect(model, signal, m_refitTimer, qOverload<>(&QTimer::start));
        connect(model, &QAbstractItemModel::modelReset, m_refitTimer, qOverload<>(&QTimer::start));
        connect(model, &QAbstractItemModel::layoutChanged, m_refitTimer, qOverload<>(&QTimer::start));
        connect(model, &QAbstractItemModel::dataChanged, m_refitTimer, qOverload<>(&QTimer::start));
    }
    refit();
}

void ColumnFitter::sizeToContents()
{
    for (int c : m_contentSized) {
        if (m_header->isSectionHidden(c))
            continue;
        // sizeHintForColumn measures the rows in (and near) the viewport, with the cell margins.
        const int width = std::max(m_view->sizeHintForColumn(c), m_header->sectionSizeHint(c));
        if (width > 0 && m_header->sectionSize(c) != width)
            m_header->resizeSection(c, width);
    }
}

void ColumnFitter::onSectionResized(int column, int newSize)
{
    if (m_fitting)
        return;
    if (column == m_elastic && newSize > 0)
        m_elasticNatural = newSize; // the application's (or the user's) width
    if (!m_resizing)
        refit();
}

void ColumnFitter::resizeColumns(const std::function<void()> &resize)
{
    m_fitting = true;
    for (int c : m_fittedAway)
        m_header->setSectionHidden(c, false);
    m_fittedAway.clear();
    if (m_elastic >= 0 && m_elasticNatural > 0)
        m_header->resizeSection(m_elastic, m_elasticNatural);
    m_fitting = false;
    m_resizing = true;
    resize();
    m_resizing = false;
    refit();
}

void ColumnFitter::refit()
{
    if (m_fitting || m_resizing)
        return;
    m_fitting = true;
    // Measured without the stretch of the last section, which fills whatever is left.
    const bool stretch = m_header->stretchLastSection();
    m_header->setStretchLastSection(false);
    // Everything hidden or narrowed to fit comes back, then gives way again while too wide.
    for (int c : m_fittedAway)
        m_header->setSectionHidden(c, false);
    m_fittedAway.clear();
    if (m_elastic >= 0 && m_elasticNatural > 0)
        m_header->resizeSection(m_elastic, m_elasticNatural);
    sizeToContents();
    const int room = m_view->viewport()->width();
    for (int c : m_optional) {
        if (visibleWidth() <= room)
            break;
        if (m_header->isSectionHidden(c) || m_chosenShown.contains(c))
            continue;
        m_header->setSectionHidden(c, true);
        m_fittedAway.append(c);
    }
    if (const int excess = visibleWidth() - room;
        excess > 0 && m_elastic >= 0 && !m_header->isSectionHidden(m_elastic))
        m_header->resizeSection(m_elastic,
                                std::max(m_elasticMinimum, m_header->sectionSize(m_elastic) - excess));
    m_header->setStretchLastSection(stretch);
    m_fitting = false;
}

void ColumnFitter::setColumnHidden(int column, bool hidden)
{
    m_fittedAway.removeAll(column);
    m_header->setSectionHidden(column, hidden);
    refit();
}

void ColumnFitter::choose(int column, bool shown)
{
    // A column hidden by choice is not in m_fittedAway, so refit never shows it again.
    if (shown)
        m_chosenShown.insert(column);
    else
        m_chosenShown.remove(column);
    m_fittedAway.removeAll(column);
    m_header->setSectionHidden(column, !shown);
    refit();
}

void ColumnFitter::showMenu(const QPoint &at)
{
    QMenu menu(m_view);
    menu.addSection(tr("Columns"));
    for (int c : m_optional) {
        QAction *action = menu.addAction(m_view->model()->headerData(c, Qt::Horizontal).toString());
        action->setCheckable(true);
        action->setChecked(!m_header->isSectionHidden(c));
        connect(action, &QAction::toggled, this, [this, c](bool on) { choose(c, on); });
    }
    menu.exec(m_header->mapToGlobal(at));
}

bool ColumnFitter::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_view->viewport() && event->type() == QEvent::Resize)
        refit();
    return QObject::eventFilter(watched, event);
}

} // namespace pbx::ui
