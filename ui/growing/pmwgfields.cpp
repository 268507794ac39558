// SPDX-License-Identifier: MIT
#include "ui/growing/pmwgfields.h"

#include "core/growing/growing_svt.h"
#include "core/session/growing/growing_pmwg.h"
#include "core/session/growing/growing_release.h"
#include "core/session/session.h"
#include "ui/util/numberformat.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSpinBox>

namespace pbx::ui {

PmwgFields::PmwgFields(QWidget *parent) : QWidget(parent)
{
    m_universe = new QComboBox(this);
    m_universe->addItem(tr("small: region × ethnicity × smsa × parttime × education (N = 160)"),
                        QStringLiteral("small"));
    m_universe->addItem(tr("full: small × experience × weekly wage (N = 4800)"), QStringLiteral("full"));
    m_universe->setToolTip(tr("The public histogram's universe over CPS1988 (public cut points, never data "
                              "quantiles)"));
    m_mode = new QComboBox(this);
    m_mode->addItem(tr("practical (your T, η, c₀; accuracy measured, not guaranteed)"),
                    QStringLiteral("practical"));
    m_mode->addItem(tr("theory (T = 3α/4, η = α/4, c₀ = 16 ln N/α²)"), QStringLiteral("theory"));
    auto spin = [this](int decimals, double lo, double hi, double step, double value, const QString &tip) {
        auto *s = new QDoubleSpinBox(this);
        s->setDecimals(decimals);
        s->setRange(lo, hi);
        s->setSingleStep(step);
        s->setValue(value);
        s->setToolTip(tip);
        connect(s, &QDoubleSpinBox::valueChanged, this, &PmwgFields::changed);
        return s;
    };
    m_alpha = spin(3, 0.001, 0.999, 0.05, 0.1, tr("α: the target accuracy of theory mode"));
    m_p = spin(3, 0.0, 0.999, 0.1, 0.5, tr("p: the noise unit σ(t) = σ_n (n/t)^p, 0 ≤ p < 1"));
    m_c0 = spin(2, 1.0, 100000.0, 5.0, 40.0,
                tr("c₀: the time cap H(t) = ⌊c₀(1 + H_t − H_n)⌋ on hard queries, mandatory for privacy"));
    m_threshold
        = spin(3, 0.001, 0.999, 0.01, 0.05, tr("T: a query is hard when |q(x_t) − q(x̂)| (noisy) reaches T"));
    m_eta = spin(3, 0.001, 1.0, 0.05, 0.3, tr("η: the multiplicative-weights learning rate"));
    m_checkpoints = new QSpinBox(this);
    m_checkpoints->setRange(1, 10000);
    m_checkpoints->setValue(40);
    m_checkpoints->setToolTip(tr("Evenly spaced times from n to the end at which queries are asked"));
    m_perCheckpoint = new QSpinBox(this);
    m_perCheckpoint->setRange(1, 100000);
    m_perCheckpoint->setValue(25);
    m_perCheckpoint->setToolTip(tr("Random 2- or 3-way conjunctions asked at each checkpoint (drawn from the "
                                   "order seed: a public coin)"));
    for (auto *s : {m_checkpoints, m_perCheckpoint})
        connect(s, &QSpinBox::valueChanged, this, &PmwgFields::changed);
    for (auto *c : {m_universe, m_mode})
        connect(c, &QComboBox::currentIndexChanged, this, &PmwgFields::changed);
    connect(m_mode, &QComboBox::currentIndexChanged, this, &PmwgFields::updateModeRows);
    auto *form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Universe"), m_universe);
    form->addRow(tr("Mode"), m_mode);
    form->addRow(tr("α"), m_alpha);
    form->addRow(tr("Noise exponent p"), m_p);
    form->addRow(tr("Cap c₀"), m_c0);
    form->addRow(tr("Threshold T"), m_threshold);
    form->addRow(tr("Learning rate η"), m_eta);
    form->addRow(tr("Checkpoints"), m_checkpoints);
    form->addRow(tr("Queries per checkpoint"), m_perCheckpoint);
    updateModeRows();
}

void PmwgFields::updateModeRows()
{
    auto *form = static_cast<QFormLayout *>(layout());
    const bool theory = m_mode->currentData().toString() == QStringLiteral("theory");
    form->setRowVisible(m_alpha, theory);
    for (QWidget *w : std::initializer_list<QWidget *>{m_c0, m_threshold, m_eta})
        form->setRowVisible(w, !theory);
}

io::json::Json PmwgFields::block() const
{
    using io::json::Json;
    Json b{{"universe", m_universe->currentData().toString().toStdString()},
           {"mode", m_mode->currentData().toString().toStdString()},
           {"p", m_p->value()},
           {"checkpoints", std::uint64_t(m_checkpoints->value())},
           {"per_checkpoint", std::uint64_t(m_perCheckpoint->value())}};
    if (m_mode->currentData().toString() == QStringLiteral("theory")) {
        b["alpha"] = m_alpha->value();
    } else {
        b["c0"] = m_c0->value();
        b["T"] = m_threshold->value();
        b["eta"] = m_eta->value();
    }
    return b;
}

void PmwgFields::set(const QString &universe, const QString &mode, double p, double c0, double threshold,
                     double eta, int checkpoints, int perCheckpoint)
{
    if (const int i = m_universe->findData(universe); i >= 0)
        m_universe->setCurrentIndex(i);
    if (const int i = m_mode->findData(mode); i >= 0)
        m_mode->setCurrentIndex(i);
    m_p->setValue(p);
    m_c0->setValue(c0);
    m_threshold->setValue(threshold);
    m_eta->setValue(eta);
    m_checkpoints->setValue(checkpoints);
    m_perCheckpoint->setValue(perCheckpoint);
}

QString PmwgFields::planText(const session::QueryRequest &request, const session::Session &session)
{
    const auto &spec = *request.growing();
    auto unit = session::growingPmwgUnit(spec);
    if (!unit)
        return QString::fromStdString(unit.error().message);
    const auto config = session::growingPmwgConfig(spec)->resolved();
    const auto first = session::pmwgRoundCharge(spec, *unit, spec.startSize);
    const std::uint64_t end = *session::growingStreamEnd(spec, session.table());
    const growing::HardQueryCap cap{true, config.c0};
    const QString symbol = QString::fromStdString(std::string(filters::chargeUnitSymbol(first.kind)));
    return tr("%1 checkpoints × %2 random conjunctions from t = %3 to %4, answered from the public histogram; "
              "only a hard query reads the data. A sparse-vector round opens at the first query after each "
              "hard one and is charged its whole worst case then: the first %5 = %6, later ones less. At "
              "most %7 hard queries by the end (the cap; T = %8, η = %9, c₀ = %10); the charges' worst case "
              "over all transcripts is %5 = %11. σ_n = %12. Session budget left: %13 = %14.")
        .arg(spec.pmwg.checkpoints)
        .arg(spec.pmwg.perCheckpoint)
        .arg(spec.startSize)
        .arg(end)
        .arg(symbol, formatNumber(first.amount, 4))
        .arg(cap.at(spec.startSize, end))
        .arg(formatNumber(config.threshold, 4), formatNumber(config.eta, 4), formatNumber(config.c0, 4),
             formatNumber(session::pmwgChargeWorstCase(spec, *unit), 4), formatNumber(unit->sigmaN, 4),
             QString::fromStdString(std::string(session.filter().unitSymbol())),
             formatNumber(session.filter().remaining(), 4));
}

QStringList PmwgFields::outcomeLines(const session::LedgerEvent &event)
{
    QStringList lines;
    const auto &p = *event.growingRecord()->pmwg;
    std::size_t answers = 0;
    for (const auto &c : p.checkpoints)
        answers += c.answers.size();
    lines << tr("%1 answers at %2 checkpoints, %3 hard")
                 .arg(answers)
                 .arg(p.checkpoints.size())
                 .arg(p.hard.size());
    for (std::size_t i = 0; i < p.rounds.size(); ++i) {
        if (p.rounds.size() > 6 && i == 3) {
            lines << tr("… %1 more").arg(p.rounds.size() - 6);
            i = p.rounds.size() - 4;
            continue;
        }
        QString text = QString::fromStdString(session::growingEpochLabel(event, i));
        if (i < p.hard.size())
            text += tr(" — answered %1").arg(formatNumber(p.hard[i].answer, 4));
        lines << text;
    }
    return lines;
}

} // namespace pbx::ui
