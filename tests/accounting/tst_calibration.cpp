// SPDX-License-Identifier: MIT
// Oracle calibration.json (dp_accounting calibrate_dp_mechanism): each calibrated parameter is
// re-evaluated with our accountants, which must reproduce the oracle's achieved ε.
#include "core/accounting/pld_accountant.h"
#include "core/accounting/rdp_accountant.h"
#include "core/privacy/analytic_gaussian.h"
#include "tests/accounting/oracle.h"

using namespace pbx;
using namespace pbx::accounting;
using privacy::FractionalOrderMethod;

class TestCalibration : public QObject
{
    Q_OBJECT
private slots:
    void oracle_data();
    void oracle();
};

namespace {
double epsilonOf(const std::string &accountant, double q, double sigma, std::int64_t k, double delta,
                 FractionalOrderMethod method = FractionalOrderMethod::AbsoluteSeries)
{
    PrivacyEvent e;
    e.mechanism = MechanismKind::Gaussian;
    e.sigma = sigma;
    e.count = k;
    if (q < 1.0)
        e.sampling = {SamplingKind::Poisson, q};
    Ledger l;
    l.events = {e};
    if (accountant == "rdp")
        return RdpAccountant::fromLedger(l, privacy::defaultRdpOrders(), method)
            .value()
            ->epsilonForDelta(delta)
            ->epsilon;
    PldOptions o;
    o.optimistic = false;
    return PldAccountant::fromLedger(l, o).value()->epsilonForDelta(delta)->epsilon;
}
} // namespace

void TestCalibration::oracle_data()
{
    QTest::addColumn<QString>("id");
    const auto doc = test::loadOracle("calibration.json");
    QVERIFY2(doc.is_object(), "calibration.json missing");
    for (const auto &r : doc["records"])
        QTest::newRow(r["id"].get<std::string>().c_str())
            << QString::fromStdString(r["id"].get<std::string>());
}

// Tolerances: RDP with dp_accounting's own fractional-order bound 1e-9 (same RDP vector, same
// conversion); PLD 1e-6 (replicated discretisation, see tst_pld). Our exact-RDP ε is never above
// dp_accounting's. For max-steps records, ε(value) ≤ target < ε(value + 1) must hold for us too.
// Plain Gaussian: σ ≥ the exact analytic σ·√k (pessimistic PLD), which we reproduce to 1e-9.
void TestCalibration::oracle()
{
    QFETCH(QString, id);
    const auto doc = test::loadOracle("calibration.json");
    for (const auto &r : doc["records"]) {
        if (QString::fromStdString(r["id"].get<std::string>()) != id)
            continue;
        const auto &c = r["case"];
        const std::string what = c["calibrate"].get<std::string>();
        const std::string acc = c["accountant"].get<std::string>();
        const double delta = c["target_delta"].get<double>();
        const double target = c["target_epsilon"].get<double>();
        const double value = test::oracleNumber(r["value"]);
        const double tol = acc == "rdp" ? 1e-9 : 1e-6;
        if (what == "gaussian_sigma") {
            const auto k = c["compositions_k"].get<std::int64_t>();
            const double exact = privacy::analyticGaussianSigma(target, delta).value() * std::sqrt(double(k));
            const auto *x = test::crossCheck(r, "dp_accounting_get_sigma_gaussian_times_sqrt_k");
            QVERIFY(x);
            PBX_FUZZY_COMPARE(exact, test::oracleNumber((*x)["value"]), 1e-9);
            QVERIFY(value >= exact);
            QVERIFY(epsilonOf("pld", 1.0, value, k, delta) <= target * (1 + 1e-9));
            return;
        }
        if (what == "noise_multiplier_sigma" || what == "sampling_rate_q") {
            const double q = what == "sampling_rate_q" ? value : c["sampling_rate_q"].get<double>();
            const double sigma
                = what == "sampling_rate_q" ? c["noise_multiplier_sigma"].get<double>() : value;
            const auto k = c["steps_k"].get<std::int64_t>();
            const double achieved = r["achieved_epsilon"].get<double>();
            PBX_FUZZY_COMPARE(epsilonOf(acc, q, sigma, k, delta), achieved, tol);
            if (acc == "rdp")
                QVERIFY(epsilonOf(acc, q, sigma, k, delta, FractionalOrderMethod::SignedSeries)
                        <= achieved * (1 + 1e-12));
            return;
        }
        // max_steps
        const double q = c["sampling_rate_q"].get<double>();
        const double sigma = c["noise_multiplier_sigma"].get<double>();
        const auto k = static_cast<std::int64_t>(value);
        const double atK = epsilonOf(acc, q, sigma, k, delta);
        const double atK1 = epsilonOf(acc, q, sigma, k + 1, delta);
        PBX_FUZZY_COMPARE(atK, r["achieved_epsilon"].get<double>(), tol);
        PBX_FUZZY_COMPARE(atK1, r["epsilon_at_value_plus_1"].get<double>(), tol);
        QVERIFY(atK <= target && atK1 > target);
        return;
    }
    QFAIL("record not found");
}

QTEST_APPLESS_MAIN(TestCalibration)
#include "tst_calibration.moc"
