// SPDX-License-Identifier: MIT
#include "ui/growing/atgpanel.h"

#include "resources/dataset_catalog.h"
#include "ui/charts/growingchart.h"
#include "ui/util/boundformat.h"
#include "ui/util/numberformat.h"
#include "ui/util/palette.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace pbx::ui {

namespace {

QString integer(std::uint64_t x)
{
    return QLocale().toString(static_cast<qulonglong>(x));
}

GrowingChart::Series series(const QString &id, const QString &name, const QColor &colour,
                            GrowingChart::Kind kind, Qt::PenStyle style = Qt::SolidLine, double width = 2.0)
{
    GrowingChart::Series s;
    s.id = id;
    s.name = name;
    s.colour = colour;
    s.kind = kind;
    s.style = style;
    s.width = width;
    return s;
}

} // namespace

AtgPanel::AtgPanel(const QStringList &predicates, QWidget *parent) : QWidget(parent)
{
    m_query = new QComboBox(this);
    for (const QString &p : predicates)
        m_query->addItem(p, p);
    m_query->setToolTip(tr("The counting query asked at every query time: its count among the rows so far."));
    m_order = new QComboBox(this);
    m_order->addItem(tr("the south last (sorted)"), QStringLiteral("sorted:region == \"south\""));
    m_order->addItem(tr("random"), QStringLiteral("random"));
    m_order->setToolTip(tr("How the CPS1988 rows arrive (seeded by the lab's seed). With the southern rows "
                           "last, the share of the south is 0 for most of the stream and then rises: an "
                           "alert \"share above T\" fires late, when the data have grown."));
    m_threshold = new QDoubleSpinBox(this);
    m_threshold->setDecimals(3);
    m_threshold->setRange(0.0, 1.0);
    m_threshold->setSingleStep(0.01);
    m_threshold->setValue(0.1);
    m_threshold->setToolTip(tr("The public threshold T as a fraction; on the count scale it is t·T, so "
                               "ATG answers ⊤ when the noisy count passes T times the rows so far."));
    m_sigma = new QDoubleSpinBox(this);
    m_sigma->setDecimals(4);
    m_sigma->setRange(0.0001, 10.0);
    m_sigma->setSingleStep(0.001);
    m_sigma->setValue(0.002);
    m_sigma->setToolTip(tr("σ_n: the noise unit at t = n as a fraction. σ(t) = σ_n (n/t)^p and "
                           "f(t) = 1/(t·σ(t)), so f(n) = 1/(n·σ_n)."));
    m_exponent = new QDoubleSpinBox(this);
    m_exponent->setDecimals(2);
    m_exponent->setRange(0.0, 1.0);
    m_exponent->setSingleStep(0.1);
    m_exponent->setValue(0.5);
    m_exponent->setToolTip(tr("p: how fast the fraction-scale noise shrinks, σ(t) = σ_n (n/t)^p "
                              "(0: constant fraction noise, 1: constant count noise)."));
    m_cap = new QSpinBox(this);
    m_cap->setRange(1, 1000);
    m_cap->setValue(3);
    m_cap->setToolTip(tr("The cap c on ⊤ answers: after c rounds have halted nothing more is "
                         "answered. Numeric Sparse needs a cap; its worst case is f(n)(1 + (7/3)c)."));
    m_queries = new QSpinBox(this);
    m_queries->setRange(2, 2000);
    m_queries->setValue(60);
    m_queries->setToolTip(tr("Query times, spaced evenly in log t from n to the last row."));
    m_naive = new QCheckBox(tr("Show the naive fraction-scale design (a counter-example)"), this);
    m_naive->setToolTip(
        tr("Noise drawn on fractions (threshold Lap(σ(s)), queries Lap(2σ(t)), sensitivity 1/t) "
           "claims the same f(s) + f(t_h) but its true loss is (1/s)/σ(s) + (1/s + 1/t_h)/(2σ(t_h)): "
           "a privacy bug, shown only to explain why ATG works on counts."));
    m_error = new QLabel(this);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(palette::labelColourStyle(palette::errorText));
    m_chart = new GrowingChart(this);
    m_chart->setMinimumHeight(320);
    m_chart->setToolTip(
        tr("Count scale: at time t the query's count plus ν ~ Lap(2·t·σ(t)) is compared with t·T plus "
           "the round's threshold noise ρ ~ Lap(s·σ(s)), drawn once at the round's first query s. A "
           "count moves by at most 1 when one row changes, at every t, so one threshold draw serves "
           "the whole round. A round that halts at t_h costs f(s) + f(t_h) with f(t) = 1/(t·σ(t)) "
           "(Cummings, Krehbiel, Lai & Tantipongpipat, NeurIPS 2018; AboveThreshold: Dwork & Roth "
           "2014, Thm 3.23)."));
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_roundCosts = new QLabel(this);
    m_roundCosts->setObjectName(QStringLiteral("atgRoundCosts"));
    m_roundCosts->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_roundCosts->setToolTip(
        tr("ATG's cost f(s) + f(t_h) of one round, f(t) = 1/(t·σ(t)), and what the naive "
           "fraction-scale design truly loses for the same round; privacy losses "
           "rounded up in the last digit."));
    m_naiveChart = new GrowingBarChart(this);
    m_naiveChart->setMinimumHeight(240);
    m_naiveChart->setToolTip(m_naive->toolTip());
    m_naiveNote = new QLabel(this);
    m_naiveNote->setWordWrap(true);
    m_naiveNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_naiveNote->setStyleSheet(palette::labelColourStyle(palette::errorText));

    auto *fields = new QHBoxLayout;
    auto *left = new QFormLayout;
    left->addRow(tr("Query"), m_query);
    left->addRow(tr("Arrival order"), m_order);
    left->addRow(tr("Threshold T"), m_threshold);
    left->addRow(tr("Query times"), m_queries);
    auto *right = new QFormLayout;
    right->addRow(tr("σ_n"), m_sigma);
    right->addRow(tr("p"), m_exponent);
    right->addRow(tr("Cap c on ⊤"), m_cap);
    fields->addLayout(left, 1);
    fields->addLayout(right, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(fields);
    layout->addWidget(m_naive);
    layout->addWidget(m_error);
    // Above the chart: a lesson opening the tab at a projector's size shows it without scrolling.
    layout->addWidget(m_roundCosts);
    layout->addWidget(m_chart, 3);
    layout->addWidget(m_note);
    layout->addWidget(m_naiveChart, 2);
    layout->addWidget(m_naiveNote);

    for (QComboBox *c : {m_query, m_order})
        connect(c, &QComboBox::currentIndexChanged, this, &AtgPanel::redraw);
    for (QDoubleSpinBox *s : {m_threshold, m_sigma, m_exponent})
        connect(s, &QDoubleSpinBox::valueChanged, this, &AtgPanel::redraw);
    for (QDoubleSpinBox *s : {m_sigma, m_exponent})
        connect(s, &QDoubleSpinBox::valueChanged, this, &AtgPanel::drawRoundCosts);
    for (QSpinBox *s : {m_cap, m_queries})
        connect(s, &QSpinBox::valueChanged, this, &AtgPanel::redraw);
    connect(m_naive, &QCheckBox::toggled, this, &AtgPanel::drawNaive);
    drawRoundCosts();
}

AtgPanel::~AtgPanel() = default;

void AtgPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (!m_trace && m_error->text().isEmpty())
        redraw();
}

void AtgPanel::setStream(std::uint64_t startSize, std::uint64_t seed)
{
    m_startSize = startSize;
    m_seed = seed;
    drawRoundCosts();
    if (isVisible() || m_trace)
        redraw();
}

AtgTraceConfig AtgPanel::config() const
{
    AtgTraceConfig c;
    c.unit = growing::NoiseUnit{m_startSize, m_sigma->value(), m_exponent->value()};
    c.cap = growing::HardQueryCap{false, double(m_cap->value())};
    c.predicate = m_query->currentData().toString().toStdString();
    c.threshold = m_threshold->value();
    c.order = m_order->currentData().toString().toStdString();
    c.queries = m_queries->value();
    return c;
}

QString AtgPanel::errorText() const
{
    return m_error->text();
}

QString AtgPanel::noteText() const
{
    return m_note->text();
}

QString AtgPanel::naiveText() const
{
    return m_naive->isChecked() ? m_naiveNote->text() : QString();
}

QString AtgPanel::roundCostsText() const
{
    return m_roundCosts->text();
}

void AtgPanel::drawRoundCosts()
{
    const growing::NoiseUnit unit = config().unit;
    if (!growing::validate(unit)) {
        m_roundCosts->clear();
        return;
    }
    // The costs do not depend on the stream: a round's start and halt and the noise unit alone.
    const std::uint64_t s = unit.startSize;
    QString rows;
    for (std::uint64_t halt = s; halt <= 1000 * s; halt *= 10)
        rows += QStringLiteral(
                    "<tr><td align=right>%1</td><td align=right>%2</td><td align=right>%3</td></tr>")
                    .arg(integer(halt), formatBound(growing::atgLoss(unit, s, halt)),
                         formatBound(growing::naiveFractionScaleLoss(unit, s, halt)));
    m_roundCosts->setText(
        tr("<b>What one round costs</b>, started at s = %1 (privacy losses rounded up):"
           "<table cellspacing=0 cellpadding=3><tr><th align=right>halts at t_h&nbsp;&nbsp;</th>"
           "<th align=right>&nbsp;&nbsp;ATG f(s) + f(t_h)</th><th align=right>&nbsp;&nbsp;naive design truly loses</th></tr>%2</table>")
            .arg(integer(s), rows));
}

void AtgPanel::redraw()
{
    m_trace.reset();
    if (!m_table && m_loadError.isEmpty()) {
        // Loaded once, on the first draw (a few hundred milliseconds).
        auto table = resources::loadDataset("cps1988");
        if (table)
            m_table = std::make_unique<data::Table>(std::move(*table));
        else
            m_loadError = QString::fromStdString(table.error().message);
    }
    auto trace = m_table ? traceAtg(*m_table, config(), m_seed)
                         : Result<AtgTrace>(makeError(ErrorCode::NotFound, m_loadError.toStdString()));
    if (!trace) {
        m_error->setText(QString::fromStdString(trace.error().message));
        m_error->show();
        m_chart->clear(tr("Nothing drawn: %1").arg(m_error->text()));
        m_note->clear();
        drawNaive();
        return;
    }
    m_error->clear();
    m_error->hide();
    m_trace = std::move(*trace);
    const AtgTrace &tr_ = *m_trace;
    const AtgTraceConfig c = config();

    auto truth = series(QStringLiteral("count"), tr("true count t·q(x_t) (simulation only)"),
                        palette::neutralGrey, GrowingChart::Kind::Line, Qt::SolidLine, 1.0);
    auto publicLine = series(QStringLiteral("public"), tr("public threshold t·T"), palette::chartInk,
                             GrowingChart::Kind::Line, Qt::DashLine, 1.0);
    auto threshold = series(QStringLiteral("threshold"), tr("noisy threshold t·T + ρ (one ρ per round)"),
                            palette::chartPurple, GrowingChart::Kind::Line);
    auto below = series(QStringLiteral("below"), tr("noisy count t·q + ν: ⊥"), palette::chartBlue,
                        GrowingChart::Kind::Scatter);
    auto above = series(QStringLiteral("above"), tr("noisy count: ⊤ (the round halts)"), palette::chartRed,
                        GrowingChart::Kind::Scatter);
    for (const AtgTracePoint &p : tr_.points) {
        const double t = double(p.t);
        truth.points.emplace_back(t, p.trueCount);
        publicLine.points.emplace_back(t, p.publicThreshold);
        if (!p.answered)
            continue;
        threshold.points.emplace_back(t, p.noisyThreshold);
        (p.hard ? above : below).points.emplace_back(t, p.noisyValue);
    }
    std::vector<GrowingChart::Band> bands;
    for (const AtgRound &r : tr_.rounds)
        bands.push_back({double(r.start), double(r.halt.value_or(tr_.end))});
    m_chart->setBandName(tr("rounds"));
    m_chart->setTitles(tr("ATG on the count scale: noisy counts against the noisy threshold"), tr("t (rows)"),
                       tr("count"));
    m_chart->setData(double(c.unit.startSize), double(tr_.end), std::move(bands),
                     {truth, publicLine, threshold, below, above});

    // Every f(·) and sum below is a privacy loss: rounded up, as the cost table and the lesson print them.
    QStringList lines;
    for (std::size_t i = 0; i < tr_.rounds.size(); ++i) {
        const AtgRound &r = tr_.rounds[i];
        const QString fs = formatBound(c.unit.f(double(r.start)));
        if (r.halt)
            lines << tr("Round %1: opened at s = %2, ⊤ at t_h = %3: f(s) + f(t_h) = %4 + %5 = <b>%6</b>")
                         .arg(i + 1)
                         .arg(integer(r.start), integer(*r.halt), fs, formatBound(c.unit.f(double(*r.halt))),
                              formatBound(r.loss));
        else
            lines << tr("Round %1: opened at s = %2, no ⊤ by t = %3: f(s) = <b>%4</b>")
                         .arg(i + 1)
                         .arg(integer(r.start), integer(tr_.end), formatBound(r.loss));
    }
    if (tr_.rounds.empty())
        lines << tr("The cap binds from the start: nothing answered.");
    lines << tr("Rounds back to back under the cap c = %1 (Numeric Sparse): realised f(n) + (7/3)·Σ f(t_h) = "
                "<b>%2</b> against the worst case f(n)(1 + (7/3)c) = %3. ATG alone (one round) is "
                "2f(s)-DP whatever happens: %4.")
                 .arg(m_cap->value())
                 .arg(formatBound(tr_.nsgRealised), formatBound(tr_.nsgWorstCase),
                      formatBound(growing::atgLoss(c.unit, c.unit.startSize, c.unit.startSize)));
    lines << tr("<i>Simulation on CPS1988 (arrival order: %1; seed %2): true counts are read to draw, never "
                "released.</i>")
                 .arg(m_order->currentText(), QString::number(m_seed));
    m_note->setText(lines.join(QStringLiteral("<br>")));
    drawNaive();
}

void AtgPanel::drawNaive()
{
    const bool on = m_naive->isChecked();
    m_naiveChart->setVisible(on);
    m_naiveNote->setVisible(on);
    if (!on) {
        m_naiveNote->clear();
        return;
    }
    const AtgTraceConfig c = config();
    if (auto ok = growing::validate(c.unit); !ok) {
        m_naiveChart->clear(QString::fromStdString(ok.error().message));
        m_naiveNote->clear();
        return;
    }
    // The reference pair (s, t_h) = (n, 100n): with σ_n = 0.002, p = ½, n = 1000 it claims 0.55 and
    // loses 3.03.
    const std::uint64_t n = c.unit.startSize;
    const std::uint64_t far = 100 * n;
    const double refClaim = growing::atgLoss(c.unit, n, far);
    const double refLoss = growing::naiveFractionScaleLoss(c.unit, n, far);
    std::vector<GrowingBarChart::Bar> bars;
    QString text = tr("<b>Counter-example, not a mechanism.</b> Drawing the noise on fractions (threshold "
                      "Lap(σ(s)), queries Lap(2σ(t)), sensitivity 1/t) claims f(s) + f(t_h) but truly loses "
                      "(1/s)/σ(s) + (1/s + 1/t_h)/(2σ(t_h)). At (s, t_h) = (%1, %2) it claims %3 and loses "
                      "<b>%4</b>.")
                       .arg(integer(n), integer(far), formatBound(refClaim), formatBound(refLoss));
    bars.push_back({tr("claims at (n, 100n)"), refClaim, palette::chartBlue});
    bars.push_back({tr("loses at (n, 100n)"), refLoss, palette::chartRed});
    // The stream's halted round that grew most (largest t_h/s, the first on a tie): the naive
    // design's under-reporting grows with it (at t_h = s it loses exactly what it claims).
    const AtgRound *worst = nullptr;
    if (m_trace)
        for (const AtgRound &r : m_trace->rounds)
            if (r.halt
                && (!worst
                    || double(*r.halt) / double(r.start) > double(*worst->halt) / double(worst->start)))
                worst = &r;
    if (worst) {
        bars.push_back({tr("claims, this stream"), worst->naiveClaim, palette::chartBlue});
        bars.push_back({tr("loses, this stream"), worst->naiveLoss, palette::chartRed});
        text += tr(" On this stream, the round (s = %1, t_h = %2) would claim %3 and lose <b>%4</b>.")
                    .arg(integer(worst->start), integer(*worst->halt), formatBound(worst->naiveClaim),
                         formatBound(worst->naiveLoss));
    }
    m_naiveChart->setBars(tr("Naive fraction-scale design: claimed against true privacy loss"), tr("ε"),
                          bars);
    m_naiveNote->setText(text);
}

} // namespace pbx::ui
