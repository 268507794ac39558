// SPDX-License-Identifier: MIT
#include "core/io/growing_lab_json.h"

#include "core/datasets/cps1988_smalldb.h"
#include "core/growing/growing_error.h"
#include "core/math/directed_rounding.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace pbx::growing {

using io::json::Json;

namespace {

/// A reader's Parse error (which already names "path.key") under a growing code word.
Error recode(std::string_view code, const Error &error)
{
    return growingError(code, "", error.message);
}

Result<const Json *> objectAt(const Json &doc, const char *key, bool required)
{
    if (!doc.contains(key) || doc[key].is_null()) {
        if (required)
            return growingError(kInvalidConfig, key, "missing (an object is required)");
        return static_cast<const Json *>(nullptr);
    }
    if (!doc[key].is_object())
        return growingError(kInvalidConfig, key, "expected an object");
    return &doc[key];
}

Result<Budget> parseBudget(const Json &b)
{
    Budget budget;
    auto kind = io::json::string(b, "kind", "budget");
    if (!kind)
        return recode(kInvalidBudget, kind.error());
    auto readNumber = [&](const char *key) -> Result<double> {
        auto v = io::json::number(b, key, "budget");
        if (!v)
            return recode(kInvalidBudget, v.error());
        return *v;
    };
    if (*kind == "pure") {
        budget.kind = BudgetKind::Pure;
        PBX_TRY(e, readNumber("epsilon"));
        budget.epsilon = e;
    } else if (*kind == "zcdp") {
        budget.kind = BudgetKind::Zcdp;
        PBX_TRY(r, readNumber("rho"));
        budget.rho = r;
    } else if (*kind == "approx") {
        budget.kind = BudgetKind::Approx;
        PBX_TRY(e, readNumber("epsilon"));
        PBX_TRY(d, readNumber("delta"));
        budget.epsilon = e;
        budget.delta = d;
        auto conversion = io::json::optionalString(b, "conversion", "budget", "cks");
        if (!conversion)
            return recode(kInvalidBudget, conversion.error());
        if (*conversion == "cks")
            budget.conversion = ZcdpConversion::Cks;
        else if (*conversion == "simple")
            budget.conversion = ZcdpConversion::Simple;
        else
            return growingError(kInvalidBudget, "budget.conversion", "expected cks or simple");
    } else {
        return growingError(kInvalidBudget, "budget.kind", "expected pure, zcdp or approx");
    }
    PBX_RETURN_IF_ERROR(validate(budget));
    return budget;
}

Result<void> parseBlackBox(const Json &b, GrowingLabConfig &c)
{
    auto kind = io::json::optionalString(b, "kind", "black_box", "laplace-k");
    if (!kind)
        return recode(kInvalidBlackBox, kind.error());
    auto count = [&](const char *key, std::size_t &out) -> Result<void> {
        auto v = io::json::unsignedInteger(b, key, "black_box");
        if (!v)
            return recode(kInvalidBlackBox, v.error());
        out = static_cast<std::size_t>(std::min<std::uint64_t>(*v, std::uint64_t{1} << 40));
        return {};
    };
    if (*kind == "laplace-k") {
        c.box.kind = BlackBoxKind::LaplaceK;
        if (!b.contains("queries"))
            return growingError(kInvalidBlackBox, "black_box.queries",
                                "missing (a list of predicates or a count)");
        const Json &q = b["queries"];
        if (q.is_array()) {
            for (const auto &item : q) {
                if (!item.is_string())
                    return growingError(kInvalidBlackBox, "black_box.queries", "expected predicate strings");
                c.queries.push_back(item.get<std::string>());
            }
            c.box.queries = c.queries.size();
        } else if (auto ok = count("queries", c.box.queries); !ok) {
            return ok;
        }
    } else if (*kind == "noisy-histogram") {
        c.box.kind = BlackBoxKind::NoisyHistogram;
        if (auto ok = count("universe", c.box.universe); !ok)
            return ok;
        if (b.contains("cells_per_query"))
            if (auto ok = count("cells_per_query", c.box.cellsPerQuery); !ok)
                return ok;
    } else if (*kind == "smalldb") {
        c.box.kind = BlackBoxKind::SmallDb;
        if (b.contains("m")) {
            // SmallDBG's CPS1988 teaching instance: N = 16 cells, the 28 marginal cells, enumerated.
            std::size_t m = 0;
            if (auto ok = count("m", m); !ok)
                return ok;
            c.smallDbSize = m;
            c.box.universe = SmallDbInstance::kCells;
            c.box.queries = kCpsSmallDbQueries;
            for (const auto &[key, expected] :
                 {std::pair{"universe", c.box.universe}, std::pair{"queries", c.box.queries}}) {
                if (!b.contains(key))
                    continue;
                std::size_t given = 0;
                if (auto ok = count(key, given); !ok)
                    return ok;
                if (given != expected)
                    return growingError(
                        kInvalidBlackBox, std::string("black_box.") + key,
                        "the SmallDB teaching instance (with \"m\") has N = 16 cells and 28 queries");
            }
            PBX_RETURN_IF_ERROR(SmallDb::create(SmallDbInstance::kCells,
                                                {std::vector<std::uint8_t>(SmallDbInstance::kCells, 1)}, m));
        } else {
            if (auto ok = count("universe", c.box.universe); !ok)
                return ok;
            if (auto ok = count("queries", c.box.queries); !ok)
                return ok;
        }
    } else {
        return growingError(kInvalidBlackBox, "black_box.kind",
                            "expected laplace-k, noisy-histogram or smalldb");
    }
    return validate(c.box);
}

Result<void> parsePmwg(const Json &doc, GrowingLabConfig &c)
{
    PBX_TRY(block, objectAt(doc, "pmwg", false));
    PmwgConfig &p = c.pmwg;
    if (block) {
        const Json &b = *block;
        auto universe = io::json::optionalString(b, "universe", "pmwg", "small");
        if (!universe)
            return recode(kInvalidUniverse, universe.error());
        c.universe = *universe;
        auto mode = io::json::optionalString(b, "mode", "pmwg", "practical");
        if (!mode)
            return recode(kInvalidConfig, mode.error());
        if (*mode == "theory")
            p.mode = PmwgMode::Theory;
        else if (*mode == "practical")
            p.mode = PmwgMode::Practical;
        else
            return growingError(kInvalidConfig, "pmwg.mode", "expected theory or practical");
        struct Field
        {
            const char *key;
            double *target;
            std::string_view code;
        };
        for (const auto &f :
             {Field{"alpha", &p.alpha, kInvalidAlpha}, Field{"p", &p.exponent, kInvalidNoiseExponent},
              Field{"c0", &p.c0, kInvalidCap}, Field{"T", &p.threshold, kInvalidThreshold},
              Field{"eta", &p.eta, kInvalidLearningRate}}) {
            auto v = io::json::optionalNumber(b, f.key, "pmwg");
            if (!v)
                return recode(f.code, v.error());
            if (*v)
                *f.target = **v;
        }
        auto uniform = io::json::optionalBool(b, "uniform_update", "pmwg", true);
        if (!uniform)
            return recode(kInvalidConfig, uniform.error());
        p.uniformArrivals = *uniform;
        for (const auto &[key, target] :
             {std::pair{"checkpoints", &c.checkpoints}, std::pair{"per_checkpoint", &c.perCheckpoint}}) {
            if (!b.contains(key))
                continue;
            auto v = io::json::unsignedInteger(b, key, "pmwg");
            if (!v || *v < 1 || *v > 100000)
                return growingError(kInvalidConfig, std::string("pmwg.") + key,
                                    "must be an integer from 1 to 100000");
            *target = static_cast<int>(*v);
        }
    }
    PBX_TRY(shape, universeShape(c.universe));
    p.universeSize = shape.cells;
    p.startSize = c.startSize;
    p.budget = c.budget;
    return validate(p);
}

Result<void> parseNsg(const Json &doc, GrowingLabConfig &c)
{
    PBX_TRY(block, objectAt(doc, "nsg", false));
    NsgConfig &n = c.nsg;
    n.startSize = c.startSize;
    n.budget = c.budget;
    if (!block)
        return validate(n); // CAP_REQUIRED: nsg.cap
    const Json &b = *block;
    auto p = io::json::optionalNumber(b, "p", "nsg");
    if (!p)
        return recode(kInvalidNoiseExponent, p.error());
    if (*p)
        n.exponent = **p;
    auto threshold = io::json::optionalNumber(b, "T", "nsg");
    if (!threshold)
        return recode(kInvalidThreshold, threshold.error());
    if (*threshold)
        n.threshold = **threshold;
    if (b.contains("cap") && !b["cap"].is_null()) {
        if (!b["cap"].is_object())
            return growingError(kInvalidCap, "nsg.cap", "expected an object {\"kind\": \"time\", \"c0\": …}");
        const Json &cap = b["cap"];
        auto kind = io::json::optionalString(cap, "kind", "nsg.cap", "time");
        if (!kind)
            return recode(kInvalidCap, kind.error());
        if (*kind != "time" && *kind != "constant")
            return growingError(kInvalidCap, "nsg.cap.kind", "expected \"time\" or \"constant\"");
        const bool time = *kind == "time";
        const char *key = time ? "c0" : "c";
        auto value = io::json::number(cap, key, "nsg.cap");
        if (!value)
            return recode(kInvalidCap, value.error());
        n.cap = HardQueryCap{time, *value};
    }
    if (b.contains("queries")) {
        if (!b["queries"].is_array())
            return growingError(kInvalidConfig, "nsg.queries", "expected a list of predicate strings");
        for (const auto &item : b["queries"]) {
            if (!item.is_string())
                return growingError(kInvalidConfig, "nsg.queries", "expected predicate strings");
            c.queries.push_back(item.get<std::string>());
        }
    }
    if (b.contains("checkpoints")) {
        auto v = io::json::unsignedInteger(b, "checkpoints", "nsg");
        if (!v || *v < 1 || *v > 100000)
            return growingError(kInvalidConfig, "nsg.checkpoints", "must be an integer from 1 to 100000");
        c.checkpoints = static_cast<int>(*v);
    }
    return validate(n);
}

/// BBImprover's "schedule" fields {"a", "every"} (BBImprover's own, and ERMG's improver grid).
Result<void> parseImproverSchedule(const Json &sch, GrowingLabConfig &c)
{
    auto a = io::json::optionalNumber(sch, "a", "schedule");
    if (!a)
        return recode(kInvalidDecay, a.error());
    if (*a)
        c.decay = **a;
    if (sch.contains("every")) {
        auto every = io::json::unsignedInteger(sch, "every", "schedule");
        if (!every)
            return recode(kInvalidConfig, every.error());
        c.every = *every;
    }
    return {};
}

/// ERMG's "schedule" ({"kind": "improver", "a", "every"} or {"kind": "zcdp-equalised" |
/// "zcdp-geometric", "gamma"}) and "erm" ({"lambda", "tol", "draws"}) blocks.
Result<void> parseErmg(const Json &doc, const Json *schedule, GrowingLabConfig &c)
{
    c.every = 1000; // the thinned grid: one Newton solve per 1000 arrivals unless told otherwise
    if (!isZcdp(c.budget))
        return growingError(kInvalidSchedule, "budget.kind",
                            "ermg releases Gaussian noise and needs a zcdp or approx budget");
    if (schedule) {
        const Json &sch = *schedule;
        auto kind = io::json::optionalString(sch, "kind", "schedule", "improver");
        if (!kind)
            return recode(kInvalidSchedule, kind.error());
        if (*kind == "improver") {
            if (auto ok = parseImproverSchedule(sch, c); !ok)
                return ok;
        } else {
            PBX_TRY(parsed, parseScheduleKind(*kind));
            if (!scheduleIsZcdp(parsed))
                return growingError(kInvalidSchedule, "schedule.kind",
                                    "ermg takes \"improver\", \"zcdp-equalised\" or \"zcdp-geometric\"");
            c.ermScheduler = true;
            c.schedule = parsed;
            if (!sch.contains("gamma") || !sch["gamma"].is_number())
                return growingError(kInvalidGamma, "schedule.gamma", "expected a number");
            c.gamma = sch["gamma"].get<double>();
            PBX_RETURN_IF_ERROR(checkGamma(*c.gamma));
        }
    }
    PBX_TRY(block, objectAt(doc, "erm", false));
    if (block) {
        const Json &b = *block;
        for (const auto &[key, target] : {std::pair{"lambda", &c.ermLambda}, std::pair{"tol", &c.ermTol}}) {
            auto v = io::json::optionalNumber(b, key, "erm");
            if (!v)
                return recode(kInvalidConfig, v.error());
            if (*v)
                *target = **v;
        }
        if (b.contains("draws")) {
            auto v = io::json::unsignedInteger(b, "draws", "erm");
            if (!v || *v < 1 || *v > 100000)
                return growingError(kInvalidConfig, "erm.draws", "must be an integer from 1 to 100000");
            c.ermDraws = static_cast<int>(*v);
        }
    }
    if (!(c.ermLambda > 0.0) || !std::isfinite(c.ermLambda))
        return growingError(kInvalidConfig, "erm.lambda", "must be a finite number > 0");
    if (!(c.ermTol >= 1e-10 && c.ermTol <= 1e-2))
        return growingError(kInvalidConfig, "erm.tol", "must be a number with 1e-10 <= tol <= 1e-2");
    // The box's accuracy function is not used by ERMG; a Laplace box satisfies the schedulers' checks.
    c.box = BlackBox{};
    if (c.ermScheduler) {
        const SchedulerConfig sc = schedulerConfigOf(c);
        return validate(sc);
    }
    const ImproverConfig ic = improverConfigOf(c);
    return validate(ic);
}

/// "algorithm", "dataset" and "neighbours" (replace-one only).
Result<void> parseAlgorithm(const Json &doc, GrowingLabConfig &c)
{
    auto algorithm = io::json::string(doc, "algorithm", "");
    if (!algorithm)
        return recode(kInvalidConfig, algorithm.error());
    if (*algorithm == "bbscheduler")
        c.algorithm = LabAlgorithm::BBScheduler;
    else if (*algorithm == "bbimprover")
        c.algorithm = LabAlgorithm::BBImprover;
    else if (*algorithm == "pmwg")
        c.algorithm = LabAlgorithm::Pmwg;
    else if (*algorithm == "nsg")
        c.algorithm = LabAlgorithm::Nsg;
    else if (*algorithm == "ermg")
        c.algorithm = LabAlgorithm::Ermg;
    else
        return growingError(kInvalidConfig, "algorithm",
                            "expected bbscheduler, bbimprover, pmwg, nsg or ermg");
    auto dataset = io::json::optionalString(doc, "dataset", "", "cps1988");
    if (!dataset)
        return recode(kInvalidConfig, dataset.error());
    c.dataset = *dataset;
    auto neighbours = io::json::optionalString(doc, "neighbours", "", "replace");
    if (!neighbours)
        return recode(kInvalidConfig, neighbours.error());
    if (*neighbours != "replace")
        return growingError(kNeighboursUnsupported, "neighbours",
                            "growing-database mechanisms are analysed for replace-one neighbouring streams");

    return {};
}

/// "stream": {"start_size", "order", "end"}.
Result<void> parseStream(const Json &doc, GrowingLabConfig &c)
{
    PBX_TRY(stream, objectAt(doc, "stream", true));
    const Json &s = *stream;
    if (!s.contains("start_size") || !s["start_size"].is_number_integer()
        || s["start_size"].get<std::int64_t>() < 0)
        return growingError(kInvalidStartSize, "stream.start_size", "must be an integer with 1 <= n <= 2^53");
    c.startSize = s["start_size"].get<std::uint64_t>();
    PBX_RETURN_IF_ERROR(checkStartSize(c.startSize, "stream.start_size"));
    auto order = io::json::optionalString(s, "order", "stream", "random");
    if (!order)
        return recode(kInvalidConfig, order.error());
    c.order = *order;
    if (c.order != "random" && !c.order.starts_with("sorted:"))
        return growingError(kInvalidConfig, "stream.order", "expected \"random\" or \"sorted:<predicate>\"");
    if (s.contains("end") && !s["end"].is_null()) {
        auto end = io::json::unsignedInteger(s, "end", "stream");
        if (!end)
            return recode(kInvalidConfig, end.error());
        if (*end < c.startSize || *end > kMaxTime)
            return growingError(kInvalidConfig, "stream.end", "must be >= stream.start_size and <= 2^53");
        c.end = *end;
    }

    return {};
}

/// "budget" (required).
Result<void> parseBudgetField(const Json &doc, GrowingLabConfig &c)
{
    PBX_TRY(budget, objectAt(doc, "budget", true));
    PBX_TRY(parsedBudget, parseBudget(*budget));
    c.budget = parsedBudget;

    return {};
}

/// "schedule" (BBScheduler's kind and γ; BBImprover's a and every) and the algorithm's own block:
/// "pmwg", "nsg", "erm" or "black_box".
Result<void> parseScheduleAndBlock(const Json &doc, GrowingLabConfig &c)
{
    auto schedule = objectAt(doc, "schedule", c.algorithm == LabAlgorithm::BBScheduler);
    if (schedule && *schedule && (c.algorithm == LabAlgorithm::Pmwg || c.algorithm == LabAlgorithm::Nsg))
        return growingError(kInvalidConfig, "schedule",
                            c.algorithm == LabAlgorithm::Pmwg ? "pmwg takes its parameters from \"pmwg\""
                                                              : "nsg takes its parameters from \"nsg\"");
    if (!schedule)
        return schedule.error();
    if (c.algorithm == LabAlgorithm::BBScheduler) {
        const Json &sch = **schedule;
        auto kind = io::json::string(sch, "kind", "schedule");
        if (!kind)
            return recode(kInvalidSchedule, kind.error());
        PBX_TRY(parsed, parseScheduleKind(*kind));
        c.schedule = parsed;
        if (sch.contains("gamma") && sch["gamma"].is_string()
            && sch["gamma"].get<std::string>() == "optimal") {
            c.gamma.reset();
        } else {
            if (!sch.contains("gamma") || !sch["gamma"].is_number())
                return growingError(kInvalidGamma, "schedule.gamma", "expected a number or \"optimal\"");
            c.gamma = sch["gamma"].get<double>();
            PBX_RETURN_IF_ERROR(checkGamma(*c.gamma));
        }
        if (scheduleIsZcdp(c.schedule) != isZcdp(c.budget))
            return growingError(
                kInvalidSchedule, "schedule.kind",
                "'" + *kind + "' needs "
                    + (scheduleIsZcdp(c.schedule) ? "a zcdp or approx budget" : "a pure budget")
                    + " (budget.kind is '" + std::string(budgetKindName(c.budget.kind)) + "')");
    } else if (c.algorithm == LabAlgorithm::BBImprover && *schedule) {
        // (ermg reads its schedule in parseErmg)
        PBX_RETURN_IF_ERROR(parseImproverSchedule(**schedule, c));
    }

    if (c.algorithm == LabAlgorithm::Pmwg) {
        PBX_RETURN_IF_ERROR(parsePmwg(doc, c));
    } else if (c.algorithm == LabAlgorithm::Nsg) {
        PBX_RETURN_IF_ERROR(parseNsg(doc, c));
    } else if (c.algorithm == LabAlgorithm::Ermg) {
        PBX_RETURN_IF_ERROR(parseErmg(doc, *schedule, c));
    } else {
        PBX_TRY(box, objectAt(doc, "black_box", true));
        PBX_RETURN_IF_ERROR(parseBlackBox(*box, c));
    }

    return {};
}

/// "beta", "repetitions", and BBImprover's whole configuration through the core's own checks.
Result<void> parseRuns(const Json &doc, GrowingLabConfig &c)
{
    auto beta = io::json::optionalNumber(doc, "beta", "");
    if (!beta)
        return recode(kInvalidBeta, beta.error());
    if (*beta)
        c.beta = **beta;
    PBX_RETURN_IF_ERROR(checkBeta(c.beta));
    if (doc.contains("repetitions")) {
        auto reps = io::json::unsignedInteger(doc, "repetitions", "");
        if (!reps || *reps < 1 || *reps > 100000)
            return growingError(kInvalidConfig, "repetitions", "must be an integer from 1 to 100000");
        c.repetitions = static_cast<int>(*reps);
    } else if (c.algorithm == LabAlgorithm::Nsg || c.algorithm == LabAlgorithm::Ermg) {
        // Without "repetitions" NSG and ERMG run the one seeded order they always ran (an ERMG
        // repetition refits every model: about a second on CPS1988).
        c.repetitions = 1;
    }
    // The whole configuration through the core's own checks.
    if (c.algorithm == LabAlgorithm::BBImprover) {
        const ImproverConfig ic = improverConfigOf(c);
        PBX_RETURN_IF_ERROR(validate(ic));
    }
    return {};
}

} // namespace

Result<GrowingLabConfig> parseGrowingLab(const Json &doc)
{
    if (!doc.is_object())
        return growingError(kInvalidConfig, "", "expected a JSON object");
    auto format = io::json::string(doc, "format", "");
    if (!format || *format != "pbx-growing-lab")
        return growingError(kInvalidConfig, "format", "expected \"pbx-growing-lab\"");
    auto version = io::json::unsignedInteger(doc, "version", "");
    if (!version || *version != 1)
        return growingError(kInvalidConfig, "version", "expected 1");
    GrowingLabConfig c;
    for (const auto parse : {parseAlgorithm, parseStream, parseBudgetField, parseScheduleAndBlock, parseRuns})
        PBX_RETURN_IF_ERROR(parse(doc, c));
    return c;
}

Json growingLabSettings(const GrowingLabConfig &c, std::uint64_t seed, bool planOnly)
{
    Json s{{"algorithm", labAlgorithmName(c.algorithm)}, {"dataset", c.dataset}, {"neighbours", "replace"}};
    s["stream"] = Json{{"start_size", c.startSize}, {"order", c.order}};
    if (c.end)
        s["stream"]["end"] = *c.end;
    Json budget{{"kind", budgetKindName(c.budget.kind)}};
    if (c.budget.kind == BudgetKind::Zcdp)
        budget["rho"] = c.budget.rho;
    else
        budget["epsilon"] = c.budget.epsilon;
    if (c.budget.kind == BudgetKind::Approx) {
        budget["delta"] = c.budget.delta;
        budget["conversion"] = c.budget.conversion == ZcdpConversion::Cks ? "cks" : "simple";
    }
    s["budget"] = std::move(budget);
    if (c.algorithm == LabAlgorithm::Pmwg) {
        const PmwgConfig r = c.pmwg.resolved();
        s["pmwg"] = Json{{"universe", c.universe},
                         {"mode", c.pmwg.mode == PmwgMode::Theory ? "theory" : "practical"},
                         {"alpha", c.pmwg.alpha},
                         {"p", c.pmwg.exponent},
                         {"c0", r.c0},
                         {"T", r.threshold},
                         {"eta", r.eta},
                         {"uniform_update", c.pmwg.uniformArrivals},
                         {"checkpoints", c.checkpoints},
                         {"per_checkpoint", c.perCheckpoint}};
        s["beta"] = c.beta;
        s["seed"] = seed;
        s["plan_only"] = planOnly;
        return s;
    }
    if (c.algorithm == LabAlgorithm::Ermg) {
        s["schedule"] = c.ermScheduler ? Json{{"kind", scheduleKindName(c.schedule)}, {"gamma", *c.gamma}}
                                       : Json{{"kind", "improver"}, {"a", c.decay}, {"every", c.every}};
        s["erm"] = Json{
            {"model", "logistic-l2"}, {"lambda", c.ermLambda}, {"tol", c.ermTol}, {"draws", c.ermDraws}};
        s["repetitions"] = c.repetitions;
        s["seed"] = seed;
        s["plan_only"] = planOnly;
        return s;
    }
    if (c.algorithm == LabAlgorithm::Nsg) {
        Json nsg{{"p", c.nsg.exponent},
                 {"T", c.nsg.threshold},
                 {"queries", c.queries},
                 {"checkpoints", c.checkpoints}};
        if (c.nsg.cap)
            nsg["cap"] = c.nsg.cap->timeCap ? Json{{"kind", "time"}, {"c0", c.nsg.cap->c}}
                                            : Json{{"kind", "constant"}, {"c", c.nsg.cap->c}};
        s["nsg"] = std::move(nsg);
        s["repetitions"] = c.repetitions;
        s["seed"] = seed;
        s["plan_only"] = planOnly;
        return s;
    }
    if (c.algorithm == LabAlgorithm::BBScheduler)
        s["schedule"] = Json{{"kind", scheduleKindName(c.schedule)},
                             {"gamma", c.gamma ? Json(*c.gamma) : Json("optimal")}};
    else
        s["schedule"] = Json{{"a", c.decay}, {"every", c.every}};
    Json box{{"kind", blackBoxKindName(c.box.kind)}};
    if (c.box.kind == BlackBoxKind::LaplaceK) {
        if (c.queries.empty())
            box["queries"] = c.box.queries;
        else
            box["queries"] = c.queries;
    } else {
        box["universe"] = c.box.universe;
        if (c.smallDbSize > 0)
            box["m"] = c.smallDbSize;
        box[c.box.kind == BlackBoxKind::SmallDb ? "queries" : "cells_per_query"]
            = c.box.kind == BlackBoxKind::SmallDb ? c.box.queries : c.box.cellsPerQuery;
    }
    s["black_box"] = std::move(box);
    s["beta"] = c.beta;
    s["repetitions"] = c.repetitions;
    s["seed"] = seed;
    s["plan_only"] = planOnly;
    return s;
}

} // namespace pbx::growing

namespace pbx::growing {

namespace {

constexpr const char *kSimulationNote
    = "simulation mode: true answers are read to score accuracy, never to decide";
constexpr const char *kPlanNote = "plan only: no data were read";

Json summaryJson(const LabSummary &s)
{
    return Json{{"median", s.median}, {"q95", s.q95}, {"max", s.max}};
}

Json bandJson(const OptionalBand &b)
{
    if (!b)
        return Json(nullptr);
    return Json{{"median", b->median}, {"q05", b->q05}, {"q95", b->q95}};
}

const char *conversionName(ZcdpConversion conversion)
{
    return conversion == ZcdpConversion::Cks ? "cks" : "simple";
}

Json privacyJson(const LabPrivacy &p)
{
    Json j{{"unit", p.rho ? "rho" : "epsilon"}};
    if (p.worstCase)
        j["worst_case"] = *p.worstCase;
    j["total_reserved"] = p.totalReserved;
    if (p.spentRealised)
        j["spent_realised"] = *p.spentRealised;
    if (p.realised)
        j["realised"] = *p.realised;
    if (p.realisedEpsilon)
        j["realised_epsilon"] = *p.realisedEpsilon;
    if (p.target)
        j["target"] = Json{{"epsilon", p.target->epsilon},
                           {"delta", p.target->delta},
                           {"conversion", conversionName(p.target->conversion)}};
    if (p.realisedTargetEpsilon)
        j["realised_target_epsilon"] = *p.realisedTargetEpsilon;
    if (p.worstCaseTargetEpsilon)
        j["worst_case_target_epsilon"] = *p.worstCaseTargetEpsilon;
    return j;
}

Json capsJson(const std::vector<LabCap> &caps)
{
    Json list = Json::array();
    for (const auto &c : caps)
        list.push_back(Json{{"time", c.time}, {"cap", c.cap}});
    return list;
}

void writeScheduler(const SchedulerResult &r, Json &doc)
{
    if (r.gammaChosen)
        doc["settings"]["schedule"]["gamma_chosen"] = *r.gammaChosen;
    Json list = Json::array();
    for (const auto &e : r.epochs) {
        Json j{{"index", e.privacy.index}, {"start", e.start}, {"end", e.last}};
        if (r.zcdp)
            j["rho"] = e.privacy.rho;
        j["epsilon"] = e.privacy.epsilon;
        j["cumulative"] = e.privacy.cumulative;
        j["beta"] = e.privacy.beta;
        j["alpha_black_box"] = io::json::finiteOrNull(e.alphaBlackBox);
        j["staleness"] = e.staleness;
        j["bound"] = io::json::finiteOrNull(e.bound);
        list.push_back(std::move(j));
    }
    doc["epochs"] = std::move(list);
    doc["privacy"] = privacyJson(r.privacy);
    if (r.smallDb) {
        Json db{{"m", r.smallDb->m},
                {"universe", r.smallDb->universe},
                {"queries", r.smallDb->queries},
                {"range_size", r.smallDb->rangeSize}};
        if (r.smallDb->bestMaxErrorAtEnd)
            db["best_max_error_at_end"] = *r.smallDb->bestMaxErrorAtEnd;
        doc["smalldb"] = std::move(db);
    }
    if (r.monteCarlo)
        doc["monte_carlo"] = Json{{"repetitions", r.monteCarlo->repetitions},
                                  {"max_error", summaryJson(r.monteCarlo->maxError)},
                                  {"runs_exceeding", r.monteCarlo->runsExceeding},
                                  {"epoch_max_error_median", r.monteCarlo->epochMedian},
                                  {"epoch_max_error_q05", r.monteCarlo->epochQ05},
                                  {"epoch_max_error_q95", r.monteCarlo->epochQ95}};
}

void writeImprover(const ImproverResult &r, Json &doc)
{
    Json steps = Json::array();
    for (const auto &row : r.steps)
        steps.push_back(Json{{"t", row.t},
                             {"rho", row.step.rho},
                             {"epsilon", row.step.epsilon},
                             {"cumulative", row.cumulative},
                             {"beta", row.step.beta},
                             {"alpha_black_box", io::json::finiteOrNull(row.step.alphaBlackBox)},
                             {"staleness", row.step.staleness},
                             {"bound", io::json::finiteOrNull(row.step.bound)}});
    doc["steps"] = std::move(steps);
    doc["normaliser"] = r.normaliser;
    const auto &c = r.crossover;
    doc["crossover"] = Json{{"scheduler", "zcdp-equalised"},
                            {"gamma", c.gamma},
                            {"scheduler_worst_bound", c.schedulerWorstBound},
                            {"first_t", c.firstT ? Json(*c.firstT) : Json(nullptr)},
                            {"within_horizon", c.withinHorizon}};
    doc["privacy"] = privacyJson(r.privacy);
    if (r.monteCarlo)
        doc["monte_carlo"] = Json{{"repetitions", r.monteCarlo->repetitions},
                                  {"max_error_at_end", summaryJson(r.monteCarlo->maxErrorAtEnd)},
                                  {"runs_exceeding", r.monteCarlo->runsExceeding}};
}

void writePmwg(const PmwgResult &r, const GrowingLabConfig &config, Json &doc)
{
    doc["sigma_n"] = r.sigmaN;
    if (!r.run) {
        doc["cap"] = capsJson(r.plannedCap);
        doc["privacy"] = privacyJson(r.privacy);
        return;
    }
    Json hard = Json::array();
    for (const auto &h : r.run->hardQueries)
        hard.push_back(Json{{"time", h.time}, {"query", h.query}});
    doc["hard_queries"] = std::move(hard);
    Json caps = Json::array();
    for (const auto &cp : r.run->checkpoints)
        caps.push_back(Json{{"time", cp.time}, {"cap", cp.cap}, {"hard", cp.hard}});
    doc["cap"] = std::move(caps);
    doc["privacy"] = privacyJson(r.privacy);
    doc["errors"] = Json{{"queries", r.run->queries},
                         {"mean_abs", r.run->meanAbsError},
                         {"q95_abs", r.run->q95AbsError},
                         {"max_abs", r.run->maxAbsError},
                         {"laplace_baseline_mean_abs", r.run->laplaceBaselineMeanError},
                         {"final_kl", r.run->finalDivergence}};
    if (!config.pmwg.uniformArrivals)
        doc["warning"] = "uniform update off: not private as analysed (a simulation-only demonstration)";
}

Json nsgMonteCarloJson(const NsgMonteCarlo &mc)
{
    Json checkpoints = Json::array();
    for (const auto &cp : mc.checkpoints)
        checkpoints.push_back(Json{{"time", cp.time},
                                   {"hard", bandJson(cp.hard)},
                                   {"hard_mean_abs", bandJson(cp.hardMeanAbs)},
                                   {"runs_with_hard", cp.runsWithHard}});
    return Json{{"repetitions", mc.repetitions},
                {"checkpoints", std::move(checkpoints)},
                {"hard", bandJson(mc.hard)},
                {"hard_mean_abs", bandJson(mc.hardMeanAbs)},
                {"realised", bandJson(mc.realised)}};
}

void writeNsg(const NsgResult &r, Json &doc)
{
    doc["sigma_n"] = r.sigmaN;
    doc["f_n"] = r.fN;
    if (!r.run) {
        doc["cap"] = capsJson(r.plannedCap);
        doc["privacy"] = privacyJson(r.privacy);
        return;
    }
    Json hard = Json::array();
    for (const auto &h : r.run->hardQueries)
        hard.push_back(
            Json{{"time", h.time}, {"query", h.query}, {"answer", h.answer}, {"true", h.trueAnswer}});
    doc["hard_queries"] = std::move(hard);
    Json caps = Json::array();
    for (const auto &cp : r.run->checkpoints)
        caps.push_back(Json{{"time", cp.time},
                            {"cap", cp.cap},
                            {"hard", cp.hard},
                            {"capped", cp.capped},
                            {"threshold_side_differs", cp.misjudged}});
    doc["cap"] = std::move(caps);
    Json rounds = Json::array();
    for (const auto &round : r.run->rounds)
        rounds.push_back(Json{{"start", round.start},
                              {"halt", round.halt ? Json(*round.halt) : Json(nullptr)},
                              {"cost_atg", round.atgCost},
                              {"cost", round.cost}});
    doc["rounds"] = std::move(rounds);
    doc["privacy"] = privacyJson(r.privacy);
    doc["errors"] = Json{{"queries", r.run->queries}, {"hard_mean_abs", r.run->meanAbsNumericError}};
    if (r.monteCarlo)
        doc["monte_carlo"] = nsgMonteCarloJson(*r.monteCarlo);
}

void writeErmg(const ErmgResult &r, Json &doc)
{
    Json list = Json::array();
    for (const auto &release : r.releases) {
        Json j{{"t", release.t},
               {"end", release.end},
               {"rho", release.rho},
               {"cumulative", release.cumulative},
               {"sensitivity", release.sensitivity},
               {"sigma", release.sigma}};
        if (release.risk)
            j["risk"] = *release.risk;
        if (release.excessRisk)
            j["excess_risk"]
                = Json{{"mean", release.excessRisk->mean}, {"median", release.excessRisk->median}};
        if (release.newtonIterations)
            j["newton_iterations"] = *release.newtonIterations;
        list.push_back(std::move(j));
    }
    doc["releases"] = std::move(list);
    doc["privacy"] = privacyJson(r.privacy);
    if (!r.monteCarlo)
        return;
    Json perRelease = Json::array();
    for (std::size_t i = 0; i < r.monteCarlo->times.size(); ++i)
        perRelease.push_back(Json{{"t", r.monteCarlo->times[i]},
                                  {"excess_risk_mean", bandJson(r.monteCarlo->excessRiskMean[i])}});
    doc["monte_carlo"]
        = Json{{"repetitions", r.monteCarlo->repetitions}, {"releases", std::move(perRelease)}};
}

} // namespace

Json growingLabResultJson(const GrowingLabResult &r)
{
    Json doc{{"format", "pbx-simulation"},
             {"version", 1},
             {"simulation", "growing-" + std::string(labAlgorithmName(r.config.algorithm))},
             {"settings", growingLabSettings(r.config, r.seed, r.planOnly)}};
    if (const auto *s = std::get_if<SchedulerResult>(&r.body))
        writeScheduler(*s, doc);
    else if (const auto *i = std::get_if<ImproverResult>(&r.body))
        writeImprover(*i, doc);
    else if (const auto *p = std::get_if<PmwgResult>(&r.body))
        writePmwg(*p, r.config, doc);
    else if (const auto *n = std::get_if<NsgResult>(&r.body))
        writeNsg(*n, doc);
    else
        writeErmg(std::get<ErmgResult>(r.body), doc);
    doc["note"] = r.simulated ? kSimulationNote : kPlanNote;
    return doc;
}

} // namespace pbx::growing
