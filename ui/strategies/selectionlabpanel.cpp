// SPDX-License-Identifier: MIT
#include "ui/strategies/selectionlabpanel.h"

#include "ui/util/numberformat.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace pbx::ui {

SelectionLabPanel::SelectionLabPanel(QWidget *parent) : QWidget(parent)
{
    m_column = new QComboBox(this);
    m_epsilon = new QDoubleSpinBox(this);
    m_epsilon->setDecimals(3);
    m_epsilon->setRange(0.001, 10.0);
    m_epsilon->setSingleStep(0.05);
    m_epsilon->setValue(0.1);
    m_neighbours = new QComboBox(this);
    m_neighbours->addItem(tr("add/remove one row"), static_cast<int>(data::Neighbouring::AddRemove));
    m_neighbours->addItem(tr("replace one row"), static_cast<int>(data::Neighbouring::Replace));
    auto *run = new QPushButton(tr("Selection probabilities"), this);
    connect(run, &QPushButton::clicked, this, &SelectionLabPanel::runRequested);
    m_table = new QTableWidget(this);
    m_table->setColumnCount(4);
    m_table->setHorizontalHeaderLabels(
        {tr("Category"), tr("True count"), tr("P(exponential)"), tr("P(report-noisy-max)")});
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_summary = new QLabel(this);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *form = new QFormLayout;
    form->addRow(tr("Column"), m_column);
    form->addRow(tr("ε per pick"), m_epsilon);
    form->addRow(tr("Neighbours"), m_neighbours);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(run, 0, Qt::AlignLeft);
    layout->addWidget(m_table, 2);
    layout->addWidget(m_summary, 1);
}

void SelectionLabPanel::setTable(const std::shared_ptr<const data::Table> &table)
{
    const QString previous = m_column->currentText();
    m_column->clear();
    if (!table)
        return;
    for (std::size_t c = 0; c < table->columnCount(); ++c) {
        const auto &info = table->columnInfo(c);
        if (info.type == data::ColumnType::Categorical && !info.domainFromData && info.categories.size() >= 2)
            m_column->addItem(QString::fromStdString(info.name));
    }
    const int keep = m_column->findText(previous);
    m_column->setCurrentIndex(keep >= 0 ? keep : std::max(0, m_column->findText(QStringLiteral("region"))));
}

strategies::LabConfig SelectionLabPanel::config() const
{
    strategies::LabConfig c;
    c.experiment = strategies::LabExperiment::Selection;
    c.column = m_column->currentText().toStdString();
    c.epsilon = m_epsilon->value();
    c.neighbours = static_cast<data::Neighbouring>(m_neighbours->currentData().toInt());
    return c;
}

void SelectionLabPanel::showResult(const strategies::SelectionLabResult &result)
{
    m_table->setRowCount(static_cast<int>(result.labels.size()));
    for (std::size_t i = 0; i < result.labels.size(); ++i) {
        const int row = static_cast<int>(i);
        m_table->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(result.labels[i])));
        m_table->setItem(row, 1, new QTableWidgetItem(QString::number(result.counts[i])));
        for (std::size_t m = 0; m < result.mechanisms.size() && m < 2; ++m)
            m_table->setItem(row, 2 + static_cast<int>(m),
                             new QTableWidgetItem(formatNumber(result.mechanisms[m].probabilities[i], 6)));
    }
    QStringList lines;
    for (const auto &m : result.mechanisms) {
        const bool em = m.mechanism == strategies::SelectionMechanism::Exponential;
        lines << tr("%1: η = %2 per count; a zCDP filter charges ρ = %3 per pick (%4); with probability "
                    "≥ 95 % the pick's count is within %5 rows of the largest; expected gap %6 rows.")
                     .arg(em ? tr("Exponential mechanism") : tr("Report-noisy-max"), formatNumber(m.eta, 4),
                          formatNumber(m.zcdpRho, 4),
                          em ? tr("ε²/8: bounded range") : tr("ε²/2: not bounded range"),
                          formatNumber(m.gapBound95, 4), formatNumber(m.expectedGap, 4));
    }
    lines << tr("Simulation on public data: the true counts are shown; a session's mode request releases "
                "only the picked category.");
    m_summary->setText(lines.join(QLatin1Char('\n')));
}

QString SelectionLabPanel::summaryText() const
{
    return m_summary->text();
}

} // namespace pbx::ui
