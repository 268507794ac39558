// SPDX-License-Identifier: MIT
#include "core/lessons/lesson_growing.h"

#include "core/growing/bb_scheduler.h"
#include "core/growing/growing_lab.h"
#include "core/growing/growing_svt.h"
#include "core/lessons/lesson_values.h"
#include "core/simulation/growing_lab_run.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <vector>

namespace pbx::lessons {

namespace {

constexpr int kMaxEpoch = 40;
constexpr std::uint64_t kMaxTime = 1'000'000'000'000ULL;
const std::vector<std::string> kEpochFields
    = {"start", "end", "epsilon", "cumulative", "alpha", "staleness", "bound"};

std::vector<std::string> parts(const std::string &name)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    for (;;) {
        const std::size_t dot = name.find('.', start);
        out.push_back(name.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
        if (dot == std::string::npos)
            return out;
        start = dot + 1;
    }
}

std::optional<std::uint64_t> integer(const std::string &s)
{
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty())
        return std::nullopt;
    return v;
}

Result<double> staleness(const std::string &name, const std::string &order, const session::Session *s)
{
    if (!s)
        return lessonValueUnavailable(name, "needs a session (its table and seed)");
    const data::Table &table = s->table();
    if (!table.isPublic())
        return lessonValueUnavailable(name, "the simulation reads true answers: only public datasets");
    growing::GrowingLabConfig c;
    c.dataset = table.name();
    c.startSize = 1000;
    c.order = order == "sorted" ? "sorted:region == \"south\"" : "random";
    c.budget.kind = growing::BudgetKind::Pure;
    c.budget.epsilon = 1.0;
    c.schedule = growing::ScheduleKind::Geometric;
    c.gamma = 1.0;
    c.box.kind = growing::BlackBoxKind::LaplaceK;
    c.box.queries = 1;
    c.queries = {"region == \"south\""};
    c.beta = 0.05;
    c.repetitions = 100;
    auto doc = growing::runGrowingLab(c, &table, s->settings().seed.value_or(1), false);
    if (!doc)
        return lessonValueUnavailable(name, doc.error().message);
    const auto &medians = std::get<growing::SchedulerResult>(doc->body).monteCarlo->epochMedian;
    if (medians.empty())
        return lessonValueUnavailable(name, "the simulation has no epoch");
    return medians.back();
}

} // namespace

growing::SchedulerConfig growingWorkedPlan()
{
    growing::SchedulerConfig c;
    c.startSize = 1000;
    c.gamma = 1.0;
    c.budget.kind = growing::BudgetKind::Pure;
    c.budget.epsilon = 1.0;
    c.schedule = growing::ScheduleKind::Geometric;
    c.beta = 0.05;
    c.box.kind = growing::BlackBoxKind::LaplaceK;
    c.box.queries = 10;
    return c;
}

growing::NoiseUnit growingAtgUnit()
{
    return growing::NoiseUnit{1000, 0.002, 0.5};
}

bool isGrowingPlaceholder(const std::string &name)
{
    return name.starts_with("growing.");
}

Result<void> checkGrowingPlaceholder(const std::string &name, bool hasSession)
{
    const auto p = parts(name);
    const auto bad = [&](const std::string &why) { return makeError(ErrorCode::Parse, why); };
    if (name == "growing.budget" || name == "growing.optimal_gamma")
        return {};
    if (p.size() == 4 && p[1] == "epoch") {
        const auto i = integer(p[2]);
        if (!i || *i > kMaxEpoch)
            return bad("an epoch index from 0 to 40");
        if (std::find(kEpochFields.begin(), kEpochFields.end(), p[3]) == kEpochFields.end())
            return bad("unknown epoch field '" + p[3]
                       + "' (expected start, end, epsilon, cumulative, alpha, staleness or bound)");
        return {};
    }
    if (p.size() == 3 && p[1] == "staleness") {
        if (p[2] != "random" && p[2] != "sorted")
            return bad("expected growing.staleness.random or growing.staleness.sorted");
        if (!hasSession)
            return bad("the step has no session (set one in this or an earlier step)");
        return {};
    }
    if (p.size() == 4 && (p[1] == "atg" || p[1] == "naive")) {
        const auto s = integer(p[2]);
        const auto t = integer(p[3]);
        if (!s || !t || *s < 1000 || *s > *t || *t > kMaxTime)
            return bad("expected growing." + p[1] + ".S.T with integers 1000 <= S <= T <= 10^12");
        return {};
    }
    return bad("unknown growing placeholder (expected growing.epoch.I.F, growing.budget, "
               "growing.optimal_gamma, growing.staleness.O, growing.atg.S.T or growing.naive.S.T)");
}

Result<double> growingValue(const std::string &name, const session::Session *session)
{
    if (auto ok = checkGrowingPlaceholder(name, true); !ok)
        return lessonValueUnavailable(name, ok.error().message);
    const auto p = parts(name);
    if (name == "growing.budget")
        return growingWorkedPlan().budget.epsilon;
    if (name == "growing.optimal_gamma") {
        const auto plan = growingWorkedPlan();
        auto best = growing::optimalGamma(plan, plan.startSize);
        if (!best)
            return lessonValueUnavailable(name, best.error().message);
        return best->gamma;
    }
    if (p[1] == "epoch") {
        const std::uint64_t i = *integer(p[2]);
        const auto plan = growingWorkedPlan();
        auto epochs = growing::planEpochs(plan, plan.startSize << (i + 1));
        if (!epochs || epochs->size() <= i)
            return lessonValueUnavailable(name, epochs ? "no such epoch" : epochs.error().message);
        const growing::EpochPlan &e = (*epochs)[i];
        const std::string &f = p[3];
        if (f == "start")
            return double(e.start);
        if (f == "end")
            return double(e.last);
        if (f == "epsilon")
            return e.privacy.epsilon;
        if (f == "cumulative")
            return e.privacy.cumulative;
        if (f == "alpha")
            return e.alphaBlackBox;
        if (f == "staleness")
            return e.staleness;
        return e.bound;
    }
    if (p[1] == "staleness")
        return staleness(name, p[2], session);
    const std::uint64_t s = *integer(p[2]);
    const std::uint64_t t = *integer(p[3]);
    if (p[1] == "atg")
        return growing::atgLoss(growingAtgUnit(), s, t);
    return growing::naiveFractionScaleLoss(growingAtgUnit(), s, t);
}

bool growingIsPrivacyLoss(const std::string &name)
{
    const auto p = parts(name);
    if (p.size() >= 2 && (p[1] == "atg" || p[1] == "naive"))
        return true;
    return p.size() == 4 && p[1] == "epoch" && (p[3] == "epsilon" || p[3] == "cumulative");
}

} // namespace pbx::lessons
