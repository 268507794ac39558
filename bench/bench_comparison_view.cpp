// SPDX-License-Identifier: MIT
// The comparison view's redraw after an edit in the plan editor (the target: ≤ 100 ms for plans of
// ≤ 100 events): the real ComparisonView on the offscreen platform, a plan of the ledgers pinned by
// cli.comparepinned (tests/cli/data/compare/), and per iteration one edit of the first event's
// noise parameter (alternating, through PlanModel::setField as the editor does) after a pause,
// with the view's own scheduling (a change after a pause starts at once; the pause between
// iterations is not counted). Times, from the edit:
//   preview_ms   until the preview (every part on the coarse grid, upper bounds) is painted: what
//                the lecturer sees first;
//   (the time)   until the chosen grid's results are painted (resultsShown, charts flushed);
// and cpu_ms, the CPU of all threads per redraw, both passes (what it costs on an idle machine).
// Run: QT_QPA_PLATFORM=offscreen build/bench/bench_comparison_view --benchmark_min_time=2
#include "core/accounting/ledger_json.h"
#include "ui/comparison/comparisonview.h"
#include "ui/comparison/planmodel.h"

#include <QApplication>
#include <QEventLoop>
#include <QFile>
#include <QTimer>

#include <benchmark/benchmark.h>

#include <sys/resource.h>

#include <chrono>
#include <functional>
#include <memory>

using namespace pbx;

namespace {

accounting::Ledger loadLedger(const char *name)
{
    QFile f(QStringLiteral(PBX_COMPARE_DATA "/") + QString::fromLatin1(name));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", name);
    auto ledger = accounting::parseLedgerJson(f.readAll().toStdString());
    if (!ledger)
        qFatal("%s: %s", name, ledger.error().message.c_str());
    return ledger.value();
}

/// CPU seconds of the whole process so far (every thread: the job runs off the GUI thread).
double processCpuSeconds()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const auto seconds = [](const timeval &t) {
        return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec);
    };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Runs the event loop for `milliseconds` (the pause between edits).
void pause(int milliseconds)
{
    QEventLoop loop;
    QTimer::singleShot(milliseconds, &loop, &QEventLoop::quit);
    loop.exec();
}

/// Times of one redraw, in seconds from the edit (preview < 0: none was shown).
struct Redraw
{
    bool shown = false;
    double preview = -1.0;
    double final = 0.0;
};

/// Makes `edit` (nothing: start the computation now) and returns when the chosen grid's results
/// are painted, with the time the preview was painted.
Redraw redraw(ui::ComparisonView &view, const std::function<void()> &edit)
{
    QEventLoop loop;
    Redraw times;
    const auto start = Clock::now();
    const auto previewDone = QObject::connect(&view, &ui::ComparisonView::previewShown, &loop, [&] {
        // Painted on the next turn of the event loop (the charts rebuild on a zero timer).
        QTimer::singleShot(0, &loop, [&] {
            view.flushCharts();
            QApplication::processEvents();
            times.preview = secondsSince(start);
        });
    });
    const auto done = QObject::connect(&view, &ui::ComparisonView::resultsShown, &loop, [&] {
        times.shown = true;
        loop.quit();
    });
    QTimer::singleShot(120000, &loop, &QEventLoop::quit);
    if (edit)
        edit();
    else
        view.recomputeNow();
    loop.exec();
    QObject::disconnect(done);
    QObject::disconnect(previewDone);
    view.flushCharts();
    QApplication::processEvents(); // the repaint the results scheduled
    times.final = secondsSince(start);
    return times;
}

void redrawAfterEdit(benchmark::State &state, const accounting::Ledger &ledger, double first, double second)
{
    ui::ComparisonView view;
    view.resize(1400, 900);
    view.show();
    view.setSource(ui::ComparisonView::Source::Plan);
    if (!view.planModel()->replacePlan(ledger, QStringLiteral("bench")) || !redraw(view, {}).shown) {
        state.SkipWithError("the first computation failed");
        return;
    }
    bool odd = false;
    double cpu = 0.0;
    double preview = 0.0;
    for (auto _ : state) {
        pause(ui::ComparisonView::coalesceMilliseconds + 20);
        const double cpuStart = processCpuSeconds();
        const double value = odd ? first : second;
        odd = !odd;
        const Redraw times
            = redraw(view, [&] { view.planModel()->setField(0, ui::PlanModel::Parameter, value); });
        if (!times.shown) {
            state.SkipWithError("no results within 120 s");
            return;
        }
        state.SetIterationTime(times.final);
        cpu += processCpuSeconds() - cpuStart;
        preview += times.preview >= 0.0 ? times.preview : times.final;
    }
    const auto perRedraw
        = [&](double total) { return 1e3 * total / static_cast<double>(state.iterations()); };
    // CPU of every thread per redraw: on a loaded machine wall time also counts waiting for a core.
    state.counters["cpu_ms"] = perRedraw(cpu);
    state.counters["preview_ms"] = perRedraw(preview);
    state.counters["events"] = static_cast<double>(view.planModel()->ledger().events.size());
}

// 100 Gaussian steps σ = 1.1 in one event (σ edited 1.1 ↔ 1.2).
void BM_ViewRedrawGaussian100(benchmark::State &state)
{
    redrawAfterEdit(state, loadLedger("gaussian100.json"), 1.1, 1.2);
}
BENCHMARK(BM_ViewRedrawGaussian100)->UseManualTime()->Unit(benchmark::kMillisecond);

// 36 events: Laplace (count 2), Gaussian (count 3) and randomized response (b edited 8 ↔ 8.5).
void BM_ViewRedrawMixed36(benchmark::State &state)
{
    redrawAfterEdit(state, loadLedger("mixed.json"), 8.0, 8.5);
}
BENCHMARK(BM_ViewRedrawMixed36)->UseManualTime()->Unit(benchmark::kMillisecond);

// 60 distinct Laplace steps (the first scale edited 5 ↔ 5.5).
void BM_ViewRedrawLaplace60(benchmark::State &state)
{
    redrawAfterEdit(state, loadLedger("laplace60.json"), 5.0, 5.5);
}
BENCHMARK(BM_ViewRedrawLaplace60)->UseManualTime()->Unit(benchmark::kMillisecond);

/// 100 events, each different: `make(i)` for i = 0…99.
template<typename Make>
accounting::Ledger hundredEvents(Make make)
{
    accounting::Ledger ledger;
    for (int i = 0; i < 100; ++i)
        ledger.events.push_back(make(i));
    return ledger;
}

// 100 distinct Laplace steps, b = 5 + 0.37 i (the first edited 5 ↔ 5.5).
void BM_ViewRedrawLaplace100Distinct(benchmark::State &state)
{
    redrawAfterEdit(state, hundredEvents([](int i) {
                        accounting::PrivacyEvent e;
                        e.mechanism = accounting::MechanismKind::Laplace;
                        e.scale = 5.0 + 0.37 * i;
                        return e;
                    }),
                    5.0, 5.5);
}
BENCHMARK(BM_ViewRedrawLaplace100Distinct)->UseManualTime()->Unit(benchmark::kMillisecond);

// 100 distinct randomized-response steps, ε = 0.01 + 0.003 i (the first edited 0.01 ↔ 0.012).
void BM_ViewRedrawRandomizedResponse100Distinct(benchmark::State &state)
{
    redrawAfterEdit(state, hundredEvents([](int i) {
                        accounting::PrivacyEvent e;
                        e.mechanism = accounting::MechanismKind::RandomizedResponse;
                        e.epsilon = 0.01 + 0.003 * i;
                        return e;
                    }),
                    0.01, 0.012);
}
BENCHMARK(BM_ViewRedrawRandomizedResponse100Distinct)->UseManualTime()->Unit(benchmark::kMillisecond);

// 100 distinct DP-SGD epochs: 10 Poisson-sampled (q = 0.01) Gaussian steps each, σ = 0.8 + 0.01 i
// (the first edited 0.8 ↔ 0.85).
void BM_ViewRedrawDpSgd100Distinct(benchmark::State &state)
{
    redrawAfterEdit(state, hundredEvents([](int i) {
                        accounting::PrivacyEvent e;
                        e.mechanism = accounting::MechanismKind::Gaussian;
                        e.sigma = 0.8 + 0.01 * i;
                        e.count = 10;
                        e.sampling.kind = accounting::SamplingKind::Poisson;
                        e.sampling.rate = 0.01;
                        return e;
                    }),
                    0.8, 0.85);
}
BENCHMARK(BM_ViewRedrawDpSgd100Distinct)->UseManualTime()->Unit(benchmark::kMillisecond);

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
