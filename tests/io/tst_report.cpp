// SPDX-License-Identifier: MIT
// The session report (core/report) of a saved session: a seeded cps1988 session is written as a
// transcript, read back and audited as `pbx-cli report` does, and its report must hold every
// event (id, answer, cost), the dataset's provenance, the filter, the seeded mark on both ends,
// the composition comparison's numbers, and SVG charts an XML reader can parse. A session with a
// histogram cannot be compared, and the report says so instead of failing.
#include "core/io/request_json.h"
#include "core/io/session_file.h"
#include "core/io/text_file.h"
#include "core/io/transcript_json.h"
#include "core/report/event_description.h"
#include "core/report/mechanism_notes.h"
#include "core/report/report_charts.h"
#include "core/report/report_html.h"
#include "core/report/session_report.h"
#include "core/report/svg_writer.h"
#include "core/session/ledger/session_ledger.h"
#include "core/util/number_format.h"
#include "tests/strategies/cps_table.h"
#include "tests/testutils.h"

#include <QTemporaryDir>
#include <QXmlStreamReader>

using namespace pbx;

namespace {

session::QueryRequest request(const char *line)
{
    auto r = io::readRequestLine(line, 1);
    if (!r)
        qFatal("%s", r.error().message.c_str());
    return *r;
}

std::size_t countOf(const std::string &text, const std::string &needle)
{
    std::size_t n = 0;
    for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
        ++n;
    return n;
}

} // namespace

class TestReport : public QObject
{
    Q_OBJECT

    std::shared_ptr<const data::Table> m_cps;
    QTemporaryDir m_dir;

    /// Runs `lines` in a seeded session, saves the transcript, reads and audits it back.
    std::unique_ptr<session::Session> savedSession(const std::vector<const char *> &lines,
                                                   filters::FilterKind filter, bool seeded = true)
    {
        session::SessionSettings settings;
        settings.epsilon = 1.0;
        settings.delta = 1e-6;
        settings.filter = filter;
        if (seeded)
            settings.seed = 7;
        auto live = session::Session::create(m_cps, settings).value();
        for (const char *line : lines)
            if (!live->ask(request(line)))
                qFatal("ask failed: %s", line);
        const std::string path = m_dir.filePath(QStringLiteral("t.json")).toStdString();
        if (!io::writeTextFileAtomically(path, io::writeTranscriptJson(*live)))
            qFatal("write failed");
        auto file = io::readSessionFile(path);
        if (!file)
            qFatal("%s", file.error().message.c_str());
        auto replayed = io::auditSessionFile(*file, m_cps);
        if (!replayed)
            qFatal("%s", replayed.error().message.c_str());
        return std::move(replayed).value();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_cps = std::make_shared<const data::Table>(test::loadCps());
    }

    void reportHoldsEveryEvent()
    {
        const auto s = savedSession(
            {"{\"id\":\"south\",\"aggregate\":\"count\",\"where\":\"region == \\\"south\\\"\",\"target\":{\"kind\":\"absolute\",\"error\":40,\"confidence\":0.95}}",
             "{\"id\":\"wage\",\"aggregate\":\"mean\",\"column\":\"wage\",\"bounds\":[0,4000],\"target\":{\"kind\":\"relative\",\"error\":0.05,\"confidence\":0.95}}",
             "{\"id\":\"edu\",\"aggregate\":\"sum\",\"column\":\"education\",\"where\":\"region == \\\"west\\\"\",\"target\":{\"kind\":\"absolute\",\"error\":2000}}",
             "{\"id\":\"greedy\",\"aggregate\":\"count\",\"target\":{\"kind\":\"absolute\",\"error\":0.5}}"},
            filters::FilterKind::Zcdp);
        QCOMPARE(s->events().size(), std::size_t{4});
        QCOMPARE(s->events()[3].status, session::EventStatus::Refused);

        report::ReportSource source;
        source.path = "/saved/t.json";
        source.generator = "test";
        const auto r = report::collectReport(*s, source);
        QVERIFY(r.seeded());
        QCOMPARE(r.events.size(), std::size_t{4});
        QCOMPARE(r.rows, std::size_t{28155});
        const std::string html = report::reportHtml(r);

        // Every event: its id, its answer and error bar as printed, its cost, its mechanism.
        for (const auto &e : s->events()) {
            QVERIFY2(html.find("<td>" + e.request.id + "</td>") != std::string::npos, e.request.id.c_str());
            if (e.status == session::EventStatus::Released) {
                const std::string answer
                    = report::formatNumber(e.answer, 8) + " ± " + report::formatNumber(e.errorBound);
                QVERIFY2(html.find(answer) != std::string::npos, answer.c_str());
                const std::string cost = "ρ = " + report::formatUpper(e.cost);
                QVERIFY2(html.find(cost) != std::string::npos, cost.c_str());
                QVERIFY(html.find("<td>" + e.mechanismName() + "</td>") != std::string::npos);
            } else {
                QVERIFY(html.find(xmlEscapeForTest(e.reason)) != std::string::npos);
            }
        }
        // The first answer's cost is the Gaussian's ρ = Δ²/(2σ²) with Δ = 1 (a count under
        // add/remove, Bun & Steinke 2016 Prop. 1.6), rounded up, and its error bar the target's.
        const auto &first = s->events()[0];
        QCOMPARE(first.errorBound, 40.0);
        const double sigma = first.attempts.at(0).releases.at(0).scale;
        QVERIFY(first.cost >= 1.0 / (2.0 * sigma * sigma));
        QVERIFY(test::fuzzyCompare(first.cost, 1.0 / (2.0 * sigma * sigma), 1e-9));
        QVERIFY(sigma > 15.0 && sigma < 25.0); // ±40 at 95 % needs σ ≈ 40/1.96 ≈ 20.4

        // Dataset and provenance, budget, filter, session file.
        QVERIFY(!m_cps->provenance().empty());
        QVERIFY(html.find(report::xmlEscape(m_cps->provenance())) != std::string::npos);
        QVERIFY(html.find("<td>28155</td>") != std::string::npos);
        QVERIFY(html.find("zCDP filter (zcdp)") != std::string::npos);
        QVERIFY(html.find("ε = 1, δ = 1e-06") != std::string::npos);
        QVERIFY(html.find("/saved/t.json") != std::string::npos);
        QVERIFY(html.find("add-remove") != std::string::npos);
        // Seeded: the mark at the top and at the bottom, and the seed itself.
        QCOMPARE(countOf(html, report::kSeededMark), std::size_t{2});
        QVERIFY(html.find("seeded (seed 7)") != std::string::npos);
        // How the numbers were made: the filter and each mechanism used, with the papers.
        QVERIFY(html.find("Whitehouse, Ramdas, Rogers &amp; Wu 2023") != std::string::npos);
        for (const auto &m : r.mechanisms)
            QVERIFY2(html.find(report::xmlEscape(report::mechanismNote(m).title)) != std::string::npos,
                     m.c_str());

        // The comparison: every strategy's ε at δ as printed, from the same numbers.
        QVERIFY(r.comparison.comparison.has_value());
        QCOMPARE(r.comparison.delta, 1e-6);
        const auto *zcdp = r.comparison.comparison->find("zcdp");
        QVERIFY(zcdp && zcdp->answer);
        QVERIFY(zcdp->answer->epsilon > 0.0 && zcdp->answer->epsilon < 1.0);
        QVERIFY(html.find("<td>" + report::comparisonEpsilonText(*zcdp) + "</td>") != std::string::npos);
        // Printed as the comparison view prints it: rounded up to four significant digits.
        QCOMPARE(report::comparisonEpsilonText(*zcdp), formatDisplay(zcdp->answer->epsilon, Rounding::Up));
        QVERIFY(html.find("<td>Privacy-loss distribution</td>") != std::string::npos);
        // Basic composition takes the ten Gaussian steps (three releases; the mean's noise
        // reduction adds levels) as (ε, δ) at δ/(2k) = 1e-6/20, as the comparison view does by
        // default (it said "does not apply"); autoPerStepDelta rounds 1e-6/20 down to two digits.
        QCOMPARE(r.comparison.convertedSteps, std::int64_t{10});
        QCOMPARE(r.comparison.perStepDelta, 4.9e-8);
        const auto *basic = r.comparison.comparison->find("basic");
        QVERIFY(basic && basic->answer && basic->perStep);
        QCOMPARE(basic->perStep->convertedSteps, std::int64_t{10});
        QVERIFY(html.find("<td>Basic composition</td><td>" + report::comparisonEpsilonText(*basic) + "</td>")
                != std::string::npos);
        QVERIFY(html.find("10 Gaussian/zCDP steps at δ = 4.9e-8 each") != std::string::npos);

        // The request number's cell does not wrap ("1" over "4" in a narrow PDF column).
        QVERIFY(html.find("<tr><td class=\"n\">4</td><td>greedy</td>") != std::string::npos);
        QVERIFY(html.find(".n { white-space: nowrap; }") != std::string::npos);
        // Categorical columns list their declared categories.
        QVERIFY(html.find("<td>ethnicity</td><td>categorical</td><td>2 categories: cauc, afam</td>")
                != std::string::npos);
        QVERIFY(html.find("<td>wage</td><td>numeric</td><td>[0, 5000]</td>") != std::string::npos);
        // The discrete Gaussian's σ² is a decimal in the request's row, the exact fraction in its
        // title and in the footnote under the table.
        const auto exact = report::exactParameters(first);
        QCOMPARE(exact.size(), std::size_t{1});
        QVERIFY(exact[0].rfind("σ² = ", 0) == 0 && exact[0].find('/') != std::string::npos);
        QVERIFY(html.find("σ² ≈ ") != std::string::npos);
        QVERIFY(html.find("title=\"" + exact[0] + "\"") != std::string::npos);
        QVERIFY(html.find("† Exact noise parameters (shown rounded above): #1: " + exact[0])
                != std::string::npos);
        QCOMPARE(countOf(html, exact[0]), std::size_t{2}); // the title and the footnote only

        // Well-formed: the whole document parses as XML; two <svg> charts inside.
        QXmlStreamReader xml(QByteArray::fromStdString(html));
        int svgs = 0, circles = 0, bars = 0;
        bool inPath = false;
        while (!xml.atEnd()) {
            if (xml.readNext() != QXmlStreamReader::StartElement)
                continue;
            if (xml.name() == QLatin1String("svg")) {
                ++svgs;
                QCOMPARE(xml.namespaceUri(), QStringLiteral("http://www.w3.org/2000/svg"));
                inPath = svgs == 1;
            } else if (xml.name() == QLatin1String("circle") && inPath) {
                ++circles;
            } else if (xml.name() == QLatin1String("rect") && !inPath && svgs == 2) {
                ++bars;
            }
        }
        QVERIFY2(!xml.hasError(),
                 qPrintable(xml.errorString() + QStringLiteral(" at line %1").arg(xml.lineNumber())));
        QCOMPARE(svgs, 2);
        // One dot per request on the budget path (+1 in the legend).
        QCOMPARE(circles, 5);
        // One bar per applicable strategy (+ the white background).
        int applicable = 0;
        for (const auto &st : r.comparison.comparison->strategies)
            applicable += st.applicable() ? 1 : 0;
        QCOMPARE(bars, applicable + 1);
    }

    /// Categories read from the data (no metadata declared them) are never listed: listing a label
    /// would disclose that some row holds it. The report says where the domain came from.
    void dataReadCategoriesAreNotListed()
    {
        data::Column declared;
        declared.info.name = "g";
        declared.info.type = data::ColumnType::Categorical;
        declared.info.categories = {"north", "south"};
        data::Column inferred;
        inferred.info.name = "rare";
        inferred.info.type = data::ColumnType::Categorical;
        inferred.info.categories = {"common", "only-one-row-has-this"};
        inferred.info.domainFromData = true;
        for (int i = 0; i < 50; ++i) {
            declared.codes.push_back(i % 2);
            inferred.codes.push_back(i == 7 ? 1 : 0);
        }
        auto table = data::Table::create("t", {declared, inferred});
        QVERIFY2(table.ok(), table.ok() ? "" : table.error().message.c_str());
        session::SessionSettings settings;
        auto s = session::Session::create(std::make_shared<const data::Table>(std::move(table).value()),
                                          settings)
                     .value();
        const auto r = report::collectReport(*s, {});
        QCOMPARE(r.columns.size(), std::size_t{2});
        QCOMPARE(r.columns[0].categories, (std::vector<std::string>{"north", "south"}));
        QVERIFY(r.columns[1].domainFromData);
        QVERIFY(r.columns[1].categories.empty());
        const std::string html = report::reportHtml(r);
        QVERIFY(html.find("<td>g</td><td>categorical</td><td>2 categories: north, south</td>")
                != std::string::npos);
        QVERIFY(
            html.find("<td>rare</td><td>categorical</td><td>not listed: the categories were read from the "
                      "data, not declared in metadata</td>")
            != std::string::npos);
        QVERIFY(html.find("only-one-row-has-this") == std::string::npos);
    }

    /// A histogram was charged one pure ε (its cells compose in parallel), so the session's
    /// ledger holds it as one pure event of that ε and every strategy compares the session.
    void histogramSessionIsCompared()
    {
        const auto s = savedSession(
            {"{\"id\":\"regions\",\"aggregate\":\"histogram\",\"column\":\"region\",\"target\":{\"kind\":\"absolute\",\"error\":20,\"confidence\":0.95}}",
             "{\"id\":\"c\",\"aggregate\":\"count\",\"target\":{\"kind\":\"absolute\",\"error\":50}}"},
            filters::FilterKind::Basic);
        const auto r = report::collectReport(*s, {});
        QVERIFY2(r.comparison.comparison, r.comparison.unavailable.c_str());
        auto ledger = accounting::ledgerFromSession(*s);
        QVERIFY(ledger.ok());
        QCOMPARE(ledger->events.size(), std::size_t{2});
        QCOMPARE(ledger->events[0].mechanism, accounting::MechanismKind::PureDp);
        QCOMPARE(ledger->events[0].epsilon, s->events()[0].cost);
        const std::string html = report::reportHtml(r);
        // Every released cell with its error bar.
        const auto &record = *s->events()[0].strategyRecord();
        QCOMPARE(record.values.size(), std::size_t{4});
        for (std::size_t i = 0; i < record.values.size(); ++i)
            QVERIFY(html.find("<td>" + report::xmlEscape(record.labels[i]) + "</td><td>"
                              + report::formatNumber(record.values[i], 8) + "</td>")
                    != std::string::npos);
        QVERIFY(html.find("ε = " + report::formatUpper(s->events()[0].cost)) != std::string::npos);
        QVERIFY(html.find("Basic composition filter (basic)") != std::string::npos);
        QVERIFY(html.find("Histogram (discrete Laplace)") != std::string::npos);
        // Still parseable.
        QXmlStreamReader xml(QByteArray::fromStdString(html));
        while (!xml.atEnd())
            xml.readNext();
        QVERIFY(!xml.hasError());
    }

    void unseededSessionCarriesNoMark()
    {
        const auto s = savedSession(
            {"{\"id\":\"a\",\"aggregate\":\"count\",\"target\":{\"kind\":\"absolute\",\"error\":40}}"},
            filters::FilterKind::Zcdp, false);
        const std::string html = report::reportHtml(report::collectReport(*s, {}));
        QCOMPARE(countOf(html, report::kSeededMark), std::size_t{0});
        QVERIFY(html.find("operating-system randomness") != std::string::npos);
    }

    void emptySessionSaysNothingWasReleased()
    {
        session::SessionSettings settings;
        auto s = session::Session::create(m_cps, settings).value();
        const auto r = report::collectReport(*s, {});
        QCOMPARE(r.comparison.unavailable,
                 std::string("Nothing was released, so there is nothing to compare."));
        QVERIFY(report::budgetPathSvg(r).find("No requests yet") != std::string::npos);
    }

    void wordsAndNumbers()
    {
        QCOMPARE(report::describeTarget({session::TargetKind::Absolute, 40.0, 0.95}),
                 std::string("±40 at 95 %"));
        QCOMPARE(report::describeTarget({session::TargetKind::Relative, 0.05, 0.9}),
                 std::string("±5 % (relative) at 90 %"));
        QCOMPARE(report::formatNumber(std::numeric_limits<double>::infinity()), std::string("∞"));
        // Spends are printed rounded up, what remains rounded down, at 6 significant digits.
        QCOMPARE(report::formatUpper(0.0011707694729642668), std::string("0.00117077"));
        QCOMPARE(report::formatUpper(0.30459362001), std::string("0.304594"));
        QCOMPARE(report::formatLower(0.30459369), std::string("0.304593"));
        QCOMPARE(report::formatUpper(2.5), std::string("2.5"));
        QCOMPARE(report::formatUpper(1e-6), std::string("1e-06"));
        QCOMPARE(report::formatUpper(123456789.0), std::string("1.23457e+08"));
        QCOMPARE(report::xmlEscape("a<b & \"c\""), std::string("a&lt;b &amp; &quot;c&quot;"));
        // Control characters made the report ill-formed XML 1.0 / HTML.
        QCOMPARE(report::xmlEscape(std::string("a\x01"
                                               "b\x1b"
                                               "c\x7f"
                                               "d\t\n",
                                               9)),
                 std::string("a\u2401b\u241bc\u2421d\t\n"));
        QCOMPARE(report::xmlEscape("x\xc2\x85y\xef\xbf\xbez\xff"), std::string("x\ufffdy\ufffdz\ufffd"));
        QCOMPARE(report::xmlEscape("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"), std::string("é€😀"));
        QCOMPARE(report::xmlEscape(std::string("\0", 1)), std::string("\u2400"));
        QCOMPARE(report::mechanismNote("workload (tree, discrete-laplace)").title,
                 std::string("Range workload (strategy matrix)"));
    }

    /// The growing streams' notes name their noise: exact discrete Laplace / discrete Gaussian
    /// (Canonne, Kamath & Steinke 2020) for new streams, continuous for the streams of a transcript
    /// recorded before the exact noise (tests/data/transcripts, main at b52b432).
    void growingNotesNameTheirNoise()
    {
        for (const char *m : {"bbscheduler", "bbimprover", "nsg", "pmwg"}) {
            const auto note = report::mechanismNote(m);
            QVERIFY2(note.text.find("exact discrete Laplace") != std::string::npos, m);
            QVERIFY2(note.sources.find("Canonne, Kamath & Steinke 2020") != std::string::npos, m);
        }
        QVERIFY(report::mechanismNote("ermg").text.find("exact discrete Gaussian") != std::string::npos);
        auto file = io::readSessionFile(PBX_SOURCE_DIR "/tests/data/transcripts/growing_continuous.json");
        QVERIFY2(file.ok(), file ? "" : file.error().message.c_str());
        auto replayed = io::auditSessionFile(*file, m_cps);
        QVERIFY2(replayed.ok(), replayed ? "" : replayed.error().message.c_str());
        const auto r = report::collectReport(**replayed, {});
        QCOMPARE(r.mechanisms, (std::vector<std::string>{"bbscheduler:continuous", "bbimprover:continuous",
                                                         "ermg:continuous"}));
        const std::string html = report::reportHtml(r);
        QVERIFY(html.find("Growing database (BBScheduler), continuous noise") != std::string::npos);
        QVERIFY(html.find("continuous Gaussian noise of scale σ_t") != std::string::npos);
        QVERIFY(html.find("exact discrete") == std::string::npos);
    }

private:
    static std::string xmlEscapeForTest(const std::string &text) { return report::xmlEscape(text); }
};

QTEST_GUILESS_MAIN(TestReport)
#include "tst_report.moc"
