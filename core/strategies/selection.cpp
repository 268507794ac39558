// SPDX-License-Identifier: MIT
#include "core/strategies/selection.h"

#include "core/math/log_space.h"
#include "core/mechanisms/discrete_samplers.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace pbx::strategies {

namespace {

constexpr double kEtaDenominator = 4294967296.0; // 2^32
constexpr std::uint64_t kEtaDenominatorInt = 1ULL << 32;
constexpr std::uint64_t kMaxBernoulliNumerator = 1ULL << 62; // sampleBernoulliExp's limit

Error selectionError(const std::string &what)
{
    return makeError(ErrorCode::InvalidArgument, what);
}

/// Bernoulli(exp(−η·gap)) exactly, η = num/2^32: the product of independent Bernoulli(exp(−η·g_i))
/// over chunks g_i of the gap small enough for the sampler's 2^62 limit (stops at the first 0).
Result<bool> acceptGap(std::uint64_t num, std::uint64_t gap, mechanisms::RandomBits &bits)
{
    if (gap == 0 || num == 0)
        return true;
    const std::uint64_t chunk = std::max<std::uint64_t>(1, kMaxBernoulliNumerator / num);
    while (gap > 0) {
        const std::uint64_t g = std::min(gap, chunk);
        PBX_TRY(ok, mechanisms::sampleBernoulliExp(bits, num * g, kEtaDenominatorInt));
        if (!ok)
            return false;
        gap -= g;
    }
    return true;
}

/// One exponential-mechanism pick among `alive` candidates (rejection from the uniform proposal).
Result<std::size_t> pickExponential(const std::vector<std::int64_t> &counts,
                                    const std::vector<std::size_t> &alive, std::uint64_t num,
                                    mechanisms::RandomBits &bits)
{
    std::int64_t best = counts[alive.front()];
    for (const std::size_t j : alive)
        best = std::max(best, counts[j]);
    for (;;) {
        PBX_TRY(at, bits.uniformBelow(alive.size()));
        const std::size_t j = alive[at];
        PBX_TRY(ok, acceptGap(num, static_cast<std::uint64_t>(best - counts[j]), bits));
        if (ok)
            return j;
    }
}

/// One permute-and-flip pick: candidates in a uniformly random order, each kept with probability
/// exp(−η(c_max − c_j)); a candidate with the largest count is always kept, so one pass ends it.
Result<std::size_t> pickPermuteAndFlip(const std::vector<std::int64_t> &counts,
                                       std::vector<std::size_t> order, std::uint64_t num,
                                       mechanisms::RandomBits &bits)
{
    std::int64_t best = counts[order.front()];
    for (const std::size_t j : order)
        best = std::max(best, counts[j]);
    for (std::size_t i = order.size(); i > 1; --i) { // Fisher–Yates
        PBX_TRY(r, bits.uniformBelow(i));
        std::swap(order[i - 1], order[r]);
    }
    for (const std::size_t j : order) {
        PBX_TRY(ok, acceptGap(num, static_cast<std::uint64_t>(best - counts[j]), bits));
        if (ok)
            return j;
    }
    return order.back(); // not reached: a largest count is accepted with probability 1
}

/// Gauss–Legendre nodes and weights on [−1, 1], 16 points.
constexpr double kNodes[8] = {0.0950125098376374, 0.2816035507792589, 0.4580167776572274, 0.6178762444026438,
                              0.7554044083550030, 0.8656312023878318, 0.9445750230732326, 0.9894009349916499};
constexpr double kWeights[8]
    = {0.1894506104550685, 0.1826034150449236, 0.1691565193950025, 0.1495959888165767,
       0.1246289712555339, 0.0951585116824928, 0.0622535239386479, 0.0271524594117541};

/// ∫_a^b f by 16-point Gauss–Legendre.
template<typename F>
double gaussLegendre(double a, double b, const F &f)
{
    const double mid = 0.5 * (a + b), half = 0.5 * (b - a);
    double sum = 0.0;
    for (int i = 0; i < 8; ++i)
        sum += kWeights[i] * (f(mid - half * kNodes[i]) + f(mid + half * kNodes[i]));
    return sum * half;
}

/// P(candidate j wins) under report-noisy-max with Exponential(1/η) noise (see the header).
double noisyMaxProbability(const std::vector<std::int64_t> &counts, std::size_t j, double eta)
{
    double logUpper = 0.0; // ln u_j
    for (std::size_t i = 0; i < counts.size(); ++i)
        if (i != j && counts[i] > counts[j])
            logUpper = std::min(logUpper, -eta * static_cast<double>(counts[i] - counts[j]));
    const double upper = std::exp(logUpper);
    if (upper == 0.0)
        return 0.0;
    auto integrand = [&](double u) {
        double logProduct = 0.0;
        for (std::size_t i = 0; i < counts.size(); ++i)
            if (i != j) {
                const double w = u * std::exp(eta * static_cast<double>(counts[i] - counts[j]));
                if (w >= 1.0)
                    return 0.0;
                logProduct += std::log1p(-w);
            }
        return std::exp(logProduct);
    };
    // Geometric panels towards 0, where the integrand can fall fast (many large weights).
    double total = 0.0, hi = upper;
    for (int p = 0; p < 48; ++p) {
        const double lo = hi / 2.0;
        total += gaussLegendre(lo, hi, integrand);
        hi = lo;
    }
    return total + gaussLegendre(0.0, hi, integrand);
}

} // namespace

std::string_view selectionMechanismName(SelectionMechanism mechanism)
{
    return mechanism == SelectionMechanism::Exponential ? "exponential" : "report-noisy-max";
}

std::optional<SelectionMechanism> parseSelectionMechanism(std::string_view text)
{
    for (const auto m : {SelectionMechanism::Exponential, SelectionMechanism::ReportNoisyMax})
        if (selectionMechanismName(m) == text)
            return m;
    return std::nullopt;
}

double selectionEta(double epsilon, data::Neighbouring neighbours)
{
    return neighbours == data::Neighbouring::AddRemove ? epsilon : epsilon / 2.0;
}

double selectionGapBound(SelectionMechanism mechanism, double eta, double beta, std::size_t candidates,
                         std::size_t picks)
{
    const double losers = mechanism == SelectionMechanism::Exponential
                              ? static_cast<double>(candidates)
                              : std::max(1.0, static_cast<double>(candidates) - 1.0);
    return std::log(losers * static_cast<double>(picks) / beta) / eta;
}

double selectionEpsilonFor(SelectionMechanism mechanism, double gap, double beta, std::size_t candidates,
                           std::size_t picks, data::Neighbouring neighbours)
{
    const double eta = selectionGapBound(mechanism, 1.0, beta, candidates, picks) / gap;
    const double epsilon = neighbours == data::Neighbouring::AddRemove ? eta : 2.0 * eta;
    return epsilon * (1.0 + 1e-9);
}

Result<std::uint64_t> selectionEtaNumerator(double eta)
{
    if (!(eta >= 1.0 / kEtaDenominator))
        return selectionError("epsilon: below 2^-32 per pick, too small for the exact selection sampler");
    if (!(eta <= 1048576.0))
        return selectionError("epsilon: above 2^20 per pick");
    return static_cast<std::uint64_t>(std::floor(eta * kEtaDenominator));
}

double selectionEtaOf(std::uint64_t numerator)
{
    return static_cast<double>(numerator) / kEtaDenominator;
}

double selectionEpsilonOnGrid(double epsilon, data::Neighbouring neighbours)
{
    const double eta = std::ceil(selectionEta(epsilon, neighbours) * kEtaDenominator) / kEtaDenominator;
    return neighbours == data::Neighbouring::AddRemove ? eta : 2.0 * eta; // exact: η·2^32 is an integer
}

Result<std::vector<std::size_t>> sampleSelection(SelectionMechanism mechanism,
                                                 const std::vector<std::int64_t> &counts,
                                                 std::uint64_t etaNumerator, std::size_t picks,
                                                 mechanisms::RandomBits &bits)
{
    if (counts.empty() || counts.size() > kMaxSelectionCandidates)
        return selectionError("categories: a selection needs 1 to 65,536 candidates");
    if (picks < 1 || picks > counts.size())
        return selectionError("k: between 1 and the number of candidates");
    if (std::any_of(counts.begin(), counts.end(), [](std::int64_t c) { return c < 0; }))
        return selectionError("counts: must be >= 0");
    std::vector<std::size_t> alive(counts.size());
    for (std::size_t j = 0; j < alive.size(); ++j)
        alive[j] = j;
    std::vector<std::size_t> out;
    while (out.size() < picks) {
        PBX_TRY(j, mechanism == SelectionMechanism::Exponential
                       ? pickExponential(counts, alive, etaNumerator, bits)
                       : pickPermuteAndFlip(counts, alive, etaNumerator, bits));
        out.push_back(j);
        alive.erase(std::find(alive.begin(), alive.end(), j));
    }
    return out;
}

Result<std::vector<double>> selectionProbabilities(SelectionMechanism mechanism,
                                                   const std::vector<std::int64_t> &counts, double eta)
{
    if (counts.empty() || !(eta > 0.0) || !std::isfinite(eta))
        return selectionError("selection probabilities: need candidates and eta > 0");
    std::vector<double> p(counts.size());
    if (mechanism == SelectionMechanism::Exponential) {
        double logTotal = math::kNegInf;
        for (const std::int64_t c : counts)
            logTotal = math::logAdd(logTotal, eta * static_cast<double>(c));
        for (std::size_t j = 0; j < counts.size(); ++j)
            p[j] = std::exp(eta * static_cast<double>(counts[j]) - logTotal);
        return p;
    }
    if (counts.size() > 2000)
        return selectionError(
            "selection probabilities: report-noisy-max is evaluated for at most 2,000 candidates");
    for (std::size_t j = 0; j < counts.size(); ++j)
        p[j] = noisyMaxProbability(counts, j, eta);
    return p;
}

} // namespace pbx::strategies
