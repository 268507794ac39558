// SPDX-License-Identifier: MIT
#include "core/filters/rdp_filter.h"

#include "core/math/directed_rounding.h"
#include "core/privacy/rdp_curves.h"
#include "core/util/parameter_checks.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace pbx::filters {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kRelative = 1e-12; ///< the rounding margin of computed budgets and curves
constexpr double kEps = std::numeric_limits<double>::epsilon();

/// The improved conversion's order-dependent term ln(1 − 1/α) − (ln δ + ln α)/(α − 1), with the
/// sum of its terms' magnitudes (for the rounding margin).
std::pair<double, double> conversionTerm(double delta, double alpha)
{
    const double a = std::log1p(-1.0 / alpha);
    const double b = (-std::log(delta) - std::log(alpha)) / (alpha - 1.0);
    return {a + b, std::fabs(a) + std::fabs(b)};
}

bool fitsAt(const RdpOrder &o, double r)
{
    return o.budget > 0.0 && std::isfinite(r) && math::addRoundUp(o.spent, r) <= o.budget;
}

double rhoCurveUp(double rho, double alpha)
{
    return math::multiplyRoundUp(rho, alpha);
}

/// `count` ε-bounded-range steps at order α: count·r_BR(α; ε) (privacy/rdp_curves.h), rounded up.
double boundedRangeCurveUp(double epsilon, std::size_t count, double alpha)
{
    const double one = math::nudgeUp(privacy::rdpBoundedRange(epsilon, alpha) * (1.0 + 1e-12), 2);
    return math::multiplyRoundUp(one, static_cast<double>(count));
}
} // namespace

std::vector<double> defaultFilterOrders()
{
    return {1.5, 1.75, 2, 2.5, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 56, 64, 128, 256};
}

double rdpOrderBudget(double epsilon, double delta, double alpha)
{
    const auto [term, magnitude] = conversionTerm(delta, alpha);
    const double b = epsilon - term;
    return math::nudgeDown(b - kRelative * (epsilon + magnitude), 2);
}

double rdpOrderDelta(double delta, std::size_t orderCount)
{
    return orderCount == 1 ? delta : math::nudgeDown(delta / static_cast<double>(orderCount), 1);
}

double rdpOrderEpsilon(double rdp, double delta, double alpha)
{
    if (!std::isfinite(rdp))
        return kInf;
    const auto [term, magnitude] = conversionTerm(delta, alpha);
    return math::nudgeUp(rdp + term + kRelative * (rdp + magnitude), 2);
}

std::vector<double> roundedCurve(const std::vector<double> &orders, const std::function<double(double)> &f)
{
    std::vector<double> out;
    out.reserve(orders.size());
    for (double a : orders) {
        const double v = f(a);
        out.push_back(std::isnan(v) ? kInf : std::isinf(v) ? v : math::nudgeUp(v * (1.0 + kRelative), 2));
    }
    return out;
}

double pureEpsilonRdpUp(double epsilon, double alpha)
{
    if (epsilon == 0.0)
        return 0.0;
    // The closed form subtracts two logarithms of size ≤ ln 2 and divides by α − 1: its absolute
    // error is a few ulps of those, plus a few of ε.
    const double closed = privacy::rdpPureDp(epsilon, alpha);
    const double margin = 4.0 * kEps * (2.0 * std::log(2.0) / (alpha - 1.0) + epsilon);
    const double bound
        = std::min(math::nudgeUp(epsilon, 1),
                   math::multiplyRoundUp(math::multiplyRoundUp(0.5 * epsilon, epsilon), alpha));
    return std::min(math::nudgeUp(closed * (1.0 + kRelative) + margin, 2), bound);
}

Result<std::unique_ptr<RdpFilter>> RdpFilter::create(double epsilon, double delta, std::vector<double> orders)
{
    PBX_RETURN_IF_ERROR(checkEpsilon(epsilon, "ε", Zero::Excluded));
    PBX_RETURN_IF_ERROR(checkDelta(delta, "δ", UnitInterval::Open, " for the RDP filter"));
    if (orders.empty())
        return makeError(ErrorCode::InvalidArgument, "the RDP filter's grid of orders is empty");
    const double share = rdpOrderDelta(delta, orders.size());
    std::vector<RdpOrder> grid;
    bool any = false;
    for (double a : orders) {
        if (!(a > 1.0) || !std::isfinite(a))
            return makeError(ErrorCode::InvalidArgument, "RDP orders must be finite and > 1");
        RdpOrder o{a, share, 0.0, 0.0};
        o.budget = rdpOrderBudget(epsilon, o.delta, a);
        any = any || o.budget > 0.0;
        grid.push_back(o);
    }
    if (!any)
        return makeError(ErrorCode::InvalidArgument,
                         "no Rényi order of the grid can certify (ε = " + formatAmount(epsilon) + ", δ = "
                             + formatAmount(delta) + "): every order's budget B(α) is ≤ 0; raise ε or δ");
    return std::unique_ptr<RdpFilter>(new RdpFilter(epsilon, delta, std::move(grid)));
}

Result<void> checkRdpCurve(const std::vector<double> &curve, std::size_t orderCount)
{
    if (curve.size() != orderCount)
        return makeError(ErrorCode::InvalidArgument,
                         "an RDP curve must have one value per order of the grid");
    for (double v : curve)
        if (v < 0.0)
            return makeError(ErrorCode::InvalidArgument, "an RDP curve cannot be negative");
    return {};
}

Result<void> RdpFilter::canChargeCurve(const std::vector<double> &curve) const
{
    PBX_RETURN_IF_ERROR(checkRdpCurve(curve, m_orders.size()));
    std::optional<std::size_t> closest;
    double closestGap = kInf;
    for (std::size_t i = 0; i < m_orders.size(); ++i) {
        const RdpOrder &o = m_orders[i];
        const double r = std::isnan(curve[i]) ? kInf : curve[i];
        if (fitsAt(o, r))
            return {};
        if (o.live() && std::isfinite(r)) {
            const double gap = math::addRoundUp(o.spent, r) - o.budget;
            if (gap < closestGap) {
                closestGap = gap;
                closest = i;
            }
        }
    }
    if (halted())
        return makeError(ErrorCode::BudgetExceeded,
                         "every Rényi order is spent: the RDP filter admits nothing more");
    if (!closest)
        return makeError(ErrorCode::BudgetExceeded,
                         "this request's Rényi curve is infinite at every order that has room left");
    const RdpOrder &o = m_orders[*closest];
    return makeError(ErrorCode::BudgetExceeded,
                     "no Rényi order has room for this request: at the closest, α = " + formatAmount(o.alpha)
                         + ", it needs " + formatAmount(curve[*closest]) + " but "
                         + formatAmount(std::max(0.0, math::subtractRoundDown(o.budget, o.spent)))
                         + " remains");
}

Result<void> RdpFilter::chargeCurve(const std::vector<double> &curve)
{
    PBX_RETURN_IF_ERROR(canChargeCurve(curve));
    for (std::size_t i = 0; i < m_orders.size(); ++i) {
        const double r = std::isnan(curve[i]) ? kInf : curve[i];
        m_orders[i].spent = std::isfinite(r) ? math::addRoundUp(m_orders[i].spent, r) : kInf;
    }
    m_charged = true;
    updateEpsilon();
    return {};
}

Result<std::vector<double>> RdpFilter::curveOf(const Charge &c) const
{
    if (c.kind == ChargeKind::ExPost)
        return makeError(ErrorCode::Unsupported,
                         "the RDP filter needs each request's Rényi curve before it runs; an ex-post "
                         "charge (Laplace noise reduction) has none: its loss depends on the level it "
                         "stops at (Ligett et al. 2017), and a Laplace reduction step is not an RDP "
                         "mechanism of its increment. Use Brownian noise reduction (each step is a "
                         "Gaussian mechanism), or the basic, ex-post or unified filter");
    std::vector<double> curve;
    curve.reserve(m_orders.size());
    for (const RdpOrder &o : m_orders) {
        if (c.kind == ChargeKind::BoundedRange) // count steps of the tight bounded-range curve
            curve.push_back(boundedRangeCurveUp(c.amount, c.count, o.alpha));
        else
            curve.push_back(c.kind == ChargeKind::Rho ? rhoCurveUp(c.amount, o.alpha)
                                                      : pureEpsilonRdpUp(c.amount, o.alpha));
    }
    return curve;
}

Result<void> RdpFilter::check(const Charge &c) const
{
    PBX_TRY(curve, curveOf(c));
    return canChargeCurve(curve);
}

void RdpFilter::apply(const Charge &c)
{
    auto curve = curveOf(c); // check() accepted it
    if (curve)
        (void)chargeCurve(*curve);
}

bool RdpFilter::halted() const
{
    return std::none_of(m_orders.begin(), m_orders.end(), [](const RdpOrder &o) { return o.live(); });
}

std::optional<std::size_t> RdpFilter::bindingOrder() const
{
    std::optional<std::size_t> best;
    double bestEpsilon = kInf;
    for (std::size_t i = 0; i < m_orders.size(); ++i) {
        if (!m_orders[i].live())
            continue;
        const double e = rdpOrderEpsilon(m_orders[i].spent, m_orders[i].delta, m_orders[i].alpha);
        if (!best || e < bestEpsilon) {
            best = i;
            bestEpsilon = e;
        }
    }
    return best;
}

void RdpFilter::updateEpsilon()
{
    double least = kInf;
    for (const RdpOrder &o : m_orders)
        least = std::min(least, rdpOrderEpsilon(o.spent, o.delta, o.alpha));
    m_epsilon = BudgetAccount(epsilonBudget());
    m_epsilon.add(m_charged ? std::min(least, epsilonBudget()) : 0.0);
}

std::vector<BudgetSystem> RdpFilter::systems() const
{
    const auto binding = bindingOrder();
    const std::string name
        = binding ? "RDP (binding order α = " + formatAmount(m_orders[*binding].alpha) + ")" : "RDP (halted)";
    return {{name, "ε", epsilonBudget(), epsilonSpent(), epsilonBudget(), deltaBudget(), epsilonSpent()}};
}

double RdpFilter::largestFitting(const RdpOrder &o, ChargeKind kind) const
{
    if (!o.live())
        return 0.0;
    const double room = math::subtractRoundDown(o.budget, o.spent);
    if (!(room > 0.0))
        return 0.0;
    const auto cost = [&](double x) {
        return kind == ChargeKind::Rho ? rhoCurveUp(x, o.alpha) : pureEpsilonRdpUp(x, o.alpha);
    };
    // r ≥ ε − ln 2/(α − 1) for pure ε and r = ρα for ρ: the answer lies below `hi`.
    double lo = 0.0;
    double hi = kind == ChargeKind::Rho ? room / o.alpha * 2.0 : room + std::log(2.0) / (o.alpha - 1.0) + 1.0;
    for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; ++i) {
        const double mid = 0.5 * (lo + hi);
        (fitsAt(o, cost(mid)) ? lo : hi) = mid;
    }
    return lo;
}

double RdpFilter::remainingFor(ChargeKind kind) const
{
    if (kind == ChargeKind::ExPost)
        return 0.0;
    double best = 0.0;
    for (const RdpOrder &o : m_orders)
        best = std::max(best, largestFitting(o, kind));
    return best;
}

} // namespace pbx::filters
