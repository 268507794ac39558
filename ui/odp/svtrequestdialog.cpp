// SPDX-License-Identifier: MIT
#include "ui/odp/svtrequestdialog.h"

#include "core/session/odp/odp_release.h"
#include "core/session/session.h"
#include "core/session/source_support.h"
#include "core/util/try.h"
#include "ui/charts/odpcellchart.h"
#include "ui/odp/odptext.h"
#include "ui/util/numberformat.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace pbx::ui {

namespace {

/// Columns whose counts the sparse vector can scan, judged from the public schema alone (the
/// rule of core/odp/column_counts.h): categorical, or numeric with declared bounds spanning at
/// most 10⁴ whole numbers.
bool givesCounts(const data::ColumnInfo &info)
{
    if (info.type == data::ColumnType::Categorical)
        return true;
    if (!info.declaredBounds)
        return false;
    const double lo = std::ceil(info.declaredBounds->lower);
    const double hi = std::floor(info.declaredBounds->upper);
    return hi >= lo && hi - lo <= 10000;
}

/// The request's cells as bars: j = 0 (nothing released) … c.
std::vector<OdpCellChart::Cell> cellsOf(const odp::OdpGuarantee &g)
{
    std::vector<OdpCellChart::Cell> out;
    for (const auto &c : g.cells)
        out.push_back({QStringLiteral("j = %1").arg(c.id), c.epsilon});
    return out;
}

} // namespace

SvtRequestDialog::SvtRequestDialog(QWidget *parent) : RequestDialog(tr("Sparse vector (output DP)"), parent)
{
    m_id = new QLineEdit(this);
    m_id->setPlaceholderText(tr("automatic (q<n>)"));
    m_column = new QComboBox(this);
    m_column->setToolTip(tr("The counts of this column (one per category, or per whole number within "
                            "the declared bounds) are scanned in order"));
    m_threshold = new QSpinBox(this);
    m_threshold->setRange(-1000000000, 1000000000);
    m_threshold->setValue(1000);
    m_threshold->setToolTip(tr("T: a count is flagged (⊤) when its noisy value reaches the noisy threshold"));
    m_cutoff = new QSpinBox(this);
    m_cutoff->setRange(1, 1000);
    m_cutoff->setValue(3);
    m_cutoff->setToolTip(tr("c: the scan stops at the c-th ⊤"));
    m_epsilon = new QDoubleSpinBox(this);
    m_epsilon->setDecimals(4);
    m_epsilon->setRange(0.0001, 100.0);
    m_epsilon->setSingleStep(0.1);
    m_epsilon->setValue(0.5);
    m_epsilon->setToolTip(
        tr("ε of the whole request: the sparse vector and the release of the flagged counts"));
    m_share = new QDoubleSpinBox(this);
    m_share->setDecimals(3);
    m_share->setRange(0.001, 0.999);
    m_share->setSingleStep(0.05);
    m_share->setValue(0.5);
    m_share->setToolTip(tr("The sparse vector's share of ε, split into ε₁ and ε₂ as Lyu, Su & Li (2017) "
                           "recommend; the rest pays for the released counts"));
    m_sensitivity = new QSpinBox(this);
    m_sensitivity->setRange(1, 1000000);
    m_sensitivity->setValue(1);
    m_sensitivity->setToolTip(tr("Δ of each count (one row moves a count by 1)"));
    auto *form = new QFormLayout;
    form->addRow(tr("Request id"), m_id);
    form->addRow(tr("Column"), m_column);
    form->addRow(tr("Threshold T"), m_threshold);
    form->addRow(tr("Cut-off c"), m_cutoff);
    form->addRow(tr("ε"), m_epsilon);
    form->addRow(tr("Sparse-vector share"), m_share);
    form->addRow(tr("Sensitivity Δ"), m_sensitivity);
    m_chart = new OdpCellChart(this);
    // The cells and their costs are those of Hartmann et al. 2023 (Lemma 8): said here, so the
    // title stays whole at the dialog's smallest width.
    m_chart->setToolTip(tr("Each cell is one possible output of the sparse vector with its cost E(j) "
                           "(Hartmann et al. 2023, Lemma 8); the filter reserves the worst cell."));
    QDialogButtonBox *buttons = createButtons(m_status);
    for (auto *spin : {m_threshold, m_cutoff, m_sensitivity})
        connect(spin, &QSpinBox::valueChanged, this, &SvtRequestDialog::refresh);
    for (auto *spin : {m_epsilon, m_share})
        connect(spin, &QDoubleSpinBox::valueChanged, this, &SvtRequestDialog::refresh);
    connect(m_column, &QComboBox::currentIndexChanged, this, &SvtRequestDialog::refresh);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_status);
    layout->addWidget(m_chart, 1);
    layout->addWidget(m_result);
    layout->addWidget(buttons);
    finishConstruction(QSize(620, 640));
}

void SvtRequestDialog::sessionChanged()
{
    const QString column = m_column->currentText();
    m_column->clear();
    if (m_session) {
        const auto &t = m_session->table();
        for (std::size_t c = 0; c < t.columnCount(); ++c)
            if (givesCounts(t.columnInfo(c)))
                m_column->addItem(QString::fromStdString(t.columnInfo(c).name));
        if (const int i = m_column->findText(column); i >= 0)
            m_column->setCurrentIndex(i);
    }
}

Result<session::QueryRequest> SvtRequestDialog::request() const
{
    if (m_column->currentText().isEmpty())
        return makeError(ErrorCode::InvalidArgument, "column: no column of the dataset gives counts");
    session::QueryRequest r;
    r.id = m_id->text().trimmed().toStdString();
    session::OdpRequestSpec odp;
    odp.mechanism = session::OdpMechanism::Svt;
    odp.svt.column = m_column->currentText().toStdString();
    odp.svt.threshold = m_threshold->value();
    odp.svt.cutoff = m_cutoff->value();
    odp.svt.epsilon = m_epsilon->value();
    odp.svt.svtShare = m_share->value();
    odp.svt.sensitivity = m_sensitivity->value();
    PBX_RETURN_IF_ERROR(session::svtParametersFor(odp.svt));
    r.spec = odp;
    return r;
}

void SvtRequestDialog::refresh()
{
    const bool odpFilter = m_session && m_session->settings().filter == filters::FilterKind::Odp;
    // A source that runs no output-DP mechanism (a database table): the line Ask is refused with.
    const QString onSource = m_session ? QString::fromStdString(session::sourceRefusal(
                                 session::SourceRequestKind::Odp, m_session->source().kind()))
                                       : QString();
    auto r = request();
    m_ask->setEnabled(odpFilter && onSource.isEmpty() && r.ok());
    if (!m_session) {
        m_status->setText(tr("No session: open a dataset first."));
    } else if (!onSource.isEmpty()) {
        m_status->setText(onSource);
    } else if (!odpFilter) {
        m_status->setText(tr("The session's filter is not odp: only the output-DP filter can settle a "
                             "realised cell. Start a session with the odp filter."));
    } else if (!r) {
        m_status->setText(QString::fromStdString(r.error().message));
    }
    if (!r) {
        m_chart->setCells(tr("Cells of the request"), {}, std::nullopt, std::nullopt);
        return;
    }
    auto g = session::svtRequestGuarantee(r->odp()->svt);
    if (!g) {
        m_status->setText(QString::fromStdString(g.error().message));
        return;
    }
    const std::optional<double> remaining
        = odpFilter ? std::optional<double>(m_session->filter().remaining()) : std::nullopt;
    if (odpFilter) {
        auto p = session::svtParametersFor(r->odp()->svt);
        m_status->setText(tr("ε₁ = %1, ε₂ = %2. The filter reserves the worst cell, E* = %3, and settles in "
                             "the cell the output falls in: j = number of ⊤. ε left: %4.")
                              .arg(formatNumber(p->epsilon1, 4), formatNumber(p->epsilon2, 4),
                                   formatNumber(g->worstEpsilon(), 4), formatNumber(*remaining, 4)));
    }
    m_chart->setCells(tr("Cells of the request: E(j) = ε₁ + jε₂/c + releases"), cellsOf(*g), remaining,
                      std::nullopt);
}

void SvtRequestDialog::showOutcome(const session::LedgerEvent &event)
{
    if (!event.request.odp())
        return;
    if (event.status != session::EventStatus::Released || !event.odpRecord()) {
        m_result->setText(
            tr("%1 refused: %2 Nothing was charged.")
                .arg(QString::fromStdString(event.request.id), QString::fromStdString(event.reason)));
        refresh();
        return;
    }
    const auto &rec = *event.odpRecord();
    std::optional<int> realised;
    if (rec.cell)
        for (std::size_t i = 0; i < rec.guarantee.cells.size(); ++i)
            if (rec.guarantee.cells[i].id == *rec.cell)
                realised = static_cast<int>(i);
    const double before = event.spentAfter - event.cost;
    const std::optional<double> remaining
        = m_session ? std::optional<double>(m_session->filter().budget() - before) : std::nullopt;
    m_chart->setCells(tr("%1: cells of the request").arg(QString::fromStdString(event.request.id)),
                      cellsOf(rec.guarantee), remaining, realised);
    QStringList released;
    for (const auto &e : rec.releases)
        released << QStringLiteral("%1: %2").arg(QString::fromStdString(e.label)).arg(e.value);
    QString answers;
    for (bool a : rec.answers)
        answers += a ? QStringLiteral("⊤") : QStringLiteral("⊥");
    const QString releasedText = released.isEmpty() ? tr("Nothing flagged: no count released.")
                                                    : tr("Released counts (discrete Laplace, scale %1): %2")
                                                          .arg(formatNumber(rec.releaseScale, 4),
                                                               released.join(QStringLiteral(", ")));
    m_result->setText(
        tr("%1: %2.\nAnswers in scan order: %3\n%4")
            .arg(QString::fromStdString(event.request.id), odpOutcomeText(event), answers, releasedText));
    if (m_session)
        m_status->setText(tr("ε left now: %1.").arg(formatNumber(m_session->filter().remaining(), 4)));
}

void SvtRequestDialog::setColumn(const QString &column)
{
    if (const int i = m_column->findText(column); i >= 0)
        m_column->setCurrentIndex(i);
}

void SvtRequestDialog::setThreshold(int threshold)
{
    m_threshold->setValue(threshold);
}

void SvtRequestDialog::setCutoff(int cutoff)
{
    m_cutoff->setValue(cutoff);
}

void SvtRequestDialog::setEpsilon(double epsilon)
{
    m_epsilon->setValue(epsilon);
}

void SvtRequestDialog::setSvtShare(double share)
{
    m_share->setValue(share);
}

} // namespace pbx::ui
