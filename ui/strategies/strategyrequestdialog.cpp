// SPDX-License-Identifier: MIT
#include "ui/strategies/strategyrequestdialog.h"

#include "core/io/strategy_record_csv.h"
#include "core/io/text_file.h"
#include "core/report/event_description.h"
#include "core/session/session.h"
#include "core/session/source_support.h"
#include "core/session/strategies/strategy_release.h"
#include "core/session/strategies/strategy_transform.h"
#include "core/util/try.h"
#include "ui/charts/strategycharts.h"
#include "ui/widgets/fitscrollarea.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include <cstdlib>

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

StrategyRequestDialog::StrategyRequestDialog(QWidget *parent)
    : RequestDialog(tr("Histogram, quantile, derived answer, range workload or mode"), parent)
{
    createFields();
    buildLayout(buildForm());
    connectFields();
    finishConstruction(QSize(620, 720));
}

void StrategyRequestDialog::createFields()
{
    m_kind = new QComboBox(this);
    m_kind->addItem(tr("Histogram (all cells, one charge)"), 0);
    m_kind->addItem(tr("Quantile (exponential mechanism)"), 1);
    m_kind->addItem(tr("Derived from a released histogram (free)"), 2);
    m_kind->addItem(tr("Range workload (one strategy, one charge)"), 3);
    m_kind->addItem(tr("Mode or top k of a category (private selection)"), 4);
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
    m_strategy->addItem(tr("all ranges measured directly"), QStringLiteral("all-ranges"));
    m_strategy->addItem(tr("tree b=2, canonical nodes (no least squares)"), -2);
    m_selection = new QComboBox(this);
    m_selection->addItem(tr("exponential mechanism (bounded range)"),
                         static_cast<int>(strategies::SelectionMechanism::Exponential));
    m_selection->addItem(tr("report-noisy-max (permute-and-flip)"),
                         static_cast<int>(strategies::SelectionMechanism::ReportNoisyMax));
    m_selection->setToolTip(tr("Both are ε-DP per pick. The exponential mechanism is also ε-bounded-range, "
                               "so a zCDP filter charges ε²/8 per pick instead of ε²/2."));
    m_picks = new QSpinBox(this);
    m_picks->setRange(1, static_cast<int>(strategies::kMaxSelectionPicks));
    m_picks->setToolTip(tr("1: the most frequent category; k: the k most frequent, picked one after "
                           "another without replacement (each pick charged)"));
    m_workload = new QComboBox(this);
    m_workload->addItems({QStringLiteral("all-ranges"), QStringLiteral("prefixes")});
    m_isotonic = new QCheckBox(tr("isotonic regression of the prefixes (PAVA)"), this);
    m_isotonic->setToolTip(tr("Cumulative answers never decrease: the least-squares projection onto "
                              "non-decreasing sequences (weights 1/variance). Post-processing, free."));
    m_nonNegative = new QCheckBox(tr("non-negative answers (clip at 0)"), this);
    m_nonNegative->setToolTip(tr("Counts are never negative: the projection onto {z ≥ 0}. No single answer's "
                                 "error grows. Post-processing, free."));
    m_transform = new QComboBox(this);
    m_transform->addItem(tr("none (the table's rows)"), QString());
    for (const char *t : {"filter", "flat-map", "group-by", "truncate", "self-join-truncated", "self-join"})
        m_transform->addItem(QString::fromLatin1(t), QString::fromLatin1(t));
    m_transform->setToolTip(tr("The rows went through a transformation of stability s (McSherry 2009): "
                               "the charge is s·ε (s²ρ on a zCDP filter). Add/remove sessions only."));
    m_transformParameter = new QSpinBox(this);
    m_transformParameter->setRange(1, 1000);
    m_transformParameter->setValue(3);
    m_transformParameter->setToolTip(tr("k for flat-map (output rows per input row), m for truncate and "
                                        "self-join-truncated (rows kept per key)"));
    m_subsample = new QDoubleSpinBox(this);
    m_subsample->setRange(0.001, 1.0);
    m_subsample->setDecimals(3);
    m_subsample->setSingleStep(0.05);
    m_subsample->setValue(1.0);
    m_subsample->setToolTip(tr("Poisson subsampling at rate p before the release: charged "
                               "ln(1 + p(e^ε − 1)) instead of ε (add/remove sessions only); the values are "
                               "the sample's."));
    m_error = new QDoubleSpinBox(this);
    m_error->setRange(1e-6, 1e9);
    m_error->setDecimals(4);
    m_error->setValue(20.0);
    m_confidence = new QDoubleSpinBox(this);
    m_confidence->setRange(0.5, 0.9999);
    m_confidence->setDecimals(4);
    m_confidence->setValue(0.95);
}

QFormLayout *StrategyRequestDialog::buildForm()
{
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
    form->addRow(tr("Selection"), m_selection);
    form->addRow(tr("Top k"), m_picks);
    // One field per line where two side by side would make the dialog wider than a 800-px screen.
    auto *post = new QVBoxLayout;
    post->addWidget(m_isotonic);
    post->addWidget(m_nonNegative);
    form->addRow(tr("Inference"), post);
    auto *transform = new QHBoxLayout;
    transform->addWidget(m_transform, 1);
    transform->addWidget(new QLabel(tr("k / m"), this));
    transform->addWidget(m_transformParameter);
    form->addRow(tr("Transformation"), transform);
    form->addRow(tr("Sample rate p"), m_subsample);
    form->addRow(tr("Target ±"), m_error);
    m_error->setToolTip(
        tr("The error bound: per cell for a histogram, in rows for a quantile, per range for a "
           "workload"));
    form->addRow(tr("Confidence"), m_confidence);
    return form;
}

void StrategyRequestDialog::buildLayout(QFormLayout *form)
{
    m_chart = new BarErrorChart(this, tr("Nothing to draw yet: press Ask to release the values."));
    m_export = new QPushButton(tr("Export &CSV…"), this);
    m_export->setEnabled(false);
    m_export->setToolTip(tr("The shown values with their error bars, one row each"));
    QDialogButtonBox *buttons = createButtons(m_status, {m_export});

    // Everything but the buttons scrolls on a small screen (a 1024×700 projector), the buttons stay.
    auto *content = new QWidget(this);
    auto *contentLayout = new QVBoxLayout(content);
    contentLayout->setContentsMargins(0, 0, 0, 0);
    contentLayout->addLayout(form);
    contentLayout->addWidget(m_status);
    contentLayout->addWidget(m_chart, 1);
    contentLayout->addWidget(m_result);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(new FitScrollArea(content, Qt::Horizontal | Qt::Vertical, this), 1);
    layout->addWidget(buttons);
}

void StrategyRequestDialog::connectFields()
{
    connect(m_export, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export released values as CSV"),
            QString::fromStdString((m_shown ? m_shown->request.id : std::string("values")) + ".csv"),
            tr("CSV files (*.csv)"));
        if (path.isEmpty())
            return;
        if (auto ok = exportCsv(path); !ok)
            m_status->setText(tr("Export CSV: %1").arg(QString::fromStdString(ok.error().message)));
    });
    for (QCheckBox *box : {m_isotonic, m_nonNegative})
        connect(box, &QCheckBox::toggled, this, &StrategyRequestDialog::refresh);
    connect(m_transformParameter, &QSpinBox::valueChanged, this, &StrategyRequestDialog::refresh);
    connect(m_picks, &QSpinBox::valueChanged, this, &StrategyRequestDialog::refresh);
    // A mode's ε per pick follows from the target: its cost line moves with it.
    for (QDoubleSpinBox *box : {m_error, m_confidence})
        connect(box, &QDoubleSpinBox::valueChanged, this, &StrategyRequestDialog::refresh);
    connect(m_subsample, &QDoubleSpinBox::valueChanged, this, &StrategyRequestDialog::refresh);
    for (QComboBox *box :
         {m_kind, m_column, m_of, m_derived, m_strategy, m_workload, m_transform, m_selection})
        connect(box, &QComboBox::currentIndexChanged, this, &StrategyRequestDialog::refresh);
    for (QLineEdit *edit : {m_bins, m_where, m_cells, m_other})
        connect(edit, &QLineEdit::textChanged, this, &StrategyRequestDialog::refresh);
}

void StrategyRequestDialog::sessionChanged()
{
    // The kinds the session's source cannot answer are offered disabled, their tooltip saying why
    // (session::sourceRefusal: the line Ask would be refused with).
    const auto *kinds = qobject_cast<QStandardItemModel *>(m_kind->model());
    for (int i = 0; kinds && i < m_kind->count(); ++i) {
        const auto kind = static_cast<session::StrategyRequestKind>(m_kind->itemData(i).toInt());
        const QString refusal = m_session ? QString::fromStdString(session::sourceRefusal(
                                    session::sourceRequestKind(kind), m_session->source().kind()))
                                          : QString();
        kinds->item(i)->setEnabled(refusal.isEmpty());
        kinds->item(i)->setToolTip(refusal);
    }
    const QString column = m_column->currentText();
    m_column->clear();
    m_of->clear();
    if (m_session) {
        const auto &t = m_session->table();
        for (std::size_t c = 0; c < t.columnCount(); ++c)
            m_column->addItem(QString::fromStdString(t.columnInfo(c).name));
        for (const auto &e : m_session->events())
            if (e.status == session::EventStatus::Released && e.request.strategy()
                && e.request.strategy()->kind == session::StrategyRequestKind::Histogram)
                m_of->addItem(QString::fromStdString(e.request.id));
        if (const int i = m_column->findText(column); i >= 0)
            m_column->setCurrentIndex(i);
        if (m_of->count() > 0)
            m_of->setCurrentIndex(m_of->count() - 1);
    }
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
        PBX_TRY(bins, numberList(m_bins->text(), "bins"));
        s.bins = bins;
        break;
    }
    case session::StrategyRequestKind::Quantile:
        s.q = m_q->value();
        break;
    case session::StrategyRequestKind::Derived: {
        r.query.column.clear();
        s.of = m_of->currentText().toStdString();
        s.derived = *strategies::parseDerivedKind(m_derived->currentText().toStdString());
        PBX_TRY(cells, indexList(m_cells->text(), "cells"));
        PBX_TRY(other, indexList(m_other->text(), "minus / within"));
        s.cells = cells;
        s.other = other;
        break;
    }
    case session::StrategyRequestKind::Workload: {
        const QVariant choice = m_strategy->currentData();
        if (choice.typeId() == QMetaType::QString)
            s.strategy = {choice.toString() == QLatin1String("all-ranges")
                              ? strategies::RangeStrategyKind::AllRanges
                              : strategies::RangeStrategyKind::Identity};
        else
            s.strategy = {strategies::RangeStrategyKind::Tree,
                          static_cast<std::size_t>(std::abs(choice.toInt())), true, choice.toInt() > 0};
        s.workload = m_workload->currentText().toStdString();
        s.post.isotonicPrefix = m_isotonic->isChecked();
        s.post.nonNegative = m_nonNegative->isChecked();
        break;
    }
    case session::StrategyRequestKind::Mode:
        s.selection = static_cast<strategies::SelectionMechanism>(m_selection->currentData().toInt());
        s.picks = static_cast<std::size_t>(m_picks->value());
        break;
    }
    if (s.kind != session::StrategyRequestKind::Derived && s.kind != session::StrategyRequestKind::Mode) {
        const QString transform = m_transform->currentData().toString();
        if (!transform.isEmpty())
            s.transform = session::RequestTransform{*strategies::parseTransformation(transform.toStdString()),
                                                    static_cast<unsigned>(m_transformParameter->value())};
        s.subsample = m_subsample->value();
    }
    r.spec = std::move(s);
    if (!m_session)
        return makeError(ErrorCode::InvalidArgument, "no session: create one first");
    // What the session's source cannot answer is said first, as Session::ask refuses it first.
    PBX_RETURN_IF_ERROR(session::checkRequestOnSource(r, m_session->table(), m_session->source().kind()));
    PBX_RETURN_IF_ERROR(
        session::checkStrategyRequest(r, m_session->table(), m_session->settings().neighbours));
    return r;
}

void StrategyRequestDialog::refresh()
{
    const auto kind = static_cast<session::StrategyRequestKind>(m_kind->currentData().toInt());
    const bool derived = kind == session::StrategyRequestKind::Derived;
    const bool mode = kind == session::StrategyRequestKind::Mode;
    m_error->setSuffix(kind == session::StrategyRequestKind::Quantile   ? tr(" rows")
                       : kind == session::StrategyRequestKind::Workload ? tr(" per range")
                       : mode                                           ? tr(" rows of count gap")
                                                                        : tr(" per cell"));
    m_selection->setEnabled(mode);
    m_picks->setEnabled(mode);
    m_column->setEnabled(!derived);
    m_where->setEnabled(!derived);
    m_bins->setEnabled(kind == session::StrategyRequestKind::Histogram);
    m_q->setEnabled(kind == session::StrategyRequestKind::Quantile);
    for (QWidget *w : {static_cast<QWidget *>(m_of), static_cast<QWidget *>(m_derived),
                       static_cast<QWidget *>(m_cells), static_cast<QWidget *>(m_other)})
        w->setEnabled(derived);
    const bool workload = kind == session::StrategyRequestKind::Workload;
    m_strategy->setEnabled(workload);
    m_workload->setEnabled(workload);
    m_isotonic->setEnabled(workload && m_workload->currentText() == QLatin1String("prefixes"));
    if (!m_isotonic->isEnabled())
        m_isotonic->setChecked(false);
    m_nonNegative->setEnabled(workload);
    if (!workload)
        m_nonNegative->setChecked(false);
    m_transform->setEnabled(!derived && !mode);
    const QString transform = m_transform->currentData().toString();
    m_transformParameter->setEnabled(!derived
                                     && (transform == QLatin1String("flat-map")
                                         || transform == QLatin1String("truncate")
                                         || transform == QLatin1String("self-join-truncated")));
    m_subsample->setEnabled(!derived && !mode);
    auto r = request();
    m_ask->setEnabled(r.ok());
    QString text = r.ok() ? (derived ? tr("Post-processing of released cells: costs nothing.")
                                     : tr("One charge for the whole request; the cells come from public "
                                          "information only."))
                          : QString::fromStdString(r.error().message);
    if (r.ok() && mode)
        text = modeCostText(*r);
    else if (r.ok() && !derived) {
        const auto &spec = *r->strategy();
        const unsigned s = *session::requestStability(spec, m_session->settings().neighbours);
        if (spec.transform)
            text += tr(" Stability s = %1: the charge is s·ε (s²ρ on a zCDP filter).").arg(s);
        if (spec.subsample < 1.0)
            text += tr(" Poisson sample at p = %1: the charge is ln(1 + p(e^(sε) − 1)); the values are the "
                       "sample's.")
                        .arg(spec.subsample);
    }
    m_status->setText(text);
}

QString StrategyRequestDialog::modeCostText(const session::QueryRequest &request) const
{
    const auto cost = session::modeCost(request, m_session->table(), m_session->settings().neighbours);
    if (!(cost.epsilonPerPick > 0.0))
        return tr("One declared category: it is the mode; no data is read and nothing is charged.");
    const auto &filter = m_session->filter();
    const bool exponential = cost.charge.kind == filters::ChargeKind::BoundedRange;
    QString charge;
    if (filter.primaryKind() == filters::ChargeKind::Rho && filter.kind() != filters::FilterKind::Advanced)
        charge = exponential ? tr("zCDP: ρ = %1 — the exponential mechanism is bounded-range (ε²/8 per pick)")
                                   .arg(filters::boundedRangeRho(cost.charge).amount, 0, 'g', 4)
                             : tr("zCDP: ρ = %1 — report-noisy-max is not bounded-range ((kε)²/2)")
                                   .arg(cost.charge.amount * cost.charge.amount / 2.0, 0, 'g', 4);
    else if (filter.kind() == filters::FilterKind::Rdp)
        charge = exponential ? tr("Rényi filter: the bounded-range curve r_BR(α; ε) per pick")
                             : tr("Rényi filter: the pure-ε curve of kε");
    else
        charge = tr("ε = %1").arg(cost.epsilonPerPick * static_cast<double>(cost.picks), 0, 'g', 4);
    return tr("%1 at ε = %2 each (%3, %4 neighbours) · charged %5%6. The result names the categories, "
              "never their counts.")
        .arg(cost.picks == 1 ? tr("1 pick") : tr("%1 picks").arg(cost.picks))
        .arg(cost.epsilonPerPick, 0, 'g', 4)
        .arg(exponential ? tr("η = ε per count") : tr("noise scale 1/η"),
             QString::fromStdString(std::string(data::neighbouringName(m_session->settings().neighbours))),
             charge, cost.capped ? tr(" — capped by max cost: the target is not met") : QString());
}

void StrategyRequestDialog::showEvent(const session::LedgerEvent &event)
{
    if (event.status != session::EventStatus::Released || !event.strategyRecord()) {
        m_result->setText(
            tr("%1: refused — %2")
                .arg(QString::fromStdString(event.request.id), QString::fromStdString(event.reason)));
        return;
    }
    const auto &rec = *event.strategyRecord();
    m_shown = event;
    m_export->setEnabled(true);
    if (const std::string picks = report::selectionText(event); !picks.empty()) {
        // A mode releases categories: no bars (a count would be a separate, charged release).
        m_result->setText(tr("%1: %2 — %3 · cost ε = %4 · %5")
                              .arg(QString::fromStdString(event.request.id), QString::fromStdString(picks),
                                   QString::fromStdString(event.mechanismName()))
                              .arg(event.cost, 0, 'g', 6)
                              .arg(QString::fromStdString(rec.note)));
        return;
    }
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
            .arg(QString::fromStdString(event.request.id), QString::fromStdString(event.mechanismName()))
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
void StrategyRequestDialog::setWorkload(int strategyIndex, const QString &workload)
{
    m_strategy->setCurrentIndex(strategyIndex);
    m_workload->setCurrentIndex(m_workload->findText(workload));
}
void StrategyRequestDialog::setPost(bool isotonicPrefix, bool nonNegative)
{
    m_isotonic->setChecked(isotonicPrefix);
    m_nonNegative->setChecked(nonNegative);
}
void StrategyRequestDialog::setSelection(strategies::SelectionMechanism mechanism, int picks)
{
    m_selection->setCurrentIndex(std::max(0, m_selection->findData(static_cast<int>(mechanism))));
    m_picks->setValue(picks);
}
void StrategyRequestDialog::setTransform(const QString &kind, int parameter, double subsample)
{
    m_transform->setCurrentIndex(std::max(0, m_transform->findData(kind)));
    m_transformParameter->setValue(parameter);
    m_subsample->setValue(subsample);
}
Result<void> StrategyRequestDialog::exportCsv(const QString &path) const
{
    if (!m_shown)
        return makeError(ErrorCode::InvalidArgument, "nothing released is shown yet");
    PBX_TRY(csv, io::writeStrategyRecordCsv(*m_shown));
    return io::writeTextFileAtomically(path.toStdString(), csv);
}
} // namespace pbx::ui
