// SPDX-License-Identifier: MIT
// View ▸ Privacy risk: the curves drawn are the core's, for the session's (ε, δ), and the sentence
// says what the prior becomes.
#include "core/privacy/privacy_risk.h"
#include "ui/mainwindow.h"
#include "ui/risk/privacyriskview.h"
#include "uitestutils.h"

#include <QtTest/QtTest>

#include <cmath>

using namespace pbx;
using pbx::ui::MainWindow;
using pbx::ui::PrivacyRiskView;

class TestPrivacyRiskView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void drawsTheCoreCurves()
    {
        PrivacyRiskView view;
        view.setGuarantee(std::log(3.0), 1e-6);
        QCOMPARE(view.tradeoffPointCount(), 201);
        QCOMPARE(view.posteriorPointCount(), 201);
        for (double fpr : {0.0, 0.1, 0.25, 0.5}) {
            const double expected = 1.0 - *privacy::epsilonDeltaTradeoff(std::log(3.0), 1e-6, fpr);
            QCOMPARE(view.drawnTruePositiveRate(fpr), expected);
        }
        // ε = ln 3, prior 10 % → at most 25 %; at FPR 1 % the TPR is at most 3 % + δ.
        QVERIFY2(view.sentence().contains(QStringLiteral("<b>10.0 %</b> sure")), qPrintable(view.sentence()));
        QVERIFY2(view.sentence().contains(QStringLiteral("at most <b>25.0 %</b> sure")),
                 qPrintable(view.sentence()));
        QVERIFY2(view.sentence().contains(QStringLiteral("catches at most <b>3.0 %</b>")),
                 qPrintable(view.sentence()));
        view.resize(1024, 600);
        QVERIFY(view.grab().save(test::screenshotDir() + QStringLiteral("/privacy-risk.png")));
    }

    void opensForTheSessionsGuarantee()
    {
        MainWindow w;
        QVERIFY(w.openDataset(QStringLiteral("cps1988")).ok());
        session::SessionSettings settings; // ε = 1, δ = 1e-6
        settings.epsilon = 2.5;
        QVERIFY(w.startNewSession(settings).ok());
        PrivacyRiskView *view = w.showPrivacyRisk();
        QVERIFY(view && view->isVisible());
        QCOMPARE(view->epsilon(), 2.5);
        QCOMPARE(view->delta(), 1e-6);
        QCOMPARE(w.showPrivacyRisk(), view); // one view, reused
    }
};

QTEST_MAIN(TestPrivacyRiskView)
#include "tst_privacyriskview.moc"
