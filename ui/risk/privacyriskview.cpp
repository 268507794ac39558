// SPDX-License-Identifier: MIT
#include "ui/risk/privacyriskview.h"

#include "core/privacy/privacy_risk.h"
#include "ui/util/numberformat.h"
#include "ui/widgets/scientificspinbox.h"

#include <QChart>
#include <QChartView>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QValueAxis>
#include <QVBoxLayout>

#include <cmath>

namespace pbx::ui {

namespace {

constexpr int kPoints = 201; // α or p from 0 to 1 in steps of 0.005

// The fields keep their inputs valid, so an error here cannot happen; `fallback` is the side that
// overstates the risk.
double orElse(const Result<double> &value, double fallback)
{
    return value.ok() ? *value : fallback;
}

QChart *makeChart(const QString &title, const QString &xTitle, const QString &yTitle)
{
    auto *chart = new QChart;
    chart->setTitle(title);
    chart->legend()->setAlignment(Qt::AlignBottom);
    auto *x = new QValueAxis;
    auto *y = new QValueAxis;
    x->setTitleText(xTitle);
    y->setTitleText(yTitle);
    for (QValueAxis *axis : {x, y}) {
        axis->setRange(0.0, 1.0);
        axis->setTickCount(6);
        axis->setLabelFormat(QStringLiteral("%.1f"));
    }
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    return chart;
}

QLineSeries *addSeries(QChart *chart, const QString &name, const QColor &colour, Qt::PenStyle style)
{
    auto *series = new QLineSeries;
    series->setName(name);
    QPen pen(colour);
    pen.setWidthF(style == Qt::SolidLine ? 2.5 : 1.5);
    pen.setStyle(style);
    series->setPen(pen);
    chart->addSeries(series);
    for (QAbstractAxis *axis : chart->axes())
        series->attachAxis(axis);
    return series;
}

} // namespace

PrivacyRiskView::PrivacyRiskView(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Privacy risk"));
    createWidgets();
    createLayout();
    for (auto *box : {static_cast<QDoubleSpinBox *>(m_epsilon), static_cast<QDoubleSpinBox *>(m_delta), m_prior})
        connect(box, &QDoubleSpinBox::valueChanged, this, &PrivacyRiskView::recompute);
    recompute();
}

void PrivacyRiskView::createWidgets()
{
    m_epsilon = new ScientificSpinBox(this);
    m_epsilon->setRange(0.0, 1000.0);
    m_epsilon->setSingleStep(0.1);
    m_epsilon->setValue(1.0);
    m_delta = new ScientificSpinBox(this);
    m_delta->setRange(0.0, 0.5);
    m_delta->setMultiplicativeStep(10.0);
    m_delta->setValue(1e-6);
    m_prior = new QDoubleSpinBox(this);
    m_prior->setRange(0.1, 99.9);
    m_prior->setDecimals(1);
    m_prior->setSuffix(QStringLiteral(" %"));
    m_prior->setValue(10.0);
    m_prior->setToolTip(tr("How sure an adversary is, before seeing the answers, that a given person is in "
                           "the data"));

    m_tradeoffChart = makeChart(tr("The best membership test"), tr("false-positive rate"),
                                tr("true-positive rate"));
    m_tradeoff = addSeries(m_tradeoffChart, tr("(ε, δ)"), QColor(0x1a, 0x73, 0xe8), Qt::SolidLine);
    m_pure = addSeries(m_tradeoffChart, tr("pure ε (δ = 0)"), QColor(0x18, 0x80, 0x38), Qt::DashLine);
    m_guessing = addSeries(m_tradeoffChart, tr("guessing"), QColor(0x80, 0x86, 0x8b), Qt::DotLine);
    m_tradeoffView = new QChartView(m_tradeoffChart, this);
    m_tradeoffView->setRenderHint(QPainter::Antialiasing);
    m_tradeoffView->setMinimumSize(300, 280);

    m_posteriorChart = makeChart(tr("Belief in membership"), tr("prior"), tr("largest posterior"));
    m_posterior = addSeries(m_posteriorChart, tr("after the answers (ε)"), QColor(0xd9, 0x30, 0x25), Qt::SolidLine);
    m_noChange = addSeries(m_posteriorChart, tr("no change"), QColor(0x80, 0x86, 0x8b), Qt::DotLine);
    m_posteriorView = new QChartView(m_posteriorChart, this);
    m_posteriorView->setRenderHint(QPainter::Antialiasing);
    m_posteriorView->setMinimumSize(300, 280);

    m_sentence = new QLabel(this);
    m_sentence->setWordWrap(true);
    m_sentence->setTextFormat(Qt::RichText);
}

void PrivacyRiskView::createLayout()
{
    auto *form = new QFormLayout;
    form->addRow(tr("ε (epsilon):"), m_epsilon);
    form->addRow(tr("δ (delta):"), m_delta);
    form->addRow(tr("Prior:"), m_prior);
    auto *charts = new QHBoxLayout;
    charts->addWidget(m_tradeoffView);
    charts->addWidget(m_posteriorView);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(charts, 1);
    layout->addWidget(m_sentence);
    resize(760, 520);
}

void PrivacyRiskView::setGuarantee(double epsilon, double delta)
{
    if (epsilon > m_epsilon->maximum())
        m_epsilon->setMaximum(epsilon);
    m_epsilon->setValue(epsilon);
    m_delta->setValue(delta);
    recompute();
}

double PrivacyRiskView::epsilon() const
{
    return m_epsilon->value();
}

double PrivacyRiskView::delta() const
{
    return m_delta->value();
}

QString PrivacyRiskView::sentence() const
{
    return m_sentence->text();
}

int PrivacyRiskView::tradeoffPointCount() const
{
    return static_cast<int>(m_tradeoff->count());
}

int PrivacyRiskView::posteriorPointCount() const
{
    return static_cast<int>(m_posterior->count());
}

double PrivacyRiskView::drawnTruePositiveRate(double fpr) const
{
    const qsizetype i = std::clamp<qsizetype>(std::llround(fpr * (kPoints - 1)), 0, m_tradeoff->count() - 1);
    return m_tradeoff->at(i).y();
}

void PrivacyRiskView::recompute()
{
    const double epsilon = m_epsilon->value(), delta = m_delta->value();
    QList<QPointF> tradeoff, pure, guessing, posterior, noChange;
    for (int i = 0; i < kPoints; ++i) {
        const double x = static_cast<double>(i) / (kPoints - 1);
        // The adversary's best TPR at FPR x is 1 − f(x).
        tradeoff.append({x, 1.0 - orElse(privacy::epsilonDeltaTradeoff(epsilon, delta, x), 0.0)});
        pure.append({x, 1.0 - orElse(privacy::epsilonDeltaTradeoff(epsilon, 0.0, x), 0.0)});
        guessing.append({x, x});
        posterior.append({x, orElse(privacy::posteriorBound(epsilon, x), 1.0)});
        noChange.append({x, x});
    }
    m_tradeoff->replace(tradeoff);
    m_pure->replace(pure);
    m_guessing->replace(guessing);
    m_posterior->replace(posterior);
    m_noChange->replace(noChange);

    const double prior = m_prior->value() / 100.0;
    const double after = orElse(privacy::posteriorBound(epsilon, prior), 1.0);
    const double tprAtOnePercent = 1.0 - orElse(privacy::epsilonDeltaTradeoff(epsilon, delta, 0.01), 0.0);
    m_sentence->setText(
        tr("With (ε = %1, δ = %2): if you were <b>%3</b> sure that a person is in the data, the answers can make "
           "you at most <b>%4</b> sure, except with probability δ. A test that wrongly accuses 1 % of "
           "outsiders catches at most <b>%5</b> of members.")
            .arg(formatNumber(epsilon, 4), formatNumber(delta, 2), formatPercent(prior, 1), formatPercent(after, 1),
                 formatPercent(tprAtOnePercent, 1)));
}

} // namespace pbx::ui
