// SPDX-License-Identifier: MIT
#include "core/lessons/lesson_json.h"

#include "core/accounting/comparison.h"
#include "core/accounting/ledger_json.h"
#include "core/io/request_json.h"
#include "core/lessons/lesson_values.h"
#include "core/util/try.h"

#include <algorithm>
#include <initializer_list>
#include <set>

namespace pbx::lessons {

using io::json::Json;

namespace {

constexpr const char *kFormat = "pbx-lesson";
/// Lessons are read from a user's folder: a limit keeps a runaway document from freezing the GUI.
constexpr std::size_t kMaxSteps = 100;
constexpr std::size_t kMaxRequests = 100;
constexpr std::int64_t kMaxRepeat = 1000;
/// The work of a step is its requests × repeat asks (each a release and an fsync'd journal
/// line), estimated when the lesson is read: a step asks at most this many (the shipped lessons
/// ask at most 40; 200 plain counts take well under a second), and going to a step replays the
/// steps since its session began, so a session's steps together ask at most kMaxAsksPerSession.
constexpr std::int64_t kMaxAsksPerStep = 200;
constexpr std::int64_t kMaxAsksPerSession = 1000;

Error at(const std::string &path, const std::string &problem)
{
    return makeError(ErrorCode::Parse, path + ": " + problem);
}

/// "a, b, c".
std::string joined(const std::vector<std::string> &names)
{
    std::string list;
    for (const auto &name : names)
        list += (list.empty() ? "" : ", ") + name;
    return list;
}

/// A plan's error ("events[2].sigma: …") under the plan's path.
Error prefixed(const std::string &path, const Error &e)
{
    const bool field = e.message.starts_with("events[") || e.message.starts_with("neighbours:");
    return makeError(e.code, path + (field ? "." : ": ") + e.message);
}

Result<void> onlyKeys(const Json &object, const std::string &path, std::initializer_list<const char *> keys)
{
    if (!object.is_object())
        return at(path, "expected a JSON object");
    for (const auto &item : object.items())
        if (std::none_of(keys.begin(), keys.end(), [&](const char *k) { return item.key() == k; }))
            return at(path, "unknown field '" + item.key() + "'");
    return {};
}

/// A required, non-empty string.
Result<std::string> text(const Json &object, const char *key, const std::string &path)
{
    PBX_TRY(value, io::json::string(object, key, path));
    if (value.empty())
        return at(path + "." + key, "must not be empty");
    return value;
}

Result<LessonSession> readSession(const Json &object, const std::string &path)
{
    PBX_RETURN_IF_ERROR(
        onlyKeys(object, path, {"dataset", "epsilon", "delta", "filter", "neighbours", "seed"}));
    LessonSession s;
    PBX_TRY(dataset, text(object, "dataset", path));
    s.dataset = dataset;
    PBX_TRY(epsilon, io::json::number(object, "epsilon", path));
    s.settings.epsilon = epsilon;
    PBX_TRY(delta, io::json::optionalNumber(object, "delta", path));
    s.settings.delta = delta.value_or(s.settings.delta);
    PBX_TRY(filter, io::json::optionalString(object, "filter", path, "zcdp"));
    auto kind = filters::parseFilterKind(filter);
    if (!kind)
        return at(path + ".filter", kind.error().message);
    s.settings.filter = *kind;
    PBX_TRY(neighbours, io::json::optionalString(object, "neighbours", path, "add-remove"));
    auto relation = data::parseNeighbouring(neighbours);
    if (!relation)
        return at(path + ".neighbours", relation.error().message);
    s.settings.neighbours = *relation;
    if (object.contains("seed")) {
        PBX_TRY(seed, io::json::unsignedInteger(object, "seed", path));
        s.settings.seed = seed;
    }
    if (auto valid = s.settings.validate(); !valid)
        return at(path, valid.error().message);
    return s;
}

Result<LessonComparison> readComparison(const Json &object, const std::string &path)
{
    PBX_RETURN_IF_ERROR(onlyKeys(object, path, {"plan", "delta", "strategies"}));
    LessonComparison c;
    if (auto plan = object.find("plan"); plan != object.end() && !plan->is_null()) {
        c.planJson = plan->dump();
        auto ledger = accounting::parseLedgerJson(c.planJson);
        if (!ledger)
            return prefixed(path + ".plan", ledger.error());
        if (ledger->events.empty())
            return at(path + ".plan.events", "a plan needs at least one event");
        c.plan = std::move(ledger).value();
    }
    PBX_TRY(delta, io::json::optionalNumber(object, "delta", path));
    c.delta = delta.value_or(c.delta);
    if (!(c.delta > 0.0 && c.delta < 1.0))
        return at(path + ".delta", "must be in (0, 1)");
    if (auto list = object.find("strategies"); list != object.end() && !list->is_null()) {
        if (!list->is_array())
            return at(path + ".strategies", "expected an array of strategy names");
        const auto known = accounting::allStrategyNames();
        for (std::size_t i = 0; i < list->size(); ++i) {
            const std::string itemPath = path + ".strategies[" + std::to_string(i) + "]";
            const Json &item = (*list)[i];
            if (!item.is_string()
                || std::find(known.begin(), known.end(), item.get<std::string>()) == known.end())
                return at(itemPath, "expected one of basic, advanced, optimal, zcdp, rdp, pld");
            c.strategies.push_back(item.get<std::string>());
        }
    }
    return c;
}

struct Scope
{
    bool hasSession = false;
    std::set<std::string> sessionIds; ///< ids asked since the session started
    std::int64_t asksInSession = 0;   ///< requests × repeat of the steps since the session started
};

/// setup.view and setup.tab into `step`.
Result<void> readView(const Json &setup, const std::string &setupPath, LessonStep &step)
{
    PBX_TRY(view, io::json::optionalString(setup, "view", setupPath, "main"));
    const auto &views = lessonViewNames();
    if (std::find(views.begin(), views.end(), view) == views.end())
        return at(setupPath + ".view", "unknown view '" + view + "' (expected " + joined(views) + ")");
    PBX_TRY(tab, io::json::optionalString(setup, "tab", setupPath, ""));
    if (!tab.empty()) {
        const auto &tabs = lessonTabNames(view);
        if (tabs.empty())
            return at(setupPath + ".tab", "the view '" + view + "' has no tabs");
        if (std::find(tabs.begin(), tabs.end(), tab) == tabs.end())
            return at(setupPath + ".tab",
                      "unknown tab '" + tab + "' of the view '" + view + "' (expected " + joined(tabs) + ")");
    }
    step.view = view;
    step.tab = tab;
    return {};
}

Result<LessonStep> readStep(const Json &object, const std::string &path, Scope &scope)
{
    PBX_RETURN_IF_ERROR(onlyKeys(object, path, {"title", "explanation", "setup", "question", "answer"}));
    LessonStep step;
    for (auto [key, field] : {std::pair{"title", &step.title}, std::pair{"explanation", &step.explanation},
                              std::pair{"question", &step.question}, std::pair{"answer", &step.answer}}) {
        PBX_TRY(value, text(object, key, path));
        *field = value;
    }
    PlaceholderContext context;
    if (auto setup = object.find("setup"); setup != object.end() && !setup->is_null()) {
        const std::string setupPath = path + ".setup";
        PBX_RETURN_IF_ERROR(
            onlyKeys(*setup, setupPath, {"session", "requests", "repeat", "comparison", "view", "tab"}));
        if (auto s = setup->find("session"); s != setup->end() && !s->is_null()) {
            PBX_TRY(session, readSession(*s, setupPath + ".session"));
            step.session = std::move(session);
            scope.hasSession = true;
            scope.sessionIds.clear();
            scope.asksInSession = 0;
        }
        if (auto list = setup->find("requests"); list != setup->end() && !list->is_null()) {
            const std::string listPath = setupPath + ".requests";
            if (!list->is_array())
                return at(listPath, "expected an array of requests");
            if (list->size() > kMaxRequests)
                return at(listPath, "more than " + std::to_string(kMaxRequests) + " requests");
            if (!list->empty() && !scope.hasSession)
                return at(listPath, "requests need a session: set setup.session in this or an earlier step");
            for (std::size_t i = 0; i < list->size(); ++i) {
                const std::string itemPath = listPath + "[" + std::to_string(i) + "]";
                PBX_TRY(request, io::readRequest((*list)[i], itemPath));
                if (request.id.empty())
                    return at(itemPath + ".id", "missing (a lesson names every request, for its answer)");
                if (context.stepIds.contains(request.id))
                    return at(itemPath + ".id", "'" + request.id + "' is used twice in this step");
                context.stepIds.insert(request.id);
                scope.sessionIds.insert(request.id);
                step.requests.push_back(std::move(request));
            }
        }
        if (setup->contains("repeat")) {
            PBX_TRY(repeat, io::json::unsignedInteger(*setup, "repeat", setupPath));
            if (repeat < 1 || repeat > static_cast<std::uint64_t>(kMaxRepeat))
                return at(setupPath + ".repeat", "must be 1 … " + std::to_string(kMaxRepeat));
            step.repeat = static_cast<int>(repeat);
        }
        const auto asks = static_cast<std::int64_t>(step.requests.size()) * step.repeat;
        if (asks > kMaxAsksPerStep)
            return at(setupPath, std::to_string(step.requests.size())
                                     + (step.requests.size() == 1 ? " request" : " requests") + " × repeat "
                                     + std::to_string(step.repeat) + " = " + std::to_string(asks)
                                     + " asks; a step asks at most " + std::to_string(kMaxAsksPerStep));
        scope.asksInSession += asks;
        if (scope.asksInSession > kMaxAsksPerSession)
            return at(setupPath, "the steps since the last setup.session ask "
                                     + std::to_string(scope.asksInSession)
                                     + " times; going to a step replays them, so together they ask at most "
                                     + std::to_string(kMaxAsksPerSession));
        if (auto c = setup->find("comparison"); c != setup->end() && !c->is_null()) {
            PBX_TRY(comparison, readComparison(*c, setupPath + ".comparison"));
            if (!comparison.plan && !scope.hasSession)
                return at(
                    setupPath + ".comparison.plan",
                    "missing (without a plan the session's ledger is compared, and there is no session)");
            step.comparison = std::move(comparison);
        }
        PBX_RETURN_IF_ERROR(readView(*setup, setupPath, step));
    }
    context.requestIds = scope.sessionIds;
    context.hasSession = scope.hasSession;
    context.hasComparison = step.comparison.has_value();
    context.hasPlan = step.comparison && step.comparison->plan;
    PBX_RETURN_IF_ERROR(checkAnswerTemplate(step.answer, context, path + ".answer"));
    return step;
}

} // namespace

const std::vector<std::string> &lessonTabNames(const std::string &view)
{
    static const std::vector<std::string> none;
    static const std::vector<std::string> comparison = {"curve", "profile", "rdp", "pld"};
    static const std::vector<std::string> strategies
        = {"bmi", "stability", "ranges", "inference", "quantiles", "selection"};
    static const std::vector<std::string> outputDp
        = {"cells",          "filter-path",     "sparse-vector", "propose-test-release",
           "early-stopping", "budget-recovery", "crossover"};
    static const std::vector<std::string> growing = {"timeline", "pmwg", "atg"};
    if (view == "comparison")
        return comparison;
    if (view == "lab:strategies")
        return strategies;
    if (view == "lab:output-dp")
        return outputDp;
    if (view == "lab:growing")
        return growing;
    return none;
}

const std::vector<std::string> &lessonViewNames()
{
    static const std::vector<std::string> names
        = {"main",           "comparison",    "noise-reduction", "privacy-risk", "lab:relative-error",
           "lab:strategies", "lab:output-dp", "lab:growing"};
    return names;
}

Result<Lesson> readLesson(const Json &document)
{
    if (auto ok = onlyKeys(document, "lesson", {"format", "version", "id", "title", "summary", "steps"}); !ok)
        return makeError(ok.error().code, ok.error().message.substr(std::string("lesson: ").size()));
    PBX_TRY(format, io::json::string(document, "format", ""));
    if (format != kFormat)
        return at("format", "expected \"pbx-lesson\", not \"" + format + "\"");
    PBX_TRY(version, io::json::unsignedInteger(document, "version", ""));
    if (version != Lesson::formatVersion)
        return at("version", "this program reads version 1 lessons, not version " + std::to_string(version));
    Lesson lesson;
    for (auto [key, field] : {std::pair{"id", &lesson.id}, std::pair{"title", &lesson.title},
                              std::pair{"summary", &lesson.summary}}) {
        auto value = text(document, key, "");
        if (!value)
            return makeError(value.error().code, value.error().message.front() == '.'
                                                     ? value.error().message.substr(1)
                                                     : value.error().message);
        *field = *value;
    }
    auto steps = document.find("steps");
    if (steps == document.end() || !steps->is_array() || steps->empty())
        return at("steps", "missing (an array of at least one step is required)");
    if (steps->size() > kMaxSteps)
        return at("steps", "more than " + std::to_string(kMaxSteps) + " steps");
    Scope scope;
    for (std::size_t i = 0; i < steps->size(); ++i) {
        PBX_TRY(step, readStep((*steps)[i], "steps[" + std::to_string(i) + "]", scope));
        lesson.steps.push_back(std::move(step));
    }
    return lesson;
}

Result<Lesson> parseLesson(std::string_view textIn, const std::string &what)
{
    PBX_TRY(document, io::json::parse(textIn, what));
    auto lesson = readLesson(document);
    if (!lesson)
        return makeError(lesson.error().code, what + ": " + lesson.error().message);
    return lesson;
}

Json lessonToJson(const Lesson &lesson)
{
    Json doc;
    doc["format"] = kFormat;
    doc["version"] = Lesson::formatVersion;
    doc["id"] = lesson.id;
    doc["title"] = lesson.title;
    doc["summary"] = lesson.summary;
    Json steps = Json::array();
    for (const auto &step : lesson.steps) {
        Json s;
        s["title"] = step.title;
        s["explanation"] = step.explanation;
        Json setup = Json::object();
        if (step.session) {
            const auto &settings = step.session->settings;
            Json session = {{"dataset", step.session->dataset},
                            {"epsilon", settings.epsilon},
                            {"delta", settings.delta},
                            {"filter", std::string(filters::filterKindName(settings.filter))},
                            {"neighbours", std::string(data::neighbouringName(settings.neighbours))}};
            if (settings.seed)
                session["seed"] = *settings.seed;
            setup["session"] = session;
        }
        if (!step.requests.empty()) {
            Json requests = Json::array();
            for (const auto &request : step.requests) {
                Json r;
                io::writeRequest(request, r);
                requests.push_back(r);
            }
            setup["requests"] = requests;
        }
        if (step.repeat != 1)
            setup["repeat"] = step.repeat;
        if (step.comparison) {
            Json c;
            if (step.comparison->plan)
                c["plan"] = Json::parse(step.comparison->planJson);
            c["delta"] = step.comparison->delta;
            if (!step.comparison->strategies.empty())
                c["strategies"] = step.comparison->strategies;
            setup["comparison"] = c;
        }
        setup["view"] = step.view;
        if (!step.tab.empty())
            setup["tab"] = step.tab;
        s["setup"] = setup;
        s["question"] = step.question;
        s["answer"] = step.answer;
        steps.push_back(s);
    }
    doc["steps"] = steps;
    return doc;
}

std::string writeLesson(const Lesson &lesson)
{
    return lessonToJson(lesson).dump(2) + "\n";
}

} // namespace pbx::lessons
