// SPDX-License-Identifier: MIT
#include "core/io/strategies_lab_json.h"

#include "core/strategies/histogram.h"
#include "core/strategies/quantiles.h"
#include "core/util/parameter_checks.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <type_traits>
#include <variant>

namespace pbx::strategies {

using io::json::Json;

namespace {

constexpr LabExperiment kExperiments[] = {LabExperiment::Bmi,
                                          LabExperiment::Ranges,
                                          LabExperiment::Inference,
                                          LabExperiment::Quantile,
                                          LabExperiment::SmoothSensitivity,
                                          LabExperiment::Stability,
                                          LabExperiment::Selection};

/// Reads an optional field with nlohmann without throwing.
template<typename T>
Result<std::optional<T>> optionalField(const Json &object, const char *key)
{
    if (!object.contains(key) || object[key].is_null())
        return std::optional<T>();
    const Json &v = object[key];
    if constexpr (std::is_same_v<T, bool>) {
        if (!v.is_boolean())
            return labConfigError(std::string(key) + ": expected true or false");
        return std::optional<T>(v.get<bool>());
    } else if constexpr (std::is_same_v<T, std::string>) {
        if (!v.is_string())
            return labConfigError(std::string(key) + ": expected a string");
        return std::optional<T>(v.get<std::string>());
    } else {
        if (!v.is_number())
            return labConfigError(std::string(key) + ": expected a number");
        const double d = v.get<double>();
        if (!std::isfinite(d))
            return labConfigError(std::string(key) + ": expected a finite number");
        return std::optional<T>(static_cast<T>(d));
    }
}

Result<std::size_t> positiveInteger(const Json &v, const std::string &what, std::size_t max)
{
    if (!v.is_number_integer() && !(v.is_number() && std::floor(v.get<double>()) == v.get<double>()))
        return labConfigError(what + ": expected an integer");
    const double d = v.get<double>();
    if (d < 0 || d > static_cast<double>(max))
        return labConfigError(what + ": out of range");
    return static_cast<std::size_t>(d);
}

} // namespace

Json strategyJson(const RangeStrategy &s)
{
    Json j = {{"kind", std::string(rangeStrategyKindName(s.kind))}};
    if (s.kind == RangeStrategyKind::Tree) {
        j["branching"] = s.branching;
        j["root"] = s.root;
        j["consistency"] = s.consistency;
    }
    return j;
}

namespace {

/// "format", "version", "experiment", "dataset" and "column" (with the experiment's defaults).
Result<void> parseExperiment(const Json &doc, LabConfig &c)
{
    if (!doc.is_object())
        return labConfigError("the configuration must be a JSON object");
    if (!doc.contains("format") || doc["format"] != "pbx-strategies-lab")
        return labConfigError("format: expected \"pbx-strategies-lab\"");
    if (!doc.contains("version") || doc["version"] != 1)
        return labConfigError("version: expected 1");
    PBX_TRY(experiment, optionalField<std::string>(doc, "experiment"));
    if (!experiment)
        return labConfigError(
            "experiment: required (bmi, ranges, inference, quantile, smooth-sensitivity, stability or "
            "selection)");
    bool known = false;
    for (const auto e : kExperiments)
        if (labExperimentName(e) == *experiment) {
            c.experiment = e;
            known = true;
        }
    if (!known)
        return labConfigError("experiment: unknown '" + *experiment + "'");
    if (c.experiment == LabExperiment::Bmi)
        c.dataset = "slides";
    if (auto v = optionalField<std::string>(doc, "dataset"); !v)
        return v.error();
    else if (*v)
        c.dataset = **v;
    if (auto v = optionalField<std::string>(doc, "column"); !v)
        return v.error();
    else if (*v)
        c.column = **v;
    if (c.column.empty())
        c.column = c.experiment == LabExperiment::Quantile || c.experiment == LabExperiment::SmoothSensitivity
                       ? "wage"
                   : c.experiment == LabExperiment::Selection ? "region"
                                                              : "experience";
    return {};
}

/// "bounds": [lo, hi] (integers of at most 2^16 values for an ordinal domain).
Result<void> parseBounds(const Json &doc, LabConfig &c)
{
    if (!doc.contains("bounds") || doc["bounds"].is_null())
        return {};
    const auto &b = doc["bounds"];
    if (!b.is_array() || b.size() != 2 || !b[0].is_number() || !b[1].is_number())
        return strategyError(kInvalidBounds, "bounds: expected [lo, hi]");
    const double lo = b[0].get<double>(), hi = b[1].get<double>();
    if (!std::isfinite(lo) || !std::isfinite(hi) || !(lo < hi))
        return strategyError(kInvalidBounds, "bounds: need finite lo < hi");
    if ((c.experiment == LabExperiment::Ranges || c.experiment == LabExperiment::Inference)
        && (lo != std::floor(lo) || hi != std::floor(hi)))
        return strategyError(kInvalidBounds, "bounds: an ordinal domain needs integer bounds");
    if (hi - lo + 1.0 > static_cast<double>(kMaxCells)
        && (c.experiment == LabExperiment::Ranges || c.experiment == LabExperiment::Inference))
        return strategyError(kInvalidBounds, "bounds: the domain has more than 65,536 values");
    c.bounds = std::pair{lo, hi};
    return {};
}

/// "neighbours", "epsilon", "q" and "repetitions".
Result<void> parsePrivacy(const Json &doc, LabConfig &c)
{
    if (auto v = optionalField<std::string>(doc, "neighbours"); !v)
        return v.error();
    else if (*v) {
        auto n = data::parseNeighbouring(**v);
        if (!n)
            return labConfigError("neighbours: expected add-remove or replace");
        c.neighbours = *n;
    }
    if (doc.contains("epsilon")) {
        const auto &e = doc["epsilon"];
        if (!e.is_number() || !(e.get<double>() > 0.0) || !std::isfinite(e.get<double>()))
            return strategyError(kInvalidEpsilon, "epsilon: must be a finite number > 0");
        c.epsilon = e.get<double>();
    }
    if (doc.contains("q")) {
        const auto &q = doc["q"];
        if (!q.is_number())
            return strategyError(kInvalidQuantile, "q: must be a number in (0, 1)");
        c.q = q.get<double>();
        PBX_RETURN_IF_ERROR(checkQuantile(c.q));
    }
    if (doc.contains("repetitions")) {
        PBX_TRY(r, positiveInteger(doc["repetitions"], "repetitions", 10'000'000));
        if (r < 2)
            return labConfigError("repetitions: at least 2");
        c.repetitions = static_cast<int>(r);
    }
    return {};
}

/// The ranges experiment's "strategies", "post", "workload" and "ranges".
Result<void> parseRanges(const Json &doc, LabConfig &c)
{
    if (doc.contains("strategies")) {
        const auto &list = doc["strategies"];
        if (!list.is_array())
            return labConfigError("strategies: expected an array");
        for (std::size_t i = 0; i < list.size(); ++i) {
            const auto &s = list[i];
            const std::string path = "strategies[" + std::to_string(i) + "]";
            if (!s.is_object() || !s.contains("kind") || !s["kind"].is_string())
                return labConfigError(path + ".kind: required");
            PBX_TRY(kind, parseRangeStrategyKind(s["kind"].get<std::string>()));
            RangeStrategy st{kind};
            if (s.contains("branching")) {
                if (!s["branching"].is_number_integer() || s["branching"].get<long long>() < 2)
                    return strategyError(kInvalidBranching, path + ".branching: an integer >= 2");
                st.branching = static_cast<std::size_t>(s["branching"].get<long long>());
            }
            auto root = io::json::optionalBool(s, "root", path, true);
            auto consistency = io::json::optionalBool(s, "consistency", path, true);
            if (!root || !consistency)
                return labConfigError(path + ": root and consistency are true or false");
            st.root = *root;
            st.consistency = *consistency;
            c.strategies.push_back(st);
        }
    }
    if (doc.contains("post") && !doc["post"].is_null()) {
        const auto &p = doc["post"];
        if (!p.is_object())
            return labConfigError("post: expected an object");
        auto clip = io::json::optionalBool(p, "clip_nonnegative", "post");
        auto round = io::json::optionalBool(p, "round", "post");
        auto iso = io::json::optionalBool(p, "isotonic_prefix", "post");
        if (!clip || !round || !iso)
            return labConfigError("post: clip_nonnegative, round and isotonic_prefix are true or false");
        c.post = {*clip, *round, *iso};
    }
    if (auto v = optionalField<std::string>(doc, "workload"); !v)
        return v.error();
    else if (*v)
        c.workload = **v;
    if (c.workload == "explicit") {
        if (!doc.contains("ranges") || !doc["ranges"].is_array())
            return labConfigError("ranges: required for the explicit workload, as [[i, j], ...]");
        for (std::size_t i = 0; i < doc["ranges"].size(); ++i) {
            const auto &r = doc["ranges"][i];
            if (!r.is_array() || r.size() != 2)
                return labConfigError("ranges[" + std::to_string(i) + "]: expected [first, last]");
            PBX_TRY(a, positiveInteger(r[0], "ranges[" + std::to_string(i) + "][0]", kMaxDomain));
            PBX_TRY(b, positiveInteger(r[1], "ranges[" + std::to_string(i) + "][1]", kMaxDomain));
            c.ranges.push_back({a, b});
        }
    }
    return {};
}

/// The inference experiment's "projection" and "branching"; the BMI's "cutoff"; the smooth
/// sensitivity's "delta"; "parallel_rule".
Result<void> parseExtras(const Json &doc, LabConfig &c)
{
    if (auto v = optionalField<std::string>(doc, "projection"); !v)
        return v.error();
    else if (*v)
        c.projection = **v;
    if (c.projection == "integers" || c.projection == "round")
        return strategyError(kNotConvex, "projection: the integers are not a convex set; rounding is not a "
                                         "projection and can increase the error (round only for display)");
    if (c.projection != "tree-consistency" && c.projection != "nonnegative"
        && c.projection != "isotonic-sorted" && c.projection != "isotonic-prefix")
        return labConfigError(
            "projection: expected tree-consistency, nonnegative, isotonic-sorted or isotonic-prefix");
    if (doc.contains("branching")) {
        if (!doc["branching"].is_number_integer() || doc["branching"].get<long long>() < 2)
            return strategyError(kInvalidBranching, "branching: an integer >= 2");
        c.branching = static_cast<std::size_t>(doc["branching"].get<long long>());
    }
    if (auto v = optionalField<double>(doc, "cutoff"); !v)
        return v.error();
    else if (*v)
        c.cutoff = **v;
    if (auto v = optionalField<double>(doc, "delta"); !v)
        return v.error();
    else if (*v)
        c.delta = **v;
    if (auto v = optionalField<std::string>(doc, "parallel_rule"); !v)
        return v.error();
    else if (*v) {
        if (**v == "max" && c.neighbours == data::Neighbouring::Replace)
            return strategyError(kNeighboursMismatch,
                                 "parallel_rule: the max rule of parallel composition holds under "
                                 "add/remove only; under replace a changed row can move between "
                                 "two parts (use \"doubled\")");
        if (**v != "max" && **v != "doubled")
            return labConfigError("parallel_rule: expected max or doubled");
    }
    return {};
}

} // namespace

Result<LabConfig> parseLabConfig(const Json &doc)
{
    LabConfig c;
    for (const auto parse : {parseExperiment, parseBounds, parsePrivacy, parseRanges, parseExtras})
        PBX_RETURN_IF_ERROR(parse(doc, c));
    return c;
}

Json labSettingsJson(const LabConfig &c, std::uint64_t seed)
{
    Json s;
    s["experiment"] = std::string(labExperimentName(c.experiment));
    if (labNeedsTable(c) || c.experiment == LabExperiment::Bmi)
        s["dataset"] = c.dataset;
    if (c.experiment != LabExperiment::Bmi && c.experiment != LabExperiment::Stability) {
        s["column"] = c.column;
        if (c.experiment != LabExperiment::Selection) // a categorical column has no bounds
            s["bounds"] = c.bounds ? Json{c.bounds->first, c.bounds->second} : Json("declared");
    }
    s["neighbours"] = std::string(data::neighbouringName(c.neighbours));
    s["epsilon"] = c.epsilon;
    if (c.experiment == LabExperiment::Ranges) {
        Json list = Json::array();
        for (const auto &st : c.strategies)
            list.push_back(strategyJson(st));
        s["strategies"] = list;
        s["post"] = {{"clip_nonnegative", c.post.clipNonNegative},
                     {"round", c.post.round},
                     {"isotonic_prefix", c.post.isotonicPrefix}};
        s["workload"] = c.workload;
    }
    if (c.experiment == LabExperiment::Inference) {
        s["projection"] = c.projection;
        s["branching"] = c.branching;
    }
    if (c.experiment == LabExperiment::Quantile)
        s["q"] = c.q;
    if (c.experiment == LabExperiment::SmoothSensitivity)
        s["delta"] = c.delta;
    if (c.experiment == LabExperiment::Bmi && c.dataset != "slides")
        s["cutoff"] = c.cutoff;
    if (c.experiment != LabExperiment::Selection) // exact probabilities: nothing is repeated
        s["repetitions"] = c.repetitions;
    s["seed"] = seed;
    return s;
}

} // namespace pbx::strategies

namespace pbx::strategies {

namespace {

void writeBmi(const BmiLabResult &r, Json &doc)
{
    if (r.cutoff) {
        doc["cutoff"] = *r.cutoff;
        doc["cells_meaning"]
            = "(afam & wage < cutoff, afam & wage >= cutoff, cauc & < cutoff, cauc & >= cutoff)";
    } else {
        Json rows = Json::array();
        for (std::size_t i = 0; i < r.rows.size(); ++i)
            rows.push_back({{"sex", std::string(1, r.rows[i].sex)},
                            {"height_inches", r.rows[i].heightInches},
                            {"weight_pounds", r.rows[i].weightPounds},
                            {"bmi", r.rowBmi[i]}});
        doc["rows"] = rows;
    }
    doc["cells"] = Json(std::vector<double>(r.cells.begin(), r.cells.end()));
    doc["answers"] = Json(std::vector<double>(r.answers.begin(), r.answers.end()));
    Json methods = Json::array();
    for (const auto &m : r.methods)
        methods.push_back({{"method", m.name},
                           {"laplace_scale", m.laplaceScale},
                           {"predicted", io::json::finiteOrNull(m.predicted)},
                           {"measured", {{"average", m.measured}, {"standard_error", m.standardError}}},
                           {"histogram", {{"bin_width", r.binWidth}, {"shares", m.histogram}}}});
    doc["results"] = methods;
    doc["violation_probability"] = r.violationProbability;
    doc["violation_probability_exact"]
        = r.violationProbabilityExact ? Json(*r.violationProbabilityExact) : Json(nullptr);
    doc["privacy"] = {
        {"algorithm_1", "four counts, each epsilon/4 (sensitivity 1): sequential composition"},
        {"algorithm_1_calibrated", "the 4-vector's l1 sensitivity is 2 (add/remove) or 4 (replace)"},
        {"algorithm_2",
         "disjoint cells: parallel composition (replace: each cell at epsilon/2); sums are post-processing"}};
}

Json rangeResultJson(const RangeStrategyResult &result)
{
    const RangePrediction &p = result.prediction;
    Json r = strategyJson(result.strategy);
    r["strategy"] = r["kind"];
    r.erase("kind");
    r["label"] = result.strategy.label();
    r["sensitivity_l1"] = p.sensitivityL1;
    r["padded_size"] = p.padded;
    r["predicted"] = {{"average", p.average}, {"max", p.max}, {"total", p.total}, {"by_length", p.byLength}};
    if (const auto &m = result.measured)
        r["measured"] = {{"average", m->average},
                         {"standard_error", m->standardError},
                         {"runs", m->runs},
                         {"by_length", m->byLength},
                         {"by_length_standard_error", m->byLengthStandardError}};
    else
        r["measured"] = nullptr;
    return r;
}

void writeRanges(const RangesLabResult &r, const LabConfig &config, Json &doc)
{
    Json results = Json::array();
    for (const auto &result : r.results)
        results.push_back(rangeResultJson(result));
    doc["domain"]
        = {{"column", r.column}, {"bounds", {r.lo, r.hi}}, {"cells", r.cells}, {"empty_cells", r.emptyCells}};
    doc["workload_size"] = r.workloadSize;
    doc["results"] = results;
    doc["recommended"] = {{"index", r.recommended},
                          {"label", r.results[r.recommended].prediction.strategy.label()},
                          {"why", kRecommendedWhy}};
    if (config.post.round)
        doc["rounding"]
            = "rounding to integers is for display: it is not a projection and can increase the error";
}

void writeInference(const InferenceLabResult &r, Json &doc)
{
    Json firstRuns = Json::array();
    for (const auto &run : r.firstRuns)
        firstRuns.push_back({{"before", run.before}, {"after", run.after}, {"moved", run.moved}});
    doc["projection"] = r.projection;
    doc["vector_size"] = r.vectorSize;
    doc["runs"] = r.runs;
    doc["sse_before"] = r.sseBefore;
    doc["sse_after"] = r.sseAfter;
    doc["mean_distance_moved"] = r.meanDistanceMoved;
    doc["runs_worse"] = r.runsWorse;
    doc["runs_outside_constraints"] = r.runsOutsideConstraints;
    doc["first_runs"] = firstRuns;
    doc["example"] = r.example ? Json{{"truth", r.example->truth},
                                      {"noisy", r.example->noisy},
                                      {"projected", r.example->projected}}
                               : Json();
    if (r.predicted)
        doc["predicted"]
            = {{"sse_before", r.predicted->first},
               {"sse_after", r.predicted->second},
               {"why",
                "projection onto an affine set of dimension K: expected error drops from #nodes*v to K*v"}};
    doc["guarantee"]
        = "for the projected vector in l2 and every run: |qbar - q|^2 <= |qtilde - q|^2 - |qtilde - qbar|^2; "
          "single coordinates and derived queries can get worse";
}

void writeSelection(const SelectionLabResult &r, Json &doc)
{
    doc["column"] = r.column;
    doc["categories"] = r.labels;
    doc["true_counts"] = r.counts;
    Json rows = Json::array();
    for (const auto &m : r.mechanisms)
        rows.push_back({{"mechanism", std::string(selectionMechanismName(m.mechanism))},
                        {"eta", m.eta},
                        {"probabilities", m.probabilities},
                        {"zcdp_rho_per_pick", m.zcdpRho},
                        {"count_gap_bound_95", m.gapBound95},
                        {"expected_count_gap", m.expectedGap}});
    doc["mechanisms"] = rows;
}

void writeQuantile(const QuantileLabResult &r, Json &doc)
{
    doc["column"] = r.column;
    doc["bounds"] = {r.lo, r.hi};
    doc["q"] = r.q;
    doc["rows"] = r.rows;
    doc["true_quantile"] = r.trueQuantile;
    doc["continuous"] = {{"expected_absolute_error", r.expectedAbsoluteError},
                         {"expected_rank_error", r.expectedRankError}};
    if (const auto &g = r.grid) {
        Json log10p = Json::array();
        for (const auto &p : g->log10Probabilities)
            log10p.push_back(p ? Json(*p) : Json(nullptr));
        doc["grid"] = {{"candidates", g->candidates},
                       {"utilities", g->utilities},
                       {"probabilities", g->probabilities},
                       {"log10_probabilities", log10p},
                       {"rank_error_bound_95", g->rankErrorBound95}};
    }
    doc["accuracy"] = "McSherry-Talwar: with probability >= 1 - beta the released candidate's rank is within "
                      "(2/epsilon) ln(|grid|/beta) rows of the best candidate's";
}

void writeSmoothSensitivity(const SmoothSensitivityLabResult &r, Json &doc)
{
    Json curve = Json::array();
    for (const auto &[k, value] : r.curve)
        curve.push_back({k, value});
    doc["column"] = r.column;
    doc["bounds"] = {r.lo, r.hi};
    doc["median"] = r.median;
    doc["cauchy"] = {{"beta", r.cauchy.beta},
                     {"smooth_sensitivity", r.cauchy.value},
                     {"attained_at_k", r.cauchy.attainedAt},
                     {"noise_scale", r.cauchy.noiseScale},
                     {"guarantee", "pure epsilon-DP: median + (6/epsilon) S* Z, Z standard Cauchy"}};
    doc["laplace"] = {{"delta", r.delta},
                      {"beta", r.laplace.beta},
                      {"smooth_sensitivity", r.laplace.value},
                      {"noise_scale", r.laplace.noiseScale},
                      {"guarantee", "(epsilon, delta)-DP: median + (2/epsilon) S* Lap(1)"}};
    doc["curve"] = curve;
    doc["exponential_mechanism"] = {{"expected_absolute_error", r.exponentialMechanismError}};
    doc["warning"]
        = "non-private diagnostic: the smooth sensitivity, A(k) and the local sensitivity are computed "
          "from the true data and are not private";
}

void writeStability(const StabilityLabResult &r, Json &doc)
{
    Json rows = Json::array();
    for (const auto &t : r.transformations) {
        Json row = {{"transformation", std::string(transformationName(t.transformation))},
                    {"parameter", t.parameter}};
        if (t.stability) {
            row["stability"] = *t.stability;
            row["epsilon"] = t.epsilon;
            row["rho"] = t.rho;
        } else {
            row["stability"] = nullptr;
            row["note"] = "unbounded: a row joins every row of its key group; truncate first";
        }
        rows.push_back(row);
    }
    Json sampling = Json::array();
    for (const auto &s : r.subsampling)
        sampling.push_back({{"rate", s.rate},
                            {"epsilon", s.epsilon},
                            {"shortcut_2p_epsilon", s.shortcut ? Json(*s.shortcut) : Json(nullptr)}});
    doc["base"] = {{"epsilon", r.epsilon}, {"rho", r.rho}};
    doc["transformations"] = rows;
    doc["poisson_subsampling"] = sampling;
}

} // namespace

Json labResultJson(const StrategiesLabResult &result)
{
    Json doc;
    doc["format"] = "pbx-simulation";
    doc["version"] = 1;
    doc["simulation"] = "strategies-" + std::string(labExperimentName(result.config.experiment));
    doc["settings"] = labSettingsJson(result.config, result.seed);
    std::visit(
        [&](const auto &body) {
            using Body = std::decay_t<decltype(body)>;
            if constexpr (std::is_same_v<Body, BmiLabResult>)
                writeBmi(body, doc);
            else if constexpr (std::is_same_v<Body, RangesLabResult>)
                writeRanges(body, result.config, doc);
            else if constexpr (std::is_same_v<Body, InferenceLabResult>)
                writeInference(body, doc);
            else if constexpr (std::is_same_v<Body, QuantileLabResult>)
                writeQuantile(body, doc);
            else if constexpr (std::is_same_v<Body, SmoothSensitivityLabResult>)
                writeSmoothSensitivity(body, doc);
            else if constexpr (std::is_same_v<Body, SelectionLabResult>)
                writeSelection(body, doc);
            else
                writeStability(body, doc);
        },
        result.body);
    doc["note"] = kLabSimulationNote;
    return doc;
}

} // namespace pbx::strategies
