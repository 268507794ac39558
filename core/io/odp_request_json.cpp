// SPDX-License-Identifier: MIT
#include "core/io/odp_request_json.h"

#include "core/session/odp/odp_mechanisms.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>

namespace pbx::io {

using json::Json;

namespace {
constexpr const char *kSvtKeys[]
    = {"column", "threshold", "c", "epsilon", "svt_share", "sensitivity", "epsilon1", "epsilon2"};
constexpr const char *kPtrKeys[]
    = {"column", "epsilon", "delta_f", "width", "mode", "order", "median_epsilon", "spend_savings"};
constexpr const char *kEarlyStopKeys[]
    = {"column", "step_epsilon", "stops", "composition", "delta", "delta_split", "tolerance"};
constexpr const char *kRecoverKeys[]
    = {"label_column", "label_threshold", "features", "lambda", "epsilon_model", "epsilon_test", "tau"};

Result<double> wholeNumber(const Json &o, const char *key, const std::string &path, double limit)
{
    PBX_TRY(x, json::number(o, key, path));
    if (x != std::floor(x) || std::abs(x) > limit)
        return makeError(ErrorCode::InvalidArgument, path + "." + key
                                                         + ": must be a whole number of magnitude ≤ "
                                                         + std::to_string(limit));
    return x;
}

/// A string field that must be one of `choices`; absent gives choices[0].
Result<std::string> choice(const Json &o, const char *key, const std::string &path,
                           std::initializer_list<const char *> choices)
{
    PBX_TRY(value, json::optionalString(o, key, path, *choices.begin()));
    std::string expected;
    for (const char *c : choices) {
        if (value == c)
            return value;
        expected += expected.empty() ? c : std::string(" or ") + c;
    }
    return makeError(ErrorCode::InvalidArgument,
                     path + "." + key + ": unknown value '" + value + "' (expected " + expected + ")");
}

template<std::size_t N>
std::string keyList(const char *const (&keys)[N])
{
    std::string out;
    for (const char *k : keys)
        out += (out.empty() ? "" : ", ") + std::string(k);
    return out;
}

template<std::size_t N>
Result<void> refuseUnknownKeys(const Json &object, const std::string &path, const std::string &mechanism,
                               const char *const (&keys)[N], std::initializer_list<const char *> extraKeys)
{
    // "id" and "mechanism" are every request's; the message lists the mechanism's own keys only.
    std::vector<const char *> known(std::begin(keys), std::end(keys));
    known.insert(known.end(), {"id", "mechanism"});
    return json::refuseUnknownFields(object, path, known, extraKeys,
                                     " for an output-DP " + mechanism + " request (expected " + keyList(keys)
                                         + ")");
}

Result<void> readSvt(const Json &object, const std::string &path, session::SvtRequestSpec &spec)
{
    PBX_TRY(column, json::optionalString(object, "column", path, "education"));
    spec.column = column;
    PBX_TRY(threshold, wholeNumber(object, "threshold", path, 1e15));
    spec.threshold = static_cast<std::int64_t>(threshold);
    PBX_TRY(c, wholeNumber(object, "c", path, 1e6));
    if (c < 1)
        return makeError(ErrorCode::InvalidArgument, path + ".c: must be at least 1");
    spec.cutoff = static_cast<int>(c);
    PBX_TRY(epsilon, json::number(object, "epsilon", path));
    spec.epsilon = epsilon;
    auto share = json::optionalNumber(object, "svt_share", path);
    auto sensitivity = json::optionalNumber(object, "sensitivity", path);
    auto epsilon1 = json::optionalNumber(object, "epsilon1", path);
    auto epsilon2 = json::optionalNumber(object, "epsilon2", path);
    for (const auto *field : {&share, &sensitivity, &epsilon1, &epsilon2})
        if (!*field)
            return field->error();
    spec.svtShare = share->value_or(0.5);
    spec.sensitivity = sensitivity->value_or(1.0);
    spec.epsilon1 = *epsilon1;
    spec.epsilon2 = *epsilon2;
    return {};
}

Result<void> readPtrIqr(const Json &object, const std::string &path, session::PtrIqrRequestSpec &spec)
{
    auto column = json::optionalString(object, "column", path, "wage");
    auto mode = choice(object, "mode", path, {"noisy", "bin"});
    auto order = choice(object, "order", path, {"random", "fixed"});
    for (const auto *field : {&column, &mode, &order})
        if (!*field)
            return field->error();
    spec.column = *column;
    spec.binMode = *mode == "bin";
    spec.randomOrder = *order == "random";
    PBX_TRY(epsilon, json::number(object, "epsilon", path));
    spec.epsilon = epsilon;
    auto deltaF = json::optionalNumber(object, "delta_f", path);
    auto width = json::optionalNumber(object, "width", path);
    auto median = json::optionalNumber(object, "median_epsilon", path);
    for (const auto *field : {&deltaF, &width, &median})
        if (!*field)
            return field->error();
    spec.failureProbability = deltaF->value_or(1e-7);
    if (width->has_value() && !(**width > 0.0))
        return makeError(ErrorCode::InvalidArgument,
                         path + ".width: must be > 0 (omit it for ln(1 + 1/ln n))");
    spec.width = width->value_or(0.0);
    spec.medianEpsilon = median->value_or(0.0);
    PBX_TRY(savings, json::optionalBool(object, "spend_savings", path, true));
    spec.spendSavings = savings;
    return {};
}

Result<void> readEarlyStop(const Json &object, const std::string &path, session::EarlyStopRequestSpec &spec)
{
    auto column = json::optionalString(object, "column", path, "wage");
    auto composition = choice(object, "composition", path, {"kov", "basic", "exact"});
    auto split = choice(object, "delta_split", path, {"equal", "proportional"});
    for (const auto *field : {&column, &composition, &split})
        if (!*field)
            return field->error();
    spec.column = *column;
    spec.composition = *composition;
    spec.proportionalSplit = *split == "proportional";
    PBX_TRY(epsilon, json::number(object, "step_epsilon", path));
    spec.stepEpsilon = epsilon;
    const auto stops = object.find("stops");
    if (stops == object.end() || !stops->is_array() || stops->empty())
        return makeError(ErrorCode::Parse, path + ".stops: expected a non-empty array of whole numbers");
    if (stops->size() > 10000)
        return makeError(ErrorCode::InvalidArgument, path + ".stops: at most 10000 stopping points");
    for (const auto &k : *stops) {
        if (!k.is_number() || k.get<double>() != std::floor(k.get<double>()) || k.get<double>() < 1.0
            || k.get<double>() > 1e4)
            return makeError(ErrorCode::InvalidArgument,
                             path + ".stops: each stopping point must be a whole number in [1, 10000]");
        const auto value = static_cast<std::int64_t>(k.get<double>());
        if (!spec.stops.empty() && value <= spec.stops.back())
            return makeError(ErrorCode::InvalidArgument, path + ".stops: must be strictly increasing");
        spec.stops.push_back(value);
    }
    auto delta = json::optionalNumber(object, "delta", path);
    auto tolerance = json::optionalNumber(object, "tolerance", path);
    for (const auto *field : {&delta, &tolerance})
        if (!*field)
            return field->error();
    if (!delta->has_value() && spec.composition != "basic")
        return makeError(ErrorCode::Parse,
                         path + ".delta: missing (composition " + spec.composition + " needs δ in (0, 1))");
    spec.delta = delta->value_or(0.0);
    spec.tolerance = tolerance->value_or(0.05);
    return {};
}

Result<void> readRecover(const Json &object, const std::string &path, session::RecoverRequestSpec &spec)
{
    PBX_TRY(label, json::optionalString(object, "label_column", path, "wage"));
    spec.labelColumn = label;
    PBX_TRY(threshold, json::number(object, "label_threshold", path));
    spec.labelThreshold = threshold;
    const auto features = object.find("features");
    if (features == object.end() || !features->is_array() || features->empty())
        return makeError(ErrorCode::Parse, path + ".features: expected a non-empty array of column names");
    if (features->size() > 1000)
        return makeError(ErrorCode::InvalidArgument, path + ".features: at most 1000 columns");
    for (const auto &f : *features) {
        if (!f.is_string())
            return makeError(ErrorCode::Parse, path + ".features: expected an array of column names");
        spec.features.push_back(f.get<std::string>());
    }
    auto lambda = json::optionalNumber(object, "lambda", path);
    auto model = json::optionalNumber(object, "epsilon_model", path);
    auto test = json::optionalNumber(object, "epsilon_test", path);
    auto tau = json::optionalNumber(object, "tau", path);
    for (const auto *field : {&lambda, &model, &test, &tau})
        if (!*field)
            return field->error();
    spec.lambda = lambda->value_or(0.01);
    spec.epsilonModel = model->value_or(2.0);
    spec.epsilonTest = test->value_or(0.5);
    spec.tau = tau->value_or(0.49);
    return {};
}

/// Prefixes a range error from the session's checks with the line's path.
Error atPath(const Error &e, const std::string &path)
{
    return makeError(e.code, path + "." + e.message);
}
} // namespace

bool isOdpMechanism(std::string_view mechanism)
{
    return session::odpMechanismFromName(mechanism).has_value();
}

Result<session::QueryRequest> readOdpRequest(const Json &object, const std::string &path,
                                             std::initializer_list<const char *> extraKeys)
{
    if (!object.is_object())
        return makeError(ErrorCode::Parse, path + ": expected a JSON object");
    PBX_TRY(mechanism, json::string(object, "mechanism", path));
    const std::optional<session::OdpMechanism> kind = session::odpMechanismFromName(mechanism);
    if (!kind)
        return makeError(
            ErrorCode::InvalidArgument,
            path + ".mechanism: '" + mechanism
                + "' is not an output-DP mechanism (expected svt, ptr-iqr, early-stop or recover)");
    const bool svt = *kind == session::OdpMechanism::Svt;
    const bool ptr = *kind == session::OdpMechanism::PtrIqr;
    const bool early = *kind == session::OdpMechanism::EarlyStop;
    PBX_RETURN_IF_ERROR(svt     ? refuseUnknownKeys(object, path, mechanism, kSvtKeys, extraKeys)
                        : ptr   ? refuseUnknownKeys(object, path, mechanism, kPtrKeys, extraKeys)
                        : early ? refuseUnknownKeys(object, path, mechanism, kEarlyStopKeys, extraKeys)
                                : refuseUnknownKeys(object, path, mechanism, kRecoverKeys, extraKeys));
    session::QueryRequest r;
    PBX_TRY(id, json::optionalString(object, "id", path, {}, session::maxRequestIdBytes));
    r.id = id;
    session::OdpRequestSpec spec;
    spec.mechanism = *kind;
    PBX_RETURN_IF_ERROR(svt     ? readSvt(object, path, spec.svt)
                        : ptr   ? readPtrIqr(object, path, spec.ptrIqr)
                        : early ? readEarlyStop(object, path, spec.earlyStop)
                                : readRecover(object, path, spec.recover));
    // The ranges of the new mechanisms are checked here too, so that a bad line is refused with
    // its path before anything runs (the session checks them again).
    if (ptr)
        if (auto g = session::ptrIqrRequestGuarantee(spec.ptrIqr); !g)
            return atPath(g.error(), path);
    if (early)
        if (auto g = session::earlyStopRequestGuarantee(spec.earlyStop); !g)
            return atPath(g.error(), path);
    r.spec = std::move(spec);
    return r;
}

void writeOdpRequest(const session::QueryRequest &request, Json &object)
{
    const auto &spec = *request.odp();
    object["id"] = request.id;
    object["mechanism"] = session::odpMechanismName(spec.mechanism);
    if (spec.mechanism == session::OdpMechanism::PtrIqr) {
        const auto &p = spec.ptrIqr;
        object["column"] = p.column;
        object["epsilon"] = p.epsilon;
        object["delta_f"] = p.failureProbability;
        if (p.width > 0.0)
            object["width"] = p.width;
        object["mode"] = p.binMode ? "bin" : "noisy";
        object["order"] = p.randomOrder ? "random" : "fixed";
        object["median_epsilon"] = p.medianEpsilon;
        object["spend_savings"] = p.spendSavings;
        return;
    }
    if (spec.mechanism == session::OdpMechanism::EarlyStop) {
        const auto &p = spec.earlyStop;
        object["column"] = p.column;
        object["step_epsilon"] = p.stepEpsilon;
        object["stops"] = p.stops;
        object["composition"] = p.composition;
        object["delta"] = p.delta;
        object["delta_split"] = p.proportionalSplit ? "proportional" : "equal";
        object["tolerance"] = p.tolerance;
        return;
    }
    if (spec.mechanism == session::OdpMechanism::Recover) {
        const auto &p = spec.recover;
        object["label_column"] = p.labelColumn;
        object["label_threshold"] = p.labelThreshold;
        object["features"] = p.features;
        object["lambda"] = p.lambda;
        object["epsilon_model"] = p.epsilonModel;
        object["epsilon_test"] = p.epsilonTest;
        object["tau"] = p.tau;
        return;
    }
    object["column"] = spec.svt.column;
    object["threshold"] = spec.svt.threshold;
    object["c"] = spec.svt.cutoff;
    object["epsilon"] = spec.svt.epsilon;
    object["svt_share"] = spec.svt.svtShare;
    object["sensitivity"] = spec.svt.sensitivity;
    if (spec.svt.epsilon1)
        object["epsilon1"] = *spec.svt.epsilon1;
    if (spec.svt.epsilon2)
        object["epsilon2"] = *spec.svt.epsilon2;
}

Json odpRecordToJson(const session::OdpRecord &r)
{
    Json cells = Json::array();
    for (const auto &c : r.guarantee.cells)
        cells.push_back({{"j", c.id}, {"epsilon", c.epsilon}});
    Json answers = Json::array();
    for (bool a : r.answers)
        answers.push_back(a);
    Json releases = Json::array();
    for (const auto &e : r.releases)
        releases.push_back({{"index", e.index}, {"label", e.label}, {"value", e.value}});
    Json out = {{"reservation", r.reservation},
                {"reserved_epsilon", r.reservedEpsilon},
                {"delta", r.guarantee.delta},
                {"cells", cells},
                {"cell", r.cell ? Json(*r.cell) : Json(nullptr)},
                {"settled_epsilon", r.settledEpsilon},
                {"epsilon1", r.epsilon1},
                {"epsilon2", r.epsilon2},
                {"answers", answers},
                {"releases", releases},
                {"release_scale", r.releaseScale}};
    if (r.ptrIqr) {
        const auto &o = *r.ptrIqr;
        out["ptr_iqr"] = {{"width", o.width},
                          {"threshold", o.threshold},
                          {"delta_f", o.failureProbability},
                          {"offsets", {o.offsets[0], o.offsets[1]}},
                          {"case", o.outcome},
                          {"iqr", o.iqr ? Json(*o.iqr) : Json(nullptr)},
                          {"median_epsilon", o.medianEpsilon},
                          {"median", o.median ? Json(*o.median) : Json(nullptr)}};
    }
    if (r.earlyStop)
        out["early_stop"] = {{"iterates", r.earlyStop->iterates},
                             {"estimate", r.earlyStop->estimate},
                             {"noise_scale", r.earlyStop->noiseScale}};
    if (r.recovery)
        out["recovery"] = {{"released", r.recovery->released},      {"theta", r.recovery->theta},
                           {"noisy_error", r.recovery->noisyError}, {"test_noise", r.recovery->testNoise},
                           {"train_rows", r.recovery->trainRows},   {"test_rows", r.recovery->testRows}};
    return out;
}

namespace {

Result<std::vector<double>> numberArray(const Json &o, const char *key, const std::string &path)
{
    const auto it = o.find(key);
    if (it == o.end() || !it->is_array())
        return makeError(ErrorCode::Parse, path + "." + key + ": expected an array of numbers");
    std::vector<double> out;
    out.reserve(it->size());
    for (const auto &v : *it) {
        if (!v.is_number() || !std::isfinite(v.get<double>()))
            return makeError(ErrorCode::Parse, path + "." + key + ": expected an array of finite numbers");
        out.push_back(v.get<double>());
    }
    return out;
}

Result<session::PtrIqrOutput> ptrIqrFromJson(const Json &o, const std::string &path)
{
    if (!o.is_object())
        return makeError(ErrorCode::Parse, path + ": expected an object");
    session::PtrIqrOutput out;
    auto width = json::number(o, "width", path);
    auto threshold = json::number(o, "threshold", path);
    auto deltaF = json::number(o, "delta_f", path);
    auto medianEpsilon = json::number(o, "median_epsilon", path);
    auto iqr = json::optionalNumber(o, "iqr", path);
    auto median = json::optionalNumber(o, "median", path);
    for (const auto *field : {&width, &threshold, &deltaF, &medianEpsilon})
        if (!*field)
            return field->error();
    if (!iqr)
        return iqr.error();
    if (!median)
        return median.error();
    PBX_TRY(outcome, json::unsignedInteger(o, "case", path));
    if (outcome < 1 || outcome > 3)
        return makeError(ErrorCode::Parse, path + ".case: expected 1, 2 or 3");
    PBX_TRY(offsets, numberArray(o, "offsets", path));
    if (offsets.size() != 2)
        return makeError(ErrorCode::Parse, path + ".offsets: expected two numbers");
    out.width = *width;
    out.threshold = *threshold;
    out.failureProbability = *deltaF;
    out.offsets[0] = (offsets)[0];
    out.offsets[1] = (offsets)[1];
    out.outcome = static_cast<int>(outcome);
    out.iqr = *iqr;
    out.medianEpsilon = *medianEpsilon;
    out.median = *median;
    return out;
}

Result<session::EarlyStopOutput> earlyStopFromJson(const Json &o, const std::string &path)
{
    if (!o.is_object())
        return makeError(ErrorCode::Parse, path + ": expected an object");
    session::EarlyStopOutput out;
    PBX_TRY(iterates, numberArray(o, "iterates", path));
    auto estimate = json::number(o, "estimate", path);
    auto scale = json::number(o, "noise_scale", path);
    for (const auto *field : {&estimate, &scale})
        if (!*field)
            return field->error();
    out.iterates = std::move(iterates);
    out.estimate = *estimate;
    out.noiseScale = *scale;
    return out;
}

Result<session::RecoveryOutput> recoveryFromJson(const Json &o, const std::string &path)
{
    if (!o.is_object())
        return makeError(ErrorCode::Parse, path + ": expected an object");
    session::RecoveryOutput out;
    PBX_TRY(released, json::optionalBool(o, "released", path));
    PBX_TRY(theta, numberArray(o, "theta", path));
    auto error = json::number(o, "noisy_error", path);
    auto noise = json::number(o, "test_noise", path);
    for (const auto *field : {&error, &noise})
        if (!*field)
            return field->error();
    auto train = json::unsignedInteger(o, "train_rows", path);
    auto test = json::unsignedInteger(o, "test_rows", path);
    for (const auto *field : {&train, &test})
        if (!*field)
            return field->error();
    out.released = released;
    out.theta = std::move(theta);
    out.noisyError = *error;
    out.testNoise = *noise;
    out.trainRows = static_cast<std::size_t>(*train);
    out.testRows = static_cast<std::size_t>(*test);
    return out;
}

} // namespace

Result<session::OdpRecord> odpRecordFromJson(const Json &o, const std::string &path)
{
    if (!o.is_object())
        return makeError(ErrorCode::Parse, path + ": expected an object");
    session::OdpRecord r;
    PBX_TRY(reservation, json::unsignedInteger(o, "reservation", path));
    if (reservation > 1u << 30)
        return makeError(ErrorCode::Parse, path + ".reservation: out of range");
    r.reservation = static_cast<int>(reservation);
    auto reserved = json::number(o, "reserved_epsilon", path);
    auto delta = json::number(o, "delta", path);
    auto settled = json::number(o, "settled_epsilon", path);
    auto epsilon1 = json::number(o, "epsilon1", path);
    auto epsilon2 = json::number(o, "epsilon2", path);
    auto scale = json::number(o, "release_scale", path);
    for (const auto *field : {&reserved, &delta, &settled, &epsilon1, &epsilon2, &scale})
        if (!*field)
            return field->error();
    r.reservedEpsilon = *reserved;
    r.guarantee.delta = *delta;
    r.settledEpsilon = *settled;
    r.epsilon1 = *epsilon1;
    r.epsilon2 = *epsilon2;
    r.releaseScale = *scale;
    const auto cells = o.find("cells");
    if (cells == o.end() || !cells->is_array())
        return makeError(ErrorCode::Parse, path + ".cells: expected an array");
    for (std::size_t k = 0; k < cells->size(); ++k) {
        const std::string cpath = path + ".cells[" + std::to_string(k) + "]";
        auto j = json::unsignedInteger((*cells)[k], "j", cpath);
        if (!j)
            return j.error();
        if (*j > 1000000u)
            return makeError(ErrorCode::Parse, cpath + ".j: out of range");
        PBX_TRY(epsilon, json::number((*cells)[k], "epsilon", cpath));
        r.guarantee.cells.push_back({static_cast<int>(*j), "j = " + std::to_string(*j), epsilon});
    }
    if (auto valid = r.guarantee.validate(); !valid)
        return makeError(ErrorCode::Parse, path + ": " + valid.error().message);
    if (const auto cell = o.find("cell"); cell != o.end() && !cell->is_null()) {
        PBX_TRY(j, json::unsignedInteger(o, "cell", path));
        if (j > 1000000u)
            return makeError(ErrorCode::Parse, path + ".cell: out of range");
        r.cell = static_cast<int>(j);
    }
    if (const auto answers = o.find("answers"); answers != o.end()) {
        if (!answers->is_array())
            return makeError(ErrorCode::Parse, path + ".answers: expected an array of booleans");
        for (const auto &a : *answers) {
            if (!a.is_boolean())
                return makeError(ErrorCode::Parse, path + ".answers: expected an array of booleans");
            r.answers.push_back(a.get<bool>());
        }
    }
    if (const auto releases = o.find("releases"); releases != o.end()) {
        if (!releases->is_array())
            return makeError(ErrorCode::Parse, path + ".releases: expected an array");
        for (std::size_t k = 0; k < releases->size(); ++k) {
            const Json &e = (*releases)[k];
            const std::string rpath = path + ".releases[" + std::to_string(k) + "]";
            PBX_TRY(index, json::unsignedInteger(e, "index", rpath));
            PBX_TRY(label, json::string(e, "label", rpath));
            PBX_TRY(value, json::number(e, "value", rpath));
            if (value != std::floor(value) || std::abs(value) > 9.0e18)
                return makeError(ErrorCode::Parse, rpath + ".value: expected a whole number");
            r.releases.push_back({static_cast<std::size_t>(index), label, static_cast<std::int64_t>(value)});
        }
    }
    if (const auto it = o.find("ptr_iqr"); it != o.end()) {
        PBX_TRY(out, ptrIqrFromJson(*it, path + ".ptr_iqr"));
        r.ptrIqr = std::move(out);
    }
    if (const auto it = o.find("early_stop"); it != o.end()) {
        PBX_TRY(out, earlyStopFromJson(*it, path + ".early_stop"));
        r.earlyStop = std::move(out);
    }
    if (const auto it = o.find("recovery"); it != o.end()) {
        PBX_TRY(out, recoveryFromJson(*it, path + ".recovery"));
        r.recovery = std::move(out);
    }
    return r;
}

} // namespace pbx::io
