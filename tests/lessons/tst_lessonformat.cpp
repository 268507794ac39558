// SPDX-License-Identifier: MIT
// Lesson documents: every shipped lesson reads and round-trips, bad documents are refused with
// the field's path, answer placeholders are checked when read and resolved from the core.
#include "core/accounting/evaluation.h"
#include "core/growing/growing_svt.h"
#include "core/lessons/lesson_growing.h"
#include "core/lessons/lesson_json.h"
#include "core/lessons/lesson_values.h"
#include "tests/synthetic_table.h"
#include "tests/testutils.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace pbx;

namespace {

std::string readText(const std::filesystem::path &path)
{
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

/// A small valid lesson; `step` replaces the first step's object when given.
std::string lessonWith(const std::string &step)
{
    return R"({"format":"pbx-lesson","version":1,"id":"t","title":"T","summary":"S","steps":[)" + step + "]}";
}

const std::string kGoodStep
    = R"({"title":"a","explanation":"b","setup":{"session":{"dataset":"cps1988","epsilon":1,"filter":"basic","seed":3},)"
      R"("requests":[{"id":"c","aggregate":"count","target":{"kind":"absolute","error":100}}],"view":"main"},)"
      R"("question":"q","answer":"cost {req.c.cost}"})";

} // namespace

class TestLessonFormat : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shippedLessonsRoundTrip();
    void goodLessonRoundTrips();
    void documentedExampleIsALesson();
    void badLessons_data();
    void badLessons();
    void placeholders_data();
    void placeholders();
    void valuesComeFromTheCore();
    void outputDpValues();
    void numbersRoundConservatively();
    void crossoverMatchesTheStrategies();
    void growingValues();
    void workPerStepIsBounded();
};

void TestLessonFormat::shippedLessonsRoundTrip()
{
    int count = 0;
    for (const auto &entry : std::filesystem::directory_iterator(PBX_SOURCE_DIR "/resources/lessons")) {
        if (entry.path().extension() != ".json")
            continue;
        ++count;
        const auto name = entry.path().filename().string();
        auto lesson = lessons::parseLesson(readText(entry.path()), name);
        QVERIFY2(lesson.ok(), lesson.ok() ? "" : lesson.error().message.c_str());
        QVERIFY(lesson->steps.size() >= 3);
        const std::string written = lessons::writeLesson(*lesson);
        auto again = lessons::parseLesson(written, name);
        QVERIFY2(again.ok(), again.ok() ? "" : again.error().message.c_str());
        QCOMPARE(lessons::writeLesson(*again), written);
        for (std::size_t i = 0; i < lesson->steps.size(); ++i) // the tab a step raises is written back
            QCOMPARE(again->steps[i].tab, lesson->steps[i].tab);
    }
    QVERIFY(count >= 4);
}

void TestLessonFormat::goodLessonRoundTrips()
{
    auto lesson = lessons::parseLesson(lessonWith(kGoodStep), "good.json");
    QVERIFY2(lesson.ok(), lesson.ok() ? "" : lesson.error().message.c_str());
    QCOMPARE(lesson->steps.size(), std::size_t{1});
    const auto &step = lesson->steps.front();
    QVERIFY(step.session);
    QCOMPARE(step.session->settings.filter, filters::FilterKind::Basic);
    QCOMPARE(*step.session->settings.seed, std::uint64_t{3});
    QCOMPARE(step.requests.size(), std::size_t{1});
    QCOMPARE(step.requests.front().target.error, 100.0);
    QCOMPARE(step.repeat, 1);
    auto again = lessons::parseLesson(lessons::writeLesson(*lesson), "again.json");
    QVERIFY(again.ok());
    QCOMPARE(lessons::writeLesson(*again), lessons::writeLesson(*lesson));
}

void TestLessonFormat::documentedExampleIsALesson()
{
    // The lesson format is documented in docs/lessons.md (linked from the README's tour).
    const std::string page = readText(PBX_SOURCE_DIR "/docs/lessons.md");
    const auto section = page.find("**Writing a lesson.**");
    QVERIFY(section != std::string::npos);
    const auto begin = page.find("```json\n", section);
    const auto end = page.find("```\n", begin + 8);
    QVERIFY(begin != std::string::npos && end != std::string::npos);
    auto lesson = lessons::parseLesson(page.substr(begin + 8, end - begin - 8), "docs/lessons.md");
    QVERIFY2(lesson.ok(), lesson.ok() ? "" : lesson.error().message.c_str());
    QCOMPARE(lesson->steps.front().requests.size(), std::size_t{2});
}

void TestLessonFormat::badLessons_data()
{
    QTest::addColumn<QString>("document");
    QTest::addColumn<QString>("message");
    const auto step = [](const std::string &from, const std::string &to) {
        std::string s = kGoodStep;
        const auto at = s.find(from);
        Q_ASSERT(at != std::string::npos);
        s.replace(at, from.size(), to);
        return QString::fromStdString(lessonWith(s));
    };
    QTest::newRow("not json") << QStringLiteral("{\"format\":")
                              << QStringLiteral("bad.json is not valid JSON");
    QTest::newRow("format") << QStringLiteral(R"({"format":"pbx-ledger","version":1})")
                            << QStringLiteral("bad.json: format: expected \"pbx-lesson\"");
    QTest::newRow("version") << QStringLiteral(R"({"format":"pbx-lesson","version":2})")
                             << QStringLiteral("bad.json: version: this program reads version 1");
    QTest::newRow("unknown top key") << QString::fromStdString(lessonWith(kGoodStep).insert(
        1, R"("titel":"x",)")) << QStringLiteral("bad.json: unknown field 'titel'");
    QTest::newRow("no steps") << QString::fromStdString(lessonWith(""))
                              << QStringLiteral("bad.json: steps: missing");
    QTest::newRow("step key") << step(R"("title":"a")", R"("titel":"a")")
                              << QStringLiteral("bad.json: steps[0]: unknown field 'titel'");
    QTest::newRow("empty question") << step(R"("question":"q")", R"("question":"")")
                                    << QStringLiteral("bad.json: steps[0].question: must not be empty");
    QTest::newRow("filter") << step(R"("filter":"basic")", R"("filter":"basik")")
                            << QStringLiteral(
                                   "bad.json: steps[0].setup.session.filter: unknown filter 'basik'");
    QTest::newRow("epsilon") << step(R"("epsilon":1)", R"("epsilon":"1")")
                             << QStringLiteral("bad.json: steps[0].setup.session.epsilon: expected a number");
    QTest::newRow("budget") << step(R"("epsilon":1)", R"("epsilon":-1)")
                            << QStringLiteral("bad.json: steps[0].setup.session: ");
    QTest::newRow("request field")
        << step(R"("error":100)", R"("eror":100)")
        << QStringLiteral("bad.json: steps[0].setup.requests[0].target: unknown field 'eror'");
    QTest::newRow("request id") << step(R"("id":"c",)", "")
                                << QStringLiteral("bad.json: steps[0].setup.requests[0].id: missing");
    QTest::newRow("view") << step(R"("view":"main")", R"("view":"mian")")
                          << QStringLiteral("bad.json: steps[0].setup.view: unknown view 'mian'");
    QTest::newRow("tab of a view without tabs")
        << step(R"("view":"main")", R"("view":"main","tab":"path")")
        << QStringLiteral("bad.json: steps[0].setup.tab: the view 'main' has no tabs");
    QTest::newRow("tab") << step(R"("view":"main")", R"("view":"lab:growing","tab":"atgg")")
                         << QStringLiteral("bad.json: steps[0].setup.tab: unknown tab 'atgg' of the view "
                                           "'lab:growing' (expected timeline, pmwg, atg)");
    QTest::newRow("repeat") << step(R"("view":"main")", R"("repeat":0)")
                            << QStringLiteral("bad.json: steps[0].setup.repeat: must be 1");
    QTest::newRow("plan event") << step(
        R"("view":"main")", R"("comparison":{"plan":{"events":[{"mechanism":"gaussian","sigma":-1}]}})")
                                << QStringLiteral("bad.json: steps[0].setup.comparison.plan.events[0].sigma");
    QTest::newRow("strategy") << step(R"("view":"main")", R"("comparison":{"strategies":["pdl"]})")
                              << QStringLiteral(
                                     "bad.json: steps[0].setup.comparison.strategies[0]: expected one of");
    QTest::newRow("requests without session")
        << step(R"("session":{"dataset":"cps1988","epsilon":1,"filter":"basic","seed":3},)", "")
        << QStringLiteral("bad.json: steps[0].setup.requests: requests need a session");
    QTest::newRow("placeholder") << step(R"({req.c.cost})", R"({req.d.cost})")
                                 << QStringLiteral(
                                        "bad.json: steps[0].answer: {req.d.cost}: no request with id 'd'");
}

void TestLessonFormat::badLessons()
{
    QFETCH(QString, document);
    QFETCH(QString, message);
    auto lesson = lessons::parseLesson(document.toStdString(), "bad.json");
    QVERIFY(!lesson.ok());
    QVERIFY2(QString::fromStdString(lesson.error().message).startsWith(message),
             qPrintable(QStringLiteral("got: %1").arg(QString::fromStdString(lesson.error().message))));
}

void TestLessonFormat::placeholders_data()
{
    QTest::addColumn<QString>("answer");
    QTest::addColumn<bool>("comparison");
    QTest::addColumn<QString>("error"); // empty: accepted
    QTest::newRow("fields") << "{last.answer} ± {last.halfwidth}, {req.c.epsilon} {req.c.unit}" << false
                            << "";
    QTest::newRow("session") << "{spent.epsilon} of {budget.epsilon}, {remaining}, {events}" << false << "";
    QTest::newRow("coverage") << "{coverage} % ({coverage.c}), {mean.c.cost}" << false << "";
    QTest::newRow("output dp") << "{req.c.reserved} {req.c.settled} {req.c.returned} {last.cell}" << false
                               << "";
    QTest::newRow("braces") << "a set {{1, 2}} costs {last.cost}" << false << "";
    QTest::newRow("comparison") << "{comparison.pld.epsilon} {comparison.best} {comparison.delta}" << true
                                << "";
    QTest::newRow("unknown field") << "{last.noise}" << false << "unknown field 'noise'";
    QTest::newRow("unknown name") << "{answer}" << false << "unknown placeholder";
    QTest::newRow("no comparison") << "{comparison.pld.epsilon}" << false << "the step has no comparison";
    QTest::newRow("bad strategy") << "{comparison.pdl.epsilon}" << true << "expected comparison.S.epsilon";
    QTest::newRow("crossover without plan")
        << "{comparison.crossover}" << true << "needs a comparison with a plan";
    QTest::newRow("mean of text") << "{mean.c.unit}" << false << "a mean needs a numeric field";
    QTest::newRow("unclosed") << "cost {last.cost" << false << "a '{' that is never closed";
    QTest::newRow("stray") << "cost } here" << false << "a '}' without '{'";
    QTest::newRow("growing")
        << "{growing.epoch.9.cumulative} of {growing.budget}, γ* = {growing.optimal_gamma}, "
           "{growing.atg.1000.100000} vs {growing.naive.1000.100000}, "
           "{growing.staleness.sorted}"
        << false << "";
    QTest::newRow("growing epoch") << "{growing.epoch.41.epsilon}" << false << "an epoch index from 0 to 40";
    QTest::newRow("growing field") << "{growing.epoch.1.eps}" << false << "unknown epoch field 'eps'";
    QTest::newRow("growing times") << "{growing.atg.1000.999}" << false << "1000 <= S <= T";
    QTest::newRow("growing order") << "{growing.staleness.reversed}" << false
                                   << "expected growing.staleness.random";
}

void TestLessonFormat::placeholders()
{
    QFETCH(QString, answer);
    QFETCH(bool, comparison);
    QFETCH(QString, error);
    lessons::PlaceholderContext context;
    context.hasSession = true;
    context.requestIds = {"c"};
    context.stepIds = {"c"};
    context.hasComparison = comparison;
    auto checked = lessons::checkAnswerTemplate(answer.toStdString(), context, "steps[1].answer");
    if (error.isEmpty()) {
        QVERIFY2(checked.ok(), checked.ok() ? "" : checked.error().message.c_str());
        return;
    }
    QVERIFY(!checked.ok());
    const QString message = QString::fromStdString(checked.error().message);
    QVERIFY2(message.startsWith(QStringLiteral("steps[1].answer: ")) && message.contains(error),
             qPrintable(message));
}

void TestLessonFormat::valuesComeFromTheCore()
{
    session::SessionSettings settings;
    settings.filter = filters::FilterKind::Basic;
    settings.seed = 9;
    settings.epsilon = 5.0; // 30 counts at ±50 cost 30 × 0.0593
    // True values (coverage) are shown for public tables only: the synthetic one is declared so.
    auto table = std::make_shared<const data::Table>(test::syntheticTable()->withPublic(true));
    auto s = session::Session::create(table, settings);
    QVERIFY(s.ok());
    session::QueryRequest request;
    request.id = "south";
    request.query.where = "region == \"south\"";
    request.target = {session::TargetKind::Absolute, 50.0, 0.95};
    request.mechanism = session::ReleaseMethod::Laplace;
    for (int i = 0; i < 30; ++i)
        QVERIFY((*s)->ask(request).ok());
    lessons::StepOutcome outcome;
    outcome.session = s->get();
    const auto &events = (*s)->events();
    const auto number = [&](const std::string &name) {
        auto v = lessons::lessonValue(name, outcome);
        if (!v.ok())
            qFatal("%s", v.error().message.c_str());
        return std::get<double>(*v);
    };
    QCOMPARE(number("req.south.cost"), events.back().cost);
    QCOMPARE(number("last.answer"), events.back().answer);
    QCOMPARE(number("req.south.halfwidth"), 50.0);
    QCOMPARE(number("req.south.truth"), 5000.0); // every 4th of 20,000 rows
    QCOMPARE(number("spent.epsilon"), (*s)->filter().epsilonSpent());
    QCOMPARE(number("events"), 30.0);
    std::size_t covered = 0;
    for (const auto &e : events)
        covered += std::abs(e.answer - 5000.0) <= e.errorBound ? 1 : 0;
    QCOMPARE(number("coverage"), 100.0 * static_cast<double>(covered) / 30.0);
    auto filled = lessons::fillAnswer("{{x}} {req.south.cost} {last.unit}", outcome);
    QVERIFY(filled.ok());
    QCOMPARE(*filled, "{x} " + lessons::formatNumber(events.back().cost, +1) + " ε");
    // A value the step did not produce is an error naming the placeholder.
    auto missing = lessons::lessonValue("comparison.pld.epsilon", outcome);
    QVERIFY(!missing.ok());
    QVERIFY(missing.error().message.starts_with("{comparison.pld.epsilon}"));
}

void TestLessonFormat::outputDpValues()
{
    // A sparse vector that flags nothing (no region has 100,000 rows) settles in cell 0 and pays
    // ε₁ of the reserved ε; the rest goes back to the filter.
    session::SessionSettings settings;
    settings.filter = filters::FilterKind::Odp;
    settings.epsilon = 1.0;
    settings.seed = 5;
    auto s = session::Session::create(test::syntheticTable(), settings);
    QVERIFY(s.ok());
    session::QueryRequest request;
    request.id = "svt";
    session::OdpRequestSpec odp;
    odp.svt.column = "region";
    odp.svt.threshold = 100000;
    odp.svt.cutoff = 2;
    odp.svt.epsilon = 0.4;
    request.spec = odp;
    QVERIFY((*s)->ask(request).ok());
    const auto &record = *(*s)->events().back().odpRecord();
    QCOMPARE(record.cell, std::optional<int>(0));
    QVERIFY(record.settledEpsilon < record.reservedEpsilon);
    lessons::StepOutcome outcome;
    outcome.session = s->get();
    const auto number = [&](const std::string &name) {
        auto v = lessons::lessonValue(name, outcome);
        if (!v.ok())
            qFatal("%s", v.error().message.c_str());
        return std::get<double>(*v);
    };
    QCOMPARE(number("req.svt.reserved"), record.reservedEpsilon);
    QCOMPARE(number("req.svt.settled"), record.settledEpsilon);
    QCOMPARE(number("req.svt.returned"), record.reservedEpsilon - record.settledEpsilon);
    QCOMPARE(number("last.cell"), 0.0);
    // Losses are shown rounded up, the refund down: reserved − returned is never below settled.
    QCOMPARE(lessons::roundingFor("req.svt.reserved"), +1);
    QCOMPARE(lessons::roundingFor("req.svt.settled"), +1);
    QCOMPARE(lessons::roundingFor("req.svt.returned"), -1);
    const double shownReturned = std::stod(lessons::formatNumber(number("req.svt.returned"), -1));
    const double shownSettled = std::stod(lessons::formatNumber(number("req.svt.settled"), +1));
    QVERIFY(shownReturned <= record.reservedEpsilon - record.settledEpsilon);
    QVERIFY(shownSettled >= record.settledEpsilon);
    // A request that is not output DP has none of these.
    session::QueryRequest count;
    count.id = "c";
    count.target = {session::TargetKind::Absolute, 100.0, 0.95};
    count.mechanism = session::ReleaseMethod::Laplace;
    QVERIFY((*s)->ask(count).ok());
    auto none = lessons::lessonValue("req.c.reserved", outcome);
    QVERIFY(!none.ok());
    QVERIFY(none.error().message.find("not an output-DP request") != std::string::npos);
}

void TestLessonFormat::numbersRoundConservatively()
{
    // The views' rule (core/util/number_format.h formatDisplay): the same text as the result
    // card, the gauge and the comparison table print for the same number.
    QCOMPARE(lessons::formatNumber(0.029807176, +1), std::string("0.02981"));
    QCOMPARE(lessons::formatNumber(0.029807176, -1), std::string("0.0298"));
    QCOMPARE(lessons::formatNumber(0.029807176, 0), std::string("0.02981"));
    QCOMPARE(lessons::formatNumber(0.1, +1), std::string("0.1"));
    QCOMPARE(lessons::formatNumber(2.0, +1), std::string("2"));
    QCOMPARE(lessons::formatNumber(8784.0, 0), std::string("8,784"));
    QCOMPARE(lessons::formatNumber(424.3489, 0), std::string("424.3"));
    QCOMPARE(lessons::formatNumber(1.23456e-6, +1), std::string("1.235e-6"));
    QCOMPARE(lessons::formatNumber(1e-5, +1), std::string("1e-5"));
    QCOMPARE(lessons::formatNumber(0.0999996, +1), std::string("0.1")); // rounded up into the next decade
    QCOMPARE(lessons::formatNumber(2.0001, +1), std::string("2.001"));  // never below the core's
    // A pad of a few ulps (the accountants' cover for floating-point error) is not shown.
    QCOMPARE(lessons::formatNumber(2.0000000000000004, +1), std::string("2"));
    QCOMPARE(lessons::formatNumber(2.0000000000000004, 0), std::string("2"));
    QCOMPARE(lessons::roundingFor("req.x.cost"), +1);
    QCOMPARE(lessons::roundingFor("comparison.pld.epsilon"), +1);
    QCOMPARE(lessons::roundingFor("remaining"), -1);
    QCOMPARE(lessons::roundingFor("last.answer"), 0);
    // Truth on a table that is not public is refused.
    session::SessionSettings settings;
    auto s = session::Session::create(test::syntheticTable(), settings);
    QVERIFY(s.ok());
    session::QueryRequest request;
    request.id = "c";
    request.target = {session::TargetKind::Absolute, 100.0, 0.95};
    QVERIFY((*s)->ask(request).ok());
    lessons::StepOutcome outcome;
    outcome.session = s->get();
    auto truth = lessons::lessonValue("req.c.truth", outcome);
    QVERIFY(!truth.ok());
    QCOMPARE(truth.error().code, ErrorCode::Unsupported);
}

void TestLessonFormat::crossoverMatchesTheStrategies()
{
    accounting::PrivacyEvent event;
    event.mechanism = accounting::MechanismKind::Laplace;
    event.scale = 8.0; // ε₀ = 0.125, the composition lesson's first plan
    auto k = lessons::advancedCrossover(event, accounting::Neighbouring::AddRemove, 1e-5);
    QVERIFY2(k.ok(), k.ok() ? "" : k.error().message.c_str());
    const auto epsilons = [&](std::int64_t count) {
        accounting::Ledger ledger{accounting::Neighbouring::AddRemove, {event}};
        ledger.events.front().count = count;
        const accounting::AccountingQuery query{true, 1e-5};
        return std::pair{accounting::evaluateStrategy("basic", ledger, query)->epsilon,
                         accounting::evaluateStrategy("advanced", ledger, query)->epsilon};
    };
    const auto [basicAt, advancedAt] = epsilons(*k);
    QVERIFY(advancedAt < basicAt);
    const auto [basicBefore, advancedBefore] = epsilons(*k - 1);
    QVERIFY(advancedBefore >= basicBefore);
    QVERIFY(*k > 20); // for 20 counts basic still wins (the composition lesson's first step)
}

void TestLessonFormat::growingValues()
{
    // The worked table of docs/growing-databases.md: ε_i = 2^−(i+1), Σ = 1 − 2^−(i+1), t_i = 1000·2^i.
    const auto value = [](const char *name) { return *lessons::growingValue(name, nullptr); };
    QCOMPARE(value("growing.epoch.0.epsilon"), 0.5);
    QCOMPARE(value("growing.epoch.3.cumulative"), 0.9375);
    QCOMPARE(value("growing.epoch.9.start"), 512000.0);
    QCOMPARE(value("growing.epoch.7.end"), 255999.0);
    QVERIFY(std::abs(value("growing.epoch.0.bound") - 0.61958) < 1e-5);
    QCOMPARE(value("growing.budget"), 1.0);
    QCOMPARE(lessons::formatLessonValue("growing.epoch.9.cumulative",
                                        lessons::LessonValue(value("growing.epoch.9.cumulative"))),
             std::string("0.99902344")); // 1 − 2^−10, rounded up to the growing lab's 8 digits
    QCOMPARE(lessons::formatLessonValue("growing.epoch.9.epsilon",
                                        lessons::LessonValue(value("growing.epoch.9.epsilon"))),
             std::string("0.000976563")); // 2^−10 = 0.0009765625, rounded up: never below the core's
    // ATG's test vectors and the fraction-scale counter-example (σ_n = 0.002, p = ½, n = 1000).
    QCOMPARE(value("growing.atg.1000.1000"), pbx::growing::atgLoss({1000, 0.002, 0.5}, 1000, 1000));
    QVERIFY(std::abs(value("growing.atg.1000.100000") - 0.55) < 1e-9);
    QVERIFY(std::abs(value("growing.naive.1000.100000") - 3.025) < 1e-9);
    QCOMPARE(lessons::roundingFor("growing.naive.1000.100000"), +1);
    QCOMPARE(lessons::roundingFor("growing.epoch.1.bound"), 0);
    // The staleness simulation needs a session's public table.
    QVERIFY(!lessons::growingValue("growing.staleness.random", nullptr).ok());
    QVERIFY(!lessons::growingValue("growing.epoch.99.start", nullptr).ok());
}

// One step of 100 requests × repeat 1000 (a 14 KB file) blocked the GUI for minutes.
// The work of a step (requests × repeat asks) is estimated when the lesson is read and refused
// above 200; a session's steps together (replayed when going to a step) above 1000.
void TestLessonFormat::workPerStepIsBounded()
{
    const auto stepWith = [](int requests, int repeat, bool session) {
        std::string list;
        for (int i = 0; i < requests; ++i)
            list += (i ? "," : "") + std::string(R"({"id":"r)") + std::to_string(i)
                    + R"(","aggregate":"count","target":{"kind":"absolute","error":100}})";
        return std::string(R"({"title":"a","explanation":"b","setup":{)")
               + (session ? R"("session":{"dataset":"cps1988","epsilon":1,"filter":"basic","seed":3},)" : "")
               + R"("requests":[)" + list + R"(],"repeat":)" + std::to_string(repeat)
               + R"(},"question":"q","answer":"a"})";
    };
    const std::string huge = lessonWith(stepWith(100, 1000, true));
    QVERIFY(huge.size() > 7000); // a 7 KB file (the issue's had longer requests: 14 KB)
    auto refused = lessons::parseLesson(huge, "big.json");
    QVERIFY(!refused.ok());
    QCOMPARE(
        QString::fromStdString(refused.error().message),
        QStringLiteral("big.json: steps[0].setup: 100 requests × repeat 1000 = 100000 asks; a step asks at "
                       "most 200"));
    QVERIFY(lessons::parseLesson(lessonWith(stepWith(2, 100, true)), "ok.json").ok());
    QVERIFY(!lessons::parseLesson(lessonWith(stepWith(1, 201, true)), "one.json").ok());
    // Five steps of 200 in one session are allowed, a sixth is not; a new session starts afresh.
    std::string steps = stepWith(1, 200, true);
    for (int i = 1; i < 5; ++i)
        steps += "," + stepWith(1, 200, false);
    QVERIFY(lessons::parseLesson(lessonWith(steps), "five.json").ok());
    auto six = lessons::parseLesson(lessonWith(steps + "," + stepWith(1, 200, false)), "six.json");
    QVERIFY(!six.ok());
    QVERIFY2(six.error().message.starts_with(
                 "six.json: steps[5].setup: the steps since the last setup.session ask "
                 "1200 times"),
             six.error().message.c_str());
    QVERIFY(lessons::parseLesson(lessonWith(steps + "," + stepWith(1, 200, true)), "new.json").ok());
}

QTEST_APPLESS_MAIN(TestLessonFormat)
#include "tst_lessonformat.moc"
