// SPDX-License-Identifier: MIT
#include "ui/strategies/strategyrequestdialog.h"

#include "core/session/session.h"
#include "core/session/strategy_release.h"
#include "ui/charts/strategycharts.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace pbx::ui {

namespace {

Result<std::vector<double>> numberList(const QString &text, const char *field)
{
    std::vector<double> out;
    for (const auto &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const double v = part.trimmed().toDouble(&ok);
        if (!ok)
            return makeError(ErrorCode::InvalidArgument,
                             std::string(field) + ": '" + part.trimmed().toStdString() + "' is not a number");
        out.push_back(v);
    }
    return out;
}

Result<std::vector<std::size_t>> indexList(const QString &text, const char *field)
{
    std::vector<std::size_t> out;
    for (const auto &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const uint v = part.trimmed().toUInt(&ok);
        if (!ok)
            return makeError(ErrorCode::InvalidArgument,
                             std::string(field) + ": cell numbers are integers >= 0");
        out.push_back(v);
    }
    return out;
}

} // namespace

StrategyRequestDialog::StrategyRequestDialog(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Histogram, quantile or derived answer"));
    m_kind = new QComboBox(this);
    m_kind->addItem(tr("Histogram (all cells, one charge)"), 0);
    m_kind->addItem(tr("Quantile (exponential mechanism)"), 1);
    m_kind->addItem(tr("Derived from a released histogram (free)"), 2);
    m_kind->addItem(tr("Range workload (one strategy, one charge)"), 3);
    m_column = new QComboBox(this);
    m_bins = new QLineEdit(this);
    m_bins->setPlaceholderText(tr("public edges, e.g. 0, 250, 500, 1000 (empty: one cell per value)"));
    m_where = new QLineEdit(this);
    m_where->setPlaceholderText(tr("every row"));
    m_q = new QDoubleSpinBox(this);
    m_q->setRange(0.01, 0.99);
    m_q->setSingleStep(0.05);
    m_q->setValue(0.5);
    m_of = new QComboBox(this);
    m_derived = new QComboBox(this);
    for (const char *k : {"sum", "difference", "share", "range"})
        m_derived->addItem(QString::fromLatin1(k));
    m_cells = new QLineEdit(this);
    m_cells->setPlaceholderText(tr("cell numbers from 0, e.g. 0, 1 (range: first, last)"));
    m_other = new QLineEdit(this);
    m_other->setPlaceholderText(tr("difference: minus these cells; share: within these cells"));
    m_strategy = new QComboBox(this);
    m_strategy->addItem(tr("identity"), QStringLiteral("identity"));
    m_strategy->addItem(tr("tree b=2 + least squares"), 2);
    m_strategy->addItem(tr("tree b=3 + least squares"), 3);
    m_strategy->addItem(tr("tree b=16 + least squares"), 16);
    m_workload = new QComboBox(this);
    m_workload->addItems({QStringLiteral("all-ranges"), QStringLiteral("prefixes")});
    m_error = new QDoubleSpinBox(this);
    m_error->setRange(1e-6, 1e9);
    m_error->setDecimals(4);
    m_error->setValue(20.0);
    m_confidence = new QDoubleSpinBox(this);
    m_confidence->setRange(0.5, 0.9999);
    m_confidence->setDecimals(4);
    m_confidence->setValue(0.95);

    auto *form = new QFormLayout;
    form->addRow(tr("Kind"), m_kind);
    form->addRow(tr("Column"), m_column);
    form->addRow(tr("Bins"), m_bins);
    form->addRow(tr("Where"), m_where);
    form->addRow(tr("Quantile q"), m_q);
    form->addRow(tr("Of histogram"), m_of);
    form->addRow(tr("Derived"), m_derived);
    form->addRow(tr("Cells"), m_cells);
    form->addRow(tr("Minus / within"), m_other);
    form->addRow(tr("Strategy"), m_strategy);
    form->addRow(tr("Workload"), m_workload);
    form->addRow(tr("Target ± (per cell / rows / per range)"), m_error);
    form->addRow(tr("Confidence"), m_confidence);

    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_result = new QLabel(this);
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_chart = new BarErrorChart(this);
    m_ask = new QPushButton(tr("&Ask"), this);
    m_ask->setDefault(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_ask, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_status);
    layout->addWidget(m_chart, 1);
    layout->addWidget(m_result);
    layout->addWidget(buttons);

    for (QComboBox *box : {m_kind, m_column, m_of, m_derived, m_strategy, m_workload})
        connect(box, &QComboBox::currentIndexChanged, this, &StrategyRequestDialog::refresh);
    for (QLineEdit *edit : {m_bins, m_where, m_cells, m_other})
        connect(edit, &QLineEdit::textChanged, this, &StrategyRequestDialog::refresh);
    connect(m_ask, &QPushButton::clicked, this, [this] {
        auto r = request();
        if (r)
            emit askRequested(*r);
    });
    resize(620, 720);
    refresh();
}

void StrategyRequestDialog::setSession(const session::Session *session)
{
    m_session = session;
    const QString column = m_column->currentText();
    m_column->clear();
    m_of->clear();
    if (session) {
        const auto &t = session->table();
        for (std::size_t c = 0; c < t.columnCount(); ++c)
            m_column->addItem(QString::fromStdString(t.columnInfo(c).name));
        for (const auto &e : session->events())
            if (e.status == session::EventStatus::Released && e.request.strategy
                && e.request.strategy->kind == session::StrategyRequestKind::Histogram)
                m_of->addItem(QString::fromStdString(e.request.id));
        if (const int i = m_column->findText(column); i >= 0)
            m_column->setCurrentIndex(i);
        if (m_of->count() > 0)
            m_of->setCurrentIndex(m_of->count() - 1);
    }
    refresh();
}

Result<session::QueryRequest> StrategyRequestDialog::request() const
{
    session::QueryRequest r;
    session::StrategyRequestSpec s;
    s.kind = static_cast<session::StrategyRequestKind>(m_kind->currentData().toInt());
    r.query.column = m_column->currentText().toStdString();
    r.query.where = m_where->text().trimmed().toStdString();
    r.target = {session::TargetKind::Absolute, m_error->value(), m_confidence->value()};
    switch (s.kind) {
    case session::StrategyRequestKind::Histogram: {
        auto bins = numberList(m_bins->text(), "bins");
        if (!bins)
            return bins.error();
        s.bins = *bins;
        break;
    }
    case session::StrategyRequestKind::Quantile:
        s.q = m_q->value();
        break;
    case session::StrategyRequestKind::Derived: {
        r.query.column.clear();
        s.of = m_of->currentText().toStdString();
        s.derived = *strategies::parseDerivedKind(m_derived->currentText().toStdString());
        auto cells = indexList(m_cells->text(), "cells");
        auto other = indexList(m_other->text(), "minus / within");
        if (!cells)
            return cells.error();
        if (!other)
            return other.error();
        s.cells = *cells;
        s.other = *other;
        break;
    }
    case session::StrategyRequestKind::Workload: {
        const QVariant choice = m_strategy->currentData();
        if (choice.typeId() == QMetaType::QString)
            s.strategy = {strategies::RangeStrategyKind::Identity};
        else
            s.strategy
                = {strategies::RangeStrategyKind::Tree, static_cast<std::size_t>(choice.toInt()), true, true};
        s.workload = m_workload->currentText().toStdString();
        break;
    }
    }
    r.strategy = std::move(s);
    if (!m_session)
        return makeError(ErrorCode::InvalidArgument, "no session: create one first");
    if (auto ok = session::checkStrategyRequest(r, m_session->table(), m_session->settings().neighbours); !ok)
        return ok.error();
    return r;
}

void StrategyRequestDialog::refresh()
{
    const auto kind = static_cast<session::StrategyRequestKind>(m_kind->currentData().toInt());
    const bool derived = kind == session::StrategyRequestKind::Derived;
    m_column->setEnabled(!derived);
    m_where->setEnabled(!derived);
    m_bins->setEnabled(kind == session::StrategyRequestKind::Histogram);
    m_q->setEnabled(kind == session::StrategyRequestKind::Quantile);
    for (QWidget *w : {static_cast<QWidget *>(m_of), static_cast<QWidget *>(m_derived),
                       static_cast<QWidget *>(m_cells), static_cast<QWidget *>(m_other)})
        w->setEnabled(derived);
    m_strategy->setEnabled(kind == session::StrategyRequestKind::Workload);
    m_workload->setEnabled(kind == session::StrategyRequestKind::Workload);
    auto r = request();
    m_ask->setEnabled(r.ok());
    m_status->setText(
        r.ok()
            ? (derived ? tr("Post-processing of released cells: costs nothing.")
                       : tr("One charge for the whole request; the cells come from public information only."))
            : QString::fromStdString(r.error().message));
}

void StrategyRequestDialog::showEvent(const session::LedgerEvent &event)
{
    if (event.status != session::EventStatus::Released || !event.strategyRecord) {
        m_result->setText(
            tr("%1: refused — %2")
                .arg(QString::fromStdString(event.request.id), QString::fromStdString(event.reason)));
        return;
    }
    const auto &rec = *event.strategyRecord;
    QStringList labels;
    std::vector<double> lows, highs;
    for (std::size_t i = 0; i < rec.values.size(); ++i) {
        labels << QString::fromStdString(rec.labels[i]);
        lows.push_back(rec.values[i] - rec.halfWidths[i]);
        highs.push_back(rec.values[i] + rec.halfWidths[i]);
    }
    const double confidence = event.request.target.confidence;
    if (rec.values.size() <= 80)
        m_chart->setBars(tr("%1 — released values with %2% error bars")
                             .arg(QString::fromStdString(event.request.id))
                             .arg(confidence * 100.0, 0, 'g', 4),
                         labels, rec.values, lows, highs, tr("noisy value"));
    m_result->setText(
        tr("%1: %2 · cost ε = %3 · %4")
            .arg(QString::fromStdString(event.request.id), QString::fromStdString(event.mechanism))
            .arg(event.cost, 0, 'g', 6)
            .arg(QString::fromStdString(rec.note)));
    if (m_session)
        setSession(m_session); // a new histogram can now be derived from
}

void StrategyRequestDialog::setKind(session::StrategyRequestKind kind)
{
    m_kind->setCurrentIndex(static_cast<int>(kind));
}
void StrategyRequestDialog::setColumn(const QString &column)
{
    m_column->setCurrentIndex(m_column->findText(column));
}
void StrategyRequestDialog::setTargetError(double error)
{
    m_error->setValue(error);
}
void StrategyRequestDialog::setDerived(const QString &of, const QString &derivedKind, const QString &cells,
                                       const QString &other)
{
    m_of->setCurrentIndex(m_of->findText(of));
    m_derived->setCurrentIndex(m_derived->findText(derivedKind));
    m_cells->setText(cells);
    m_other->setText(other);
}
QString StrategyRequestDialog::resultText() const
{
    return m_result->text();
}

} // namespace pbx::ui
