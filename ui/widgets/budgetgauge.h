// SPDX-License-Identifier: MIT
// A QPainter gauge of the session's privacy budget: an outer arc for the filter's native unit
// (ε for pure DP, ρ for zCDP) and, when the two differ, an inner arc for the ε-equivalent at the
// session δ. Colours change at thresholds; the same numbers are printed under the arcs and in the
// accessible description, so nothing depends on colour alone.
//
// A filter with two budgeted systems (the unified filter: a zCDP side in ρ and an ex-post side in
// ε) is drawn as two arcs side by side, one per side, with the total ε-equivalent of both as a bar
// underneath.
#pragma once

#include <QColor>
#include <QFont>
#include <QList>
#include <QPointF>
#include <QString>
#include <QWidget>

#include <array>
#include <cmath>

QT_FORWARD_DECLARE_CLASS(QPainter)

namespace pbx::ui {

class BudgetGauge final : public QWidget
{
    Q_OBJECT
public:
    /// Fractions of the native budget at which the fill turns amber, then red.
    static constexpr double warningFraction = 0.6;
    static constexpr double criticalFraction = 0.85;

    /// Native: the (first) system's arc. Epsilon: the ε-equivalent ring, or with two systems the
    /// total-ε bar. Second: the second system's arc (two systems only).
    enum class Ring { Native, Epsilon, Second };

    explicit BudgetGauge(QWidget *parent = nullptr);

    /// The budget: `nativeBudget` in `unitSymbol` ("ε" or "ρ") and the (ε, δ) it stands for.
    /// When the unit is ε, the inner ε ring is not drawn (it would repeat the outer one).
    void setBudget(double nativeBudget, const QString &unitSymbol, double epsilonBudget, double delta);
    /// Spend so far: native amount and its ε-equivalent at the session δ.
    void setSpent(double nativeSpent, double epsilonSpent);
    /// Shows a second budgeted system next to the first (the unified filter's ex-post side):
    /// `firstName`/`secondName` label the arcs ("zCDP side", "ex-post side"); the ε budget and ε
    /// spend passed to setBudget/setSpent are then the totals over both. Call clearSecondSystem()
    /// to go back to one system.
    void setSecondSystem(const QString &firstName, const QString &secondName, double secondBudget,
                         const QString &secondUnit);
    void setSecondSpent(double secondSpent);
    void clearSecondSystem();
    /// Replaces the "pure ε-DP (δ unused)" line of a one-system ε gauge (e.g. the ex-post filter,
    /// whose δ pays Brownian boundaries). Empty: the default line.
    void setNote(const QString &note);
    QString note() const { return m_note; }
    /// An odometer session (an infinite native budget): the ε a ledger planned in advance would
    /// have cost for the same releases, shown beside the odometer's reading. Ignored otherwise.
    void setPreplanned(double epsilon);
    double preplanned() const { return m_preplanned; }
    /// No budget (setBudget with an infinite native budget): the gauge is an odometer, a running
    /// ε with no end of scale; its arc fills ε/(1 + ε) and never turns amber or red.
    bool isOdometer() const { return !std::isfinite(m_nativeBudget); }

    double nativeBudget() const { return m_nativeBudget; }
    double spent() const { return m_nativeSpent; }
    double remaining() const;
    double epsilonBudget() const { return m_epsilonBudget; }
    double epsilonSpent() const { return m_epsilonSpent; }
    QString unitSymbol() const { return m_unit; }
    /// Spent fraction of a ring's budget, clamped to [0, 1].
    double fraction(Ring ring = Ring::Native) const;
    bool showsEpsilonRing() const
    {
        return !isOdometer() && (hasSecondSystem() || m_unit != QStringLiteral("ε"));
    }
    bool hasSecondSystem() const { return !m_secondName.isEmpty(); }
    double secondBudget() const { return m_secondBudget; }
    double secondSpent() const { return m_secondSpent; }
    QString secondUnitSymbol() const { return m_secondUnit; }

    /// Fill colour for a spent fraction (the threshold colours).
    static QColor colourForFraction(double fraction);
    /// Widget coordinates of the middle of `ring`'s stroke at `fraction` of its sweep (0 = start,
    /// 1 = end). Lets tests sample filled vs empty parts without knowing the layout.
    QPointF pointOnRing(Ring ring, double fraction) const;
    /// The one-line readout also used as accessible description, e.g.
    /// "ρ spent 0.0102 of 0.0339 (30.1 %), 0.0237 left; guarantee: ε ≤ 0.53 of 1 at δ = 1e-6"
    /// (spent amounts rounded up, what is left rounded down).
    QString readout() const;
    /// The sentence (also in the tooltip) saying that the gauge's numbers are the session's
    /// guarantee and why the strategy comparison's smaller ε for the same ledger are hindsight.
    static QString guaranteeSentence();

    QSize sizeHint() const override;
    /// 220 px wide; as high as the readout's lines in the current font (presentation mode's
    /// larger one included) under an arc of 40 px radius.
    QSize minimumSizeHint() const override;

    /// One piece of text the gauge paints: drawn with `font` inside `box` (widget pixels) with
    /// `flags` (Qt::AlignmentFlag | Qt::TextWordWrap). The font is shrunk where needed so the text
    /// fits its box whole (the percentage inside the arc, the readout across the width): at
    /// 1024 px in presentation mode the percentage was cut at both ends.
    struct TextItem
    {
        QString text;
        QFont font;
        QRectF box;
        int flags = 0;
    };
    /// The texts of the current layout, in painting order: the percentage, its caption, then the
    /// readout lines (one system); per side the percentage, "used", the name and the spend, then
    /// the total line (two systems).
    QList<TextItem> textItems() const;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    struct Geometry
    {
        QPointF centre;
        double outerRadius = 0.0;
        double innerRadius = 0.0;
        double outerWidth = 0.0;
        double innerWidth = 0.0;
        double textTop = 0.0;
        /// Where the percentage and its caption go when beside the arc (a low, wide gauge);
        /// empty: inside the arc.
        QRectF headline;
    };
    Geometry geometry() const;
    /// Two systems: the arcs' centres and radius, the bar, the readout's top.
    struct DualGeometry
    {
        QPointF firstCentre;
        QPointF secondCentre;
        double radius = 0.0;
        double width = 0.0;
        QRectF bar;
        double textTop = 0.0;
    };
    DualGeometry dualGeometry() const;
    QList<TextItem> singleTextItems() const;
    /// `items` followed by the three readout lines under the arc (a colour key before each
    /// `keyed` one), in one font size, the largest with which the widest fits.
    QList<TextItem> withReadout(QList<TextItem> items, const Geometry &g, const std::array<QString, 3> &lines,
                                const std::array<bool, 3> &keyed) const;
    QList<TextItem> dualTextItems() const;
    void paintDual(QPainter &painter);
    void updateDescription();

    double m_nativeBudget = 1.0;
    double m_nativeSpent = 0.0;
    double m_epsilonBudget = 1.0;
    double m_epsilonSpent = 0.0;
    double m_delta = 0.0;
    double m_preplanned = 0.0;
    QString m_unit = QStringLiteral("ε");
    QString m_note;
    QString m_firstName;
    QString m_secondName;
    QString m_secondUnit;
    double m_secondBudget = 0.0;
    double m_secondSpent = 0.0;
};

} // namespace pbx::ui
