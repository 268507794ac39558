// SPDX-License-Identifier: MIT
#include "ui/risk/privacyriskview.h"

#include "core/privacy/privacy_risk.h"
#include "ui/charts/presentation.h"
#include "ui/charts/unitsquarechart.h"
#include "ui/help/glossarylinks.h"
#include "ui/util/numberformat.h"
#include "ui/util/palette.h"
#include "ui/widgets/scientificspinbox.h"
#include "ui/widgets/screenfit.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QScreen>
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

} // namespace

PrivacyRiskView::PrivacyRiskView(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Privacy risk"));
    createWidgets();
    createLayout();
    for (auto *box :
         {static_cast<QDoubleSpinBox *>(m_epsilon), static_cast<QDoubleSpinBox *>(m_delta), m_prior})
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

    m_tradeoffChart = new UnitSquareChart(tr("The best membership test"), tr("false-positive rate"),
                                          tr("true-positive rate"), this);
    m_tradeoff = m_tradeoffChart->addCurve(tr("(ε, δ)"), QColor(0x1a, 0x73, 0xe8), Qt::SolidLine);
    m_pure = m_tradeoffChart->addCurve(tr("pure ε (δ = 0)"), QColor(0x18, 0x80, 0x38), Qt::DashLine);
    m_guessing = m_tradeoffChart->addCurve(tr("guessing"), palette::neutralGrey, Qt::DotLine);

    m_posteriorChart
        = new UnitSquareChart(tr("Belief in membership"), tr("prior"), tr("largest posterior"), this);
    m_posterior
        = m_posteriorChart->addCurve(tr("after the answers (ε)"), QColor(0xd9, 0x30, 0x25), Qt::SolidLine);
    m_noChange = m_posteriorChart->addCurve(tr("no change"), palette::neutralGrey, Qt::DotLine);

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
    charts->addWidget(m_tradeoffChart);
    charts->addWidget(m_posteriorChart);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(charts, 1);
    layout->addWidget(m_sentence);
    // Presentation mode scales the fonts by 1.5: the dialog grows with them (within the screen),
    // so the charts' titles, labels and legends keep their room.
    connect(&Presentation::instance(), &Presentation::changed, this, &PrivacyRiskView::fitToFonts);
    fitToFonts();
}

void PrivacyRiskView::fitToFonts()
{
    setMinimumSize(minimumSizeHint());
    resizeWithinScreen(this, QSize(760, 520) * Presentation::instance().fontScale());
    keepFrameInsideScreen(this);
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
    return m_tradeoffChart->pointCount(m_tradeoff);
}

int PrivacyRiskView::posteriorPointCount() const
{
    return m_posteriorChart->pointCount(m_posterior);
}

double PrivacyRiskView::drawnTruePositiveRate(double fpr) const
{
    const int i = std::clamp(static_cast<int>(std::lround(fpr * (kPoints - 1))), 0,
                             m_tradeoffChart->pointCount(m_tradeoff) - 1);
    return m_tradeoffChart->point(m_tradeoff, i).y();
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
    m_tradeoffChart->setPoints(m_tradeoff, tradeoff);
    m_tradeoffChart->setPoints(m_pure, pure);
    m_tradeoffChart->setPoints(m_guessing, guessing);
    m_posteriorChart->setPoints(m_posterior, posterior);
    m_posteriorChart->setPoints(m_noChange, noChange);

    const double prior = m_prior->value() / 100.0;
    const double after = orElse(privacy::posteriorBound(epsilon, prior), 1.0);
    const double tprAtOnePercent = 1.0 - orElse(privacy::epsilonDeltaTradeoff(epsilon, delta, 0.01), 0.0);
    setGlossaryLinkedText(
        m_sentence,
        tr("With (ε = %1, δ = %2): if you were <b>%3</b> sure that a person is in the data, the answers can make "
           "you at most <b>%4</b> sure, except with probability δ. A test that wrongly accuses 1 % of "
           "outsiders catches at most <b>%5</b> of members.")
            .arg(formatNumber(epsilon, 4), formatNumber(delta, 2), formatPercent(prior, 1),
                 formatPercent(after, 1), formatPercent(tprAtOnePercent, 1)));
}

} // namespace pbx::ui
